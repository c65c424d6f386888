import { useState } from 'preact/hooks';
import { get, post } from '../api';
import { Alert, formatDate, Markdown, useLoad } from '../ui';
import type { TicketComment } from './types';

/**
 * A ticket's thread and the reply box (public reply or internal note), in the ticket and in its
 * conversation. Through the same function as POST /v1/tickets/{id}/comments: a public reply reaches
 * the customer's open widget at once, else their mail 10 s later.
 */
export function TicketReplies({ workspaceId, ticketId, requester, headingLevel = 3 }: { workspaceId: number; ticketId: number; requester: string; headingLevel?: 2 | 3 }) {
  const url = `/agent/workspaces/${workspaceId}/tickets/${ticketId}/comments`;
  const comments = useLoad(() => get<{ comments: TicketComment[] }>(url), [url]);
  const [body, setBody] = useState('');
  const [visibility, setVisibility] = useState<'public' | 'internal'>('public');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const send = async (e: Event) => {
    e.preventDefault();
    if (!body.trim() || busy) return;
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const comment = await post<TicketComment>(url, { body, public: visibility === 'public' });
      comments.setData({ comments: [...(comments.data?.comments ?? []), comment] });
      setBody('');
      setDone(comment.public ? `Reply sent to ${requester}.` : 'Internal note added.');
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="ticket-replies" aria-labelledby={`replies-${ticketId}`}>
      <Heading id={`replies-${ticketId}`}>Replies</Heading>
      <Alert error={comments.error} />
      {comments.data && comments.data.comments.length === 0 && <p class="hint">No replies yet.</p>}
      {comments.data && comments.data.comments.length > 0 && (
        <ol class="thread replies">
          {comments.data.comments.map((c) => (
            <li key={c.id} class={c.public ? `reply from-${c.author}` : 'reply note'}>
              <p class="who">
                <strong>{c.author === 'requester' ? `Customer (${requester})` : 'Team'}</strong>
                {!c.public && <span class="badge warn">Internal note</span>} <span class="hint">{formatDate(c.createdAt, { time: true })}</span>
              </p>
              {c.author === 'requester' ? <p class="plain">{c.body}</p> : <Markdown text={c.body} />}
            </li>
          ))}
        </ol>
      )}
      <form class="reply-box" onSubmit={send}>
        <fieldset class="reply-kind">
          <legend class="visually-hidden">Kind of reply</legend>
          <label>
            <input type="radio" name={`kind-${ticketId}`} checked={visibility === 'public'} onChange={() => setVisibility('public')} /> Public reply
          </label>
          <label>
            <input type="radio" name={`kind-${ticketId}`} checked={visibility === 'internal'} onChange={() => setVisibility('internal')} /> Internal note
          </label>
        </fieldset>
        <label for={`reply-body-${ticketId}`}>{visibility === 'public' ? `Reply to ${requester}` : 'Internal note (the customer never sees it)'}</label>
        <textarea id={`reply-body-${ticketId}`} rows={4} maxLength={20000} value={body} onInput={(e) => setBody(e.currentTarget.value)} />
        <p class="hint">
          {visibility === 'public' ? 'Markdown. Shown in the customer\'s open widget at once; mailed to them if it is closed.' : 'Markdown. Only your team sees it.'}
        </p>
        <Alert error={error} />
        <button type="submit" class="primary" disabled={busy || !body.trim()}>
          {visibility === 'public' ? 'Send reply' : 'Add note'}
        </button>
        {done && <p role="status">{done}</p>}
      </form>
    </section>
  );
}

import { useState } from 'preact/hooks';
import { ApiError, get, post } from '../api';
import { Alert, formatDate, Markdown, PageTitle, useLoad } from '../ui';

interface Thread {
  ticket: { id: number; subject: string; status: 'open' | 'pending' | 'solved' | 'closed' };
  team: string;
  entries: { from: 'customer' | 'agent' | 'team'; body: string; at: string }[];
  rated: boolean;
}

/**
 * `/reply/trl_…`, the link in a team's reply mail: the customer's conversation with the agent and
 * the team, without an account (the link is the proof, 30 days). They answer here (the ticket opens
 * again) and, once it is solved, say how we did. Text is rendered as elements, never as HTML.
 */
export function ReplyPage({ token }: { token: string }) {
  const url = `/v1/replies/${encodeURIComponent(token)}`;
  const thread = useLoad(() => get<Thread>(url), [url]);
  const [body, setBody] = useState('');
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const t = thread.data;
  if (thread.error instanceof ApiError && thread.error.status === 404) {
    return (
      <main class="narrow">
        <PageTitle>This link does not open a conversation</PageTitle>
        <p role="alert">{thread.error.message}</p>
        <p>To reach the team again, answer on the site where you asked, or reply from the team's latest mail.</p>
      </main>
    );
  }
  const answer = async (e: Event) => {
    e.preventDefault();
    if (!body.trim() || busy) return;
    setBusy(true);
    setError(null);
    try {
      await post(`${url}/comments`, { body });
      setBody('');
      setSent(true);
      thread.setData(await get<Thread>(url));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="narrow reply-page">
      <Alert error={thread.error} />
      {!t && !thread.error && <p>Loading…</p>}
      {t && (
        <>
          <PageTitle>{`#${t.ticket.id} ${t.ticket.subject}`}</PageTitle>
          <p class="lead">
            Your conversation with the {t.team} team. Status: <span class={`badge status-${t.ticket.status}`}>{t.ticket.status}</span>
          </p>
          <ol class="reply-thread" aria-label="Conversation">
            {t.entries.map((e, i) => (
              <li key={i} class={`reply-entry from-${e.from}`}>
                <p class="who">
                  <strong>{e.from === 'customer' ? 'You' : e.from === 'agent' ? 'Assistant' : t.team}</strong> <span class="hint">{formatDate(e.at, { time: true })}</span>
                </p>
                {e.from === 'customer' ? <p class="plain">{e.body}</p> : <Markdown text={e.body} />}
              </li>
            ))}
          </ol>
          {(t.ticket.status === 'solved' || t.ticket.status === 'closed') && !t.rated && (
            <RatingForm onRate={async (score, comment) => {
              await post(`${url}/rating`, { score, ...(comment ? { comment } : {}) });
              thread.setData({ ...t, rated: true });
            }} />
          )}
          {t.rated && <p role="status">Thank you for rating our help.</p>}
          <form class="panel" onSubmit={answer}>
            <label for="reply-answer">Your answer</label>
            <textarea id="reply-answer" rows={4} maxLength={4000} value={body} onInput={(e) => setBody(e.currentTarget.value)} />
            <Alert error={error} />
            <button type="submit" class="primary" disabled={busy || !body.trim()}>
              Send to the team
            </button>
            {sent && <p role="status">Sent: the team sees your answer on the same request.</p>}
          </form>
        </>
      )}
    </main>
  );
}

/** "How did we do?": 1-5 and an optional comment, once (the widget asks the same in its own DOM). */
export function RatingForm({ onRate }: { onRate: (score: number, comment: string) => Promise<void> }) {
  const [score, setScore] = useState<number | null>(null);
  const [comment, setComment] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      class="panel rating"
      onSubmit={async (e) => {
        e.preventDefault();
        if (score === null || busy) return;
        setBusy(true);
        setError(null);
        try {
          await onRate(score, comment.trim());
        } catch (err) {
          setError(err);
        } finally {
          setBusy(false);
        }
      }}
    >
      <fieldset>
        <legend>How did we do?</legend>
        {[1, 2, 3, 4, 5].map((n) => (
          <label key={n} class="rating-choice">
            <input type="radio" name="score" value={n} checked={score === n} onChange={() => setScore(n)} /> {n}
            {n === 1 ? ' (poor)' : n === 5 ? ' (great)' : ''}
          </label>
        ))}
      </fieldset>
      <label for="rating-comment">Comment (optional)</label>
      <textarea id="rating-comment" rows={2} maxLength={2000} value={comment} onInput={(e) => setComment(e.currentTarget.value)} />
      <Alert error={error} />
      <button type="submit" class="primary" disabled={busy || score === null}>
        Send rating
      </button>
    </form>
  );
}

import { useState } from 'preact/hooks';
import { get } from '../api';
import { link } from '../router';
import { MessagesSquare } from 'lucide';
import { Alert, EmptyState, formatDate, fromDateTimeInput, Pager, Table, useLoad } from '../ui';
import type { Agent, Conversation, ConversationSummary, Learning, SectionProps, Ticket } from './types';
import { TicketReplies } from './ticket-replies';
import { AnswerView } from './try';
import { ConfirmedAnswers } from './confirmed';
import { learningText, TurnVerdict } from './verdict';

/** A date input's day ("2026-12-06") as the instant it starts in the shown time zone. */
const dayStart = (day: string) => fromDateTimeInput(`${day}T00:00`) ?? `${day}T00:00:00Z`;

/** Why a turn needed a human, in words; the code stays in the tooltip (it is what the API and filters use). */
export const REASONS: Record<string, string> = {
  no_knowledge: 'The knowledge did not answer it closely enough',
  unclear_match: 'Its words and its meaning pointed to different articles',
  not_covered: 'The articles found did not cover the question',
  human_requested: 'The customer asked for a person',
  account_action: 'It needs staff to act on the account',
  handoff_topic: 'It names one of the agent\'s hand-off topics',
  staff_handoff: 'Staff said a message like this one goes to a person',
  attachment_unreadable: 'The attachments could not be read',
  earlier_turn: 'An earlier message of this conversation already needed a human',
};

export function reasonText(code: string) {
  return REASONS[code] ?? code.replace(/_/g, ' ');
}

function Channels({ channels }: { channels: string[] }) {
  if (channels.length === 0) return <span class="hint" title="No turn of this conversation named a channel">none</span>;
  return (
    <>
      {channels.map((ch) => (
        <span key={ch} class="badge channel">
          {ch}
        </span>
      ))}
    </>
  );
}

/** Every answer-API call is a conversation: filter them, open one to read its turns. */
export function ConversationsPage({ workspace, base }: SectionProps) {
  const agents = useLoad(() => get<{ agents: Agent[] }>(`/agent/workspaces/${workspace.id}/agents`).then((r) => r.agents), [workspace.id]);
  const [filters, setFilters] = useState({ agentId: '', channel: '', needsHuman: '', confidence: '', from: '', to: '' });
  const [cursor, setCursor] = useState<string | null>(null);
  const params = new URLSearchParams({ limit: '50' });
  for (const [k, v] of Object.entries(filters)) {
    if (!v) continue;
    params.set(k, k === 'from' || k === 'to' ? dayStart(v) : v);
  }
  // "To" includes its whole day: up to the next day's midnight, in the person's time zone as the dates shown are.
  if (filters.to) params.set('to', dayStart(new Date(Date.parse(`${filters.to}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)));
  if (cursor) params.set('cursor', cursor);
  const list = useLoad(
    () => get<{ conversations: ConversationSummary[]; nextCursor: string | null }>(`/agent/workspaces/${workspace.id}/conversations?${params}`),
    [workspace.id, params.toString()],
  );
  const set = (key: keyof typeof filters) => (e: Event) => {
    setCursor(null);
    setFilters({ ...filters, [key]: (e.currentTarget as HTMLInputElement).value });
  };
  const agentName = new Map((agents.data ?? []).map((a) => [a.id, a.name]));
  const learning = useLoad(() => get<Learning>(`/agent/workspaces/${workspace.id}/learning`), [workspace.id]);

  return (
    <section aria-labelledby="conv-heading">
      <h2 id="conv-heading">Conversations</h2>
      {learning.data && (
        <p class="hint" data-testid="learning">
          {learningText(learning.data)} Open a conversation to say whether an answer was right.
        </p>
      )}
      {agents.data && <ConfirmedAnswers workspaceId={workspace.id} agents={agents.data} />}
      <form class="row filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Agent
          <select value={filters.agentId} onChange={set('agentId')}>
            <option value="">All</option>
            {(agents.data ?? []).map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Channel
          <input value={filters.channel} onChange={set('channel')} placeholder="any" />
        </label>
        <label>
          Needs a human
          <select value={filters.needsHuman} onChange={set('needsHuman')}>
            <option value="">Any</option>
            <option value="true">Yes</option>
            <option value="false">No</option>
          </select>
        </label>
        <label>
          Confidence
          <select value={filters.confidence} onChange={set('confidence')}>
            <option value="">Any</option>
            <option value="high">high</option>
            <option value="medium">medium</option>
            <option value="low">low</option>
          </select>
        </label>
        <label>
          From
          <input type="date" value={filters.from} onChange={set('from')} />
        </label>
        <label>
          To
          <input type="date" value={filters.to} onChange={set('to')} />
        </label>
      </form>
      <Alert error={list.error} />
      <Table
        columns={['Conversation', 'Agent', 'Channel', 'Turns', 'Status', 'Last active']}
        rows={list.data?.conversations}
        empty={
          Object.values(filters).some(Boolean) ? (
            'No conversations match.'
          ) : (
            <EmptyState icon={MessagesSquare} title="No conversations yet." testId="empty-conversations">
              Each question your customers send to <code>POST /v1/answer</code> starts one. Ask the agent something in “Try it” to see the first.
            </EmptyState>
          )
        }
        row={(c) => (
          <tr key={c.id}>
            <th scope="row">
              <a href={`${base}/conversations/${c.id}`} onClick={link(`${base}/conversations/${c.id}`)}>
                {shorten(c.firstQuestion ?? c.lastTurn?.question ?? 'No message yet', 90)}
              </a>
              {c.turnCount > 1 && c.lastTurn && <div class="hint">Last: {shorten(c.lastTurn.question, 90)}</div>}
            </th>
            <td>{agentName.get(c.agentId) ?? c.agentId}</td>
            <td class="channels">
              <Channels channels={c.channels ?? (c.lastTurn?.channel ? [c.lastTurn.channel] : [])} />
            </td>
            <td>{c.turnCount}</td>
            <td>
              {c.needsHuman ? <span class="badge warn">Needs a human</span> : <span class="badge ok">Answered</span>}
              {c.lastTurn && <span class={`badge confidence-${c.lastTurn.confidence}`}>{c.lastTurn.confidence}</span>}
            </td>
            <td>{formatDate(c.updatedAt, { time: true })}</td>
          </tr>
        )}
      />
      <Pager cursor={cursor} next={list.data?.nextCursor} onPage={setCursor} />
    </section>
  );
}

export function ConversationPage({ workspace, base, conversationId }: SectionProps & { conversationId: string }) {
  return (
    <section aria-labelledby="one-conv">
      <p>
        <a href={`${base}/conversations`} onClick={link(`${base}/conversations`)}>
          ← Conversations
        </a>
      </p>
      <ConversationThread workspaceId={workspace.id} base={base} conversationId={conversationId} headingId="one-conv" />
      <LinkedTicket workspaceId={workspace.id} base={base} conversationId={conversationId} />
    </section>
  );
}

/** A conversation handed to a person: its ticket, with the thread and the reply box. */
function LinkedTicket({ workspaceId, base, conversationId }: { workspaceId: number; base: string; conversationId: string }) {
  const tickets = useLoad(
    () => get<{ tickets: Ticket[] }>(`/agent/workspaces/${workspaceId}/tickets?limit=1&conversationId=${encodeURIComponent(conversationId)}`),
    [workspaceId, conversationId],
  );
  const t = tickets.data?.tickets[0];
  if (!t) return <Alert error={tickets.error} />;
  return (
    <>
      <h3>
        Handed to a person:{' '}
        <a href={`${base}/tickets/${t.id}`} onClick={link(`${base}/tickets/${t.id}`)}>
          ticket #{t.id}
        </a>{' '}
        <span class={`badge status-${t.status}`}>{t.status}</span>
      </h3>
      <TicketReplies workspaceId={workspaceId} ticketId={t.id} requester={t.requester.email} />
    </>
  );
}

/** A conversation's turns with their sources and why a human was needed; also shown inside a ticket. */
export function ConversationThread({ workspaceId, base, conversationId, headingId, level = 2 }: { workspaceId: number; base: string; conversationId: string; headingId: string; level?: 2 | 3 }) {
  const conversation = useLoad(() => get<Conversation>(`/agent/workspaces/${workspaceId}/conversations/${encodeURIComponent(conversationId)}`), [workspaceId, conversationId]);
  const c = conversation.data;
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <>
      <Heading id={headingId}>
        {/* Titled by the customer's first message, never by an id; inside a ticket, the ticket has the title. */}
        {level === 2 && c?.turns?.[0] ? shorten(c.turns[0].question, 120) : 'Conversation'}
        {level === 3 && (
          <>
            {' '}
            <a class="hint" href={`${base}/conversations/${conversationId}`} onClick={link(`${base}/conversations/${conversationId}`)}>
              Open on its own
            </a>
          </>
        )}
      </Heading>
      <Alert error={conversation.error} />
      {c && (
        <>
          {/* The caller's reference (often a UUID) is kept out of the text, on hover only. */}
          <p class="hint" title={c.ref ? `Reference: ${c.ref}` : undefined}>
            {c.turnCount === 1 ? '1 turn' : `${c.turnCount} turns`} · started {formatDate(c.createdAt, { time: true })} · {c.needsHuman ? 'needs a human' : 'answered'}
            {(c.channels ?? []).length > 0 && <> · {c.channels!.length === 1 ? 'channel' : 'channels'} {c.channels!.join(', ')}</>}
          </p>
          <ol class="thread">
            {(c.turns ?? []).map((t) => (
              <li key={t.id}>
                <p class="question">
                  <strong>Customer</strong> <span class="hint">({t.channel ?? 'no channel'}, {formatDate(t.createdAt, { time: true })})</span>: {t.question}
                </p>
                {(t.attachments ?? []).length > 0 && <p class="hint">Attachments: {t.attachments!.map((a) => a.filename ?? a.mime).join(', ')}</p>}
                <AnswerView answer={{ message: t.reply, sources: t.sources, confidence: t.confidence, needsHuman: t.needsHuman, reason: t.reason, why: t.why ?? (t.reason ? reasonText(t.reason) : null) }} base={base} />
                {t.latencyMs !== undefined && <p class="hint">Answered in {t.latencyMs} ms</p>}
                <TurnVerdict workspaceId={workspaceId} conversationId={conversationId} turn={t} onChanged={() => void conversation.reload()} />
              </li>
            ))}
          </ol>
        </>
      )}
    </>
  );
}

/** A message cut to `max` characters at a word, with an ellipsis: titles stay one line. */
function shorten(text: string, max: number) {
  const one = text.replace(/\s+/g, ' ').trim();
  if (one.length <= max) return one;
  const cut = one.slice(0, max);
  return `${cut.slice(0, cut.lastIndexOf(' ') > max / 2 ? cut.lastIndexOf(' ') : max).trimEnd()}…`;
}

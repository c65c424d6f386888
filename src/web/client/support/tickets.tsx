import { useState } from 'preact/hooks';
import { get, patch } from '../api';
import { link } from '../router';
import { Ticket as TicketIcon } from 'lucide';
import { Alert, EmptyState, formatDate, Pager, Table, useAction, useLoad } from '../ui';
import { ConversationThread } from './conversations';
import { TicketReplies } from './ticket-replies';
import { TicketsBoardSetting } from './tickets-board';
import type { SectionProps, Ticket } from './types';

export function TicketsPage({ workspace, base, canManage }: SectionProps) {
  const [cursor, setCursor] = useState<string | null>(null);
  const list = useLoad(
    () => get<{ tickets: Ticket[]; nextCursor: string | null }>(`/agent/workspaces/${workspace.id}/tickets?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
    [workspace.id, cursor],
  );
  return (
    <section aria-labelledby="tickets-heading">
      <h2 id="tickets-heading">
        Tickets <span class="badge">beta</span>
      </h2>
      <p class="lead">
        A ticket opens when a customer hands the widget's conversation to a person, or when your ticketing system sends one through <code>POST /v1/tickets</code>.
        Answer it here: the customer sees the reply in their open widget, or by mail.
      </p>
      <Alert error={list.error} />
      <Table
        columns={['#', 'Subject', 'Requester', 'Priority', 'Status', 'Created']}
        rows={list.data?.tickets}
        empty={
          <EmptyState icon={TicketIcon} title="No tickets yet." testId="empty-tickets">
            A ticket is opened when your ticketing system sends one, or when the agent hands a conversation to a person.
          </EmptyState>
        }
        row={(t) => (
          <tr key={t.id}>
            <td>{t.id}</td>
            <th scope="row">
              <a href={`${base}/tickets/${t.id}`} onClick={link(`${base}/tickets/${t.id}`)}>
                {t.subject}
              </a>
            </th>
            <td>{t.requester.email}</td>
            <td>
              <span class={`badge priority-${t.priority}`}>{t.priority}</span>
            </td>
            <td>
              <span class={`badge status-${t.status}`}>{t.status}</span>
            </td>
            <td>{formatDate(t.createdAt, { time: true })}</td>
          </tr>
        )}
      />
      <Pager cursor={cursor} next={list.data?.nextCursor} onPage={setCursor} />
      <TicketsBoardSetting workspace={workspace} canManage={canManage} />
    </section>
  );
}

const STATUSES: Ticket['status'][] = ['open', 'pending', 'solved', 'closed'];
const PRIORITIES: Ticket['priority'][] = ['low', 'normal', 'high', 'urgent'];

/** A ticket: its properties (status and priority changeable by owners and admins) and its conversation. */
export function TicketPage({ workspace, base, canManage, ticketId }: SectionProps & { ticketId: string }) {
  const url = `/agent/workspaces/${workspace.id}/tickets/${encodeURIComponent(ticketId)}`;
  const ticket = useLoad(() => get<Ticket>(url), [url]);
  const save = useAction();
  const [saved, setSaved] = useState<string | null>(null);
  const t = ticket.data;
  const change = (field: 'status' | 'priority', value: string) =>
    save.run(async () => {
      setSaved(null);
      const updated = await patch<Ticket>(url, { [field]: value });
      ticket.setData(updated);
      setSaved(`${field === 'status' ? 'Status' : 'Priority'} changed to ${value}.`);
    });
  return (
    <section aria-labelledby="ticket-heading">
      <p>
        <a href={`${base}/tickets`} onClick={link(`${base}/tickets`)}>
          ← Tickets
        </a>
      </p>
      <Alert error={ticket.error} />
      {t && (
        <>
          <h2 id="ticket-heading">
            #{t.id} {t.subject}
          </h2>
          <div class="ticket-layout">
            <div class="ticket-main">
              <p class="description">{t.description || <span class="hint">No description.</span>}</p>
              {t.conversationId ? (
                <ConversationThread workspaceId={workspace.id} base={base} conversationId={t.conversationId} headingId="ticket-conversation" level={3} />
              ) : (
                <p class="hint">No linked conversation.</p>
              )}
              <TicketReplies workspaceId={workspace.id} ticketId={t.id} requester={t.requester.email} />
            </div>
            <aside class="panel ticket-props" aria-label="Ticket properties">
              <dl class="facts">
                <dt>Requester</dt>
                <dd>{t.requester.email}</dd>
                <dt>{canManage ? <label for="ticket-status">Status</label> : 'Status'}</dt>
                <dd>
                  {canManage ? (
                    <select id="ticket-status" value={t.status} disabled={save.busy} onChange={(e) => void change('status', e.currentTarget.value)}>
                      {STATUSES.map((v) => (
                        <option key={v} value={v}>
                          {v}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <span class={`badge status-${t.status}`}>{t.status}</span>
                  )}
                </dd>
                <dt>{canManage ? <label for="ticket-priority">Priority</label> : 'Priority'}</dt>
                <dd>
                  {canManage ? (
                    <select id="ticket-priority" value={t.priority} disabled={save.busy} onChange={(e) => void change('priority', e.currentTarget.value)}>
                      {PRIORITIES.map((v) => (
                        <option key={v} value={v}>
                          {v}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <span class={`badge priority-${t.priority}`}>{t.priority}</span>
                  )}
                </dd>
                <dt>Created</dt>
                <dd>{formatDate(t.createdAt, { time: true })}</dd>
                <dt>Updated</dt>
                <dd>{formatDate(t.updatedAt, { time: true })}</dd>
              </dl>
              {canManage && <p class="hint">A change is sent to your webhooks as <code>ticket.updated</code>.</p>}
              {saved && <p role="status">{saved}</p>}
              <Alert error={save.error} onDismiss={() => save.setError(null)} />
            </aside>
          </div>
        </>
      )}
    </section>
  );
}

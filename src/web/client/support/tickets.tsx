import { useState } from 'preact/hooks';
import { get } from '../api';
import { link } from '../router';
import { Alert, formatDate, Pager, useLoad } from '../ui';
import { ConversationPage } from './conversations';
import type { SectionProps, Ticket } from './types';

export function TicketsPage({ workspace, base }: SectionProps) {
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
        Tickets are created by your ticketing system through <code>POST /v1/tickets</code> with the workspace token.
      </p>
      <Alert error={list.error} />
      {list.data && list.data.tickets.length === 0 && <p>No tickets yet.</p>}
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Subject</th>
              <th scope="col">Requester</th>
              <th scope="col">Priority</th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {(list.data?.tickets ?? []).map((t) => (
              <tr key={t.id}>
                <td>{t.id}</td>
                <th scope="row">
                  <a href={`${base}/tickets/${t.id}`} onClick={link(`${base}/tickets/${t.id}`)}>
                    {t.subject}
                  </a>
                </th>
                <td>{t.requester.email}</td>
                <td>{t.priority}</td>
                <td>
                  <span class="badge">{t.status}</span>
                </td>
                <td>{formatDate(t.createdAt, { time: true })}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager cursor={cursor} next={list.data?.nextCursor} onPage={setCursor} />
    </section>
  );
}

export function TicketPage(props: SectionProps & { ticketId: string }) {
  const { workspace, base, ticketId } = props;
  const ticket = useLoad(() => get<Ticket>(`/agent/workspaces/${workspace.id}/tickets/${encodeURIComponent(ticketId)}`), [workspace.id, ticketId]);
  const t = ticket.data;
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
          <dl class="facts">
            <dt>Requester</dt>
            <dd>{t.requester.email}</dd>
            <dt>Status</dt>
            <dd>{t.status}</dd>
            <dt>Priority</dt>
            <dd>{t.priority}</dd>
            <dt>Created</dt>
            <dd>{formatDate(t.createdAt, { time: true })}</dd>
            <dt>Updated</dt>
            <dd>{formatDate(t.updatedAt, { time: true })}</dd>
          </dl>
          <p class="description">{t.description || <span class="hint">No description.</span>}</p>
          {t.conversationId ? <ConversationPage {...props} conversationId={t.conversationId} /> : <p class="hint">No linked conversation.</p>}
        </>
      )}
    </section>
  );
}

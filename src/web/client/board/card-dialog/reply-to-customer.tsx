import type { z } from 'zod';
import { useState } from 'preact/hooks';
import type { cardTicket } from '../../../../tickets/cards/schemas.js';
import { get, post } from '../../api';
import { MarkdownEditor, useLoad } from '../../ui';
import type { Change, Part } from './part';

type CardTicket = z.output<typeof cardTicket>;

/**
 * Tickets as cards: on a ticket's card, who asked and the ticket's status, and "Reply to customer"
 * beside Comment — a public comment on the ticket (the customer's widget, else mail), which the
 * server also writes on the card. Nothing on an ordinary card.
 */
export function ReplyToCustomer({ card, canEdit, change }: Part) {
  const ticket = useLoad(() => get<CardTicket>(`/api/cards/${card.id}/ticket`).then((r) => r.ticket), [card.id, card.listId, card.version]);
  const t = ticket.data;
  if (!t) return null;
  return (
    <section aria-labelledby={`ticket-${card.id}-heading`} class="card-ticket">
      <h3 id={`ticket-${card.id}-heading`}>Ticket #{t.id}</h3>
      <p class="hint">
        Requester <strong>{t.requester.email}</strong> · <span class={`badge status-${t.status}`}>{t.status}</span>
      </p>
      {canEdit && <ReplyForm cardId={card.id} change={change} />}
    </section>
  );
}

function ReplyForm({ cardId, change }: { cardId: number; change: Change }) {
  const [body, setBody] = useState('');
  const [sent, setSent] = useState(false);
  const send = async () => {
    if (!body.trim()) return;
    setSent(false);
    if (await change(() => post(`/api/cards/${cardId}/ticket/replies`, { body }))) {
      setBody('');
      setSent(true);
    }
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <MarkdownEditor label="Reply to the customer" hideLabel rows={2} value={body} required placeholder="Reply to the customer…" onInput={setBody} onSubmit={() => void send()} />
      <button type="submit" class="small">
        Reply to customer
      </button>
      {sent && <p role="status">Sent to the customer.</p>}
    </form>
  );
}

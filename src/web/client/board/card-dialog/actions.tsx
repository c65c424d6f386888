import { useEffect, useState } from 'preact/hooks';
import { del, patch, post } from '../../api';
import type { Board, Card } from '../../types';
import { ConfirmButton } from '../../ui';
import type { Change } from './part';

/** Moves the card to a list and position chosen from menus (the keyboard-free way). */
export function MoveCard({ card, board, moveCard }: { card: Card; board: Board; moveCard: (listId: number, index: number) => Promise<boolean> }) {
  const [listId, setListId] = useState(card.listId);
  const target = board.lists.find((l) => l.id === listId);
  const count = target ? target.cards.filter((c) => c.id !== card.id).length : 0;
  const [position, setPosition] = useState(card.position);
  useEffect(() => {
    setListId(card.listId);
    setPosition(card.position);
  }, [card.version]);
  return (
    <section>
      <h3>Move</h3>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void moveCard(listId, Math.min(position, count));
        }}
      >
        <label>
          List
          <select value={String(listId)} onChange={(e) => setListId(Number(e.currentTarget.value))}>
            {board.lists.map((l) => (
              <option key={l.id} value={String(l.id)}>
                {l.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Position
          <select value={String(Math.min(position, count))} onChange={(e) => setPosition(Number(e.currentTarget.value))}>
            {Array.from({ length: count + 1 }, (_, i) => (
              <option key={i} value={String(i)}>
                {i + 1}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" class="small">
          Move
        </button>
      </form>
    </section>
  );
}

/** Archive or restore, copy, and (board admins) delete the card. */
export function CardActions({ card, board, change, onDeleted }: { card: Card; board: Board; change: Change; onDeleted: () => void }) {
  return (
    <section>
      <h3>Actions</h3>
      <div class="actions column">
        <button type="button" class="small" onClick={() => change(() => patch(`/api/cards/${card.id}`, { archived: !card.archived }))}>
          {card.archived ? 'Restore' : 'Archive'}
        </button>
        <button type="button" class="small" onClick={() => change(() => post(`/api/cards/${card.id}/copy`, {}))}>
          Copy
        </button>
        {board.role === 'admin' && (
          <ConfirmButton
            class="small danger"
            title="Delete this card?"
            message="The card, its checklists, comments and attachments are deleted for everyone. Archive it instead to keep it."
            confirmLabel="Delete card"
            action={() => del(`/api/cards/${card.id}`)}
            onDone={onDeleted}
          >
            Delete
          </ConfirmButton>
        )}
      </div>
    </section>
  );
}

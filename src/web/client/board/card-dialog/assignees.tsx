import { del, put } from '../../api';
import type { Board } from '../../types';
import { Avatar } from '../../ui';
import type { Part } from './part';

/** The board's members, ticked when assigned to the card. */
export function Assignees({ card, board, canEdit, change }: Part & { board: Board }) {
  return (
    <section>
      <h3>Assignees</h3>
      <ul class="checks">
        {board.members.map((m) => (
          <li key={m.userId}>
            <label class="inline">
              <input
                type="checkbox"
                disabled={!canEdit}
                checked={card.memberIds.includes(m.userId)}
                onChange={(e) =>
                  change(() =>
                    e.currentTarget.checked ? put(`/api/cards/${card.id}/members/${m.userId}`) : del(`/api/cards/${card.id}/members/${m.userId}`),
                  )
                }
              />{' '}
              <Avatar userId={m.userId} name={m.name} url={m.avatarUrl} decorative /> {m.name}
            </label>
          </li>
        ))}
      </ul>
    </section>
  );
}

import { del, put } from '../../api';
import type { Board } from '../../types';
import { Avatar } from '../../ui';
import { Compact } from './compact';
import type { Openable, Part } from './part';

/** The card's members (its assignees) as avatars; "+" opens the board's members to tick. */
export function Assignees({ card, board, canEdit, change, open, onOpen }: Part & Openable & { board: Board }) {
  const on = board.members.filter((m) => card.memberIds.includes(m.userId));
  return (
    <Compact
      title="Members"
      editLabel="Edit members"
      canEdit={canEdit}
      open={open}
      onOpen={onOpen}
      summary={
        on.length ? (
          <ul class="card-members">
            {on.map((m) => (
              <li key={m.userId}>
                <Avatar userId={m.userId} name={m.name} url={m.avatarUrl} decorative /> {m.name}
              </li>
            ))}
          </ul>
        ) : (
          <span class="hint">None</span>
        )
      }
    >
      <ul class="checks">
        {board.members.map((m) => (
          <li key={m.userId}>
            <label class="inline">
              <input
                type="checkbox"
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
    </Compact>
  );
}

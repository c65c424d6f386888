import { useEffect, useState } from 'preact/hooks';
import { patch } from '../../api';
import { formatDate } from '../../ui';
import type { Part } from './part';

/** The due date: set or cleared in local time, stored in UTC. */
export function DueDate({ card, canEdit, change }: Part) {
  const local = card.dueAt ? toLocalInput(card.dueAt) : '';
  const [value, setValue] = useState(local);
  useEffect(() => setValue(local), [card.dueAt]);
  return (
    <section>
      <h3>Due date</h3>
      {!canEdit ? (
        <p>{card.dueAt ? formatDate(card.dueAt, { time: true }) : 'None'}</p>
      ) : (
        <form
          class="row"
          onSubmit={(e) => {
            e.preventDefault();
            void change(() => patch(`/api/cards/${card.id}`, { dueAt: value ? new Date(value).toISOString() : null }));
          }}
        >
          <label>
            <span class="visually-hidden">Due date</span>
            <input type="datetime-local" value={value} onInput={(e) => setValue(e.currentTarget.value)} />
          </label>
          <button type="submit" class="small">
            Set
          </button>
          {card.dueAt && (
            <button type="button" class="small" onClick={() => change(() => patch(`/api/cards/${card.id}`, { dueAt: null }))}>
              Clear
            </button>
          )}
        </form>
      )}
    </section>
  );
}

function toLocalInput(iso: string) {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

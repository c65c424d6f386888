import { useEffect, useState } from 'preact/hooks';
import { patch } from '../../api';
import { formatDate } from '../../ui';
import { Compact } from './compact';
import type { Openable, Part } from './part';

/** The due date as a chip; "+" opens a picker in local time (stored in UTC), Save or Remove. */
export function DueDate({ card, canEdit, change, open, onOpen }: Part & Openable) {
  const local = card.dueAt ? toLocalInput(card.dueAt) : '';
  const [value, setValue] = useState(local);
  useEffect(() => setValue(local), [card.dueAt, open]);
  const set = async (dueAt: string | null) => {
    if (await change(() => patch(`/api/cards/${card.id}`, { dueAt }))) onOpen(false);
  };
  const overdue = card.dueAt !== null && new Date(card.dueAt) < new Date();
  return (
    <Compact
      title="Due date"
      editLabel="Edit due date"
      canEdit={canEdit}
      open={open}
      onOpen={onOpen}
      summary={card.dueAt ? <span class={overdue ? 'due-chip overdue' : 'due-chip'}>{formatDate(card.dueAt, { time: true })}{overdue && ' · overdue'}</span> : <span class="hint">None</span>}
    >
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          void set(value ? new Date(value).toISOString() : null);
        }}
      >
        <label>
          Due date
          <input type="datetime-local" value={value} onInput={(e) => setValue(e.currentTarget.value)} />
        </label>
        <button type="submit" class="primary small">
          Save
        </button>
        {card.dueAt && (
          <button type="button" class="small" onClick={() => void set(null)}>
            Remove
          </button>
        )}
      </form>
    </Compact>
  );
}

function toLocalInput(iso: string) {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

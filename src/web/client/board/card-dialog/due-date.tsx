import { useEffect, useState } from 'preact/hooks';
import { patch } from '../../api';
import { formatDate, formatRelative, fromDateTimeInput, toDateTimeInput } from '../../ui';
import { Compact } from './compact';
import type { Openable, Part } from './part';

/** The due date as a chip; "+" opens a picker in the person's time zone (stored in UTC), Save or Remove. */
export function DueDate({ card, canEdit, change, open, onOpen }: Part & Openable) {
  const local = card.dueAt ? toDateTimeInput(card.dueAt) : '';
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
      summary={card.dueAt ? <DueChip dueAt={card.dueAt} overdue={overdue} /> : <span class="hint">None</span>}
    >
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          void set(value ? fromDateTimeInput(value) : null);
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

/** The exact due date, and Trello's "in 2 days" beside it when it is near. */
function DueChip({ dueAt, overdue }: { dueAt: string; overdue: boolean }) {
  const exact = formatDate(dueAt, { time: true });
  const near = formatRelative(dueAt);
  return (
    <time class={overdue ? 'due-chip overdue' : 'due-chip'} dateTime={dueAt}>
      {exact}
      {near !== exact && ` · ${near}`}
      {overdue && ' · overdue'}
    </time>
  );
}

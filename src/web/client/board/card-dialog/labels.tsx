import { useRef, useState } from 'preact/hooks';
import { del, post, put } from '../../api';
import type { Board, Label } from '../../types';
import { LABEL_COLORS } from '../../types';
import type { Part } from './part';

/** The board's labels, ticked when on the card; a new label goes on the card at once. */
export function Labels({ card, board, canEdit, change }: Part & { board: Board }) {
  const [name, setName] = useState('');
  const [color, setColor] = useState<string>('green');
  const form = useRef<HTMLDetailsElement>(null);
  return (
    <section>
      <h3>Labels</h3>
      {board.labels.length === 0 && <p class="hint">No labels on this board.</p>}
      <ul class="checks">
        {board.labels.map((l) => (
          <li key={l.id}>
            <label class="inline">
              <input
                type="checkbox"
                disabled={!canEdit}
                checked={card.labelIds.includes(l.id)}
                onChange={(e) =>
                  change(() => (e.currentTarget.checked ? put(`/api/cards/${card.id}/labels/${l.id}`) : del(`/api/cards/${card.id}/labels/${l.id}`)))
                }
              />{' '}
              <span class={`label ${l.color ?? 'none'}`}>{l.name}</span>
            </label>
          </li>
        ))}
      </ul>
      {canEdit && (
        <details ref={form}>
          <summary>New label</summary>
          <form
            onSubmit={async (e) => {
              e.preventDefault();
              // Made here, it goes on this card at once (as Trello does).
              const made = await change(async () => {
                const label = await post<Label>(`/api/boards/${board.id}/labels`, { name, color });
                return put(`/api/cards/${card.id}/labels/${label.id}`);
              });
              if (made) {
                // Used, the form closes (the new label is ticked above); the keyboard goes back to its summary.
                setName('');
                form.current!.open = false;
                form.current!.querySelector('summary')?.focus();
              }
            }}
          >
            <label>
              Name
              <input value={name} required onInput={(e) => setName(e.currentTarget.value)} />
            </label>
            <label>
              Colour
              <select value={color} onChange={(e) => setColor(e.currentTarget.value)}>
                {LABEL_COLORS.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" class="small">
              Create label
            </button>
          </form>
        </details>
      )}
    </section>
  );
}

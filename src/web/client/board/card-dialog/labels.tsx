import { useRef, useState } from 'preact/hooks';
import { del, post, put } from '../../api';
import type { Board, Label } from '../../types';
import { LABEL_COLORS } from '../../types';
import { labelClass } from '../card-tile';
import { Compact } from './compact';
import type { Openable, Part } from './part';

type Shade = Label['shade'];
const SHADES: Shade[] = ['light', null, 'dark'];
const capital = (s: string) => s[0]!.toUpperCase() + s.slice(1);


/** "Blue dark", "Sky light", "Red": a swatch's name, as Trello's 30 colours are ours. */
const swatchName = (color: string, shade: Shade) => capital(color) + (shade ? ` ${shade}` : '');

/** The card's labels as chips; "+" opens the board's labels to tick, and a form to make one (it goes on the card at once). */
export function Labels({ card, board, canEdit, change, open, onOpen }: Part & Openable & { board: Board }) {
  const on = board.labels.filter((l) => card.labelIds.includes(l.id));
  return (
    <Compact
      title="Labels"
      editLabel="Edit labels"
      canEdit={canEdit}
      open={open}
      onOpen={onOpen}
      summary={
        on.length ? (
          <ul class="card-labels">
            {on.map((l) => (
              <li key={l.id} class={labelClass(l)}>
                {l.name}
              </li>
            ))}
          </ul>
        ) : (
          <span class="hint">None</span>
        )
      }
    >
      {board.labels.length === 0 && <p class="hint">No labels on this board yet.</p>}
      <ul class="checks">
        {board.labels.map((l) => (
          <li key={l.id}>
            <label class="inline">
              <input
                type="checkbox"
                checked={card.labelIds.includes(l.id)}
                onChange={(e) =>
                  change(() => (e.currentTarget.checked ? put(`/api/cards/${card.id}/labels/${l.id}`) : del(`/api/cards/${card.id}/labels/${l.id}`)))
                }
              />{' '}
              <span class={labelClass(l)}>{l.name}</span>
            </label>
          </li>
        ))}
      </ul>
      <NewLabel board={board} cardId={card.id} change={change} />
    </Compact>
  );
}

function NewLabel({ board, cardId, change }: { board: Board; cardId: number; change: Part['change'] }) {
  const [name, setName] = useState('');
  const [colour, setColour] = useState<{ color: Label['color']; shade: Shade }>({ color: 'green', shade: null });
  const form = useRef<HTMLDetailsElement>(null);
  const swatch = (color: Label['color'], shade: Shade) => {
    const label = color ? swatchName(color, shade) : 'No colour';
    return (
      <input
        key={label}
        type="radio"
        name={`label-colour-${cardId}`}
        class={`swatch ${labelClass({ color, shade })}`}
        aria-label={label}
        title={label}
        checked={colour.color === color && colour.shade === shade}
        onChange={() => setColour({ color, shade })}
      />
    );
  };
  return (
    <details ref={form}>
      <summary>New label</summary>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          // Made here, it goes on this card at once (as Trello does).
          const made = await change(async () => {
            const label = await post<Label>(`/api/boards/${board.id}/labels`, { name, ...colour });
            return put(`/api/cards/${cardId}/labels/${label.id}`);
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
        <fieldset class="swatches">
          <legend>Colour</legend>
          {/* Trello's grid: five colours a row, light, plain and dark rows for each half. */}
          {[LABEL_COLORS.slice(0, 5), LABEL_COLORS.slice(5)].flatMap((half) => SHADES.flatMap((shade) => half.map((color) => swatch(color, shade))))}
          {swatch(null, null)}
        </fieldset>
        <button type="submit" class="small">
          Create label
        </button>
      </form>
    </details>
  );
}

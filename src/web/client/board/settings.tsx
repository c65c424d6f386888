import { useState } from 'preact/hooks';
import { ExportLinks } from './export-links';
import { del, patch } from '../api';
import { navigate } from '../router';
import { BOARD_COLORS, type Board, type BoardColor } from '../types';
import { Alert, ConfirmButton, MarkdownEditor, Modal, useAction } from '../ui';

/** What the colour picker says for each colour (its name, in words). */
const COLOR_NAMES: Record<BoardColor, string> = {
  blue: 'Blue', teal: 'Teal', green: 'Green', lime: 'Lime', orange: 'Orange', red: 'Red', pink: 'Pink', purple: 'Purple', grey: 'Grey',
  sunset: 'Sunset (gradient)', ocean: 'Ocean (gradient)', forest: 'Forest (gradient)',
};

/** Board admins: rename, describe, colour, archive or restore, delete. */
export function SettingsDialog({ board, onClose, onChanged }: { board: Board; onClose: () => void; onChanged: () => Promise<void> }) {
  const [name, setName] = useState(board.name);
  const [description, setDescription] = useState(board.description);
  const [color, setColor] = useState<BoardColor>(board.color);
  const { error, busy, run } = useAction();
  return (
    <Modal title="Board settings" onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            await patch(`/api/boards/${board.id}`, { name, description, ...(color !== board.color ? { color } : {}) });
            await onChanged();
            onClose();
          });
        }}
      >
        <label>
          Name
          <input value={name} required onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <MarkdownEditor label="Description" rows={3} value={description} onInput={setDescription} />
        <fieldset class="swatches">
          <legend>Colour or background</legend>
          {BOARD_COLORS.map((c) => (
            <label key={c} class={`swatch bg-${c}`} title={COLOR_NAMES[c]}>
              <input type="radio" name="board-color" value={c} checked={color === c} onChange={() => setColor(c)} />
              <span class="visually-hidden">{COLOR_NAMES[c]}</span>
            </label>
          ))}
        </fieldset>
        <Alert error={error} />
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            Save
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              run(async () => {
                await patch(`/api/boards/${board.id}`, { archived: !board.archived });
                await onChanged();
              })
            }
          >
            {board.archived ? 'Restore board' : 'Archive board'}
          </button>
          <ConfirmButton
            class="danger"
            title="Delete this board?"
            message={`“${board.name}” and everything on it are deleted for every member. This cannot be undone.`}
            confirmLabel="Delete board"
            action={() => del(`/api/boards/${board.id}`)}
            onDone={() => navigate('/boards')}
          >
            Delete board
          </ConfirmButton>
        </div>
      </form>
      <ExportLinks boardId={board.id} />
    </Modal>
  );
}

import { useState } from 'preact/hooks';
import { del, patch } from '../api';
import { navigate } from '../router';
import type { Board } from '../types';
import { Alert, ConfirmButton, Modal, useAction } from '../ui';

/** Board admins: rename, describe, archive or restore, delete. */
export function SettingsDialog({ board, onClose, onChanged }: { board: Board; onClose: () => void; onChanged: () => Promise<void> }) {
  const [name, setName] = useState(board.name);
  const [description, setDescription] = useState(board.description);
  const { error, busy, run } = useAction();
  return (
    <Modal title="Board settings" onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            await patch(`/api/boards/${board.id}`, { name, description });
            await onChanged();
            onClose();
          });
        }}
      >
        <label>
          Name
          <input value={name} required onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <label>
          Description
          <textarea rows={3} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        </label>
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
    </Modal>
  );
}

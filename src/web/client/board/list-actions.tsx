import { useState } from 'preact/hooks';
import { get, patch, post } from '../api';
import { navigate } from '../router';
import type { Board, BoardSummary, List } from '../types';
import { Alert, Modal, useAction, useLoad } from '../ui';
import { DeleteListButton, loadArchived } from './archive';

/**
 * What a list's "…" button opens: archive it, move it to another board the person may
 * write to (POST /lists/{id}/move with boardId; its cards go with it, their labels mapped by name
 * and colour), and for board admins delete it with its cards, after a confirmation naming how many.
 */
export function ListActions({ list, board, onClose, onChanged }: { list: List; board: Board; onClose: () => void; onChanged: () => Promise<void> }) {
  const { error, busy, run } = useAction();
  const isAdmin = board.role === 'admin';
  // The cards the list holds, archived ones included: what deleting it deletes.
  const archived = useLoad(() => (isAdmin ? loadArchived(board.id) : Promise.resolve(null)), [board.id, isAdmin]);
  const archivedHere = archived.data?.cards.filter((c) => c.listId === list.id).length ?? 0;
  return (
    <Modal title={`List: ${list.name}`} onClose={onClose}>
      <Alert error={error} />
      <div class="actions start">
        <button
          type="button"
          disabled={busy}
          onClick={() =>
            run(async () => {
              await patch(`/api/lists/${list.id}`, { archived: true });
              await onChanged();
              onClose();
            })
          }
        >
          Archive list
        </button>
        {isAdmin && archived.data && <DeleteListButton list={list} cardCount={list.cards.length + archivedHere} small={false} onDone={async () => (await onChanged(), onClose())} />}
      </div>
      <MoveListElsewhere list={list} board={board} />
    </Modal>
  );
}

function MoveListElsewhere({ list, board }: { list: List; board: Board }) {
  const boards = useLoad(async () => (await get<{ boards: BoardSummary[] }>('/api/boards')).boards.filter((b) => b.id !== board.id && b.role !== 'observer'), []);
  const [to, setTo] = useState<number | null>(null);
  const target = to ?? boards.data?.[0]?.id ?? null;
  const lists = useLoad(async () => (target === null ? [] : (await get<{ lists: List[] }>(`/api/boards/${target}/lists`)).lists), [target]);
  const [position, setPosition] = useState<number | null>(null);
  const count = lists.data?.length ?? 0;
  const { error, busy, run } = useAction();
  if (boards.data && boards.data.length === 0) return <p class="hint">To move this list to another board, you need another board you can edit.</p>;
  return (
    <form
      class="move-list"
      onSubmit={(e) => {
        e.preventDefault();
        if (target === null) return;
        void run(async () => {
          await post(`/api/lists/${list.id}/move`, { boardId: target, position: Math.min(position ?? count, count) });
          navigate(`/boards/${target}`);
        });
      }}
    >
      <h3>Move to another board</h3>
      <label>
        Board
        <select value={target === null ? '' : String(target)} onChange={(e) => (setTo(Number(e.currentTarget.value)), setPosition(null))}>
          {(boards.data ?? []).map((b) => (
            <option key={b.id} value={String(b.id)}>
              {b.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Position
        <select value={String(Math.min(position ?? count, count))} onChange={(e) => setPosition(Number(e.currentTarget.value))}>
          {Array.from({ length: count + 1 }, (_, i) => (
            <option key={i} value={String(i)}>
              {i + 1}
            </option>
          ))}
        </select>
      </label>
      <p class="hint">Its cards go with it; their labels become the other board’s labels of the same name and colour (created there when missing).</p>
      <Alert error={error ?? boards.error ?? lists.error} />
      <button type="submit" class="primary" disabled={busy || target === null}>
        Move list
      </button>
    </form>
  );
}

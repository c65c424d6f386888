import type { z } from 'zod';
import { useState } from 'preact/hooks';
import type { ticketsBoard } from '../../../tickets/cards/schemas.js';
import { del, get, put } from '../api';
import type { Board, BoardSummary } from '../types';
import { Alert, useAction, useLoad } from '../ui';
import type { SectionProps } from './types';

type TicketsBoard = z.output<typeof ticketsBoard>;

/**
 * Tickets as cards: which board, list and solved list the workspace's tickets go to. Owners and
 * admins choose among the boards they can write; everyone else reads where tickets go.
 */
export function TicketsBoardSetting({ workspace, canManage }: Pick<SectionProps, 'workspace' | 'canManage'>) {
  const url = `/agent/workspaces/${workspace.id}/tickets-board`;
  const current = useLoad(() => get<TicketsBoard>(url), [url]);
  const boards = useLoad(async () => (canManage ? (await get<{ boards: BoardSummary[] }>('/api/boards')).boards.filter((b) => b.role !== 'observer') : []), [canManage]);
  const [boardId, setBoardId] = useState<number | null>(null);
  const chosenBoard = boardId ?? current.data?.boardId ?? null;
  const detail = useLoad(async () => (chosenBoard ? get<Board>(`/api/boards/${chosenBoard}`) : null), [chosenBoard]);
  const save = useAction();
  const [saved, setSaved] = useState<string | null>(null);
  const lists = detail.data?.lists ?? [];
  const c = current.data;
  const nameOf = (listId: number | null) => lists.find((l) => l.id === listId)?.name ?? (listId ? `list ${listId}` : 'none');

  const submit = (form: HTMLFormElement) =>
    save.run(async () => {
      setSaved(null);
      const data = new FormData(form);
      const solved = Number(data.get('solvedListId'));
      current.setData(await put<TicketsBoard>(url, { boardId: Number(data.get('boardId')), listId: Number(data.get('listId')), solvedListId: solved || null }));
      setSaved('New tickets now go to this board as cards.');
    });

  return (
    <section class="panel" aria-labelledby="tickets-board-heading">
      <h3 id="tickets-board-heading">Tickets on a board</h3>
      <p class="hint">
        Every new ticket becomes a card; moving it to the solved list solves the ticket, and a reply written on the card goes to the customer.
      </p>
      <Alert error={current.error ?? boards.error ?? detail.error} />
      {c && !canManage && <p>{c.boardId ? `Tickets go to board ${detail.data?.name ?? c.boardId}, list ${nameOf(c.listId)}.` : 'Tickets go to no board.'}</p>}
      {c && canManage && (
        <form
          class="tickets-board"
          onSubmit={(e) => {
            e.preventDefault();
            void submit(e.currentTarget);
          }}
        >
          <label>
            Board
            <select name="boardId" value={chosenBoard ?? ''} required onChange={(e) => setBoardId(Number(e.currentTarget.value) || null)}>
              <option value="">Choose a board…</option>
              {(boards.data ?? []).map((b) => (
                <option key={b.id} value={b.id}>
                  {b.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            New tickets go to
            <select name="listId" required key={`l${chosenBoard}`} defaultValue={chosenBoard === c.boardId && c.listId ? String(c.listId) : ''}>
              <option value="">Choose a list…</option>
              {lists.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Solved list
            <select name="solvedListId" key={`s${chosenBoard}`} defaultValue={chosenBoard === c.boardId && c.solvedListId ? String(c.solvedListId) : ''}>
              <option value="">None</option>
              {lists.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name}
                </option>
              ))}
            </select>
          </label>
          <div class="actions start">
            <button type="submit" class="primary small" disabled={save.busy}>
              Send tickets to this board
            </button>
            {c.boardId && (
              <button
                type="button"
                class="small"
                disabled={save.busy}
                onClick={() =>
                  void save.run(async () => {
                    current.setData(await del(url).then(() => get<TicketsBoard>(url)));
                    setBoardId(null);
                    setSaved('New tickets go to no board.');
                  })
                }
              >
                Stop
              </button>
            )}
          </div>
        </form>
      )}
      {saved && <p role="status">{saved}</p>}
      <Alert error={save.error} onDismiss={() => save.setError(null)} />
    </section>
  );
}

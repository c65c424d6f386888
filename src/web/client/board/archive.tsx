import { useState } from 'preact/hooks';
import { del, get, patch } from '../api';
import type { Board, CardSummary, List } from '../types';
import { Alert, ConfirmButton, Modal, plural, useAction, useLoad } from '../ui';

type ArchivedList = List & { cardCount: number };
interface Archived {
  lists: ArchivedList[];
  cards: CardSummary[];
}

/** The board's archived cards, and the cards and lists archived with them, as GET /boards/{id}/archived answers. */
export const loadArchived = (boardId: number) => get<Archived>(`/api/boards/${boardId}/archived`);

/**
 * Archived items: the board's archived cards and lists, searchable, each with Restore
 * (editors) and Delete (admins). A card comes back where the server's one rule puts it (its place in
 * its list, or the end of the first open list when its list is archived), and the panel says where.
 */
export function ArchivePanel({ board, onClose, onChanged, openCard }: { board: Board; onClose: () => void; onChanged: () => Promise<void>; openCard: (cardId: number) => void }) {
  const archived = useLoad(() => loadArchived(board.id), [board.id]);
  const [q, setQ] = useState('');
  const [said, setSaid] = useState('');
  const { error, run } = useAction();
  const canEdit = board.role !== 'observer';
  const isAdmin = board.role === 'admin';
  const needle = q.trim().toLowerCase();
  const listName = (id: number) => board.lists.find((l) => l.id === id)?.name ?? archived.data?.lists.find((l) => l.id === id)?.name ?? 'a list';
  const matches = (text: string) => !needle || text.toLowerCase().includes(needle);
  const cards = (archived.data?.cards ?? []).filter((c) => matches(c.title) || matches(c.description));
  const lists = (archived.data?.lists ?? []).filter((l) => matches(l.name));
  const done = async (message: string) => {
    setSaid(message);
    await Promise.all([archived.reload(), onChanged()]);
  };

  return (
    <Modal title="Archived items" onClose={onClose} wide>
      <label>
        Search archived items
        <input type="search" value={q} onInput={(e) => setQ(e.currentTarget.value)} placeholder="Title, description or list name" />
      </label>
      <p role="status" class="archive-said">
        {said}
      </p>
      <Alert error={error ?? archived.error} />
      {!archived.data && !archived.error && <p class="hint">Loading…</p>}
      {archived.data && (
        <div class="archive">
          <section aria-labelledby="archived-cards">
            <h3 id="archived-cards">Cards ({cards.length})</h3>
            {cards.length === 0 && <p class="hint">{needle ? `No archived card matches “${q.trim()}”.` : 'No archived cards.'}</p>}
            <ul class="archive-items">
              {cards.map((card) => (
                <li key={card.id} data-card-id={card.id}>
                  <button type="button" class="link" onClick={() => openCard(card.id)}>
                    {card.title}
                  </button>
                  <span class="hint"> in {listName(card.listId)}</span>
                  <span class="row-actions">
                    {canEdit && (
                      <button
                        type="button"
                        class="small"
                        aria-label={`Restore ${card.title}`}
                        onClick={() =>
                          run(async () => {
                            const back = await patch<CardSummary>(`/api/cards/${card.id}`, { archived: false });
                            const to = board.lists.find((l) => l.id === back.listId)?.name ?? 'its list';
                            await done(
                              back.listId === card.listId
                                ? `“${card.title}” is back in ${to}, position ${back.position + 1}.`
                                : `“${card.title}” is back at the end of ${to}: its list ${listName(card.listId)} is archived.`,
                            );
                          })
                        }
                      >
                        Restore
                      </button>
                    )}
                    {isAdmin && (
                      <ConfirmButton
                        class="small danger"
                        label={`Delete ${card.title}`}
                        title="Delete this card?"
                        message={`“${card.title}”, its checklists, comments and attachments are deleted for everyone. This cannot be undone.`}
                        confirmLabel="Delete card"
                        action={() => del(`/api/cards/${card.id}`)}
                        onDone={() => done(`“${card.title}” is deleted.`)}
                      >
                        Delete
                      </ConfirmButton>
                    )}
                  </span>
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="archived-lists">
            <h3 id="archived-lists">Lists ({lists.length})</h3>
            {lists.length === 0 && <p class="hint">{needle ? `No archived list matches “${q.trim()}”.` : 'No archived lists.'}</p>}
            <ul class="archive-items">
              {lists.map((list) => (
                <li key={list.id} data-list-id={list.id}>
                  <strong>{list.name}</strong>
                  <span class="hint"> {plural(list.cardCount, 'card')}</span>
                  <span class="row-actions">
                    {canEdit && (
                      <button
                        type="button"
                        class="small"
                        aria-label={`Restore ${list.name}`}
                        onClick={() =>
                          run(async () => {
                            await patch(`/api/lists/${list.id}`, { archived: false });
                            await done(`The list ${list.name} is back, at the end of the board.`);
                          })
                        }
                      >
                        Restore
                      </button>
                    )}
                    {isAdmin && <DeleteListButton list={list} cardCount={list.cardCount} onDone={() => done(`The list ${list.name} is deleted.`)} />}
                  </span>
                </li>
              ))}
            </ul>
          </section>
        </div>
      )}
    </Modal>
  );
}

/** Delete a list and its cards (board admins), after a confirmation naming how many cards go with it. */
export function DeleteListButton({ list, cardCount, onDone, small = true }: { list: { id: number; name: string }; cardCount: number; onDone: () => unknown; small?: boolean }) {
  return (
    <ConfirmButton
      class={small ? 'small danger' : 'danger'}
      label={`Delete list ${list.name}`}
      title="Delete this list?"
      message={
        cardCount
          ? `The list “${list.name}” and its ${plural(cardCount, 'card')} are deleted for everyone, with their checklists, comments and attachments. This cannot be undone.`
          : `The list “${list.name}” is deleted for everyone. It has no cards. This cannot be undone.`
      }
      confirmLabel={cardCount ? `Delete the list and ${plural(cardCount, 'card')}` : 'Delete the list'}
      action={() => del(`/api/lists/${list.id}`)}
      onDone={onDone}
    >
      Delete
    </ConfirmButton>
  );
}

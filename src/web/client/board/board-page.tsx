import { Fragment } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, get, patch, post } from '../api';
import { link, setQuery, useLocation } from '../router';
import type { Activity, Board, CardSummary, Label, List, Member } from '../types';
import { Alert, formatDate, initials, Notice, PageTitle, plural, useAction } from '../ui';
import { ActivityPanel } from './activity';
import { dropIndex, findCard, withCardMoved, withListMoved } from './board-model';
import { CardDialog } from './card-dialog';
import { useBoardEvents } from './live';
import { MembersDialog } from './members';
import { SearchBox } from './search';
import { SettingsDialog } from './settings';

type Gone = 'deleted' | 'no-access' | null;
type Dragging = { kind: 'card'; id: number } | { kind: 'list'; id: number } | null;

export function BoardPage({ boardId }: { boardId: number }) {
  const { query } = useLocation();
  const openCardId = Number(query.get('card')) || null;
  const [board, setBoard] = useState<Board | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [gone, setGone] = useState<Gone>(null);
  const [problem, setProblem] = useState<unknown>(null);
  const [panel, setPanel] = useState<'members' | 'settings' | null>(null);
  const [showActivity, setShowActivity] = useState(false);
  const activityButton = useRef<HTMLButtonElement>(null);
  // Closing (× or Escape) gives the focus back to the button that opened the panel.
  const closeActivity = useCallback(() => {
    setShowActivity(false);
    activityButton.current?.focus();
  }, []);
  // The panel narrows the lists: a "New list" column that was in view stays in view (scrolled to), not hidden behind it.
  const keepNewListInView = useRef(false);
  const toggleActivity = () => {
    const add = document.querySelector('.add-list');
    const lists = document.querySelector('.lists');
    if (!showActivity && add && lists) {
      const a = add.getBoundingClientRect();
      const l = lists.getBoundingClientRect();
      keepNewListInView.current = a.left < l.right && a.right > l.left;
    }
    setShowActivity((v) => !v);
  };
  useEffect(() => {
    if (!showActivity || !keepNewListInView.current) return;
    keepNewListInView.current = false;
    document.querySelector('.add-list')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [showActivity]);
  const [liveEvents, setLiveEvents] = useState<Activity[]>([]);
  const [cardVersion, setCardVersion] = useState(0);
  // The card last moved with the keyboard keeps the focus until the user puts it elsewhere. A
  // render may move or recreate its tile (always across lists; within one, Preact may move the
  // focused node itself), and the render that does so can come after the one showing the move
  // (the server's answer, a live event), so focus is given back after any render that lost it.
  const keyboardMoved = useRef<number | null>(null);

  // Coalesced: one fetch in flight, and at most one more queued behind it, however many events come.
  // `moves` counts this tab's moves not yet answered and `generation` every move started: a fetch
  // that began before one of them was answered may show the board as it was before it (the echo
  // of an earlier move triggers such fetches), so it is dropped rather than shown, which would put
  // the card back for a moment and lose its focus; the move's answer fetches again.
  const sync = useRef({ running: false, again: false, moves: 0, generation: 0 });
  const resync = useCallback(async () => {
    const state = sync.current;
    if (state.running) {
      state.again = true;
      return;
    }
    state.running = true;
    try {
      do {
        state.again = false;
        try {
          const generation = state.generation;
          const movesAtStart = state.moves;
          const fresh = await get<Board>(`/api/boards/${boardId}`);
          if (movesAtStart > 0 || state.moves > 0 || state.generation !== generation) continue;
          setBoard(fresh);
          setLoadError(null);
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) setGone((g) => g ?? 'no-access');
          else setLoadError(error);
        }
      } while (state.again);
    } finally {
      state.running = false;
    }
  }, [boardId]);

  useEffect(() => void resync(), [resync]);

  const status = useBoardEvents(boardId, {
    onOpen: () => void resync(),
    onEvent: (event) => {
      if (event.type === 'board.deleted') {
        setGone('deleted');
        return;
      }
      setLiveEvents((events) => [event, ...events].slice(0, 200));
      void resync();
      if (openCardId !== null && (('cardId' in event.data && event.data.cardId === openCardId) || event.type.startsWith('label.') || event.type.startsWith('custom_field.'))) {
        setCardVersion((v) => v + 1);
      }
    },
    onClosed: async () => {
      try {
        await get(`/api/boards/${boardId}`);
        return true;
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) setGone((g) => g ?? 'no-access');
        return !(error instanceof ApiError) || error.status >= 500;
      }
    },
  });

  /** A change the server refused (403, 409, …): say so and show the server's truth again. */
  const refused = useCallback(
    (error: unknown) => {
      setProblem(error);
      void resync();
    },
    [resync],
  );

  useEffect(() => {
    const id = keyboardMoved.current;
    if (id === null) return;
    const active = document.activeElement;
    if (active && active !== document.body) return;
    document.querySelector<HTMLElement>(`[data-card-id="${id}"] .card-open`)?.focus();
  });
  useEffect(() => {
    const elsewhere = (e: Event) => {
      const id = keyboardMoved.current;
      if (id !== null && !(e.target instanceof Element && e.target.closest(`[data-card-id="${id}"]`))) keyboardMoved.current = null;
    };
    document.addEventListener('focusin', elsewhere, true);
    document.addEventListener('pointerdown', elsewhere, true);
    return () => {
      document.removeEventListener('focusin', elsewhere, true);
      document.removeEventListener('pointerdown', elsewhere, true);
    };
  }, []);

  if (gone)
    return (
      <main class="narrow">
        <PageTitle>{board?.name ?? 'Board'}</PageTitle>
        <Notice>{gone === 'deleted' ? 'This board was deleted.' : 'This board is not available: it was deleted, or you are no longer a member.'}</Notice>
        <a href="/boards" onClick={link('/boards')}>
          Back to your boards
        </a>
      </main>
    );
  if (!board)
    return (
      <main>
        <Alert error={loadError} />
        {!loadError && <p>Loading…</p>}
      </main>
    );

  const canEdit = board.role !== 'observer';
  const isAdmin = board.role === 'admin';

  /** Shows a move at once, sends it, and fetches the board again once it is answered (see `sync`). */
  const sendMove = async (show: (b: Board) => Board, send: () => Promise<unknown>) => {
    const state = sync.current;
    state.moves++;
    state.generation++;
    setBoard((b) => (b ? show(b) : b));
    try {
      await send();
    } catch (error) {
      setProblem(error);
    } finally {
      state.moves--;
      void resync();
    }
  };
  const moveCard = async (cardId: number, listId: number, index: number) => {
    const from = findCard(board, cardId);
    if (!from) return;
    if (from.list.id === listId && from.index === index) return;
    await sendMove(
      (b) => withCardMoved(b, cardId, listId, index),
      () => post(`/api/cards/${cardId}/move`, { listId, position: index }),
    );
  };
  const moveList = (listId: number, index: number) =>
    sendMove(
      (b) => withListMoved(b, listId, index),
      () => post(`/api/lists/${listId}/move`, { position: index }),
    );
  const keyboardMove = (card: CardSummary, key: string) => {
    const at = findCard(board, card.id);
    if (!at) return false;
    const listIndex = board.lists.indexOf(at.list);
    let target: [number, number] | null = null;
    if (key === 'ArrowUp' && at.index > 0) target = [at.list.id, at.index - 1];
    if (key === 'ArrowDown' && at.index < at.list.cards.length - 1) target = [at.list.id, at.index + 1];
    const side = key === 'ArrowLeft' ? board.lists[listIndex - 1] : key === 'ArrowRight' ? board.lists[listIndex + 1] : undefined;
    if (side) target = [side.id, Math.min(at.index, side.cards.length)];
    if (!target) return false;
    keyboardMoved.current = card.id;
    void moveCard(card.id, target[0], target[1]);
    return true;
  };

  return (
    <main class="board-page">
      <header class="board-head">
        <PageTitle>{board.name}</PageTitle>
        <span class="badge" title="Your role on this board">
          {board.role}
        </span>
        {board.archived && <span class="badge warn">Archived</span>}
        <LiveIndicator status={status} />
        <div class="board-tools">
          <SearchBox boardId={boardId} onOpen={(id) => setQuery('card', String(id))} />
          <button type="button" onClick={() => setPanel('members')}>
            Members ({board.members.length})
          </button>
          <button type="button" ref={activityButton} aria-pressed={showActivity} onClick={toggleActivity}>
            Activity
          </button>
          {isAdmin && (
            <button type="button" onClick={() => setPanel('settings')}>
              Settings
            </button>
          )}
        </div>
      </header>
      {board.description && <p class="lead">{board.description}</p>}
      {!canEdit && <Notice>You are an observer on this board: you can read and comment.</Notice>}
      <Alert error={problem} onDismiss={() => setProblem(null)} />
      <div class="board-body">
        <Lists board={board} canEdit={canEdit} moveCard={moveCard} moveList={moveList} keyboardMove={keyboardMove} refused={refused} resync={resync} />
        {showActivity && <ActivityPanel board={board} live={liveEvents} onClose={closeActivity} />}
      </div>
      {openCardId !== null && (
        <CardDialog
          key={openCardId}
          cardId={openCardId}
          board={board}
          version={cardVersion}
          onClose={() => setQuery('card', null)}
          onChanged={resync}
          moveCard={moveCard}
        />
      )}
      {panel === 'members' && <MembersDialog board={board} onClose={() => setPanel(null)} onChanged={resync} />}
      {panel === 'settings' && <SettingsDialog board={board} onClose={() => setPanel(null)} onChanged={resync} />}
    </main>
  );
}

function LiveIndicator({ status }: { status: string }) {
  const text = status === 'live' ? 'Live' : status === 'closed' ? 'Offline' : status === 'reconnecting' ? 'Reconnecting…' : 'Connecting…';
  return (
    <span class={`live ${status}`} role="status" data-live={status}>
      {text}
    </span>
  );
}

interface ListsProps {
  board: Board;
  canEdit: boolean;
  moveCard: (cardId: number, listId: number, index: number) => Promise<void>;
  moveList: (listId: number, index: number) => Promise<void>;
  keyboardMove: (card: CardSummary, key: string) => boolean;
  refused: (error: unknown) => void;
  resync: () => Promise<void>;
}

function Lists({ board, canEdit, moveCard, moveList, keyboardMove, refused, resync }: ListsProps) {
  const [dragging, setDragging] = useState<Dragging>(null);
  const [target, setTarget] = useState<{ listId: number; index: number } | null>(null);
  const [listTarget, setListTarget] = useState<number | null>(null);
  const container = useRef<HTMLDivElement>(null);
  const end = () => {
    setDragging(null);
    setTarget(null);
    setListTarget(null);
  };

  return (
    <div
      class="lists"
      ref={container}
      onDragOver={(e) => {
        if (dragging?.kind !== 'list') return;
        e.preventDefault();
        const columns = [...container.current!.querySelectorAll('.list[data-list-id]')].filter((el) => el.getAttribute('data-list-id') !== String(dragging.id));
        setListTarget(dropIndex(columns, e.clientX, 'x'));
      }}
      onDrop={(e) => {
        if (dragging?.kind !== 'list' || listTarget === null) return;
        e.preventDefault();
        void moveList(dragging.id, listTarget);
        end();
      }}
    >
      {board.lists.map((list) => (
        <ListColumn
          key={list.id}
          list={list}
          board={board}
          canEdit={canEdit}
          dragging={dragging}
          setDragging={setDragging}
          target={target?.listId === list.id ? target.index : null}
          setTarget={(index) => setTarget(index === null ? null : { listId: list.id, index })}
          onDropCard={(cardId, index) => {
            void moveCard(cardId, list.id, index);
            end();
          }}
          onDragEnd={end}
          keyboardMove={keyboardMove}
          refused={refused}
          resync={resync}
        />
      ))}
      {canEdit && <AddList boardId={board.id} onAdded={resync} />}
    </div>
  );
}

interface ListColumnProps {
  list: List;
  board: Board;
  canEdit: boolean;
  dragging: Dragging;
  setDragging: (d: Dragging) => void;
  target: number | null;
  setTarget: (index: number | null) => void;
  onDropCard: (cardId: number, index: number) => void;
  onDragEnd: () => void;
  keyboardMove: (card: CardSummary, key: string) => boolean;
  refused: (error: unknown) => void;
  resync: () => Promise<void>;
}

function ListColumn({ list, board, canEdit, dragging, setDragging, target, setTarget, onDropCard, onDragEnd, keyboardMove, refused, resync }: ListColumnProps) {
  const cardsRef = useRef<HTMLOListElement>(null);
  const labels = new Map(board.labels.map((l) => [l.id, l]));
  const members = new Map(board.members.map((m) => [m.userId, m]));
  const shown = list.cards.filter((c) => !(dragging?.kind === 'card' && dragging.id === c.id && target !== null));
  const headingId = `list-${list.id}-name`;

  return (
    <section class="list" data-list-id={list.id} aria-labelledby={headingId}>
      <header
        class="list-head"
        draggable={canEdit}
        onDragStart={(e) => {
          e.dataTransfer!.setData('text/plain', `list:${list.id}`);
          e.dataTransfer!.effectAllowed = 'move';
          setDragging({ kind: 'list', id: list.id });
        }}
        onDragEnd={onDragEnd}
      >
        <ListName list={list} canEdit={canEdit} headingId={headingId} refused={refused} resync={resync} />
        <span class="count" aria-label={plural(list.cards.length, 'card')}>
          {list.cards.length}
        </span>
      </header>
      <ol
        class="cards"
        ref={cardsRef}
        aria-labelledby={headingId}
        onDragOver={(e) => {
          if (dragging?.kind !== 'card') return;
          e.preventDefault();
          e.stopPropagation();
          const tiles = [...cardsRef.current!.querySelectorAll('[data-card-id]')].filter((el) => el.getAttribute('data-card-id') !== String(dragging.id));
          setTarget(dropIndex(tiles, e.clientY, 'y'));
        }}
        onDrop={(e) => {
          if (dragging?.kind !== 'card' || target === null) return;
          e.preventDefault();
          e.stopPropagation();
          onDropCard(dragging.id, target);
        }}
      >
        {shown.map((card, index) => (
          <Fragment key={card.id}>
            {target === index && <li class="drop-slot" aria-hidden="true" />}
            <CardTile
              card={card}
              labels={card.labelIds.map((id) => labels.get(id)).filter((l): l is Label => !!l)}
              members={card.memberIds.map((id) => members.get(id)).filter((m): m is Member => !!m)}
              canEdit={canEdit}
              dragged={dragging?.kind === 'card' && dragging.id === card.id}
              onDragStart={() => setDragging({ kind: 'card', id: card.id })}
              onDragEnd={onDragEnd}
              keyboardMove={keyboardMove}
            />
          </Fragment>
        ))}
        {target !== null && target >= shown.length && <li class="drop-slot" aria-hidden="true" />}
      </ol>
      {canEdit && <AddCard listId={list.id} onAdded={resync} refused={refused} />}
    </section>
  );
}

function ListName({ list, canEdit, headingId, refused, resync }: { list: List; canEdit: boolean; headingId: string; refused: (e: unknown) => void; resync: () => Promise<void> }) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(list.name);
  if (!editing)
    return (
      <h2 id={headingId} class="list-name">
        {canEdit ? (
          <button
            type="button"
            class="link"
            title="Rename this list"
            onClick={() => {
              setName(list.name);
              setEditing(true);
            }}
          >
            {list.name}
          </button>
        ) : (
          list.name
        )}
      </h2>
    );
  const save = async () => {
    setEditing(false);
    if (name.trim() === list.name || !name.trim()) return;
    try {
      await patch(`/api/lists/${list.id}`, { name: name.trim() });
      await resync();
    } catch (error) {
      refused(error);
    }
  };
  return (
    <h2 id={headingId} class="list-name">
      <input
        aria-label="List name"
        value={name}
        autoFocus
        onInput={(e) => setName(e.currentTarget.value)}
        onBlur={save}
        onKeyDown={(e) => {
          if (e.key === 'Enter') e.currentTarget.blur();
          if (e.key === 'Escape') setEditing(false);
        }}
      />
    </h2>
  );
}

function CardTile({
  card,
  labels,
  members,
  canEdit,
  dragged,
  onDragStart,
  onDragEnd,
  keyboardMove,
}: {
  card: CardSummary;
  labels: Label[];
  members: Member[];
  canEdit: boolean;
  dragged: boolean;
  onDragStart: () => void;
  onDragEnd: () => void;
  keyboardMove: (card: CardSummary, key: string) => boolean;
}) {
  const overdue = card.dueAt !== null && Date.parse(card.dueAt) < Date.now();
  return (
    <li
      class={dragged ? 'card dragged' : 'card'}
      data-card-id={card.id}
      draggable={canEdit}
      onDragStart={(e) => {
        e.dataTransfer!.setData('text/plain', `card:${card.id}`);
        e.dataTransfer!.effectAllowed = 'move';
        onDragStart();
      }}
      onDragEnd={onDragEnd}
    >
      {labels.length > 0 && (
        <ul class="card-labels" aria-label="Labels">
          {labels.map((l) => (
            <li key={l.id} class={`label ${l.color ?? 'none'}`}>
              {l.name}
            </li>
          ))}
        </ul>
      )}
      <button
        type="button"
        class="card-open"
        aria-keyshortcuts={canEdit ? 'Alt+ArrowUp Alt+ArrowDown Alt+ArrowLeft Alt+ArrowRight' : undefined}
        aria-describedby={canEdit ? 'move-hint' : undefined}
        onClick={() => setQuery('card', String(card.id))}
        onKeyDown={(e) => {
          if (canEdit && e.altKey && keyboardMove(card, e.key)) e.preventDefault();
        }}
      >
        {card.title}
      </button>
      <div class="card-badges">
        {card.dueAt && <span class={overdue ? 'badge warn' : 'badge'}>Due {formatDate(card.dueAt)}</span>}
        {card.checklistItems.total > 0 && (
          <span class="badge" aria-label={`${card.checklistItems.checked} of ${plural(card.checklistItems.total, 'item')} done`}>
            ☑ {card.checklistItems.checked}/{card.checklistItems.total}
          </span>
        )}
        {card.commentCount > 0 && <span class="badge" aria-label={plural(card.commentCount, 'comment')}>
            {/* Drawn, not an emoji: not every system has an emoji font. */}
            <svg class="icon" viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
              <path d="M2 3h12v8H7l-3 3v-3H2z" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round" />
            </svg>{' '}
            {card.commentCount}
          </span>}
        {card.attachmentCount > 0 && (
          <span class="badge" aria-label={plural(card.attachmentCount, 'attachment')}>
            {/* A paper clip, drawn like the comment badge (an emoji is an empty box without a colour-emoji font). */}
            <svg class="icon" viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
              <path d="M10.5 4.5v6a2.5 2.5 0 0 1-5 0V3.75a1.75 1.75 0 0 1 3.5 0V10a1 1 0 0 1-2 0V5" fill="none" stroke="currentColor" stroke-width="1.4" stroke-linecap="round" />
            </svg>{' '}
            {card.attachmentCount}
          </span>
        )}
        {members.map((m) => (
          <span key={m.userId} class="avatar" title={m.name}>
            {initials(m.name)}
          </span>
        ))}
      </div>
    </li>
  );
}

function AddCard({ listId, onAdded, refused }: { listId: number; onAdded: () => Promise<void>; refused: (e: unknown) => void }) {
  const [title, setTitle] = useState('');
  const [open, setOpen] = useState(false);
  if (!open)
    return (
      <button type="button" class="add" onClick={() => setOpen(true)}>
        + Add a card
      </button>
    );
  return (
    <form
      class="add-form"
      onSubmit={async (e) => {
        e.preventDefault();
        if (!title.trim()) return;
        try {
          await post(`/api/lists/${listId}/cards`, { title: title.trim() });
          setTitle('');
          await onAdded();
        } catch (error) {
          refused(error);
        }
      }}
    >
      <label>
        <span class="visually-hidden">Card title</span>
        <textarea
          rows={2}
          value={title}
          autoFocus
          placeholder="Card title"
          onInput={(e) => setTitle(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            }
            if (e.key === 'Escape') setOpen(false);
          }}
        />
      </label>
      <div class="actions">
        <button type="submit" class="primary small">
          Add card
        </button>
        <button type="button" class="small" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function AddList({ boardId, onAdded }: { boardId: number; onAdded: () => Promise<void> }) {
  const [name, setName] = useState('');
  const { error, busy, run } = useAction();
  return (
    <section class="list add-list" aria-label="Add a list">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            await post(`/api/boards/${boardId}/lists`, { name });
            setName('');
            await onAdded();
          });
        }}
      >
        <label>
          New list
          <input value={name} required onInput={(e) => setName(e.currentTarget.value)} placeholder="List name" />
        </label>
        <Alert error={error} />
        <button type="submit" class="small" disabled={busy}>
          Add list
        </button>
      </form>
      <p id="move-hint" class="hint">
        Keyboard: focus a card and press Alt with an arrow key to move it.
      </p>
    </section>
  );
}

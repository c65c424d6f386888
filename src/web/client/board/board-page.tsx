import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, get, patch, post } from '../api';
import { link, navigate, setQuery, useLocation } from '../router';
import { useSession } from '../session';
import type { Activity, Board, CardSummary } from '../types';
import { Alert, Markdown, Notice, PageTitle } from '../ui';
import { ActivityPanel } from './activity';
import { ArchivePanel } from './archive';
import { findCard, withCardMoved, withListMoved } from './board-model';
import type { CardCommand } from './card-dialog';
import { CardDialogLoader } from './card-dialog-loader';
import { type Filter, isActive, matcher, readFilter, writeFilter } from './filter';
import { FilterPanel } from './filter-panel';
import { useBoardEvents } from './live';
import { Lists } from './lists';
import { MembersDialog } from './members';
import { SearchBox } from './search';
import { SettingsDialog } from './settings';
import { ShortcutsDialog, useShortcuts } from './shortcuts';
import { BoardViewLoader, readView, ViewSwitch } from './views';
import { useKeyboardMovedCard } from './keyboard-moved';

type Gone = 'deleted' | 'no-access' | null;

export function BoardPage({ boardId }: { boardId: number }) {
  const { query } = useLocation();
  const openCardId = Number(query.get('card')) || null;
  const { user } = useSession();
  const filter = readFilter(query);
  const view = readView(query);
  // Replaced, not pushed: ticking boxes or typing should not fill the history; the URL is shared as it stands.
  const setFilter = (f: Filter) => {
    const search = writeFilter(new URLSearchParams(location.search), f).toString();
    navigate(location.pathname + (search ? `?${search}` : ''), { replace: true });
  };
  const [board, setBoard] = useState<Board | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [gone, setGone] = useState<Gone>(null);
  const [problem, setProblem] = useState<unknown>(null);
  const [panel, setPanel] = useState<'members' | 'settings' | 'archive' | 'shortcuts' | 'filter' | null>(null);
  // A dialog's close event comes a moment after it closes: a key pressed in between (`?` right after
  // Escape) may already have opened another panel, which closing this one must not take away.
  const closePanel = (which: NonNullable<typeof panel>) => () => setPanel((open) => (open === which ? null : open));
  const [cardCommand, setCardCommand] = useState<CardCommand | null>(null);
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
  const keyboardMoved = useKeyboardMovedCard('.card-open');
  /** What a keyboard move did, said by screen readers (a polite live region): the card's place is otherwise only seen. */
  const [moveSaid, setMoveSaid] = useState('');

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


  useShortcuts({
    openCardId,
    card: (cardId, what) => {
      const tile = board && findCard(board, cardId);
      if (openCardId === null && what === 'archive') {
        // Archived from the board: the tile goes, and the status line says which card went.
        if (!board || board.role === 'observer' || !tile) return;
        setMoveSaid(`Archived “${tile.list.cards[tile.index]!.title}”. Find it under Archived items.`);
        void patch(`/api/cards/${cardId}`, { archived: true }).then(() => resync(), refused);
        return;
      }
      if (openCardId === null) setQuery('card', String(cardId));
      setCardCommand((c) => ({ what, n: (c?.n ?? 0) + 1 }));
    },
    search: () => document.getElementById('board-search')?.focus(),
    filter: () => setPanel('filter'),
    help: () => setPanel('shortcuts'),
  });

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
  const filtering = isActive(filter);
  const visible = filtering ? matcher(filter, board, user.id) : null;
  const total = board.lists.reduce((n, l) => n + l.cards.length, 0);
  const shownCount = visible ? board.lists.reduce((n, l) => n + l.cards.filter(visible).length, 0) : total;
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
    // With a filter on, up and down pass the hidden cards: the card goes past the next one shown.
    const cards = at.list.cards;
    const up = visible ? cards.findLastIndex((c, i) => i < at.index && visible(c)) : at.index - 1;
    const down = visible ? cards.findIndex((c, i) => i > at.index && visible(c)) : at.index + 1;
    if (key === 'ArrowUp' && up >= 0) target = [at.list.id, up];
    if (key === 'ArrowDown' && down > 0 && down < cards.length) target = [at.list.id, down];
    const side = key === 'ArrowLeft' ? board.lists[listIndex - 1] : key === 'ArrowRight' ? board.lists[listIndex + 1] : undefined;
    if (side) target = [side.id, Math.min(at.index, side.cards.length)];
    if (!target) return false;
    const [toList, toIndex] = target;
    const list = board.lists.find((l) => l.id === toList)!;
    const count = list.id === at.list.id ? list.cards.length : list.cards.length + 1;
    setMoveSaid(`Moved “${card.title}” to ${list.name}, position ${toIndex + 1} of ${count}.`);
    keyboardMoved.current = card.id;
    void moveCard(card.id, target[0], target[1]);
    return true;
  };

  return (
    <main class={`board-page board-bg bg-${board.color}`} data-board-color={board.color}>
      <p class="visually-hidden" role="status" aria-live="polite" data-testid="move-announcement">
        {moveSaid}
      </p>
      <header class="board-head">
        <PageTitle>{board.name}</PageTitle>
        <span class="badge" title="Your role on this board">
          {board.role}
        </span>
        {board.archived && <span class="badge warn">Archived</span>}
        <LiveIndicator status={status} />
        <ViewSwitch view={view} />
        <div class="board-tools">
          <SearchBox boardId={boardId} onOpen={(id) => setQuery('card', String(id))} />
          <button type="button" aria-pressed={filtering} aria-keyshortcuts="f" onClick={() => setPanel('filter')}>
            Filter
          </button>
          <button type="button" onClick={() => setPanel('members')}>
            Members ({board.members.length})
          </button>
          <button type="button" ref={activityButton} aria-pressed={showActivity} onClick={toggleActivity}>
            Activity
          </button>
          <button type="button" onClick={() => setPanel('archive')}>
            Archived items
          </button>
          {isAdmin && (
            <button type="button" onClick={() => setPanel('settings')}>
              Settings
            </button>
          )}
        </div>
      </header>
      {board.description && <Markdown text={board.description} class="lead board-description" />}
      {!canEdit && <Notice>You are an observer on this board: you can read and comment.</Notice>}
      <Alert error={problem} onDismiss={() => setProblem(null)} />
      {filtering && panel !== 'filter' && (
        <div class="filter-bar">
          <p role="status">
            Showing {shownCount} of {total} cards
          </p>
          <button type="button" onClick={() => setPanel('filter')}>
            Change filter
          </button>
          <button type="button" onClick={() => setFilter({ labels: [], members: [], due: [], q: '' })}>
            Clear filters
          </button>
        </div>
      )}
      <div class="board-body">
        {view === 'board' ? (
          <Lists visible={visible} board={board} canEdit={canEdit} moveCard={moveCard} moveList={moveList} keyboardMove={keyboardMove} refused={refused} resync={resync} />
        ) : (
          <BoardViewLoader view={view} board={board} visible={visible} canEdit={canEdit} openCard={(id) => setQuery('card', String(id))} refused={refused} resync={resync} />
        )}
        {showActivity && <ActivityPanel board={board} live={liveEvents} onClose={closeActivity} openCard={(id) => setQuery('card', String(id))} />}
      </div>
      {openCardId !== null && (
        <CardDialogLoader
          key={openCardId}
          cardId={openCardId}
          board={board}
          version={cardVersion}
          onClose={() => {
            setCardCommand(null);
            setQuery('card', null);
          }}
          onChanged={resync}
          moveCard={moveCard}
          command={cardCommand}
        />
      )}
      {panel === 'members' && <MembersDialog board={board} onClose={closePanel('members')} onChanged={resync} lastEvent={liveEvents[0]} />}
      {panel === 'filter' && <FilterPanel board={board} filter={filter} me={user.id} shown={shownCount} total={total} onChange={setFilter} onClose={closePanel('filter')} />}
      {panel === 'shortcuts' && <ShortcutsDialog onClose={closePanel('shortcuts')} />}
      {panel === 'settings' && <SettingsDialog board={board} onClose={closePanel('settings')} onChanged={resync} />}
      {panel === 'archive' && (
        <ArchivePanel
          board={board}
          onClose={closePanel('archive')}
          onChanged={resync}
          openCard={(id) => {
            setPanel(null);
            setQuery('card', String(id));
          }}
        />
      )}
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

import { Fragment } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { patch, post } from '../api';
import type { Board, CardSummary, Label, List, Member } from '../types';
import { Columns3 } from 'lucide';
import { Alert, EmptyState, plural, useAction, useFocusOnMount } from '../ui';
import { dropIndex } from './board-model';
import { CardTile } from './card-tile';
import { ListActions } from './list-actions';
import { useTouchCardDrag } from './touch-drag';

type Dragging = { kind: 'card'; id: number } | { kind: 'list'; id: number } | null;

interface ListsProps {
  board: Board;
  canEdit: boolean;
  moveCard: (cardId: number, listId: number, index: number) => Promise<void>;
  moveList: (listId: number, index: number) => Promise<void>;
  keyboardMove: (card: CardSummary, key: string) => boolean;
  refused: (error: unknown) => void;
  resync: () => Promise<void>;
  /** The board's filter: cards it does not match are not shown (their lists stay). */
  visible?: ((card: CardSummary) => boolean) | null;
}

/** The board's columns in order, each list's cards, and drag-and-drop of both; editors add lists. */
export function Lists({ board, canEdit, moveCard, moveList, keyboardMove, refused, resync, visible = null }: ListsProps) {
  const [dragging, setDragging] = useState<Dragging>(null);
  const [target, setTarget] = useState<{ listId: number; index: number } | null>(null);
  const [listTarget, setListTarget] = useState<number | null>(null);
  const container = useRef<HTMLDivElement>(null);
  const end = () => {
    setDragging(null);
    setTarget(null);
    setListTarget(null);
  };
  // On a touch screen a long press lifts a card (touch-drag.ts); where it would land is shown as
  // a mouse drag shows it (the dragged tile gone, a slot in its new place).
  const touchCard = useRef<number | null>(null);
  const touchTarget = useRef<{ listId: number; index: number } | null>(null);
  const touch = useTouchCardDrag(canEdit, container, {
    start: (cardId) => {
      touchCard.current = cardId;
      touchTarget.current = null;
      setDragging({ kind: 'card', id: cardId });
    },
    over: (x, y) => {
      const cardId = touchCard.current;
      const column = document.elementFromPoint(x, y)?.closest<HTMLElement>('.list[data-list-id]');
      if (cardId === null || !column || !container.current?.contains(column)) return;
      const tiles = [...column.querySelectorAll('ol.cards [data-card-id]')].filter((el) => el.getAttribute('data-card-id') !== String(cardId));
      const at = { listId: Number(column.dataset.listId), index: dropIndex(tiles, y, 'y') };
      const was = touchTarget.current;
      if (was && was.listId === at.listId && was.index === at.index) return;
      touchTarget.current = at;
      setTarget(at);
    },
    drop: () => {
      const cardId = touchCard.current;
      const at = touchTarget.current;
      const list = at && board.lists.find((l) => l.id === at.listId);
      if (cardId !== null && at && list) void moveCard(cardId, list.id, dropAt(list, visible, at.index, cardId));
      touchCard.current = null;
      touchTarget.current = null;
      end();
    },
    cancel: () => {
      touchCard.current = null;
      touchTarget.current = null;
      end();
    },
  });

  return (
    <div
      class="lists"
      ref={container}
      {...touch}
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
      {board.lists.length === 0 && (
        <EmptyState icon={Columns3} title="This board has no lists yet." testId="empty-board">
          {canEdit ? 'Start with a list for each stage of your work (To do, Doing, Done): name the first one under “New list”.' : 'Its admins and members add the lists; they show here as soon as they do.'}
        </EmptyState>
      )}
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
          visible={visible}
        />
      ))}
      {canEdit && <AddList boardId={board.id} onAdded={resync} />}
    </div>
  );
}

/**
 * A drop's index among a list's shown tiles, as an index among all the list's cards but the
 * dragged one (what a move takes): with a filter on, before the shown card it fell before, else
 * after the last shown one.
 */
function dropAt(list: List, visible: ((card: CardSummary) => boolean) | null, index: number, cardId: number) {
  if (!visible) return index;
  const rest = list.cards.filter((c) => c.id !== cardId);
  const shown = rest.filter(visible);
  const before = shown[index];
  if (before) return rest.indexOf(before);
  const last = shown.at(-1);
  return last ? rest.indexOf(last) + 1 : rest.length;
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
  visible: ((card: CardSummary) => boolean) | null;
}

function ListColumn({ list, board, canEdit, dragging, setDragging, target, setTarget, onDropCard, onDragEnd, keyboardMove, refused, resync, visible }: ListColumnProps) {
  const cardsRef = useRef<HTMLOListElement>(null);
  const labels = new Map(board.labels.map((l) => [l.id, l]));
  const members = new Map(board.members.map((m) => [m.userId, m]));
  const shown = list.cards.filter((c) => !(dragging?.kind === 'card' && dragging.id === c.id && target !== null) && (!visible || visible(c)));
  const headingId = `list-${list.id}-name`;
  const [actions, setActions] = useState(false);

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
        {canEdit && (
          <button type="button" class="icon list-menu" aria-label={`List actions: ${list.name}`} title="List actions" onClick={() => setActions(true)}>
            …
          </button>
        )}
      </header>
      {actions && <ListActions list={list} board={board} onClose={() => setActions(false)} onChanged={resync} />}
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
          onDropCard(dragging.id, dropAt(list, visible, target, dragging.id));
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
      {list.cards.length === 0 && target === null && (
        <p class="empty-list" data-testid="empty-list">
          No cards yet.{canEdit ? ' Add the first with “+ Add a card”, or drag one here.' : ''}
        </p>
      )}
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
      <ListNameInput
        value={name}
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

function AddCard({ listId, onAdded, refused }: { listId: number; onAdded: () => Promise<void>; refused: (e: unknown) => void }) {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const closed = useRef(false);
  useEffect(() => {
    // Closed with Escape or Cancel, the keyboard stays where it was: on "+ Add a card".
    if (!open && closed.current) opener.current?.focus();
  }, [open]);
  if (!open)
    return (
      <button type="button" class="add" ref={opener} onClick={() => setOpen(true)}>
        + Add a card
      </button>
    );
  return (
    <AddCardForm
      listId={listId}
      onAdded={onAdded}
      refused={refused}
      onClose={() => {
        closed.current = true;
        setOpen(false);
      }}
    />
  );
}

/** The open "+ Add a card" box: its textarea takes focus each time it opens. */
function AddCardForm({ listId, onAdded, refused, onClose }: { listId: number; onAdded: () => Promise<void>; refused: (e: unknown) => void; onClose: () => void }) {
  const [title, setTitle] = useState('');
  const box = useFocusOnMount<HTMLTextAreaElement>();
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
          ref={box}
          value={title}
          placeholder="Card title"
          onInput={(e) => setTitle(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            }
            if (e.key === 'Escape') onClose();
          }}
        />
      </label>
      <div class="actions">
        <button type="submit" class="primary small">
          Add card
        </button>
        <button type="button" class="small" onClick={onClose}>
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

/** The list-name box: focused when renaming starts (every time, not only the first). */
function ListNameInput(props: { value: string; onInput: (e: { currentTarget: HTMLInputElement }) => void; onBlur: () => void; onKeyDown: (e: KeyboardEvent & { currentTarget: HTMLInputElement }) => void }) {
  const ref = useFocusOnMount<HTMLInputElement>();
  return <input aria-label="List name" ref={ref} {...props} />;
}

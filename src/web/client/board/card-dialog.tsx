import { useEffect, useState } from 'preact/hooks';
import { WatchToggle } from '../notifications/watch-toggle';
import { ApiError, get, patch } from '../api';
import type { Board, Card } from '../types';
import { Alert, Modal, Notice } from '../ui';
import { CardActions, MoveCard } from './card-dialog/actions';
import { Assignees } from './card-dialog/assignees';
import { Attachments } from './card-dialog/attachments';
import { Checklists } from './card-dialog/checklists';
import { Comments } from './card-dialog/comments';
import { CardTitle, Description } from './card-dialog/description';
import { DueDate } from './card-dialog/due-date';
import { Fields } from './card-dialog/fields';
import { Labels } from './card-dialog/labels';
import { ReplyToCustomer } from './card-dialog/reply-to-customer';
import type { Opened } from './card-dialog/part';

/** A keyboard shortcut for the open card (shortcuts.tsx); `n` tells a second press of the same key from the first. */
export interface CardCommand {
  what: Opened | 'archive';
  n: number;
}

interface Props {
  cardId: number;
  board: Board;
  /** Bumped when a live event concerns this card: the dialog fetches it again. */
  version: number;
  onClose: () => void;
  onChanged: () => Promise<void>;
  moveCard: (cardId: number, listId: number, index: number) => Promise<void>;
  command: CardCommand | null;
}

/**
 * A card opened from the board (?card=<id>), laid out as Trello's card back: the title edited in
 * place, then compact sections (labels, members, due date), the description, checklists,
 * attachments and comments; actions at the side. Each change is sent at once and answered with the card.
 */
export function CardDialog({ cardId, board, version, onClose, onChanged, moveCard, command }: Props) {
  const [card, setCard] = useState<Card | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [gone, setGone] = useState(false);
  const [opened, setOpened] = useState<Opened | null>(null);
  const canEdit = board.role !== 'observer';

  const reload = async () => {
    try {
      setCard(await get<Card>(`/api/cards/${cardId}`));
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) setGone(true);
      else setError(e);
    }
  };
  useEffect(() => void reload(), [cardId, version]);

  /** Every change goes through here: the card the server answers replaces ours; a refusal is shown and both views re-read. */
  const change = async (action: () => Promise<unknown>) => {
    setError(null);
    try {
      const result = await action();
      if (result && typeof result === 'object' && 'checklists' in result) setCard(result as Card);
      else await reload();
      await onChanged();
      return true;
    } catch (e) {
      // Re-read first, then say so: "the card below is the latest version" is true once it is shown,
      // and a save made on reading it goes over that version (not the one just refused).
      await reload();
      setError(e instanceof ApiError && e.status === 409 ? new ApiError(409, `${e.message}. The card below is the latest version.`) : e);
      // Not awaited: the section that asked may take the next try as soon as the refusal shows, not
      // once the whole board is re-read (seconds on a busy machine, during which a save was ignored).
      void onChanged();
      return false;
    }
  };

  useEffect(() => {
    if (!command || !canEdit) return;
    if (command.what !== 'archive') setOpened(command.what);
    else if (card && !card.archived) void change(() => patch(`/api/cards/${card.id}`, { archived: true }));
  }, [command?.n]);

  if (gone)
    return (
      <Modal title="Card" onClose={onClose}>
        <Notice>This card no longer exists.</Notice>
      </Modal>
    );
  if (!card)
    return (
      <Modal title="Card" onClose={onClose}>
        <Alert error={error} />
        {!error && <p>Loading…</p>}
      </Modal>
    );

  const list = board.lists.find((l) => l.id === card.listId);
  const part = { card, canEdit, change };
  // From the state as it is when called, not as it was when the part rendered: a due date's save answered after `e`
  // opened the title closed the title with it (its onOpen(false) saw `opened` still 'due').
  const openable = (what: Opened) => ({ open: opened === what, onOpen: (open: boolean) => setOpened((current) => (open ? what : current === what ? null : current)) });
  return (
    <Modal title={card.title} heading={<CardTitle {...part} {...openable('title')} />} onClose={onClose} wide>
      <p class="hint card-where">
        in list <strong>{list?.name ?? '(archived list)'}</strong>
        {card.archived && <span class="badge warn">Archived</span>}
      </p>
      <Alert error={error} onDismiss={() => setError(null)} />
      <div class="card-detail card-back">
        <div class="card-main">
          <div class="compacts">
            <Labels {...part} board={board} {...openable('labels')} />
            <Assignees {...part} board={board} {...openable('members')} />
            <DueDate {...part} {...openable('due')} />
          </div>
          {/* The card's sections, top to bottom: a new one takes a Part (card-dialog/part.ts) and goes here. */}
          <Description {...part} />
          <Checklists {...part} />
          <Attachments {...part} />
          <ReplyToCustomer {...part} />
          <Comments card={card} board={board} change={change} />
        </div>
        <aside class="card-side">
          <WatchToggle cardId={card.id} />
          <Fields {...part} board={board} />
          {canEdit && <MoveCard card={card} board={board} moveCard={async (l, i) => change(() => moveCard(card.id, l, i))} />}
          {canEdit && <CardActions card={card} board={board} change={change} onDeleted={onClose} />}
        </aside>
      </div>
    </Modal>
  );
}

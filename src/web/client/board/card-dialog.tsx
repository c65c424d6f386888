import { useEffect, useState } from 'preact/hooks';
import { WatchToggle } from '../notifications/watch-toggle';
import { ApiError, get } from '../api';
import type { Board, Card } from '../types';
import { Alert, Modal, Notice } from '../ui';
import { CardActions, MoveCard } from './card-dialog/actions';
import { Assignees } from './card-dialog/assignees';
import { Attachments } from './card-dialog/attachments';
import { Checklists } from './card-dialog/checklists';
import { Comments } from './card-dialog/comments';
import { TitleAndDescription } from './card-dialog/description';
import { DueDate } from './card-dialog/due-date';
import { Fields } from './card-dialog/fields';
import { Labels } from './card-dialog/labels';
import { ReplyToCustomer } from './card-dialog/reply-to-customer';

interface Props {
  cardId: number;
  board: Board;
  /** Bumped when a live event concerns this card: the dialog fetches it again. */
  version: number;
  onClose: () => void;
  onChanged: () => Promise<void>;
  moveCard: (cardId: number, listId: number, index: number) => Promise<void>;
}

/** A card opened from the board (?card=<id>): every part of it, each change sent at once and answered with the card. */
export function CardDialog({ cardId, board, version, onClose, onChanged, moveCard }: Props) {
  const [card, setCard] = useState<Card | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [gone, setGone] = useState(false);
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
      setError(e instanceof ApiError && e.status === 409 ? new ApiError(409, `${e.message}. The card below is the latest version.`) : e);
      await reload();
      await onChanged();
      return false;
    }
  };

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
  return (
    <Modal title={card.title} onClose={onClose} wide>
      <p class="hint">
        In list <strong>{list?.name ?? '(archived list)'}</strong>
        {card.archived && <span class="badge warn">Archived</span>}
      </p>
      <Alert error={error} onDismiss={() => setError(null)} />
      <div class="card-detail">
        <div class="card-main">
          <TitleAndDescription card={card} canEdit={canEdit} change={change} />
          <Checklists card={card} canEdit={canEdit} change={change} />
          <Attachments card={card} canEdit={canEdit} change={change} />
          <ReplyToCustomer card={card} canEdit={canEdit} change={change} />
          <Comments card={card} board={board} change={change} />
        </div>
        <aside class="card-side">
          <WatchToggle cardId={card.id} />
          <DueDate card={card} canEdit={canEdit} change={change} />
          <Labels card={card} board={board} canEdit={canEdit} change={change} />
          <Assignees card={card} board={board} canEdit={canEdit} change={change} />
          <Fields card={card} board={board} canEdit={canEdit} change={change} />
          {canEdit && <MoveCard card={card} board={board} moveCard={async (l, i) => change(() => moveCard(card.id, l, i))} />}
          {canEdit && <CardActions card={card} board={board} change={change} onDeleted={onClose} />}
        </aside>
      </div>
    </Modal>
  );
}

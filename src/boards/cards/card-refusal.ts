import type { ActivityData } from '../activity/activity-types.js';
import type { InsertedActivity } from '../activity/change-board.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { crossBoardRefusal, roleRefusal, type BoardAction, type BoardRole } from '../policy.js';
import { positionRefusal } from '../target-position.js';
import type { CardView } from '../schemas.js';
import { versionConflict } from '../lock-card.js';

/** An activity a card statement recorded, as activity/sql/record-activities.sql's tb_record_activities answers it. */
type StatementActivity<T extends 'card.moved' | 'card.updated' | 'card.archived'> = Omit<InsertedActivity, 'createdAt' | 'type' | 'data'> & {
  type: T;
  /** Built in SQL (tb_card_data, move-card.sql's from/to); its type is activity-types.ts's, the one definition. */
  data: ActivityData<T>;
  createdAt: string;
};

/** Why a card statement wrote nothing: everything needed to word the refusal, so no check runs twice. */
export type CardRefusal =
  | { error: 'hooked' }
  | { error: 'retry' }
  | { error: 'card_archived' | 'list_archived' | 'list_archived_restore' }
  | { error: 'not_found'; what: 'card' | 'list' }
  | { error: 'forbidden'; role: BoardRole; action: BoardAction }
  | { error: 'cross_board'; from: number; to: number }
  | { error: 'version'; expected: number; version: number }
  | { error: 'position'; max: number };

/** What sql/move-card.sql and sql/update-card.sql answer: the card and its activities, or a refusal. */
export type CardOutcome<T extends 'card.moved' | 'card.updated' | 'card.archived'> = { card: CardView; activities: StatementActivity<T>[] } | CardRefusal;

/**
 * The 400 for a card added to an archived list (created, copied or moved there), whichever write
 * finds it; `field` is the caller's: the path's list or the body's listId.
 */
export const listArchivedRefusal = (field: 'list' | 'listId') => badRequest(`${field}: the list is archived; restore it before adding cards to it`);

/** The error a refusal becomes: the same words as the TypeScript checks (policy.ts, target-position.ts, lock-card.ts) use. */
export function refusalError(refusal: Exclude<CardRefusal, { error: 'hooked' | 'retry' }>): Error {
  switch (refusal.error) {
    case 'not_found':
      return notFound(`${refusal.what}: not found`);
    case 'forbidden':
      return roleRefusal(refusal.role, refusal.action);
    case 'cross_board':
      return crossBoardRefusal();
    case 'version':
      return versionConflict(refusal.expected, refusal.version);
    case 'card_archived':
      return badRequest('card: is archived; restore it before moving it');
    case 'list_archived':
      return listArchivedRefusal('listId');
    case 'list_archived_restore':
      return badRequest('card: its list is archived and the board has no open list; restore or create a list first');
    case 'position':
      return positionRefusal(refusal.max);
  }
}

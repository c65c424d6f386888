import { type ActivityView, activity } from './activity-types.js';

// The schema and its type live with the list of activity types; re-exported for the modules that present activities.
export { activity, type ActivityView };

/**
 * An activity row as the log and the stream send it. Its `type` and `data` are what a typed
 * `record(…)` call wrote (src/boards/activity/change-board.ts), so the row is presented as it is.
 */
export interface ActivityRow {
  id: number;
  boardId: number;
  type: string;
  actorUserId: number | null;
  actorKeyId: number | null;
  actorName: string;
  actorClient: string | null;
  data: unknown;
  createdAt: Date;
}

export function presentActivity(a: ActivityRow): ActivityView {
  return {
    id: a.id,
    boardId: a.boardId,
    type: a.type,
    actor: { userId: a.actorUserId, name: a.actorName, keyId: a.actorKeyId, client: a.actorClient },
    data: a.data,
    createdAt: a.createdAt.toISOString(),
  } as ActivityView;
}

import { z } from 'zod';

export const activity = z
  .object({
    id: z.number().int().describe('Activity id; also the event id of the live stream.'),
    boardId: z.number().int().describe('The board it happened on.'),
    type: z.string().describe('resource.verb, e.g. card.moved.'),
    actor: z
      .object({
        userId: z.number().int().nullable().describe('Who did it (null: an operator through the admin CLI).'),
        name: z.string().describe('Their name at the time.'),
        keyId: z.number().int().nullable().describe('The API key used, or null (web session, CLI).'),
      })
      .describe('Actor'),
    data: z.record(z.string(), z.unknown()).describe('The ids involved and the changed object as presented; moves add from and to.'),
    createdAt: z.string().describe('ISO-8601 UTC.'),
  })
  .describe('Activity');
export type ActivityView = z.infer<typeof activity>;

export function presentActivity(a: {
  id: number;
  boardId: number;
  type: string;
  actorUserId: number | null;
  actorKeyId: number | null;
  actorName: string;
  data: unknown;
  createdAt: Date;
}): ActivityView {
  return {
    id: a.id,
    boardId: a.boardId,
    type: a.type,
    actor: { userId: a.actorUserId, name: a.actorName, keyId: a.actorKeyId },
    data: a.data as Record<string, unknown>,
    createdAt: a.createdAt.toISOString(),
  };
}

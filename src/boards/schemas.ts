import { z } from 'zod';
import { activity } from '../events/present-activity.js';
import { id, idParams, text } from '../platform/schemas.js';

export const boardId = idParams('Board');
export const listId = idParams('List');
export const cardId = idParams('Card');
export const memberParams = z.strictObject({
  id: idParams('Board').shape.id,
  userId: idParams('User').shape.id,
});

export const role = z.enum(['admin', 'member', 'observer'], { message: 'must be admin, member or observer' }).describe('Role on the board.');

const limitText = (min: number, max: number) =>
  text()
    .trim()
    .min(min, { message: `must be ${min}-${max} characters` })
    .max(max, { message: `must be ${min}-${max} characters` });

export const boardName = limitText(1, 100).describe('1-100 characters.');
export const listName = limitText(1, 100).describe('1-100 characters.');
export const cardTitle = limitText(1, 512).describe('1-512 characters.');
export const description = text().max(16_384, { message: 'must be at most 16384 characters' }).describe('Up to 16,384 characters.');
export const position = z
  .number({ message: 'must be a whole number' })
  .int({ message: 'must be a whole number' })
  .min(0, { message: 'must be 0 or more' })
  .describe('Zero-based index among the non-archived siblings; omitted = the end.');
export const version = z
  .number({ message: 'must be a whole number' })
  .int({ message: 'must be a whole number' })
  .min(1, { message: 'must be 1 or more' })
  .describe('Apply only if the card is still at this version (else 409); the same as If-Match.');

export const board = z
  .object({
    id: z.number().int().describe('Board id.'),
    name: z.string().describe('1-100 characters.'),
    description: z.string().describe('Up to 16,384 characters.'),
    archived: z.boolean().describe('Archived boards are listed with ?archived=true and stay reachable by id.'),
    role: role.describe("The caller's role on the board."),
    createdAt: z.string().describe('ISO-8601 UTC.'),
    updatedAt: z.string().describe('ISO-8601 UTC.'),
  })
  .describe('Board');
export type BoardView = z.infer<typeof board>;

export const member = z
  .object({
    userId: z.number().int().describe('User id.'),
    name: z.string().describe('Display name.'),
    email: z.string().describe('E-mail address.'),
    role,
  })
  .describe('Member');
export type MemberView = z.infer<typeof member>;

export const list = z
  .object({
    id: z.number().int().describe('List id.'),
    boardId: z.number().int().describe('Its board.'),
    name: z.string().describe('1-100 characters.'),
    position: z.number().int().describe('Index among the non-archived lists (for an archived list: the one it had when archived).'),
    archived: z.boolean().describe('Archived lists are listed by GET /boards/{id}/archived.'),
  })
  .describe('List');
export type ListView = z.infer<typeof list>;

export const cardSummary = z
  .object({
    id: z.number().int().describe('Card id.'),
    boardId: z.number().int().describe('Its board.'),
    listId: z.number().int().describe('Its list.'),
    title: z.string().describe('1-512 characters.'),
    description: z.string().describe('Up to 16,384 characters.'),
    position: z.number().int().describe('Index among the non-archived cards of the list (for an archived card: the one it had).'),
    archived: z.boolean().describe('Archived cards are listed by GET /boards/{id}/archived.'),
    dueAt: z.string().nullable().describe('Due date, ISO-8601 UTC, or null.'),
    labelIds: z.array(z.number().int()).describe('Labels on the card.'),
    memberIds: z.array(z.number().int()).describe('Assigned members.'),
    fieldValues: z.record(z.string(), z.unknown()).describe('Custom-field values by field id.'),
    checklistItems: z.object({ total: z.number().int(), checked: z.number().int() }).describe('Checklist progress.'),
    commentCount: z.number().int().describe('Comments on the card.'),
    attachmentCount: z.number().int().describe('Attachments on the card.'),
    createdAt: z.string().describe('ISO-8601 UTC.'),
    updatedAt: z.string().describe('ISO-8601 UTC.'),
    version: z.number().int().describe('Grows with every change; the ETag of card responses.'),
  })
  .describe('CardSummary');
export type CardSummaryView = z.infer<typeof cardSummary>;

export const card = cardSummary
  .extend({
    checklists: z.array(z.unknown()).describe('Checklists with their items.'),
    comments: z.array(z.unknown()).describe('The newest 50 comments, newest first.'),
    attachments: z.array(z.unknown()).describe('Attachments.'),
  })
  .describe('Card');
export type CardView = z.infer<typeof card>;

export const boardDetail = board
  .extend({
    lists: z.array(list.extend({ cards: z.array(cardSummary) })).describe('Non-archived lists by position, each with its non-archived cards by position.'),
    labels: z.array(z.unknown()).describe("The board's labels."),
    customFields: z.array(z.unknown()).describe("The board's custom-field definitions."),
    members: z.array(member).describe('Members and their roles.'),
  })
  .describe('BoardDetail');

export const invitation = z
  .object({
    email: z.string().describe('The invited address.'),
    role,
    expiresAt: z.string().describe('ISO-8601 UTC; the invitation lapses then.'),
  })
  .describe('Invitation');

export const activities = z.object({
  activities: z.array(activity).describe('Newest first.'),
  nextBefore: z.number().int().nullable().describe('Pass as ?before= for the next (older) page; null on the last page.'),
});

export const listIdInBody = id('List');
export const boardIdInBody = id('Board');

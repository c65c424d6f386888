import { z } from 'zod';
import { idParams, text } from '../platform/schemas.js';

export const boardId = idParams('Board');

export const role = z.enum(['admin', 'member', 'observer']).describe('Role on the board.');

export const board = z
  .object({
    id: z.number().int().describe('Board id.'),
    name: z.string().describe('1-100 characters.'),
    description: z.string().describe('Up to 16,384 characters.'),
    archived: z.boolean().describe('Archived boards are listed with ?archived=true.'),
    role: role.describe('The caller\'s role on the board.'),
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

export const boardName = text()
  .trim()
  .min(1, { message: 'must be 1-100 characters' })
  .max(100, { message: 'must be 1-100 characters' })
  .describe('1-100 characters.');

export const description = text()
  .max(16_384, { message: 'must be at most 16384 characters' })
  .describe('Up to 16,384 characters.');

export const boardDetail = board
  .extend({
    lists: z.array(z.unknown()).describe('Non-archived lists by position, each with its non-archived cards.'),
    labels: z.array(z.unknown()).describe('The board\'s labels.'),
    customFields: z.array(z.unknown()).describe('The board\'s custom-field definitions.'),
    members: z.array(member).describe('Members and their roles.'),
  })
  .describe('BoardDetail');

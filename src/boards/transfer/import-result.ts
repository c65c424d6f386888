import { z } from 'zod';
import * as s from '../schemas.js';
import { unmappedEntry } from './import-report.js';

/* The answer of POST /boards/import, apart from the import so the web client can take its type. */

export const importSummary = z
  .object({
    lists: z.number().int().describe('Lists, archived ones included.'),
    archivedLists: z.number().int(),
    cards: z.number().int().describe('Cards, archived ones included.'),
    archivedCards: z.number().int(),
    labels: z.number().int(),
    customFields: z.number().int(),
    checklists: z.number().int(),
    checklistItems: z.number().int(),
    comments: z.number().int(),
    members: z.number().int().describe('People the file names (members and comment authors).'),
    matchedMembers: z.number().int().describe('Of those, matched to users here (automatically with matchMembers=true, or as `members` chose).'),
  })
  .meta({ id: 'ImportSummary', description: 'What the import creates (or would create, with dryRun).' });

export const importMember = z
  .object({
    key: z.string().describe("The member's key in the file (a Trello member id): the key of `members` in the import request."),
    name: z.string().describe('Their name in the file.'),
    username: z.string().nullable().describe('Their Trello username, or null.'),
    role: s.role.nullable().describe("Their role on the file's board (a matched admin joins as a member); null: not a member, only the author of comments."),
    cards: z.number().int().describe('Cards they are assigned to.'),
    comments: z.number().int().describe('Comments they wrote.'),
    match: z
      .object({
        userId: z.number().int().describe('The user here.'),
        name: z.string().describe("The user's name here."),
        by: z.enum(['email', 'username', 'name', 'chosen']).describe('email: the same address; username: their Trello username is the part before @ of the address; name: the same full name; chosen: the request\'s `members` said so.'),
      })
      .nullable()
      .describe('Who they are here: they become assignees and the authors of their comments (with the date the file says); null: not matched (their comments show their name marked "(from Trello)"; their cards name them).'),
  })
  .meta({ id: 'ImportMember', description: 'A person the file names, and the user here they are matched to.' });

export const importCandidate = z
  .object({ userId: z.number().int().describe('User id.'), name: z.string().describe('Their name.'), email: z.string().describe('Their e-mail address.') })
  .meta({ id: 'ImportCandidate', description: 'A user a member may be matched to: you, or someone you share a board with.' });

export const importResult = z
  .object({
    board: s.board.nullable().describe('The new board; null with dryRun=true (nothing was created).'),
    source: z.enum(['trello', 'taskboard']).describe('The file\'s format: a Trello board export, or our own board file.'),
    summary: importSummary,
    unmapped: z.array(unmappedEntry).describe('What could not be carried over, by kind.'),
    members: z.array(importMember).describe("The file's people (members and comment authors) and their matches."),
    candidates: z
      .array(importCandidate)
      .describe('Whom `members` may match them to, by name (at most 500 listed; a matched user always is): you and the people you share a board with.'),
  })
  .meta({ id: 'ImportResult' });
export type ImportResult = z.infer<typeof importResult>;

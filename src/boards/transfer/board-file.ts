import { z } from 'zod';
import { text } from '../../platform/schemas.js';
import { parseDueDate } from '../parse-due-date.js';
import * as s from '../schemas.js';

/*
 * Our own board file: what GET /boards/{id}/export sends and POST /boards/import takes back. Rows
 * refer to each other by `key` (any string unique within its array; an export uses the ids), so
 * a file imports into a new board with new ids. The Trello import maps an export to this shape
 * first: one writer (write-board-file.ts) and one set of rules for both.
 */

export const BOARD_FILE_FORMAT = 'taskboard-board';

const key = (what: string) => text().min(1, { message: 'must be 1-64 characters' }).max(64, { message: 'must be 1-64 characters' }).describe(`${what}: unique within the file.`);
const flag = z.boolean({ message: 'must be true or false' });
const count = (max: number, what: string) => ({ message: `must have at most ${max} ${what}` });
const DATE_MESSAGE = 'must be an ISO-8601 date-time, years 0001-9999';
// The years the rest of the API keeps (parseDueDate): PostgreSQL has no year 0, and such a date was a 500.
const isoDate = z.iso.datetime({ offset: true, message: DATE_MESSAGE }).refine((v) => parseDueDate(v) !== null, { message: DATE_MESSAGE });
const index = z.number({ message: 'must be a whole number' }).int({ message: 'must be a whole number' }).min(0, { message: 'must be 0 or more' }).max(1_000_000, { message: 'must be at most 1000000' });

const fileLabel = z
  .strictObject({ key: key('The label\'s key'), name: s.labelName, color: s.labelColor, shade: s.labelShade.optional().describe('Omitted (files written before shades): null.') })
  .refine((l) => !l.shade || l.color !== null, { message: 'a label without a colour has no shade', path: ['shade'] });
const fileField = z.strictObject({ key: key('The field\'s key'), name: s.fieldName, type: s.fieldType, options: s.fieldOptions });
const fileMember = z.strictObject({
  key: key("The member's key"),
  name: text().min(1).max(200).describe('Their name.'),
  email: z.string().max(320).nullable().describe('Their e-mail address, or null (matched to a user here only when the importer asks: matchMembers).'),
  username: z.string().max(100).nullable().optional().describe("A Trello username: matched to the part before @ of a user's address (matchMembers)."),
  role: s.role.nullable().describe('Their role on the board; null: not a member (the author of a comment, say).'),
});
const fileItem = z.strictObject({ name: s.itemName, checked: flag });
const fileChecklist = z.strictObject({ name: s.checklistName, items: z.array(fileItem).max(500, count(500, 'items')).describe('In order.') });
const fileComment = z.strictObject({
  author: key('The author (a key of members)').nullable().describe("The author's member key; null: not a member of the file."),
  authorName: text().min(1).max(200).describe("The author's name when written."),
  text: s.commentText,
  createdAt: isoDate.describe('When it was written.'),
});
/** An http(s) address, as a link attachment keeps it. */
export const linkUrl = z
  .string({ message: 'must be an http(s) address' })
  .max(4096, { message: 'must be at most 4096 characters' })
  .refine((v) => URL.canParse(v) && ['http:', 'https:'].includes(new URL(v).protocol), { message: 'must be an http(s) address' });
const fileAttachment = z.strictObject({
  filename: z.string().max(255),
  mimeType: z.string().max(127),
  size: z.number().int().min(0),
  url: linkUrl.nullable().optional().describe("A link attachment's address (it imports as that link); omitted or null: a file."),
}).describe("An attachment: a file's name, type and size (the bytes are not in the file, and an import reports them as not carried over), or a link with its url.");
const fieldValue = z.union([z.string(), z.number(), z.boolean()]);

const fileCard = z.strictObject({
  title: s.cardTitle,
  description: s.description,
  archived: flag,
  position: index.describe("An archived card's position (kept, as archiving keeps it); the others are placed in the array's order."),
  dueAt: isoDate.nullable(),
  createdAt: isoDate.optional().describe('When the card was made (omitted: at the import).'),
  labels: z.array(key('A label key')).max(100, count(100, 'labels')),
  members: z.array(key('A member key')).max(100, count(100, 'members')).describe('Assignees, by member key.'),
  fieldValues: z.record(z.string(), fieldValue).describe('By field key; values as the field types take them.'),
  checklists: z.array(fileChecklist).max(100, count(100, 'checklists')),
  comments: z.array(fileComment).max(10_000, count(10000, 'comments')).describe('Oldest first.'),
  attachments: z.array(fileAttachment).max(1000, count(1000, 'attachments')),
});

const fileList = z.strictObject({
  name: s.listName,
  archived: flag,
  position: index.describe("An archived list's position (kept); the others are placed in the array's order."),
  cards: z.array(fileCard).max(100_000, count(100000, 'cards')).describe('Non-archived cards by position, then archived ones.'),
});

export const boardFile = z
  .strictObject({
    format: z.literal(BOARD_FILE_FORMAT, { message: `must be "${BOARD_FILE_FORMAT}"` }).describe(`Always "${BOARD_FILE_FORMAT}".`),
    version: z.literal(1, { message: 'must be 1' }).describe('Always 1.'),
    exportedAt: isoDate.optional().describe('When it was exported.'),
    board: z.strictObject({ name: s.boardName, description: s.description, color: s.boardColor.optional().describe('Omitted: the default (blue).'), archived: flag }),
    labels: z.array(fileLabel).max(1000, count(1000, 'labels')),
    customFields: z.array(fileField).max(200, count(200, 'custom fields')),
    members: z.array(fileMember).max(1000, count(1000, 'members')).describe('The board\'s members, and authors of comments who are not.'),
    lists: z.array(fileList).max(5000, count(5000, 'lists')).describe('Non-archived lists by position, then archived ones.'),
  })
  .meta({ id: 'BoardFile', description: 'A whole board as our own export: lists, cards, labels, custom fields, checklists, comments, members.' });

export type BoardFile = z.infer<typeof boardFile>;
export type FileCard = BoardFile['lists'][number]['cards'][number];
export type FileMember = BoardFile['members'][number];

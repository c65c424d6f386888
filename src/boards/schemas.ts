import { z } from 'zod';
import { email } from '../accounts/schemas.js';
import { id, idParams, MAX_ID, queryBoolean, queryInteger, text } from '../platform/schemas.js';
import { parseDueDate } from './parse-due-date.js';

export const boardId = idParams('Board');
export const listId = idParams('List');
export const cardId = idParams('Card');
export const labelId = idParams('Label');
export const checklistId = idParams('Checklist');
export const itemId = idParams('Checklist item');
export const customFieldId = idParams('Custom field');
export const commentId = idParams('Comment');
export const attachmentId = idParams('Attachment');
export const cardLabelParams = z.strictObject({ id: idParams('Card').shape.id, labelId: idParams('Label').shape.id });
export const cardMemberParams = z.strictObject({ id: idParams('Card').shape.id, userId: idParams('User').shape.id });
export const cardFieldParams = z.strictObject({ id: idParams('Card').shape.id, fieldId: idParams('Custom field').shape.id });
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
/**
 * How long a description or a comment may be: the one number for every way text reaches a card
 * (the API, a board file, a CSV or Trello import, a ticket's card), which cut to it with cutText.
 */
export const TEXT_LIMIT = 16_384;
/** The limit as the API's descriptions write it, with a thousands comma. */
const textLimit = TEXT_LIMIT.toLocaleString('en-US');
export const description = text().max(TEXT_LIMIT, { message: `must be at most ${TEXT_LIMIT} characters` }).describe(`Up to ${textLimit} characters.`);
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

const DUE_MESSAGE = 'must be an ISO-8601 date-time, a date (YYYY-MM-DD), or null';
/** A due date as clients send it; the instant stored (a bare date is 00:00 UTC). */
export const dueAtInput = z
  .string({ message: DUE_MESSAGE })
  .nullable()
  .transform((v, ctx) => {
    if (v === null) return null;
    const at = parseDueDate(v);
    if (!at) ctx.addIssue({ code: 'custom', message: DUE_MESSAGE });
    return at ?? z.NEVER;
  })
  .describe(
    'Due date: an ISO-8601 date-time ("2030-01-31T17:00:00+01:00", stored in UTC) or a date ("2030-01-31", as date custom fields take), ' +
      'which means 00:00 UTC of that day; null clears it. Years 0001-9999. Returned as an ISO-8601 UTC date-time.',
  );

/** `?dueBefore=`: an instant, written as due dates are (a bare date is 00:00 UTC). */
export const dueBeforeQuery = z
  .string()
  .transform((v, ctx) => {
    const at = parseDueDate(v);
    if (!at) ctx.addIssue({ code: 'custom', message: 'must be an ISO-8601 date-time or a date (YYYY-MM-DD)' });
    return at ?? z.NEVER;
  })
  .optional()
  .describe('Only cards due strictly before this instant: an ISO-8601 date-time, or a date (YYYY-MM-DD) meaning 00:00 UTC of that day. Cards without a due date are then left out.');

/** A board's colour or background: plain colours, then three gradients (the web app draws them). */
export const BOARD_COLORS = ['blue', 'teal', 'green', 'lime', 'orange', 'red', 'pink', 'purple', 'grey', 'sunset', 'ocean', 'forest'] as const;
export const boardColor = z
  .enum(BOARD_COLORS, { message: `must be one of ${BOARD_COLORS.join(', ')}` })
  .describe('The colour or background the web app shows on the board\'s tile and behind its lists: a plain colour, or a gradient (sunset, ocean, forest).');

export const board = z
  .object({
    id: z.number().int().describe('Board id.'),
    name: z.string().describe('1-100 characters.'),
    description: z.string().describe(`Up to ${textLimit} characters.`),
    color: boardColor,
    archived: z.boolean().describe('Archived boards are listed with ?archived=true and stay reachable by id.'),
    role: role.describe("The caller's role on the board."),
    createdAt: z.string().describe('ISO-8601 UTC.'),
    updatedAt: z.string().describe('ISO-8601 UTC.'),
  })
  .meta({ id: 'Board', description: 'A board, as seen by the caller (with their role on it).' });
export type BoardView = z.infer<typeof board>;

export const member = z
  .object({
    userId: z.number().int().describe('User id.'),
    name: z.string().describe('Display name.'),
    email: z.string().describe('E-mail address.'),
    role,
    avatarUrl: z.string().nullable().describe('Their avatar picture (GET /avatars/{key}), or null: show their initials.'),
  })
  .meta({ id: 'Member', description: 'A member of a board and their role.' });
export type MemberView = z.infer<typeof member>;

export const list = z
  .object({
    id: z.number().int().describe('List id.'),
    boardId: z.number().int().describe('Its board.'),
    name: z.string().describe('1-100 characters.'),
    position: z.number().int().describe('Index among the non-archived lists (for an archived list: the one it had when archived).'),
    archived: z.boolean().describe('Archived lists are listed by GET /boards/{id}/archived.'),
  })
  .meta({ id: 'List', description: 'A list (column) of a board.' });
export type ListView = z.infer<typeof list>;

/** A date field's value as stored: "YYYY-MM-DD" as given, or a date-time in UTC as toISOString() writes it. */
const STORED_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}\.\d{3}Z)?$/;

export const textFieldValue = z.string().max(1000).meta({ id: 'TextFieldValue', description: 'The value of a text field: up to 1,000 characters.' });
export const numberFieldValue = z.number().meta({ id: 'NumberFieldValue', description: 'The value of a number field: a finite number.' });
export const dateFieldValue = z.string().regex(STORED_DATE).meta({
  id: 'DateFieldValue',
  description: 'The value of a date field: "YYYY-MM-DD" when set as a date, else an ISO-8601 date-time in UTC ("2030-01-31T16:00:00.000Z").',
});
export const checkboxFieldValue = z.boolean().meta({ id: 'CheckboxFieldValue', description: 'The value of a checkbox field: true or false.' });
export const listFieldValue = z.string().min(1).max(100).meta({ id: 'ListFieldValue', description: "The value of a list field: one of the field's options." });

/**
 * A card's value for one custom field, as stored and returned: its shape is given by the field's
 * type. Not a component of its own: `FieldValueInput` (what requests send) would collide with the
 * name its request-side copy would get.
 */
export const fieldValue = z.union([textFieldValue, numberFieldValue, dateFieldValue, checkboxFieldValue, listFieldValue]);
export type FieldValueView = z.infer<typeof fieldValue>;

export const cardSummary = z
  .object({
    id: z.number().int().describe('Card id.'),
    boardId: z.number().int().describe('Its board.'),
    listId: z.number().int().describe('Its list.'),
    title: z.string().describe('1-512 characters.'),
    description: z.string().describe(`Up to ${textLimit} characters.`),
    position: z.number().int().describe('Index among the non-archived cards of the list (for an archived card: the one it had).'),
    archived: z.boolean().describe('Archived cards are listed by GET /boards/{id}/archived.'),
    dueAt: z.string().nullable().describe('Due date, ISO-8601 UTC, or null.'),
    labelIds: z.array(z.number().int()).describe('Labels on the card.'),
    memberIds: z.array(z.number().int()).describe('Assigned members.'),
    fieldValues: z
      .record(z.string(), fieldValue)
      .describe(
        'Custom-field values by field id (the CustomField id as a string; fields without a value are absent). Each value has the shape ' +
          "of its field's `type` (see the board's customFields): text → TextFieldValue, number → NumberFieldValue, date → DateFieldValue, " +
          'checkbox → CheckboxFieldValue, list → ListFieldValue. Text, date and list values are all strings: the field tells them apart.',
      ),
    checklistItems: z.object({ total: z.number().int(), checked: z.number().int() }).describe('Checklist progress.'),
    commentCount: z.number().int().describe('Comments on the card.'),
    attachmentCount: z.number().int().describe('Attachments on the card.'),
    coverAttachmentId: z
      .number()
      .int()
      .nullable()
      .describe('The image attachment shown as the card\'s cover on the board (PUT /cards/{id}/cover), or null.'),
    createdAt: z.string().describe('ISO-8601 UTC.'),
    updatedAt: z.string().describe('ISO-8601 UTC.'),
    version: z.number().int().describe('Grows with every change; the ETag of card responses.'),
  })
  .meta({ id: 'Card', description: 'A card as lists, searches and pages show it; GET /cards/{id} adds its checklists, comments and attachments (FullCard).' });
export type CardSummaryView = z.infer<typeof cardSummary>;

export const LABEL_COLORS = ['green', 'yellow', 'orange', 'red', 'purple', 'blue', 'sky', 'lime', 'pink', 'black'] as const;
/** With the ten colours, Trello's 30: `blue_dark` is blue + dark, `blue` is blue + null. */
export const LABEL_SHADES = ['light', 'dark'] as const;
export const FIELD_TYPES = ['text', 'number', 'date', 'checkbox', 'list'] as const;

export const label = z
  .object({
    id: z.number().int().describe('Label id.'),
    boardId: z.number().int().describe('Its board.'),
    name: z.string().describe('1-100 characters.'),
    color: z.enum(LABEL_COLORS).nullable().describe(`One of ${LABEL_COLORS.join(', ')}, or null.`),
    shade: z.enum(LABEL_SHADES).nullable().describe('light or dark, or null (the plain colour); always null when color is null. Trello\'s blue_dark is blue + dark.'),
  })
  .meta({ id: 'Label', description: 'A label of a board.' });
export type LabelView = z.infer<typeof label>;

export const customField = z
  .object({
    id: z.number().int().describe('Custom field id.'),
    boardId: z.number().int().describe('Its board.'),
    name: z.string().describe('1-100 characters.'),
    type: z.enum(FIELD_TYPES).describe('text (up to 1,000 characters), number (finite), date (ISO-8601), checkbox (true/false) or list (one of options).'),
    options: z.array(z.string()).describe('The choices of a list field; empty for other types.'),
  })
  .meta({ id: 'CustomField', description: 'A custom-field definition of a board.' });
export type CustomFieldView = z.infer<typeof customField>;

export const item = z
  .object({
    id: z.number().int().describe('Item id.'),
    checklistId: z.number().int().describe('Its checklist.'),
    name: z.string().describe('1-512 characters.'),
    checked: z.boolean(),
    position: z.number().int().describe('Index among the checklist items (0..n-1).'),
  })
  .meta({ id: 'ChecklistItem', description: 'An item of a checklist.' });
export type ItemView = z.infer<typeof item>;

export const checklist = z
  .object({
    id: z.number().int().describe('Checklist id.'),
    cardId: z.number().int().describe('Its card.'),
    name: z.string().describe('1-100 characters.'),
    position: z.number().int().describe("Index among the card's checklists."),
    items: z.array(item).describe('By position.'),
  })
  .meta({ id: 'Checklist', description: 'A checklist of a card, with its items.' });
export type ChecklistView = z.infer<typeof checklist>;

export const comment = z
  .object({
    id: z.number().int().describe('Comment id.'),
    cardId: z.number().int().describe('Its card.'),
    text: z.string().describe(`1-${textLimit} characters.`),
    author: z
      .object({
        userId: z.number().int().nullable().describe('Null: an author without an account here (a ticket\'s requester), known by name alone.'),
        name: z.string(),
      })
      .describe('Who wrote it (kept after the account is deleted).'),
    createdAt: z.string().describe('ISO-8601 UTC.'),
    updatedAt: z.string().describe('ISO-8601 UTC; differs from createdAt once edited.'),
    importedAt: z
      .string()
      .nullable()
      .describe(
        'When a board import (Trello or a board file) wrote it, ISO-8601 UTC; null for a comment written here. An imported comment keeps the ' +
          "file's date as createdAt and has as its author the person the importer matched: the web app marks it \"imported\", so it never reads as that person's own words here.",
      ),
  })
  .meta({ id: 'Comment', description: 'A comment on a card.' });
export type CommentView = z.infer<typeof comment>;

export const attachment = z
  .object({
    id: z.number().int().describe('Attachment id.'),
    cardId: z.number().int().describe('Its card.'),
    filename: z.string().describe("The uploaded file name; a link's title."),
    mimeType: z.string().describe('Detected from the bytes, not taken from the client; a link: what its source said, or empty.'),
    size: z.number().int().describe('Bytes; a link: what its source said, or 0.'),
    url: z
      .string()
      .nullable()
      .describe('Null: a file, its bytes at GET /attachments/{id}/download. Else a link attachment (http or https) with no bytes here: an imported Trello attachment, say, whose file stays on Trello.'),
    createdAt: z.string().describe('ISO-8601 UTC.'),
  })
  .meta({ id: 'Attachment', description: 'A file attached to a card (the bytes: GET /attachments/{id}/download), or a link (url).' });
export type AttachmentView = z.infer<typeof attachment>;

export const card = cardSummary
  .extend({
    checklists: z.array(checklist).describe('Checklists by position, with their items.'),
    comments: z.array(comment).describe('The newest 50 comments, newest first; older ones: GET /cards/{id}/comments.'),
    attachments: z.array(attachment).describe('Attachments, oldest first.'),
  })
  .meta({ id: 'FullCard', description: 'A card with its checklists, newest comments and attachments; the ETag of card responses is its version.' });
export type CardView = z.infer<typeof card>;

export const boardDetail = board
  .extend({
    lists: z
      .array(list.extend({ cards: z.array(cardSummary).describe('Its non-archived cards by position.') }).meta({ id: 'ListWithCards', description: 'A list with its cards.' }))
      .describe('Non-archived lists by position, each with its non-archived cards by position.'),
    labels: z.array(label).describe("The board's labels."),
    customFields: z.array(customField).describe("The board's custom-field definitions."),
    members: z.array(member).describe('Members and their roles.'),
  })
  .meta({ id: 'BoardSnapshot', description: 'A whole board in one response: its lists with their cards, labels, custom fields and members.' });

export const invitation = z
  .object({
    email: z.string().describe('The invited address.'),
    role,
    expiresAt: z.string().describe('ISO-8601 UTC; the invitation lapses then.'),
  })
  .meta({ id: 'Invitation', description: 'An invitation sent to an address without an account.' });

export const invitationWithLink = invitation
  .extend({
    url: z
      .string()
      .describe('The link to hand to the invitee (/join/inv_…): they choose their name and password there and join the board. Shown in this response only; stored as a hash.'),
    mailed: z.boolean().describe('The link was also mailed to the address (the server sends mail: SMTP_URL); false: hand it over yourself.'),
  })
  .meta({ id: 'InvitationWithLink', description: 'A new invitation, or a new link for one, with the link to hand over.' });

export const listIdInBody = id('List');
export const boardIdInBody = id('Board');

export const labelName = limitText(1, 100).describe('1-100 characters.');
export const labelColor = z
  .enum(LABEL_COLORS, { message: `must be one of ${LABEL_COLORS.join(', ')}, or null` })
  .nullable()
  .describe(`One of ${LABEL_COLORS.join(', ')}, or null (no colour).`);
export const labelShade = z
  .enum(LABEL_SHADES, { message: `must be one of ${LABEL_SHADES.join(', ')}, or null` })
  .nullable()
  .describe('light or dark, or null (the plain colour). Needs a colour: a shade on a label without one is 400.');
export const fieldName = limitText(1, 100).describe('1-100 characters.');
export const fieldType = z.enum(FIELD_TYPES, { message: `must be one of ${FIELD_TYPES.join(', ')}` }).describe('The type values are checked against.');
export const fieldOptions = z
  .array(limitText(1, 100), { message: 'must be an array of strings' })
  .max(50, { message: 'must have at most 50 options' })
  .describe('List fields only: 1-50 distinct choices of 1-100 characters.');
export const checklistName = limitText(1, 100).describe('1-100 characters.');
export const itemName = limitText(1, 512).describe('1-512 characters (it becomes a card title when converted).');
export const commentText = text()
  .min(1, { message: `must be 1-${TEXT_LIMIT} characters` })
  .max(TEXT_LIMIT, { message: `must be 1-${TEXT_LIMIT} characters` })
  .refine((v) => v.trim().length > 0, { message: 'must not be blank' })
  .describe(`1-${textLimit} characters.`);
export const checked = z.boolean({ message: 'must be true or false' });

/** `?limit=` within 1..max (default `fallback`); anything else is 400, never silently changed. */
export const limitQuery = (fallback: number, max: number) =>
  queryInteger({ min: 1, max, message: `must be a whole number from 1 to ${max}` })
    .default(fallback)
    .describe(`Page size, 1-${max} (default ${fallback}).`);

/** `?flag=true|false` (default false). */
export const booleanQuery = queryBoolean().default(false);

/** `?before=`: a cursor, the id of the last item of the previous page. */
export const beforeQuery = (what: string) =>
  queryInteger({ min: 1, max: MAX_ID, message: `must be ${what} id` })
    .optional()
    .describe('Only items older than this id: the nextBefore of the previous page.');

/** `?cursor=`: the opaque nextCursor of the previous page, decoded by `decode` (null: malformed). */
export const cursorQuery = <T>(decode: (raw: string) => T | null) =>
  z
    .string()
    .max(200, { message: 'malformed; pass the nextCursor of the previous page' })
    .transform((raw, ctx) => {
      const value = decode(raw);
      if (value === null) ctx.addIssue({ code: 'custom', message: 'malformed; pass the nextCursor of the previous page' });
      return value ?? z.NEVER;
    })
    .optional()
    .describe('The nextCursor of the previous page (opaque); omitted = the first page.');

const nextCursor = z.string().nullable().describe('Pass as ?cursor= for the next page; null on the last page.');

export const searchHit = cardSummary.extend({ score: z.number().describe('Relevance: higher is better.') }).meta({ id: 'SearchHit', description: 'A card found by a search, with its relevance.' });
export const commentPage = z
  .object({
    comments: z.array(comment).describe('Newest first.'),
    nextBefore: z.number().int().nullable().describe('Pass as ?before= for the next (older) page; null on the last page.'),
  })
  .meta({ id: 'CommentPage', description: 'A page of comments, newest first.' });

/** `?q=`: a search query. */
export const searchQuery = z
  .string({ message: 'must be 1-200 characters' })
  .trim()
  .min(1, { message: 'must be 1-200 characters' })
  .max(200, { message: 'must be 1-200 characters' })
  .refine((v) => !v.includes('\u0000'), { message: 'must not contain NUL characters' })
  .describe('The query, 1-200 characters: English stemming, "a phrase", -excluded, either or other.');

export const searchPage = z
  .object({ cards: z.array(searchHit).describe('Best first.'), nextCursor })
  .meta({ id: 'SearchPage', description: 'A page of search results.' });

export const cardPage = z
  .object({ cards: z.array(cardSummary).describe('Soonest due first; cards without a due date last; then by id.'), nextCursor })
  .meta({ id: 'CardPage', description: 'A page of cards.' });

/**
 * A custom-field value as sent, documented per field type. The server checks it against the
 * field's type (`fitFieldValue`, which names what is wrong); here only its JSON type is checked, so the
 * branches are no stricter than string, number or boolean.
 */
export const fieldValueInput = z
  .union(
    [
      z.string().describe('text field: up to 1,000 characters.'),
      z.number().describe('number field: a finite number.'),
      z.string().describe('date field: "YYYY-MM-DD" (kept as is) or an ISO-8601 date-time (stored in UTC), years 0000-9999.'),
      z.boolean().describe('checkbox field: true or false.'),
      z.string().describe("list field: one of the field's options."),
    ],
    { message: "must be a string, a number, true/false or null, as the field's type requires" },
  )
  .nullable()
  .meta({
    id: 'FieldValueInput',
    description:
      "A value for a custom field, of the shape its `type` (CustomField) takes: text, date and list fields take a string, " +
      'number fields a number, checkbox fields true or false; null: no value.',
  });

/** Ids in a body: at most `max`, repeats ignored. */
const idList = (what: string, max: number) =>
  z
    .array(id(what), { message: `must be an array of ${what.toLowerCase()} ids` })
    .max(max, { message: `must have at most ${max} ids` })
    .transform((ids) => [...new Set(ids)]);

export const newCardLabelIds = idList('Label', 50).describe("Labels to put on the card: labels of the list's board (else 400). At most 50.");
export const newCardMemberIds = idList('User', 50).describe("Users to assign: members of the list's board (else 400). At most 50.");
export const newCardFieldValues = z
  .record(z.string(), fieldValueInput, { message: 'must be an object of values by custom field id' })
  .superRefine((r, ctx) => {
    const bad = Object.keys(r).find((k) => !/^[1-9]\d{0,9}$/.test(k) || Number(k) > MAX_ID);
    if (bad !== undefined) ctx.addIssue({ code: 'custom', message: `keys must be custom field ids (${JSON.stringify(bad).slice(0, 40)} is not)` });
    if (Object.keys(r).length > 50) ctx.addIssue({ code: 'custom', message: 'must have at most 50 fields' });
  })
  .describe(
    "Custom-field values by field id ({\"12\": \"high\"}): fields of the list's board (else 400), each value checked against its field's type " +
      'exactly as PUT /cards/{id}/fields/{fieldId} checks it; null sets nothing.',
  );

/**
 * A new card's fields, declared once: the body of POST /lists/{id}/cards and the input of the
 * connector's create_card tool (with the list's id), so an assistant sets what the API sets.
 */
export const newCardInput = {
  title: cardTitle,
  description: description.optional(),
  position: position.optional(),
  dueAt: dueAtInput.optional(),
  labelIds: newCardLabelIds.optional(),
  memberIds: newCardMemberIds.optional(),
  fieldValues: newCardFieldValues.optional(),
};

export const pendingInvitation = invitation
  .extend({
    createdAt: z.string().describe('ISO-8601 UTC; when the address was invited.'),
    invitedBy: z.object({ userId: z.number().int(), name: z.string() }).describe('The admin who invited it.'),
  })
  .meta({ id: 'PendingInvitation', description: 'An invitation not yet accepted and not expired.' });
export type PendingInvitationView = z.infer<typeof pendingInvitation>;

/** `{id}/invitations/{email}` path parameters. */
export const invitationParams = z.strictObject({
  id: idParams('Board').shape.id,
  email: email.describe('The invited address (case-insensitive; URL-encode it).'),
});

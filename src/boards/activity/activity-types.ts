import { z } from 'zod';
import * as s from '../schemas.js';

/*
 * Every activity type and the `data` it carries: the one list that `record(…)` calls are checked
 * against (src/boards/activity/change-board.ts), that the activity log and the live stream are documented
 * with, and that their JSON is tested against (test/boards/live/activity-types.test.ts). Each data
 * schema lists its keys in the order the record call writes them: responses are encoded through
 * these schemas, and the wire format is what the stream and the log have always sent.
 */

const ref = (what: string) => z.number().int().describe(`${what} id.`);
const ids = (what: string) => z.array(z.number().int()).describe(what);
const cardId = ref('The card');
/** The card's summary after the change (`Card`, as lists and searches show it). */
const card = s.cardSummary;

/** Data of a change to something on a card: the card's id first, then the part's own data, then the card's summary. */
const onCard = <T extends z.ZodRawShape>(shape: T) => z.object({ cardId, ...shape, card });

const moveEnd = (what: string) =>
  z.object({ boardId: ref('Board'), position: z.number().int().describe('Index among the non-archived lists.') }).describe(what);
const cardPlace = (what: string) =>
  z
    .object({
      boardId: ref('Board').optional().describe('Present only when the card moved to another board.'),
      listId: ref('List'),
      position: z.number().int().describe('Index among the non-archived cards of the list.'),
    })
    .describe(what);

/** `changes` of board.updated: the fields the request set. */
const boardChanges = z
  .object({
    name: z.string().optional().describe('The new name, when it was set.'),
    description: z.string().optional().describe('The new description, when it was set.'),
    color: z.string().optional().describe('The new colour or background, when it was set.'),
    archived: z.boolean().optional().describe('true: archived; false: restored (when it was set).'),
  })
  .describe('The fields the request set, as it set them.');

const activityActor = z
  .object({
    userId: z.number().int().nullable().describe('Who did it (null: an operator through the admin CLI).'),
    name: z.string().describe('Their name at the time.'),
    keyId: z.number().int().nullable().describe('The API key used, or null (web session, CLI).'),
    client: z
      .string()
      .nullable()
      .describe('The assistant connection it came through (its client name, e.g. "Claude"), or null (not through the connector).'),
  })
  .meta({ id: 'ActivityActor', description: 'Who made a change.' });

/** `card.moved` → `CardMovedActivity`, `custom_field.created` → `CustomFieldCreatedActivity`. */
const componentName = (type: string) =>
  `${type
    .split(/[._]/)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('')}Activity`;

/** One member of the union: an activity of `type`, whose data is `data`. */
function activityOf<const T extends string, D extends z.ZodObject>(type: T, when: string, data: D) {
  return z
    .object({
      id: z.number().int().describe('Activity id; also the event id of the live stream.'),
      boardId: z.number().int().describe('The board it happened on.'),
      type: z.literal(type).describe(`Always ${type}.`),
      actor: activityActor,
      data: data.describe(`What ${type} carries.`),
      createdAt: z.string().describe('ISO-8601 UTC.'),
    })
    .meta({ id: componentName(type), description: `\`${type}\`: ${when}` });
}

const ACTIVITIES = [
  activityOf('board.created', 'a board was created.', z.object({ boardId: ref('Board'), board: s.board })),
  activityOf('board.updated', 'a board was renamed, described, coloured, archived or restored.', z.object({ boardId: ref('Board'), board: s.board, changes: boardChanges })),
  activityOf('board.deleted', 'a board was deleted: the last event of its stream.', z.object({ boardId: ref('Board') })),

  activityOf('list.created', 'a list was created.', z.object({ listId: ref('List'), list: s.list })),
  activityOf('list.updated', 'a list was renamed or restored.', z.object({ listId: ref('List'), list: s.list })),
  activityOf('list.archived', 'a list was archived.', z.object({ listId: ref('List'), list: s.list })),
  activityOf(
    'list.deleted',
    'a list was deleted with its cards.',
    z.object({ listId: ref('List'), cards: z.number().int().describe('How many cards (archived ones included) were deleted with it.') }),
  ),
  activityOf(
    'list.moved',
    'a list moved on its board or to another one (then recorded on both).',
    z.object({ listId: ref('List'), list: s.list, from: moveEnd('Where it was.'), to: moveEnd('Where it is now.') }),
  ),

  activityOf(
    'card.created',
    'a card was created (or made from a checklist item: then fromItemId is set).',
    z.object({ cardId, listId: ref('List'), fromItemId: ref('The converted checklist item').optional(), card }),
  ),
  activityOf(
    'card.updated',
    'a card was edited or restored.',
    z.object({
      cardId,
      listId: ref('List'),
      card,
      restoredFrom: ref('List')
        .optional()
        .describe('Present when the card was restored into another list because its own (this id) is archived: it came back at the end of the first open list.'),
    }),
  ),
  activityOf('card.archived', 'a card was archived.', z.object({ cardId, listId: ref('List'), card })),
  activityOf(
    'card.moved',
    'a card moved within its list, to another list, or to another board (then recorded on both).',
    z.object({ cardId, listId: ref('List'), card, from: cardPlace('Where it was.'), to: cardPlace('Where it is now.') }),
  ),
  activityOf('card.copied', 'a card was made as a copy of another.', z.object({ cardId, sourceCardId: ref('The copied card'), listId: ref('List'), card })),
  activityOf('card.deleted', 'a card was deleted.', z.object({ cardId, listId: ref('List') })),
  activityOf('card.label_added', 'a label was put on a card.', onCard({ labelId: ref('Label') })),
  activityOf('card.label_removed', 'a label was taken off a card.', onCard({ labelId: ref('Label') })),
  activityOf('card.member_added', 'a member was assigned to a card.', onCard({ userId: ref('User') })),
  activityOf('card.member_removed', 'a member was unassigned from a card.', onCard({ userId: ref('User') })),
  activityOf(
    'card.field_set',
    "a card's value for a custom field was set or cleared.",
    onCard({
      fieldId: ref('Custom field'),
      value: z
        .union([z.string(), z.number(), z.boolean()])
        .nullable()
        .describe("The value as stored, of the shape of the field's type (as in Card.fieldValues); null: cleared."),
    }),
  ),

  activityOf('checklist.created', 'a checklist was added to a card.', onCard({ checklistId: ref('Checklist'), checklist: s.checklist })),
  activityOf('checklist.updated', 'a checklist was renamed.', onCard({ checklistId: ref('Checklist'), checklist: s.checklist })),
  activityOf('checklist.deleted', 'a checklist was deleted with its items.', onCard({ checklistId: ref('Checklist') })),
  activityOf('item.created', 'a checklist item was added.', onCard({ checklistId: ref('Checklist'), itemId: ref('Item'), item: s.item })),
  activityOf('item.updated', 'a checklist item was renamed, checked, unchecked or moved.', onCard({ checklistId: ref('Checklist'), itemId: ref('Item'), item: s.item })),
  activityOf('item.deleted', 'a checklist item was deleted.', onCard({ checklistId: ref('Checklist'), itemId: ref('Item') })),
  activityOf(
    'item.converted',
    'a checklist item became a card (with its own card.created); `card` is the card the item was on.',
    z.object({ cardId, checklistId: ref('Checklist'), itemId: ref('Item'), newCardId: ref('The new card'), card }),
  ),

  activityOf('comment.created', 'a comment was written on a card.', onCard({ commentId: ref('Comment'), comment: s.comment })),
  activityOf(
    'comment.updated',
    'a comment was edited.',
    onCard({ commentId: ref('Comment'), comment: s.comment, previousText: z
        .string()
        .optional()
        .describe('The text before this edit, kept here (the comment shows the new one); absent from edits recorded before it was kept.') }),
  ),
  activityOf('comment.deleted', 'a comment was deleted.', onCard({ commentId: ref('Comment') })),
  activityOf('attachment.created', 'a file was attached to a card.', onCard({ attachmentId: ref('Attachment'), attachment: s.attachment })),
  activityOf('attachment.deleted', 'an attachment was deleted.', onCard({ attachmentId: ref('Attachment') })),

  activityOf('label.created', 'a label was created.', z.object({ labelId: ref('Label'), label: s.label })),
  activityOf('label.updated', 'a label was renamed or recoloured.', z.object({ labelId: ref('Label'), label: s.label })),
  activityOf(
    'label.deleted',
    'a label was deleted; the cards that had it lost it.',
    z.object({ labelId: ref('Label'), label: s.label, cardIds: ids('The cards that had it.') }),
  ),

  activityOf('custom_field.created', 'a custom field was defined.', z.object({ fieldId: ref('Custom field'), customField: s.customField })),
  activityOf(
    'custom_field.updated',
    "a custom field was renamed, or its type or options changed; values that no longer fitted were converted or cleared.",
    z.object({
      fieldId: ref('Custom field'),
      customField: s.customField,
      clearedCardIds: ids('Cards whose value was cleared.'),
      convertedCardIds: ids('Cards whose value was converted to the new type.'),
    }),
  ),
  activityOf(
    'custom_field.deleted',
    "a custom field was deleted with every card's value for it.",
    z.object({ fieldId: ref('Custom field'), customField: s.customField, cardIds: ids('The cards that had a value for it.') }),
  ),

  activityOf(
    'member.added',
    'a user became a member (added by an admin, or by accepting an invitation: then invitation is true).',
    z.object({
      userId: ref('User'),
      member: s.member,
      invitation: z.literal(true).optional().describe('Present when the user joined by accepting an invitation.'),
    }),
  ),
  activityOf('member.invited', 'an address without an account was invited.', z.object({ email: z.string().describe('The invited address.'), role: s.role })),
  activityOf(
    'member.updated',
    "a member's role changed.",
    z.object({ userId: ref('User'), member: s.member, from: z.object({ role: s.role }).describe('The role before.') }),
  ),
  activityOf(
    'member.removed',
    'a member was removed, and unassigned from the cards of the board.',
    z.object({ userId: ref('User'), member: s.member, unassignedCardIds: ids('The cards they were unassigned from.') }),
  ),
  activityOf('invitation.revoked', 'a pending invitation was revoked.', z.object({ email: z.string().describe('The address.'), role: s.role })),
  activityOf(
    'invitation.updated',
    'a pending invitation was given a new role and renewed by inviting the address again. No longer recorded (re-inviting is 409 ' +
      'since 2026-11-24); logs from before may hold it.',
    z.object({ email: z.string().describe('The invited address.'), role: s.role }),
  ),
] as const;

/** Types no longer recorded that older logs still hold: documented, listed and streamed, never recorded again. */
export const RETIRED_ACTIVITY_TYPES = ['invitation.updated'] as const;

/** The tuple of the members' `type` values. */
type TypesOf<T extends readonly unknown[]> = { -readonly [I in keyof T]: T[I] extends { shape: { type: { value: infer V } } } ? V : never };

/** Every activity type, in the order of the union. */
export const ACTIVITY_TYPES = ACTIVITIES.map((a) => a.shape.type.value) as TypesOf<typeof ACTIVITIES>;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/** One change to a board, as the activity log and the live stream send it: a union discriminated by `type`. */
export const activity = z.discriminatedUnion('type', ACTIVITIES).meta({
  id: 'Activity',
  description: 'One change to a board: the activity log entry and the live event. Its `type` (resource.verb) says what `data` holds.',
  discriminator: {
    propertyName: 'type',
    mapping: Object.fromEntries(ACTIVITY_TYPES.map((type) => [type, `#/components/schemas/${componentName(type)}`])),
  },
});
export type ActivityView = z.output<typeof activity>;

type TypeAndData<A> = A extends { type: infer T; data: infer D } ? { type: T; data: D } : never;
/** An activity type with its data, as `record(…)` takes them: the data of that type and no other (no retired type). */
export type TypedActivity = TypeAndData<Exclude<z.input<typeof activity>, { type: (typeof RETIRED_ACTIVITY_TYPES)[number] }>>;
/** The data an activity of type `T` carries. */
export type ActivityData<T extends ActivityType> = Extract<TypeAndData<z.input<typeof activity>>, { type: T }>['data'];

export const activityPage = z
  .object({
    activities: z.array(activity).describe('Newest first.'),
    nextBefore: z.number().int().nullable().describe('Pass as ?before= for the next (older) page; null on the last page.'),
  })
  .meta({ id: 'ActivityPage', description: 'A page of activity, newest first.' });

/** One event of `GET /boards/{id}/events`, by its lines. */
export const boardEvent = z
  .object({
    id: z.string().regex(/^\d+$/).describe('The `id:` line: the activity id. Send the last one seen as Last-Event-ID to resume.'),
    event: z.enum(ACTIVITY_TYPES).describe('The `event:` line: the activity type.'),
    data: activity,
  })
  .meta({
    id: 'BoardEvent',
    description:
      'One server-sent event of a board stream, as its fields: `id: <activity id>`, `event: <type>`, `data: <the Activity as one line of JSON>`, ' +
      'then an empty line. The stream opens with `retry: 3000`; a `: ping` comment comes every 15 s.',
  });

import { z } from 'zod';
import { TEXT_LIMIT } from '../schemas.js';

/*
 * The parts of a Trello board export (Menu → Print, export and share → Export as JSON) the import
 * reads, as Trello's REST reference documents boards, lists, cards, labels, checklists, actions,
 * members and customFields. Objects are loose (Trello adds keys freely); what is read is checked.
 */

const tid = z.string({ message: 'must be a Trello id (a string)' }).min(1, { message: 'must not be empty' }).max(64, { message: 'must be at most 64 characters' });
const name = z.string({ message: 'must be a string' }).max(TEXT_LIMIT, { message: `must be at most ${TEXT_LIMIT} characters` });
const pos = z.number({ message: 'must be a number' }).refine(Number.isFinite, { message: 'must be a finite number' });
const flag = z.boolean({ message: 'must be true or false' });
const date = z.string({ message: 'must be a date string' }).max(64);
const many = <T extends z.ZodType>(item: T, max: number, what: string) =>
  z.array(item, { message: 'must be an array' }).max(max, { message: `must have at most ${max} ${what}` });

export const trelloList = z.looseObject({ id: tid, name, closed: flag.default(false), pos });

export const trelloAttachment = z.looseObject({
  id: tid,
  name: name.nullish(),
  url: z.string({ message: 'must be a string' }).max(4096, { message: 'must be at most 4096 characters' }).nullish(),
  isUpload: z.boolean().nullish(),
  mimeType: z.string().nullish(),
  bytes: z.number().nullish(),
});

export const trelloFieldItem = z.looseObject({
  idCustomField: tid,
  idValue: tid.nullish(),
  value: z
    .looseObject({ text: z.string().optional(), number: z.string().optional(), date: z.string().optional(), checked: z.string().optional() })
    .nullish(),
});

export const trelloCard = z.looseObject({
  id: tid,
  name,
  desc: name.default(''),
  closed: flag.default(false),
  pos,
  idList: tid,
  idLabels: many(tid, 100, 'labels').default([]),
  idMembers: many(tid, 100, 'members').default([]),
  due: date.nullish(),
  dueComplete: flag.nullish(),
  start: date.nullish(),
  attachments: many(trelloAttachment, 1000, 'attachments').nullish(),
  cover: z.looseObject({ color: z.string().nullish(), idAttachment: z.string().nullish() }).nullish(),
  customFieldItems: many(trelloFieldItem, 200, 'custom field values').nullish(),
  idAttachmentCover: z.string().nullish(),
  idMembersVoted: many(tid, 10_000, 'votes').nullish(),
  stickers: z.array(z.unknown()).nullish(),
  locationName: z.string().nullish(),
  address: z.string().nullish(),
});

export const trelloLabel = z.looseObject({ id: tid, name: name.nullish(), color: z.string().max(40).nullish() });

export const trelloCheckItem = z.looseObject({
  id: tid,
  name,
  pos,
  state: z.enum(['complete', 'incomplete'], { message: 'must be complete or incomplete' }),
  due: z.string().nullish(),
  idMember: z.string().nullish(),
});

export const trelloChecklist = z.looseObject({ id: tid, idCard: tid, name, pos: pos.default(0), checkItems: many(trelloCheckItem, 1000, 'items').default([]) });

export const trelloMember = z.looseObject({
  id: tid,
  fullName: z.string().max(400).nullish(),
  username: z.string().max(200).nullish(),
  email: z.string().max(320).nullish(),
});

export const trelloAction = z.looseObject({
  id: tid,
  type: z.string({ message: 'must be a string' }).max(100),
  date,
  idMemberCreator: tid.nullish(),
  memberCreator: z.looseObject({ fullName: z.string().max(400).nullish(), username: z.string().max(200).nullish() }).nullish(),
  data: z.looseObject({ text: name.optional(), card: z.looseObject({ id: tid }).optional() }).nullish(),
});

export const trelloCustomField = z.looseObject({
  id: tid,
  name,
  type: z.string({ message: 'must be a string' }).max(40),
  pos: pos.default(0),
  options: many(z.looseObject({ id: tid, value: z.looseObject({ text: name }), pos: pos.default(0) }), 1000, 'options').nullish(),
});

export const trelloMembership = z.looseObject({ idMember: tid, memberType: z.string().max(40).nullish() });

/** A Trello board export: the board with its lists, cards, labels, checklists, actions, members and custom fields. */
export const trelloExport = z.looseObject({
  id: tid,
  name,
  desc: name.nullish(),
  closed: flag.nullish(),
  prefs: z.looseObject({ background: z.string().max(100).nullish() }).nullish(),
  lists: many(trelloList, 10_000, 'lists'),
  cards: many(trelloCard, 100_000, 'cards'),
  labels: many(trelloLabel, 1000, 'labels').default([]),
  checklists: many(trelloChecklist, 100_000, 'checklists').default([]),
  actions: many(trelloAction, 500_000, 'actions').default([]),
  members: many(trelloMember, 10_000, 'members').default([]),
  memberships: many(trelloMembership, 10_000, 'memberships').nullish(),
  customFields: many(trelloCustomField, 200, 'custom fields').nullish(),
  pluginData: z.array(z.unknown()).nullish(),
  powerUps: z.array(z.unknown()).nullish(),
});

export type TrelloExport = z.infer<typeof trelloExport>;
export type TrelloCard = z.infer<typeof trelloCard>;

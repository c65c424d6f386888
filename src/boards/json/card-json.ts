import type { DbClient } from '../../platform/db.js';
import { notFound } from '../../platform/errors.js';
import type { Tx } from '../../platform/db.js';
import type { CardSummaryView, CardView } from '../schemas.js';
import { iso, jsonArray, jsonObject, jsonObjectAgg, jsonText, type JsonText } from './compact-json.js';

/** SQL expressions for what a summary holds besides the card's own columns. */
interface SummaryParts {
  labelIds: string;
  memberIds: string;
  fieldValues: string;
  checklistItems: string;
  commentCount: string;
  attachmentCount: string;
}

/** The card summary of card `c` as a compact JSON object: the one place its shape is written. */
function summaryJson(c: string, parts: SummaryParts, more: Record<string, JsonText> = {}) {
  // Every part is JSON text already; integer columns are their own JSON text.
  return jsonObject({
    id: jsonText(`${c}.id::text`),
    boardId: jsonText(`${c}."boardId"::text`),
    listId: jsonText(`${c}."listId"::text`),
    title: `${c}.title`,
    description: `${c}.description`,
    position: jsonText(`${c}.position::text`),
    archived: `${c}.archived`,
    dueAt: iso(`${c}."dueAt"`),
    labelIds: jsonText(parts.labelIds),
    memberIds: jsonText(parts.memberIds),
    fieldValues: jsonText(parts.fieldValues),
    checklistItems: jsonText(parts.checklistItems),
    commentCount: jsonText(`${parts.commentCount}::text`),
    attachmentCount: jsonText(`${parts.attachmentCount}::text`),
    coverAttachmentId: jsonText(`coalesce(${c}."coverAttachmentId"::text, 'null')`),
    createdAt: iso(`${c}."createdAt"`),
    updatedAt: iso(`${c}."updatedAt"`),
    version: jsonText(`${c}.version::text`),
    ...more,
  });
}

/**
 * Card summaries built by PostgreSQL as JSON, for every card matching `scope` (a condition on
 * `"Card" c`): a WITH list ending in `summary (id, "listId", position, archived, json)`. Each
 * related table is aggregated once for all the cards in scope, not once per card: for many cards
 * (a board) this is faster than a subquery per card. The one source of the summary's shape (a
 * test's second opinion, from Prisma rows, is test/boards/reference-presenters.ts). `summary` is MATERIALIZED: referenced once, PostgreSQL would inline it into
 * the board's per-list subquery and build every card's summary once per list (10 lists: 15 ms for a
 * 200-card board instead of 4).
 */
export function cardSummaryCtes(scope: string) {
  return `
scoped AS (SELECT * FROM "Card" c WHERE ${scope}),
card_labels AS (
  SELECT cl."cardId" AS id, ${jsonArray('cl."labelId"::text', 'cl."labelId"')} AS v
  FROM "CardLabel" cl JOIN scoped s ON s.id = cl."cardId" GROUP BY 1),
card_members AS (
  SELECT a."cardId" AS id, ${jsonArray('a."userId"::text', 'a."userId"')} AS v
  FROM "CardAssignee" a JOIN scoped s ON s.id = a."cardId" GROUP BY 1),
card_fields AS (
  SELECT f."cardId" AS id, ${jsonObjectAgg('f."fieldId"::text', 'f.value', 'f."fieldId"')} AS v
  FROM "CardFieldValue" f JOIN scoped s ON s.id = f."cardId" GROUP BY 1),
card_items AS (
  SELECT cl."cardId" AS id, count(*)::int AS total, (count(*) FILTER (WHERE i.checked))::int AS checked
  FROM "ChecklistItem" i JOIN "Checklist" cl ON cl.id = i."checklistId" JOIN scoped s ON s.id = cl."cardId" GROUP BY 1),
card_comments AS (
  SELECT m."cardId" AS id, count(*)::int AS n FROM "Comment" m JOIN scoped s ON s.id = m."cardId" GROUP BY 1),
card_attachments AS (
  SELECT a."cardId" AS id, count(*)::int AS n FROM "Attachment" a JOIN scoped s ON s.id = a."cardId" GROUP BY 1),
summary AS MATERIALIZED (
  SELECT c.id, c."listId", c.position, c.archived, c."updatedAt", ${summaryJson('c', {
    labelIds: `coalesce(cl.v, '[]')`,
    memberIds: `coalesce(cm.v, '[]')`,
    fieldValues: `coalesce(cf.v, '{}')`,
    checklistItems: jsonObject({ total: jsonText('coalesce(ci.total, 0)::text'), checked: jsonText('coalesce(ci.checked, 0)::text') }),
    commentCount: 'coalesce(cc.n, 0)',
    attachmentCount: 'coalesce(ca.n, 0)',
  })} AS json
  FROM scoped c
  LEFT JOIN card_labels cl ON cl.id = c.id LEFT JOIN card_members cm ON cm.id = c.id
  LEFT JOIN card_fields cf ON cf.id = c.id LEFT JOIN card_items ci ON ci.id = c.id
  LEFT JOIN card_comments cc ON cc.id = c.id LEFT JOIN card_attachments ca ON ca.id = c.id)`;
}

/** The summary of the one card `c` with a subquery per part: for a single card, a simpler and faster plan than the CTEs. */
const oneCardSummaryJson = (c: string, more: Record<string, JsonText> = {}) =>
  summaryJson(c, {
    labelIds: `(SELECT ${jsonArray('x."labelId"::text', 'x."labelId"')} FROM "CardLabel" x WHERE x."cardId" = ${c}.id)`,
    memberIds: `(SELECT ${jsonArray('x."userId"::text', 'x."userId"')} FROM "CardAssignee" x WHERE x."cardId" = ${c}.id)`,
    fieldValues: `(SELECT ${jsonObjectAgg('x."fieldId"::text', 'x.value', 'x."fieldId"')} FROM "CardFieldValue" x WHERE x."cardId" = ${c}.id)`,
    checklistItems: `(SELECT ${jsonObject({ total: jsonText('count(*)::text'), checked: jsonText('(count(*) FILTER (WHERE i.checked))::text') })}
      FROM "ChecklistItem" i JOIN "Checklist" k ON k.id = i."checklistId" WHERE k."cardId" = ${c}.id)`,
    commentCount: `(SELECT count(*)::int FROM "Comment" x WHERE x."cardId" = ${c}.id)`,
    attachmentCount: `(SELECT count(*)::int FROM "Attachment" x WHERE x."cardId" = ${c}.id)`,
  }, more);

/** At most this many comments come with a full card; older ones are paged by GET /cards/{id}/comments. */
const CARD_COMMENTS = 50;

const commentJson = (m: string) =>
  `json_build_object('id', ${m}.id, 'cardId', ${m}."cardId", 'text', ${m}.text,
    'author', json_build_object('userId', ${m}."authorId", 'name', ${m}."authorName"),
    'createdAt', ${iso(`${m}."createdAt"`)}, 'updatedAt', ${iso(`${m}."updatedAt"`)}, 'importedAt', ${iso(`${m}."importedAt"`)})`;

const attachmentJson = (a: string) =>
  `json_build_object('id', ${a}.id, 'cardId', ${a}."cardId", 'filename', ${a}.filename, 'mimeType', ${a}."mimeType",
    'size', ${a}.size, 'url', ${a}.url, 'createdAt', ${iso(`${a}."createdAt"`)})`;

const itemJson = (i: string) =>
  `json_build_object('id', ${i}.id, 'checklistId', ${i}."checklistId", 'name', ${i}.name, 'checked', ${i}.checked, 'position', ${i}.position)`;

const checklistJson = (l: string) =>
  `json_build_object('id', ${l}.id, 'cardId', ${l}."cardId", 'name', ${l}.name, 'position', ${l}.position,
    'items', coalesce((SELECT json_agg(${itemJson('i')} ORDER BY i.position) FROM "ChecklistItem" i WHERE i."checklistId" = ${l}.id), '[]'::json))`;

/** What a full card holds beyond its summary, each as the JSON text of card `s`: the one list of them. */
const FULL_CARD_PARTS = {
  checklists: jsonText(`coalesce((SELECT json_agg(${checklistJson('l')} ORDER BY l.position) FROM "Checklist" l WHERE l."cardId" = s.id), '[]'::json)::text`),
  comments: jsonText(`coalesce((SELECT json_agg(${commentJson('m')} ORDER BY m.id DESC)
    FROM (SELECT * FROM "Comment" WHERE "cardId" = s.id ORDER BY id DESC LIMIT ${CARD_COMMENTS}) m), '[]'::json)::text`),
  attachments: jsonText(`coalesce((SELECT json_agg(${attachmentJson('a')} ORDER BY a.id) FROM "Attachment" a WHERE a."cardId" = s.id), '[]'::json)::text`),
} satisfies Record<Exclude<keyof CardView, keyof CardSummaryView>, JsonText>;
const FULL_ONLY = new Set<string>(Object.keys(FULL_CARD_PARTS));

/**
 * The full card as JSON text: the expression tb_full_card returns. Its function (name, language,
 * how it is planned) is written once, in sql/full-card.sql; only this expression, built from the
 * summary's shape above, is written into that file between its `FULL_CARD_SQL` markers by
 * `npm run db:sources` (generated-sources.ts; a test fails when the file differs).
 */
export const FULL_CARD_SQL = `SELECT ${oneCardSummaryJson('s', FULL_CARD_PARTS)}::text AS json
FROM "Card" s WHERE s.id = p_card`;

/**
 * The data every card activity of a card statement carries, its summary being the full card
 * `p_full` less FULL_CARD_PARTS: the expression of tb_card_data (activity/sql/record-activities.sql),
 * written there by `npm run db:sources`, so summaryOf and the statements cannot drift.
 */
export const CARD_DATA_SQL = `  SELECT jsonb_build_object('cardId', p_card, 'listId', p_list, 'card', p_full::jsonb${[...FULL_ONLY].map((k) => ` - '${k}'`).join('')})`;

/** The statement that reads the full card `$1`: loadFullCard's, and the one tb_move_card and tb_update_card EXECUTE. */
export const FULL_CARD_CALL = 'SELECT tb_full_card($1::int) AS json';

/** The full card (summary, checklists, newest comments, attachments), or null when it does not exist. */
export async function loadFullCard(db: DbClient, cardId: number): Promise<CardView | null> {
  const rows = await db.$queryRawUnsafe<{ json: string | null }[]>(FULL_CARD_CALL, cardId);
  return rows[0]?.json ? (JSON.parse(rows[0].json) as CardView) : null;
}

/** The full card as it is now in the transaction; its summary goes into activities. */
export async function fullCard(tx: Tx, cardId: number): Promise<CardView> {
  const card = await loadFullCard(tx, cardId);
  if (!card) throw notFound('card: not found');
  return card;
}

const SUMMARIES_SQL = `WITH ${cardSummaryCtes('c.id = ANY($1::int[])')} SELECT id, json::text AS json FROM summary`;

/** Card summaries in the order of `cardIds` (missing cards left out). */
export async function loadCardSummaries(db: DbClient, cardIds: number[]): Promise<CardSummaryView[]> {
  if (cardIds.length === 0) return [];
  const rows = await db.$queryRawUnsafe<{ id: number; json: string }[]>(SUMMARIES_SQL, cardIds);
  const byId = new Map(rows.map((r) => [r.id, JSON.parse(r.json) as CardSummaryView]));
  return cardIds.flatMap((id) => byId.get(id) ?? []);
}

/** The summary part of a full card, as activities carry it: the card less FULL_CARD_PARTS (tb_card_data's rule). */
export function summaryOf(card: CardView): CardSummaryView {
  const summary: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(card)) if (!FULL_ONLY.has(key)) summary[key] = value;
  return summary as CardSummaryView;
}

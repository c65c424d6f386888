import { badRequest } from '../../platform/errors.js';
import { BOARD_COLORS, LABEL_COLORS, TEXT_LIMIT } from '../schemas.js';
import type { BoardFile, FileCard } from './board-file.js';
import { BOARD_FILE_FORMAT } from './board-file.js';
import { type ImportReport, fitText } from './import-report.js';
import { fieldsFromTrello } from './trello-fields.js';
import type { TrelloCard, TrelloExport } from './trello-export.js';

type Color = (typeof LABEL_COLORS)[number];
type Shade = 'light' | 'dark' | null;

/** Trello's 30 label colours are our ten, each plain or with a _dark or _light shade: `blue_dark` is blue + dark; undefined for a colour we do not have. */
export function labelColor(color: string | null | undefined): { color: Color | null; shade: Shade } | undefined {
  if (color === null || color === undefined || color === '') return { color: null, shade: null };
  const [, base, shade] = /^(.*?)(?:_(dark|light))?$/.exec(color)!;
  return (LABEL_COLORS as readonly string[]).includes(base!) ? { color: base as Color, shade: (shade as Shade | undefined) ?? null } : undefined;
}

const byPos = <T extends { pos: number }>(items: T[]) => items.map((item, i) => ({ item, i })).sort((a, b) => a.item.pos - b.item.pos || a.i - b.i).map((x) => x.item);

function pushTo<T>(map: Map<string, T[]>, key: string, value: T) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** 400 naming the first id that appears twice in an array of the export. */
function refuseDuplicates(items: { id: string }[], where: string) {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (seen.has(item.id)) throw badRequest(`file: ${where}[${i}].id: "${item.id}" appears twice in ${where}`);
    seen.add(item.id);
  });
}

/** Checks that the export is one board whose parts refer only to each other (else 400 naming the first that does not). */
function checkConsistency(t: TrelloExport) {
  refuseDuplicates(t.lists, 'lists');
  refuseDuplicates(t.cards, 'cards');
  refuseDuplicates(t.labels, 'labels');
  refuseDuplicates(t.checklists, 'checklists');
  refuseDuplicates(t.members, 'members');
  refuseDuplicates(t.actions, 'actions');
  refuseDuplicates(t.customFields ?? [], 'customFields');
  const lists = new Set(t.lists.map((l) => l.id));
  const labels = new Set(t.labels.map((l) => l.id));
  const cards = new Set(t.cards.map((c) => c.id));
  const fields = new Set((t.customFields ?? []).map((f) => f.id));
  t.cards.forEach((card, i) => {
    if (!lists.has(card.idList)) throw badRequest(`file: cards[${i}].idList: list "${card.idList}" is not among the export's lists`);
    const label = card.idLabels.find((id) => !labels.has(id));
    if (label !== undefined) throw badRequest(`file: cards[${i}].idLabels: label "${label}" is not among the export's labels`);
    const field = (card.customFieldItems ?? []).find((v) => !fields.has(v.idCustomField));
    if (field) throw badRequest(`file: cards[${i}].customFieldItems: custom field "${field.idCustomField}" is not among the export's customFields`);
  });
  t.checklists.forEach((checklist, i) => {
    if (!cards.has(checklist.idCard)) throw badRequest(`file: checklists[${i}].idCard: card "${checklist.idCard}" is not among the export's cards`);
    refuseDuplicates(checklist.checkItems, `checklists[${i}].checkItems`);
  });
}

/** How the preview names due dates left out: Trello keeps dates we cannot (year 0, or past 9999), and one must not cost the board. */
export const DUE_LEFT_OUT = 'due dates that are not dates, or outside the years 0001-9999 (left out)';

/**
 * The instant a date of the export names, or null when it names none or one outside the years
 * 0001-9999 that the rest of the API keeps (PostgreSQL has no year 0: such a date was a 500).
 */
function trelloInstant(text: string): Date | null {
  const at = new Date(text);
  if (Number.isNaN(at.getTime())) return null;
  const year = at.getUTCFullYear();
  return year >= 1 && year <= 9999 ? at : null;
}

const ROLES: Record<string, 'admin' | 'member' | 'observer'> = { admin: 'admin', normal: 'member', observer: 'observer' };

/**
 * The Trello export as our own board file, and what it could not carry over in `report`. Refuses
 * (400) an export that contradicts itself: duplicated ids, a card in a list it does not have, a
 * label, checklist or field value that refers to nothing.
 */
export function boardFileFromTrello(t: TrelloExport, report: ImportReport): BoardFile {
  checkConsistency(t);

  const roles = new Map((t.memberships ?? []).map((m) => [m.idMember, (Object.hasOwn(ROLES, m.memberType ?? '') ? ROLES[m.memberType!] : undefined) ?? 'member']));
  const members: BoardFile['members'] = t.members.map((m) => ({
    key: m.id,
    name: fitText(m.fullName || m.username || 'Trello member', 200, report, 'member names'),
    email: m.email ?? null,
    username: m.username ?? null,
    role: roles.get(m.id) ?? 'member',
  }));
  const memberKeys = new Set(members.map((m) => m.key));

  const labels: BoardFile['labels'] = t.labels.map((l) => {
    let colour = labelColor(l.color);
    if (colour === undefined) {
      report.add('label colours we do not have (the label is kept without a colour)', `${l.name || '(unnamed)'}: ${l.color}`);
      colour = { color: null, shade: null };
    }
    const { color, shade } = colour;
    const fallback = color ? color[0]!.toUpperCase() + color.slice(1) : 'No colour';
    return { key: l.id, name: fitText(l.name ?? '', 100, report, 'label names') || fallback, color, shade };
  });

  const fields = fieldsFromTrello(t, report);

  const checklistsByCard = new Map<string, BoardFile['lists'][number]['cards'][number]['checklists']>();
  for (const checklist of byPos(t.checklists)) {
    for (const item of checklist.checkItems) if (item.due || item.idMember) report.add("checklist items' own due dates and members (the items are kept)", item.name);
    const items = byPos(checklist.checkItems)
      .map((item) => ({ name: fitText(item.name, 512, report, 'checklist items'), checked: item.state === 'complete' }))
      .filter((item) => item.name.length > 0);
    if (items.length > 500) report.add('checklist items beyond 500 on a checklist', checklist.name, items.length - 500);
    const mapped = { name: fitText(checklist.name, 100, report, 'checklist names') || 'Checklist', items: items.slice(0, 500) };
    pushTo(checklistsByCard, checklist.idCard, mapped);
  }

  const commentsByCard = commentsFromActions(t, members, memberKeys, report);

  const cardsByList = new Map<string, TrelloCard[]>();
  for (const card of byPos(t.cards)) pushTo(cardsByList, card.idList, card);

  const mapCard = (card: TrelloCard, position: number): FileCard => {
    for (const id of card.idMembers) if (!memberKeys.has(id)) report.add("card members not among the export's members (left out)", card.name);
    if (card.cover?.color) report.add('cover colours (our covers are attached pictures)', `${card.name}: ${card.cover.color}`);
    const coverId = card.cover?.idAttachment || card.idAttachmentCover;
    if (coverId) {
      const what = (card.attachments ?? []).some((a) => a.id === coverId)
        ? 'covers (the picture stays on Trello as a link attachment; a cover must be a picture uploaded here)'
        : "cover images (Trello's files are not in the export)";
      report.add(what, card.name);
    }
    if (card.idMembersVoted?.length) report.add('votes (we have no votes)', card.name, card.idMembersVoted.length);
    if (card.stickers?.length) report.add('stickers', card.name, card.stickers.length);
    if (card.locationName || card.address) report.add('card locations', card.name);
    const due = card.due ? trelloInstant(card.due) : null;
    if (card.due && !due) report.add(DUE_LEFT_OUT, `${card.name}: ${card.due}`);
    return {
      title: fitText(card.name, 512, report, 'card titles') || 'Untitled card',
      description: fitText(card.desc, TEXT_LIMIT, report, 'descriptions'),
      archived: card.closed,
      position,
      dueAt: due ? due.toISOString() : null,
      ...createdFromId(card.id),
      labels: [...new Set(card.idLabels)],
      members: [...new Set(card.idMembers.filter((id) => memberKeys.has(id)))],
      fieldValues: fields.valuesOf(card),
      checklists: (checklistsByCard.get(card.id) ?? []).slice(0, 100),
      comments: commentsByCard.get(card.id) ?? [],
      attachments: linkAttachments(card, report),
    };
  };

  const lists = (() => {
    const ordered = byPos(t.lists);
    return [...ordered.filter((l) => !l.closed), ...ordered.filter((l) => l.closed)].map((list, i, all) => {
      const cards = cardsByList.get(list.id) ?? [];
      const open = cards.filter((c) => !c.closed);
      const closed = cards.filter((c) => c.closed);
      const archivedAt = i - all.filter((l) => !l.closed).length;
      return {
        name: fitText(list.name, 100, report, 'list names') || 'Untitled list',
        archived: list.closed,
        position: list.closed ? archivedAt : i,
        cards: [...open.map((c, p) => mapCard(c, p)), ...closed.map((c, p) => mapCard(c, p))],
      };
    });
  })();

  if (t.pluginData?.length || t.powerUps?.length) report.add('power-ups and their data', undefined, Math.max(t.pluginData?.length ?? 0, t.powerUps?.length ?? 0));
  const history = t.actions.filter((a) => a.type !== 'commentCard').length;
  if (history) report.add('history (actions other than comments: moves, edits, …)', undefined, history);

  return {
    format: BOARD_FILE_FORMAT,
    version: 1,
    board: {
      name: fitText(t.name, 100, report, 'board name') || 'Imported from Trello',
      description: fitText(t.desc ?? '', TEXT_LIMIT, report, 'board description'),
      ...boardColor(t, report),
      archived: false,
    },
    labels,
    customFields: fields.definitions,
    members,
    lists,
  };
}

/** A Trello id is a MongoDB ObjectId: its first 8 hex digits are the second it was made at. */
function createdFromId(id: string): { createdAt?: string } {
  if (!/^[0-9a-f]{24}$/i.test(id)) return {};
  const at = new Date(parseInt(id.slice(0, 8), 16) * 1000);
  return at.getTime() > Date.UTC(2010, 0, 1) && at.getTime() <= Date.now() ? { createdAt: at.toISOString() } : {};
}

/** Trello's plain board backgrounds that are our colours too (sky is our teal); a picture or another colour is reported. */
function boardColor(t: TrelloExport, report: ImportReport): { color?: (typeof BOARD_COLORS)[number] } {
  const background = t.prefs?.background;
  if (!background) return {};
  const color = background === 'sky' ? 'teal' : background;
  if ((BOARD_COLORS as readonly string[]).includes(color)) return { color: color as (typeof BOARD_COLORS)[number] };
  report.add('board backgrounds other than our colours (a picture, say; the board is blue)', background);
  return {};
}

/** How the preview names Trello's uploaded files: they stay on Trello, and the card links to them. */
export const UPLOADS_AS_LINKS = 'uploaded files (not copied: kept as links to Trello, which may need a Trello sign-in)';

/**
 * The card's attachments as link attachments (Trello's files are not in the export: an uploaded
 * file becomes a link to it on Trello, and is reported); links other than http(s) are refused.
 */
function linkAttachments(card: TrelloCard, report: ImportReport): FileCard['attachments'] {
  const links: FileCard['attachments'] = [];
  for (const a of card.attachments ?? []) {
    const url = a.url && URL.canParse(a.url) ? new URL(a.url) : null;
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.href.length > 4096) {
      report.add('attachment links that are not http(s) (refused)', `${card.name}: ${a.url ?? '(none)'}`);
      continue;
    }
    const filename = fitText((a.name || url.href).replace(/\s+/g, ' '), 255, report, 'attachment names') || url.href.slice(0, 255);
    if (a.isUpload) report.add(UPLOADS_AS_LINKS, `${card.name}: ${filename}`);
    const size = typeof a.bytes === 'number' && Number.isSafeInteger(a.bytes) && a.bytes >= 0 && a.bytes <= 2 ** 31 - 1 ? a.bytes : 0;
    links.push({ filename, mimeType: fitText(a.mimeType ?? '', 127, report, 'attachment types'), size, url: url.href });
  }
  return links;
}

/** What follows the name of a comment's author who has no account here. */
export const FROM_TRELLO = ' (from Trello)';

/** Comments from `commentCard` actions, oldest first, by card; the author named as in Trello. */
function commentsFromActions(t: TrelloExport, members: BoardFile['members'], memberKeys: Set<string>, report: ImportReport) {
  const cards = new Set(t.cards.map((c) => c.id));
  const byCard = new Map<string, FileCard['comments']>();
  const comments = t.actions.filter((a) => a.type === 'commentCard');
  // By key: a scan of the list per comment was quadratic in the number of authors (a crafted export of 150k
  // comments by distinct former members held the event loop for minutes).
  const byKey = new Map(members.map((m) => [m.key, m]));
  for (const action of comments.sort((a, b) => a.date.localeCompare(b.date))) {
    const cardId = action.data?.card?.id;
    const text = fitText(action.data?.text ?? '', TEXT_LIMIT, report, 'comments');
    const at = trelloInstant(action.date);
    if (!cardId || !cards.has(cardId)) {
      report.add('comments on cards not in the export (deleted cards)', text.slice(0, 60));
      continue;
    }
    if (!text || !at) {
      report.add('comments without text or date', cardId);
      continue;
    }
    const creator = action.idMemberCreator ?? null;
    if (creator !== null && !memberKeys.has(creator)) {
      // A former member: kept as the comment's author, not as one of the board's members.
      const who = action.memberCreator;
      const former = { key: creator, name: fitText(who?.fullName || who?.username || 'Trello member', 200, report, 'member names'), email: null, username: who?.username ?? null, role: null };
      members.push(former);
      byKey.set(creator, former);
      memberKeys.add(creator);
    }
    const author = creator === null ? null : byKey.get(creator);
    // The name a comment keeps when its author is not matched to a user here: marked as Trello's, in its header.
    const name = fitText(author?.name ?? 'Trello member', 200 - FROM_TRELLO.length, report, 'member names');
    pushTo(byCard, cardId, { author: creator, authorName: `${name}${FROM_TRELLO}`, text, createdAt: at.toISOString() });
  }
  return byCard;
}

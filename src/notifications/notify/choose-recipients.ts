import type { ActivityView } from '../../boards/activity/present-activity.js';
import type { DbClient } from '../../platform/db.js';
import type { NotificationKind } from '../../generated/prisma/client.js';
import { type Mentionable, matchMentions } from './match-mentions.js';
import { shorten } from './shorten-text.js';

/** One notification to write: who is told, of what kind, and the sentence they read. */
export interface Recipient {
  userId: number;
  kind: NotificationKind;
  text: string;
}

/**
 * What a watcher reads after the actor's name, by activity type: the card changes a card's watchers
 * are told of ("Ada moved “Fix the login page”"), and so the only ones findWatchers reads watchers for.
 */
export const WATCHED_CHANGES: Partial<Record<ActivityView['type'], string>> = {
  'card.updated': 'edited',
  'card.moved': 'moved',
  'card.archived': 'archived',
  'card.label_added': 'added a label to',
  'card.label_removed': 'took a label off',
  'card.member_added': 'assigned someone to',
  'card.member_removed': 'unassigned someone from',
  'card.field_set': 'set a field on',
  'checklist.created': 'added a checklist to',
  'checklist.updated': 'renamed a checklist on',
  'checklist.deleted': 'deleted a checklist on',
  'item.created': 'added a checklist item to',
  'item.updated': 'changed a checklist item on',
  'item.deleted': 'deleted a checklist item on',
  'item.converted': 'made a card of a checklist item on',
  'comment.created': 'commented on',
  'comment.updated': 'edited a comment on',
  'comment.deleted': 'deleted a comment on',
  'attachment.created': 'attached a file to',
  'attachment.deleted': 'deleted an attachment on',
};

/** The activity types that can tell anyone anything: the notifier reads only these (a card created with assignees tells them). */
export const NOTIFYING_TYPES: string[] = [...Object.keys(WATCHED_CHANGES), 'card.created', 'card.copied'];

const quote = (title: string) => `“${shorten(title, 120)}”`;
const excerpt = (text: string) => shorten(text.replace(/\s+/g, ' ').trim(), 200);

/**
 * Of the people an edited comment mentions, those it did not mention before the edit. The text
 * before it is in the log: the comment's latest earlier activity (comment.created or .updated)
 * on this board. Not there (the card came from another board, the comment from an import):
 * those never told of a mention on this card, so that nobody is told twice of one comment.
 */
async function newlyMentioned({ db, activity, commentId, cardId, mentioned, people }: {
  db: DbClient;
  activity: ActivityView;
  commentId: number;
  cardId: number;
  mentioned: number[];
  people: Mentionable[];
}): Promise<number[]> {
  // Walks this board's log back from the edit ((boardId, id) index); edits that mention someone are few.
  const [before] = await db.$queryRaw<{ text: string | null }[]>`
    SELECT data->'comment'->>'text' AS text FROM "Activity"
    WHERE "boardId" = ${activity.boardId} AND id < ${activity.id} AND type IN ('comment.created', 'comment.updated')
      AND data->>'commentId' = ${String(commentId)}
    ORDER BY id DESC LIMIT 1`;
  const earlier =
    typeof before?.text === 'string'
      ? matchMentions(before.text, people)
      : (await db.notification.findMany({ where: { userId: { in: mentioned }, cardId, kind: 'mentioned' }, select: { userId: true } })).map((n) => n.userId);
  return mentioned.filter((id) => !earlier.includes(id));
}

/**
 * Who one committed activity tells, and what: the member assigned (card.member_added), the members
 * @mentioned in a new comment or newly mentioned by an edit of one, and the card's watchers (any
 * change to it: a card moved, edited, archived, commented on …, WATCHED_CHANGES). Never the actor, and only active users who are members of the board now (who can
 * still see it). One notification per person per activity: assigned before mentioned before watched.
 * `watchers`: the watchers of the page's cards, read together beforehand (findWatchers).
 */
export async function chooseRecipients({ db, activity, watchers }: { db: DbClient; activity: ActivityView; watchers: ReadonlyMap<number, number[]> }): Promise<Recipient[]> {
  const data = activity.data as {
    cardId?: number;
    card?: { title: string; boardId: number; memberIds?: number[] };
    userId?: number;
    commentId?: number;
    comment?: { text: string; author?: { userId: number | null; name: string } };
    to?: { boardId?: number };
  };
  if (typeof data.cardId !== 'number' || !data.card) return [];
  // A move to another board is recorded on both: told once, from the board it went to.
  if (activity.type === 'card.moved' && data.to?.boardId !== undefined && data.to.boardId !== activity.boardId) return [];
  // A comment by an author without an account (a ticket's requester, written by the tickets module as
  // a member of the team): said by that name, not the actor's own words, so the actor is told too; and it
  // mentions nobody, so a customer cannot reach the team's inboxes by @name.
  const byName = data.comment?.author?.userId === null;
  const actor = byName ? data.comment!.author!.name : activity.actor.name;
  const title = quote(data.card.title);
  const out = new Map<number, Recipient>();
  const add = (userId: number, kind: NotificationKind, text: string) => {
    if ((userId === activity.actor.userId && !byName) || out.has(userId)) return;
    out.set(userId, { userId, kind, text });
  };

  if (activity.type === 'card.member_added' && typeof data.userId === 'number') add(data.userId, 'assigned', `${actor} assigned you to ${title}`);
  // A card made with its assignees (POST with memberIds, a copy, a CSV row) records no card.member_added.
  if ((activity.type === 'card.created' || activity.type === 'card.copied') && Array.isArray(data.card.memberIds)) {
    for (const userId of data.card.memberIds) add(userId, 'assigned', `${actor} assigned you to ${title}`);
  }

  // Mentions are matched against the board's members; for anything else the members are read only
  // when someone is to be told (most changes, on cards nobody watches, tell nobody).
  const commented = activity.type === 'comment.created' || activity.type === 'comment.updated';
  const mentions = commented && data.comment && !byName && /@/.test(data.comment.text) ? data.comment.text : null;
  const activeMembers = () =>
    db.boardMember.findMany({ where: { boardId: activity.boardId, user: { status: 'active' } }, select: { userId: true, user: { select: { name: true, email: true } } } });
  let members = mentions === null ? null : await activeMembers();
  if (mentions !== null && members) {
    const people = members.map((m) => ({ userId: m.userId, ...m.user }));
    let mentioned = matchMentions(mentions, people);
    if (activity.type === 'comment.updated' && mentioned.length && typeof data.commentId === 'number') {
      mentioned = await newlyMentioned({ db, activity, commentId: data.commentId, cardId: data.cardId, mentioned, people });
    }
    for (const userId of mentioned) add(userId, 'mentioned', `${actor} mentioned you on ${title}: “${excerpt(mentions)}”`);
  }

  const verb = WATCHED_CHANGES[activity.type];
  if (verb) {
    const watching = watchers.get(data.cardId) ?? [];
    const said = activity.type === 'comment.created' && data.comment ? `: “${excerpt(data.comment.text)}”` : '';
    for (const userId of watching) add(userId, 'watched', `${actor} ${verb} ${title}${said}`);
  }
  if (!out.size) return [];

  // Only people who can see the board now (active members).
  members ??= await activeMembers();
  const onBoard = new Set(members.map((m) => m.userId));
  return [...out.values()].filter((c) => onBoard.has(c.userId));
}

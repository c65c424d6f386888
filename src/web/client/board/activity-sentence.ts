import type { Activity, Board } from '../types';
import { formatDate, plural } from '../ui';

type Data = Record<string, any>;

const quote = (text: unknown) => `“${String(text ?? '')}”`;
const article = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a');

/** What an activity's `data` says about names, with the board for the ids it only refers to. */
function context(a: Activity, board: Board | null) {
  const d = a.data as Data;
  const list = (id: unknown) => board?.lists.find((l) => l.id === id)?.name;
  const label = (id: unknown) => board?.labels.find((l) => l.id === id);
  const member = (id: unknown) => (id === a.actor.userId ? null : board?.members.find((m) => m.userId === id)?.name);
  const field = (id: unknown) => board?.customFields.find((f) => f.id === id);
  const card = d.card?.title !== undefined ? quote(d.card.title) : 'a card';
  return { d, list, label, member, field, card };
}

function describeValue(value: unknown, type: string | undefined): string {
  if (type === 'date' && typeof value === 'string') return formatDate(value);
  return quote(value);
}

/**
 * The sentence after the actor's name: "moved the card “Fix login” from To do to Done". Every
 * activity type of the API's Activity union has its own (a new type falls back to its name, so
 * the test that renders one of each fails until it gets one).
 */
export function activitySentence(a: Activity, board: Board | null): string {
  const { d, list, label, member, field, card } = context(a, board);
  switch (a.type) {
    case 'board.created':
      return `created the board ${quote(d.board?.name)}`;
    case 'board.updated': {
      const c = (d.changes ?? {}) as { name?: string; description?: string; color?: string; archived?: boolean };
      const parts = [
        c.name !== undefined && `renamed the board to ${quote(c.name)}`,
        c.description !== undefined && (c.description ? 'changed the board’s description' : 'removed the board’s description'),
        c.color !== undefined && `changed the board’s colour to ${c.color}`,
        c.archived === true && 'archived the board',
        c.archived === false && 'restored the board',
      ].filter(Boolean) as string[];
      return parts.length ? joinAnd(parts) : 'updated the board';
    }
    case 'board.deleted':
      return 'deleted the board';

    case 'list.created':
      return `added the list ${quote(d.list?.name)}`;
    case 'list.updated':
      return `updated the list ${quote(d.list?.name)}`;
    case 'list.archived':
      return `archived the list ${quote(d.list?.name)}`;
    case 'list.deleted':
      return `deleted a list${d.cards ? ` with ${plural(d.cards, 'card')}` : ''}`;
    case 'list.moved':
      if (d.from?.boardId !== d.to?.boardId) return d.to?.boardId === a.boardId ? `moved the list ${quote(d.list?.name)} here from another board` : `moved the list ${quote(d.list?.name)} to another board`;
      return `moved the list ${quote(d.list?.name)} from position ${d.from.position + 1} to ${d.to.position + 1}`;

    case 'card.created':
      if (d.fromItemId !== undefined) return `turned a checklist item into the card ${card}`;
      return `added the card ${card}${list(d.listId) ? ` to ${list(d.listId)}` : ''}`;
    case 'card.updated':
      if (d.restoredFrom !== undefined) return `restored the card ${card} to ${list(d.listId) ?? 'another list'} (its list is archived)`;
      return `updated the card ${card}`;
    case 'card.archived':
      return `archived the card ${card}`;
    case 'card.moved': {
      const from = d.from ?? {};
      const to = d.to ?? {};
      if (to.boardId !== undefined || from.boardId !== undefined) {
        return (to.boardId ?? a.boardId) === a.boardId ? `moved the card ${card} here from another board` : `moved the card ${card} to another board`;
      }
      if (from.listId === to.listId) return `moved the card ${card} within ${list(to.listId) ?? 'its list'}`;
      const fromName = list(from.listId);
      const toName = list(to.listId);
      return `moved the card ${card}${fromName ? ` from ${fromName}` : ''}${toName ? ` to ${toName}` : ' to another list'}`;
    }
    case 'card.copied':
      return `copied a card as ${card}`;
    case 'card.deleted':
      return `deleted a card${list(d.listId) ? ` from ${list(d.listId)}` : ''}`;
    case 'card.label_added':
    case 'card.label_removed': {
      const l = label(d.labelId);
      const what = l ? `the label ${quote(l.name || l.color)}` : 'a label';
      return a.type === 'card.label_added' ? `added ${what} to ${card}` : `removed ${what} from ${card}`;
    }
    case 'card.member_added': {
      const who = member(d.userId);
      return who === null ? `joined the card ${card}` : `assigned ${who ?? 'a former member'} to ${card}`;
    }
    case 'card.member_removed': {
      const who = member(d.userId);
      return who === null ? `left the card ${card}` : `unassigned ${who ?? 'a former member'} from ${card}`;
    }
    case 'card.field_set': {
      const f = field(d.fieldId);
      const name = f ? quote(f.name) : 'a custom field';
      if (d.value === null) return `cleared ${name} on ${card}`;
      if (typeof d.value === 'boolean') return `${d.value ? 'ticked' : 'unticked'} ${name} on ${card}`;
      return `set ${name} to ${describeValue(d.value, f?.type)} on ${card}`;
    }

    case 'checklist.created':
      return `added the checklist ${quote(d.checklist?.name)} to ${card}`;
    case 'checklist.updated':
      return `renamed a checklist to ${quote(d.checklist?.name)} on ${card}`;
    case 'checklist.deleted':
      return `deleted a checklist from ${card}`;
    case 'item.created':
      return `added ${quote(d.item?.name)} to a checklist on ${card}`;
    case 'item.updated':
      return d.item?.checked ? `completed ${quote(d.item?.name)} on ${card}` : `updated the checklist item ${quote(d.item?.name)} on ${card}`;
    case 'item.deleted':
      return `deleted a checklist item from ${card}`;
    case 'item.converted':
      return `turned a checklist item of ${card} into a card`;

    case 'comment.created':
      return `commented on ${card}: ${quote(excerpt(d.comment?.text))}`;
    case 'comment.updated':
      return `edited a comment on ${card}${d.previousText !== undefined ? ` (it said ${quote(excerpt(d.previousText))})` : ''}`;
    case 'comment.deleted':
      return `deleted a comment on ${card}`;
    case 'attachment.created':
      return `attached ${quote(d.attachment?.filename)} to ${card}`;
    case 'attachment.deleted':
      return `deleted an attachment from ${card}`;

    case 'label.created':
      return `created the label ${quote(d.label?.name || d.label?.color)}`;
    case 'label.updated':
      return `updated the label ${quote(d.label?.name || d.label?.color)}`;
    case 'label.deleted':
      return `deleted the label ${quote(d.label?.name || d.label?.color)}${d.cardIds?.length ? ` (it was on ${plural(d.cardIds.length, 'card')})` : ''}`;

    case 'custom_field.created':
      return `added the custom field ${quote(d.customField?.name)} (${d.customField?.type})`;
    case 'custom_field.updated': {
      const cleared = d.clearedCardIds?.length ? ` (cleared on ${plural(d.clearedCardIds.length, 'card')})` : '';
      return `changed the custom field ${quote(d.customField?.name)}${cleared}`;
    }
    case 'custom_field.deleted':
      return `deleted the custom field ${quote(d.customField?.name)}`;

    case 'member.added':
      if (d.invitation || d.userId === a.actor.userId) return `joined the board as ${article(d.member?.role ?? '')} ${d.member?.role}`;
      return `added ${d.member?.name} to the board as ${article(d.member?.role ?? '')} ${d.member?.role}`;
    case 'member.invited':
      return `invited ${d.email} to the board as ${article(d.role ?? '')} ${d.role}`;
    case 'member.updated':
      return `changed ${d.member?.name}’s role from ${d.from?.role} to ${d.member?.role}`;
    case 'member.removed':
      return d.userId === a.actor.userId ? 'left the board' : `removed ${d.member?.name} from the board`;
    case 'invitation.revoked':
      return `revoked the invitation of ${d.email}`;
    case 'invitation.updated':
      return `renewed the invitation of ${d.email}, now as ${article(d.role ?? '')} ${d.role}`;
  }
  // A type the server added after this client was built: every type of its union has a case above.
  return (a as { type: string }).type;
}

/** How the change was made, when not by the person in the app: "via Claude", "with an API key". */
export function activityChannel(a: Activity): string | null {
  if (a.actor.client) return `via ${a.actor.client}`;
  if (a.actor.keyId !== null) return 'with an API key';
  return null;
}

function joinAnd(parts: string[]) {
  return parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

function excerpt(text: unknown) {
  const t = String(text ?? '').replace(/\s+/g, ' ').trim();
  return t.length > 80 ? `${t.slice(0, 77)}…` : t;
}

import type { Board, CardSummary } from '../types';

/** The due options: past due, due within the next seven days, no due date. Any one ticked matches. */
export const DUE_OPTIONS = [
  ['overdue', 'Overdue'],
  ['week', 'Due in the next 7 days'],
  ['none', 'No due date'],
] as const;
export type Due = (typeof DUE_OPTIONS)[number][0];

/**
 * The board's filter, as the URL holds it (`?labels=3,5&members=me,12&due=overdue&q=invoice`) so a
 * link shares it and a reload keeps it. `me` is whoever opens the link, so "My cards" can be shared.
 */
export interface Filter {
  labels: number[];
  members: ('me' | number)[];
  due: Due[];
  q: string;
}

const ids = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);

/** Unknown values are dropped, never an error: a hand-edited link still shows the board. */
export function readFilter(query: URLSearchParams): Filter {
  const dues = new Set(DUE_OPTIONS.map(([d]) => d as string));
  return {
    labels: ids(query.get('labels')),
    members: (query.get('members') ?? '')
      .split(',')
      .flatMap((m): ('me' | number)[] => (m === 'me' ? ['me'] : ids(m))),
    due: (query.get('due') ?? '').split(',').filter((d): d is Due => dues.has(d)),
    q: query.get('q') ?? '',
  };
}

export const isActive = (f: Filter) => f.labels.length > 0 || f.members.length > 0 || f.due.length > 0 || f.q.trim() !== '';

/** The query with the filter's parameters set (or removed when empty); other parameters (`card`) stay. */
export function writeFilter(query: URLSearchParams, f: Filter): URLSearchParams {
  const next = new URLSearchParams(query);
  const put = (name: string, value: string) => (value ? next.set(name, value) : next.delete(name));
  put('labels', f.labels.join(','));
  put('members', f.members.join(','));
  put('due', f.due.join(','));
  put('q', f.q);
  return next;
}

const WEEK = 7 * 24 * 60 * 60 * 1000;

/**
 * Whether a card is shown: every kind of condition set must hold, and within a kind any one value
 * (a card with either label), as Trello's filter. Text matches every word in the title, the
 * description or a label's name, ignoring case.
 */
export function matcher(f: Filter, board: Board, me: number, now = Date.now()): (card: CardSummary) => boolean {
  const labels = new Set(f.labels);
  const members = new Set(f.members.map((m) => (m === 'me' ? me : m)));
  const labelNames = new Map(board.labels.map((l) => [l.id, l.name.toLowerCase()]));
  const words = f.q.toLowerCase().split(/\s+/).filter(Boolean);
  return (card) => {
    if (labels.size && !card.labelIds.some((id) => labels.has(id))) return false;
    if (members.size && !card.memberIds.some((id) => members.has(id))) return false;
    if (f.due.length) {
      const at = card.dueAt === null ? null : Date.parse(card.dueAt);
      const ok = f.due.some((d) => (d === 'none' ? at === null : at !== null && (d === 'overdue' ? at < now : at >= now && at <= now + WEEK)));
      if (!ok) return false;
    }
    if (words.length) {
      const text = [card.title, card.description, ...card.labelIds.map((id) => labelNames.get(id) ?? '')].join('\n').toLowerCase();
      if (!words.every((w) => text.includes(w))) return false;
    }
    return true;
  };
}

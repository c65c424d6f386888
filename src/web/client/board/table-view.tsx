// Not used here: reaching the same modules as the card dialog keeps esbuild's shared chunks as
// they were, so the board's first load does not fetch two more tiny ones (session, colour names).
import '../session';
import '../types';
import { useState } from 'preact/hooks';
import type { CardSummary } from '../types';
import { formatDate, plural } from '../ui';
import { labelClass } from './card-tile';
import type { ViewProps } from './view-props';

const COLUMNS = [
  ['title', 'Card'],
  ['list', 'List'],
  ['labels', 'Labels'],
  ['members', 'Members'],
  ['due', 'Due'],
  ['checklist', 'Checklist'],
] as const;
type Column = (typeof COLUMNS)[number][0];
type Direction = 'ascending' | 'descending';

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/**
 * The board's cards (the filter's) as a table: card, list, labels, members, due date and checklist
 * progress. A column header sorts by it (again: the other way), said by `aria-sort`; cards without a
 * value in that column go last either way, and ties keep the board's order. A title opens the card.
 */
export function TableView({ board, visible, openCard }: ViewProps) {
  const [sort, setSort] = useState<{ column: Column; direction: Direction }>({ column: 'list', direction: 'ascending' });
  const labels = new Map(board.labels.map((l, i) => [l.id, { ...l, index: i }]));
  const members = new Map(board.members.map((m) => [m.userId, m.name]));
  const lists = new Map(board.lists.map((l, i) => [l.id, { name: l.name, index: i }]));
  const rows = board.lists.flatMap((l) => (visible ? l.cards.filter(visible) : l.cards));
  const order = new Map(rows.map((c, i) => [c.id, i]));
  const labelNames = (c: CardSummary) => c.labelIds.map((id) => labels.get(id)?.name ?? '').filter(Boolean);
  const memberNames = (c: CardSummary) => c.memberIds.map((id) => members.get(id) ?? '').filter(Boolean);

  /** The column's value for sorting: null sorts last whatever the direction. */
  const value = (c: CardSummary): string | number | null => {
    switch (sort.column) {
      case 'title':
        return c.title;
      case 'list':
        return lists.get(c.listId)?.index ?? 0;
      case 'labels':
        return labelNames(c).join(', ') || null;
      case 'members':
        return memberNames(c).join(', ') || null;
      case 'due':
        return c.dueAt === null ? null : Date.parse(c.dueAt);
      case 'checklist':
        return c.checklistItems.total === 0 ? null : c.checklistItems.checked / c.checklistItems.total;
    }
  };
  const sign = sort.direction === 'ascending' ? 1 : -1;
  const sorted = [...rows].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    if (x === null || y === null) return x === y ? order.get(a.id)! - order.get(b.id)! : x === null ? 1 : -1;
    const by = typeof x === 'number' && typeof y === 'number' ? x - y : collator.compare(String(x), String(y));
    return by * sign || order.get(a.id)! - order.get(b.id)!;
  });
  const now = Date.now();

  return (
    <section class="board-view board-table" aria-label="Cards as a table">
      {rows.length === 0 ? (
        <p>No cards to show.</p>
      ) : (
        <div class="board-table-wrap">
          <table>
            <caption class="visually-hidden">The board's cards; a column's button sorts by it.</caption>
            <thead>
              <tr>
                {COLUMNS.map(([column, name]) => {
                  const current = sort.column === column;
                  return (
                    <th key={column} scope="col" aria-sort={current ? sort.direction : undefined}>
                      <button
                        type="button"
                        class="sort"
                        onClick={() => setSort({ column, direction: current && sort.direction === 'ascending' ? 'descending' : 'ascending' })}
                      >
                        {name}
                        <span aria-hidden="true" class="sort-mark">
                          {current ? (sort.direction === 'ascending' ? ' ▲' : ' ▼') : ''}
                        </span>
                      </button>
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {sorted.map((c) => {
                const names = memberNames(c);
                const overdue = c.dueAt !== null && Date.parse(c.dueAt) < now;
                return (
                  <tr key={c.id} data-card-id={c.id}>
                    <th scope="row">
                      <button type="button" class="link card-title" onClick={() => openCard(c.id)}>
                        {c.title}
                      </button>
                    </th>
                    <td>{lists.get(c.listId)?.name}</td>
                    <td>
                      {c.labelIds.length > 0 && (
                        <ul class="card-labels">
                          {c.labelIds.map((id) => labels.get(id)).filter((l) => l !== undefined).sort((a, b) => a.index - b.index).map((l) => (
                            <li key={l.id} class={labelClass(l)}>
                              {l.name || <span class="visually-hidden">No name</span>}
                            </li>
                          ))}
                        </ul>
                      )}
                    </td>
                    <td>{names.join(', ')}</td>
                    <td>
                      {c.dueAt && (
                        <time dateTime={c.dueAt} class={overdue ? 'badge warn' : undefined}>
                          {formatDate(c.dueAt, { time: true })}
                        </time>
                      )}
                    </td>
                    <td>
                      {c.checklistItems.total > 0 && (
                        <span aria-label={`${c.checklistItems.checked} of ${plural(c.checklistItems.total, 'item')} done`}>
                          {c.checklistItems.checked}/{c.checklistItems.total}
                        </span>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

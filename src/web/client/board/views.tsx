import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { link } from '../router';
import { Alert } from '../ui';
import type { ViewProps } from './view-props';

/** The board's views: its lists, a calendar of due dates, a table. `?view=` holds it beside the filter, so a link shares both. */
export const VIEWS = [
  ['board', 'Board'],
  ['calendar', 'Calendar'],
  ['table', 'Table'],
] as const;
export type View = (typeof VIEWS)[number][0];

/** Unknown values show the board, as a hand-edited filter does. */
export function readView(query: URLSearchParams): View {
  const view = query.get('view');
  return view === 'calendar' || view === 'table' ? view : 'board';
}

/** Board / Calendar / Table as links: each keeps the filter (and the rest of the query) and can be opened in a new tab. */
export function ViewSwitch({ view }: { view: View }) {
  const href = (to: View) => {
    const query = new URLSearchParams(location.search);
    if (to === 'board') query.delete('view');
    else query.set('view', to);
    const search = query.toString();
    return location.pathname + (search ? `?${search}` : '');
  };
  return (
    <nav class="view-switch" aria-label="Views">
      {VIEWS.map(([value, name]) => {
        const to = href(value);
        return (
          <a key={value} href={to} aria-current={view === value ? 'page' : undefined} onClick={link(to)}>
            {name}
          </a>
        );
      })}
    </nav>
  );
}

type Loaded = ComponentType<ViewProps>;
/** Each view's code is fetched the first time it is opened (a chunk of its own, as the card dialog's): the board's first load does not carry it. */
const load: Record<Exclude<View, 'board'>, () => Promise<Loaded>> = {
  calendar: () => import('./calendar-view').then((m) => m.CalendarView),
  table: () => import('./table-view').then((m) => m.TableView),
};
const loaded: Partial<Record<View, Loaded>> = {};

export function BoardViewLoader({ view, ...props }: ViewProps & { view: Exclude<View, 'board'> }) {
  const [, setLoads] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const Loaded = loaded[view];
  useEffect(() => {
    if (loaded[view]) return;
    let current = true;
    load[view]().then(
      (component) => {
        loaded[view] = component;
        if (current) setLoads((n) => n + 1);
      },
      () => current && setError(new Error('This view could not be loaded. Check your connection and reload the page.')),
    );
    return () => {
      current = false;
    };
  }, [view]);
  if (Loaded) return <Loaded {...props} />;
  return <div class="board-view">{error ? <Alert error={error} /> : <p>Loading…</p>}</div>;
}

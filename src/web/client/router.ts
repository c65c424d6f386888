import { useEffect, useState } from 'preact/hooks';
import { safeNext as safeNextOn } from './safe-next';

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());
window.addEventListener('popstate', notify);

export function navigate(to: string, { replace = false } = {}) {
  if (to === location.pathname + location.search) return;
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  notify();
}

/** An <a> click handler that routes in the page (modified clicks still open new tabs). */
export function link(to: string) {
  return (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
}

/** The current path and query; re-renders on navigation. */
export function useLocation() {
  const [, setTick] = useState(0);
  useEffect(() => {
    const listener = () => setTick((n) => n + 1);
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);
  return { path: location.pathname, query: new URLSearchParams(location.search) };
}

/** A relative path inside this site, or null (safe-next.ts): `next` parameters must not send people elsewhere. */
export const safeNext = (value: string | null): string | null => safeNextOn(value, location.origin);

export function setQuery(name: string, value: string | null) {
  const query = new URLSearchParams(location.search);
  if (value === null) query.delete(name);
  else query.set(name, value);
  const search = query.toString();
  navigate(location.pathname + (search ? `?${search}` : ''));
}

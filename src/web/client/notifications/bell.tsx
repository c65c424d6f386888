import { useEffect, useRef, useState } from 'preact/hooks';
import { get, post } from '../api';
import { link } from '../router';
import { Alert } from '../ui';
import { NotificationItem } from './notification-item';
import type { AppNotification, NotificationPage } from './types';
import { useUnreadCount } from './use-unread';

/**
 * The bell in the top bar: the unread count, live, and a popover with the latest notifications
 * (each opens its card and is marked read), "Mark all read" and a link to the whole list.
 */
export function NotificationBell({ path }: { path: string }) {
  const unread = useUnreadCount();
  const [open, setOpen] = useState(false);
  const [items, setItems] = useState<AppNotification[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => setOpen(false), [path]);
  // Read again when the count changes while open: what is listed is what is counted.
  useEffect(() => {
    if (!open) return;
    let current = true;
    get<NotificationPage>('/api/notifications?limit=8').then(
      (page) => current && (setItems(page.notifications), setError(null)),
      (e: unknown) => current && setError(e),
    );
    return () => void (current = false);
  }, [open, unread]);
  useEffect(() => {
    if (!open) return;
    const away = (e: MouseEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    const escape = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    document.addEventListener('mousedown', away);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('mousedown', away);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);

  const label = unread ? `Notifications, ${unread} unread` : 'Notifications';
  return (
    <div class="bell" ref={root}>
      <button type="button" class="bell-button" aria-label={label} title={label} aria-haspopup="dialog" aria-expanded={open} aria-controls="notification-popover" onClick={() => setOpen(!open)}>
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">
          <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
          <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
        </svg>
        {!!unread && (
          <span class="bell-count" data-testid="unread-count">
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </button>
      {open && (
        <div class="bell-popover" id="notification-popover" role="dialog" aria-label="Notifications">
          <div class="bell-head">
            <strong>Notifications</strong>
            <button
              type="button"
              class="link"
              disabled={!unread}
              onClick={async () => {
                const newest = items?.[0]?.id;
                await post('/api/notifications/read-all', newest ? { upTo: newest } : {}).catch(setError);
                setItems((list) => list?.map((n) => ({ ...n, read: true })) ?? null);
              }}
            >
              Mark all read
            </button>
          </div>
          <Alert error={error} />
          {items === null && !error && <p class="hint">Loading…</p>}
          {items?.length === 0 && <p class="hint">Nothing yet: you are told here when you are assigned to a card, @mentioned, a card of yours is due, or a card you watch changes.</p>}
          {items && items.length > 0 && (
            <ul class="notification-list">
              {items.map((n) => (
                <NotificationItem key={n.id} n={n} onOpen={() => setOpen(false)} />
              ))}
            </ul>
          )}
          <a class="bell-all" href="/notifications" onClick={link('/notifications')}>
            See all notifications
          </a>
        </div>
      )}
    </div>
  );
}

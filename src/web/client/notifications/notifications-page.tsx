import { useState } from 'preact/hooks';
import { get, post } from '../api';
import { Alert, PageTitle, useAction, useLoad } from '../ui';
import { NotificationItem } from './notification-item';
import type { AppNotification, NotificationPage } from './types';
import { useUnreadCount } from './use-unread';

/** /notifications: all your notifications, newest first, unread ones first to the eye; read one, or all. */
export function NotificationsPage() {
  const unread = useUnreadCount();
  const [onlyUnread, setOnlyUnread] = useState(false);
  const [older, setOlder] = useState<AppNotification[]>([]);
  const [next, setNext] = useState<number | null>(null);
  const { data, error, reload } = useLoad(async () => {
    const page = await get<NotificationPage>(`/api/notifications?limit=30${onlyUnread ? '&unread=true' : ''}`);
    setOlder([]);
    setNext(page.nextBefore);
    return page;
  }, [onlyUnread, unread]);
  const action = useAction();
  const items = data ? [...data.notifications, ...older] : null;
  return (
    <main class="narrow notifications-page">
      <PageTitle>Notifications</PageTitle>
      <div class="notifications-toolbar">
        <label class="inline">
          <input type="checkbox" checked={onlyUnread} onChange={(e) => setOnlyUnread(e.currentTarget.checked)} /> Unread only
        </label>
        <button
          type="button"
          disabled={!unread || action.busy}
          onClick={() =>
            void action.run(async () => {
              await post('/api/notifications/read-all', items?.[0] ? { upTo: items[0].id } : {});
              await reload();
            })
          }
        >
          Mark all read
        </button>
      </div>
      <Alert error={error ?? action.error} />
      {items === null && !error && <p>Loading…</p>}
      {items?.length === 0 && <p class="hint">{onlyUnread ? 'Nothing unread.' : 'No notifications yet.'}</p>}
      {items && items.length > 0 && (
        <ul class="notification-list">
          {items.map((n) => (
            <NotificationItem key={n.id} n={n}>
              {!n.read && (
                <button
                  type="button"
                  class="link"
                  onClick={() =>
                    void action.run(async () => {
                      await post(`/api/notifications/${n.id}/read`);
                      await reload();
                    })
                  }
                >
                  Mark read
                </button>
              )}
            </NotificationItem>
          ))}
        </ul>
      )}
      {next !== null && (
        <button
          type="button"
          onClick={() =>
            void action.run(async () => {
              const page = await get<NotificationPage>(`/api/notifications?limit=30&before=${next}${onlyUnread ? '&unread=true' : ''}`);
              setOlder((list) => [...list, ...page.notifications]);
              setNext(page.nextBefore);
            })
          }
        >
          Older
        </button>
      )}
    </main>
  );
}

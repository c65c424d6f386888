import type { ComponentChildren } from 'preact';
import { post } from '../api';
import { navigate } from '../router';
import { When } from '../ui';
import { type AppNotification, notificationHref } from './types';

/**
 * One notification in a list (the bell's popover, the list page): its sentence as a link to its
 * card, marked read when followed, and when it came; `children` after it (a "Mark read" button).
 */
export function NotificationItem({ n, onOpen, children }: { n: AppNotification; onOpen?: () => void; children?: ComponentChildren }) {
  const open = async (e: MouseEvent) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    onOpen?.();
    if (!n.read) await post(`/api/notifications/${n.id}/read`).catch(() => undefined);
    navigate(notificationHref(n));
  };
  return (
    <li class={n.read ? 'read' : 'unread'}>
      <a href={notificationHref(n)} onClick={(e) => void open(e)}>
        {n.text}
      </a>
      <span class="hint">
        {' · '}
        <When iso={n.createdAt} />
      </span>
      {children}
    </li>
  );
}

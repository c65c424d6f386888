import { useEffect, useState } from 'preact/hooks';

/**
 * The unread count, live: `GET /api/notifications/events` sends it on opening and whenever it
 * changes (EventSource reconnects by itself; a stream the server ended is opened again later).
 */
export function useUnreadCount(): number | null {
  const [unread, setUnread] = useState<number | null>(null);
  useEffect(() => {
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const open = () => {
      const s = new EventSource('/api/notifications/events');
      source = s;
      s.addEventListener('unread', ((message: MessageEvent<string>) => {
        try {
          setUnread((JSON.parse(message.data) as { unread: number }).unread);
        } catch {
          // A malformed event: the next one repairs the count.
        }
      }) as EventListener);
      s.onerror = () => {
        if (s.readyState !== EventSource.CLOSED || stopped) return;
        retry = setTimeout(open, 10_000);
      };
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
    };
  }, []);
  return unread;
}

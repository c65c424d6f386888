import { useEffect, useRef, useState } from 'preact/hooks';
import type { Activity, ActivityType } from '../types';

/**
 * Named SSE events reach only listeners registered for their name, so every type the server
 * sends is listed; a type added later is still caught by `resync` on the next known event.
 */
export const EVENT_TYPES = [
  'board.updated', 'board.deleted',
  'list.created', 'list.updated', 'list.moved', 'list.archived', 'list.deleted',
  'card.created', 'card.updated', 'card.moved', 'card.copied', 'card.archived', 'card.deleted',
  'card.label_added', 'card.label_removed', 'card.member_added', 'card.member_removed', 'card.field_set',
  'checklist.created', 'checklist.updated', 'checklist.deleted',
  'item.created', 'item.updated', 'item.deleted', 'item.converted',
  'comment.created', 'comment.updated', 'comment.deleted',
  'attachment.created', 'attachment.deleted',
  'label.created', 'label.updated', 'label.deleted',
  'custom_field.created', 'custom_field.updated', 'custom_field.deleted',
  'member.added', 'member.updated', 'member.removed', 'member.invited', 'invitation.revoked',
] as const satisfies readonly ActivityType[];
/**
 * The types not listened for: a board's stream cannot show its creation, and `invitation.updated`
 * is no longer recorded. Any other type missing above fails to compile here.
 */
type NotListened = 'board.created' | 'invitation.updated';
type Unlistened = Exclude<ActivityType, (typeof EVENT_TYPES)[number] | NotListened>;
type Expect<T extends true> = T;
/** Compiles only while nothing is missing; the error names the type that is. */
export type EveryTypeListened = Expect<[Unlistened] extends [never] ? true : Unlistened>;

export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'closed';

/**
 * Follows the board's event stream. The browser's EventSource reconnects by itself and sends
 * Last-Event-ID; when it gives up (the server refused the reconnection), `onClosed` decides
 * whether to try again, and a new stream resumes after the last event seen (`?lastEventId=`).
 */
export function useBoardEvents(
  boardId: number,
  handlers: { onEvent: (event: Activity) => void; onOpen: () => void; onClosed: () => Promise<boolean> },
) {
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const latest = useRef(handlers);
  latest.current = handlers;

  useEffect(() => {
    let source: EventSource | null = null;
    let lastId: string | null = null;
    let stopped = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let delay = 1000;

    const open = () => {
      const url = `/api/boards/${boardId}/events${lastId ? `?lastEventId=${encodeURIComponent(lastId)}` : ''}`;
      const s = new EventSource(url);
      source = s;
      s.onopen = () => {
        delay = 1000;
        setStatus('live');
        latest.current.onOpen();
      };
      const receive = (message: MessageEvent<string>) => {
        if (message.lastEventId) lastId = message.lastEventId;
        try {
          latest.current.onEvent(JSON.parse(message.data) as Activity);
        } catch {
          // A malformed event is skipped; the next resync repairs the view.
        }
      };
      for (const type of EVENT_TYPES) s.addEventListener(type, receive as EventListener);
      s.onmessage = receive;
      s.onerror = () => {
        if (s.readyState === EventSource.CONNECTING) return setStatus('reconnecting');
        s.close();
        setStatus('closed');
        if (stopped) return;
        void latest.current.onClosed().then((again) => {
          if (!again || stopped) return;
          setStatus('reconnecting');
          retry = setTimeout(open, delay);
          delay = Math.min(delay * 2, 30_000);
        });
      };
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
    };
  }, [boardId]);

  return status;
}

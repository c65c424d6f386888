import type { FastifyReply, FastifyRequest } from 'fastify';
import { reauthenticate } from '../../accounts/credentials/auth.js';
import { beginEventStream } from '../../boards/stream/open-stream.js';
import { countUnreadNotifications } from './count-unread-notifications.js';
import type { NotificationSignals } from './notification-signals.js';

/** Streams open in this process, ended on shutdown. */
export type OpenStreams = Set<() => void>;

const PING_MS = 15_000;
/**
 * How often a stream counts again by itself, and checks its credential: notifications written by
 * another process (PostgreSQL, several processes) reach it so.
 */
const RECHECK_MS = 10_000;

/**
 * `GET /api/notifications/events`: the unread count as server-sent events (`event: unread`,
 * `data: {"unread": n}`), sent on opening and whenever it may have changed in this process
 * (coalesced: one count at a time), re-counted every 10 s for the others; a `: ping` every 15 s.
 * Ends when the credential stops working or the server shuts down.
 */
export function openUnreadStream({ request, reply, signals, streams }: { request: FastifyRequest; reply: FastifyReply; signals: NotificationSignals; streams: OpenStreams }) {
  const db = request.server.db.prisma;
  const who = { userId: request.actor.userId, boardIds: request.actor.boardIds };
  const res = reply.raw;
  reply.hijack();
  beginEventStream(res, request.id);
  let closed = false;
  let counting = false;
  let again = false;
  let last: number | null = null;
  const count = async () => {
    if (closed) return;
    if (counting) {
      again = true;
      return;
    }
    counting = true;
    try {
      do {
        again = false;
        const unread = await countUnreadNotifications({ db, who });
        if (!closed && unread !== last) {
          last = unread;
          res.write(`event: unread\ndata: ${JSON.stringify({ unread })}\n\n`);
        }
      } while (again && !closed);
    } catch (error) {
      request.log.warn({ err: error }, 'notification stream could not count; it will try again');
    } finally {
      counting = false;
    }
  };
  const ping = setInterval(() => res.write(': ping\n\n'), PING_MS).unref();
  const recheck = setInterval(() => {
    void reauthenticate(request).then(
      (actor) => (actor ? count() : close()),
      () => undefined,
    );
  }, RECHECK_MS).unref();
  const off = signals.on(who.userId, () => void count());
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(ping);
    clearInterval(recheck);
    off();
    streams.delete(close);
    res.end();
    setTimeout(() => res.destroy(), 5000).unref();
  };
  streams.add(close);
  res.on('close', close);
  void count();
}

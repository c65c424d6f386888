import type { ServerResponse } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { roleOn } from '../access.js';
import { reauthenticate, SESSION_COOKIE } from '../../accounts/credentials/auth.js';
import { type Stream, type StreamHub, formatEvent, send } from './hub.js';
import { presentActivity } from '../activity/present-activity.js';

const REPLAY_PAGE = 500;

/**
 * Starts a server-sent event stream on a response: its headers (no caching, no proxy buffering)
 * and the reconnection delay browsers wait after a cut (3 s). Every stream of this server opens so.
 */
export function beginEventStream(res: ServerResponse, requestId: string) {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': requestId,
  });
  res.write('retry: 3000\n\n');
}

export interface OpenStreamOptions {
  request: FastifyRequest;
  res: ServerResponse;
  hub: StreamHub;
  boardId: number;
  /** Resume after this event id (Last-Event-ID): what was missed is replayed from the table. */
  lastEventId: number | null;
}

/**
 * Turns a response into a board event stream: replays what a resuming client missed from the
 * activity table, then goes live without a gap or a duplicate at the seam (live events are held
 * while the replay runs; those at or below the last replayed id are dropped). The stream ends
 * when the client goes, when its credential or its access to the board ends (checked by the hub
 * every few seconds), when the board is deleted, or when the server shuts down.
 */
export async function openStream({ request, res, hub, boardId, lastEventId }: OpenStreamOptions): Promise<Stream> {
  const db = request.server.db.prisma;
  let closed = false;
  const stream: Stream = {
    boardId,
    res,
    lastId: lastEventId ?? 0,
    replayedUpTo: 0,
    pending: lastEventId === null ? null : [],
    close(reason: string) {
      if (closed) return;
      closed = true;
      hub.remove(stream);
      request.log.info({ boardId, reason }, 'event stream closed');
      // A client that does not read would keep an ended response open (and a shutdown waiting):
      // cut it off at once when it is the reason, else give it a moment to take the last bytes.
      if (reason === 'client too slow') res.destroy();
      else {
        res.end();
        setTimeout(() => res.destroy(), 5000).unref();
      }
    },
    async stillAllowed() {
      const actor = await reauthenticate(request);
      return actor !== null && (await roleOn(db, actor, boardId)) !== null;
    },
    credential: request.headers.authorization ?? `cookie:${request.cookies[SESSION_COOKIE] ?? ''}`,
  };
  res.on('close', () => stream.close('client went away'));

  beginEventStream(res, request.id);
  hub.add(stream);

  if (stream.pending) {
    try {
      for (;;) {
        const rows = await db.activity.findMany({
          where: { boardId, id: { gt: stream.lastId } },
          orderBy: { id: 'asc' },
          take: REPLAY_PAGE,
        });
        for (const row of rows) if (!closed) send(stream, formatEvent(presentActivity(row)), row.id);
        if (rows.length < REPLAY_PAGE || closed) break;
      }
    } catch (error) {
      request.log.error({ err: error }, 'event replay failed');
      stream.close('replay failed');
      return stream;
    }
    stream.replayedUpTo = stream.lastId;
    const held = stream.pending;
    stream.pending = null;
    for (const activity of held) {
      if (closed || activity.id <= stream.replayedUpTo) continue;
      send(stream, formatEvent(activity), activity.id);
      if (activity.type === 'board.deleted') stream.close('board deleted');
    }
  }
  return stream;
}

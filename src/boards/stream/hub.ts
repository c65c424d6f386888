import type { ServerResponse } from 'node:http';
import type { EventBus } from '../activity/event-bus.js';
import type { ActivityView } from '../activity/present-activity.js';

/** Past this many unsent bytes a client is not keeping up: its stream is closed, never waited for. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;

export function formatEvent(activity: ActivityView): string {
  return `id: ${activity.id}\nevent: ${activity.type}\ndata: ${JSON.stringify(activity)}\n\n`;
}

export interface Stream {
  boardId: number;
  res: ServerResponse;
  /** The last event id this stream has sent. */
  lastId: number;
  /**
   * The highest id the resume replay sent: a live event at or below it is one the replay already
   * carried. Only that seam is filtered; live events from several processes may arrive slightly
   * out of id order and are all delivered.
   */
  replayedUpTo: number;
  /** Events that arrived while the stream was replaying from the table, sent after it. */
  pending: ActivityView[] | null;
  close(reason: string): void;
  /** Whether the stream's credential still works and still reaches the board. */
  stillAllowed(): Promise<boolean>;
  /** Streams with the same credential on the same board share one check per round. */
  credential: string;
}

/** Comment lines keep proxies and clients from timing out an idle stream. */
export const PING_INTERVAL_MS = 15_000;
/** How often every stream's credential and access are checked again. */
export const ACCESS_CHECK_INTERVAL_MS = 2_000;

/**
 * Fan-out of board events to open streams: one bus subscription per board, shared by all of that
 * board's streams, dropped with the last of them. Each event is formatted once per board.
 */
export class StreamHub {
  private readonly boards = new Map<number, { streams: Set<Stream>; unsubscribe: () => void }>();

  private readonly timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly bus: EventBus,
    private readonly intervals = { ping: PING_INTERVAL_MS, accessCheck: ACCESS_CHECK_INTERVAL_MS },
  ) {}

  /** Starts the ping and access-check rounds (one timer each for all streams, not one per stream). */
  start() {
    this.timers.push(
      setInterval(() => {
        for (const stream of this.all()) if (!stream.pending) stream.res.write(': ping\n\n');
      }, this.intervals.ping),
      setInterval(() => void this.checkAccess(), this.intervals.accessCheck),
    );
    for (const timer of this.timers) timer.unref();
  }

  /** Stops the timers and closes every stream (shutdown). */
  stop(reason: string) {
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    for (const stream of [...this.all()]) stream.close(reason);
  }

  private checking = false;

  /** Ends the streams whose credential stopped working or lost the board; one check per credential and board. */
  async checkAccess() {
    if (this.checking) return;
    this.checking = true;
    try {
      const verdicts = new Map<string, Promise<boolean>>();
      for (const stream of [...this.all()]) {
        const key = `${stream.boardId}\u0000${stream.credential}`;
        let verdict = verdicts.get(key);
        if (!verdict) {
          verdict = stream.stillAllowed().catch(() => true); // a database hiccup is not a revocation
          verdicts.set(key, verdict);
        }
        if (!(await verdict)) stream.close('access ended');
      }
    } finally {
      this.checking = false;
    }
  }

  add(stream: Stream) {
    let board = this.boards.get(stream.boardId);
    if (!board) {
      const streams = new Set<Stream>();
      const unsubscribe = this.bus.subscribe(stream.boardId, (activity) => this.deliver(streams, activity));
      board = { streams, unsubscribe };
      this.boards.set(stream.boardId, board);
    }
    board.streams.add(stream);
  }

  remove(stream: Stream) {
    const board = this.boards.get(stream.boardId);
    if (!board) return;
    board.streams.delete(stream);
    if (board.streams.size === 0) {
      board.unsubscribe();
      this.boards.delete(stream.boardId);
    }
  }

  /** Every open stream, e.g. to close them all on shutdown. */
  *all(): Iterable<Stream> {
    for (const board of this.boards.values()) yield* board.streams;
  }

  get size(): number {
    let n = 0;
    for (const board of this.boards.values()) n += board.streams.size;
    return n;
  }

  private deliver(streams: Set<Stream>, activity: ActivityView) {
    const text = formatEvent(activity);
    for (const stream of streams) {
      if (stream.pending) {
        stream.pending.push(activity);
        continue;
      }
      if (activity.id <= stream.replayedUpTo) continue;
      send(stream, text, activity.id);
      if (activity.type === 'board.deleted') stream.close('board deleted');
    }
  }
}

/** Writes an event, or closes a stream whose client stopped reading. */
export function send(stream: Stream, text: string, id: number) {
  // Written bytes wait in the socket's buffer (the response's own is empty once headers are out).
  const buffered = (stream.res.socket?.writableLength ?? 0) + stream.res.writableLength;
  if (buffered > MAX_BUFFERED_BYTES) {
    stream.close('client too slow');
    return;
  }
  stream.lastId = id;
  stream.res.write(text);
}

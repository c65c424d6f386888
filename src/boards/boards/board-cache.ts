import fp from 'fastify-plugin';
import type { Config } from '../../config.js';
import { etagOfBytes } from '../../platform/http/conditional.js';
import type { EventBus, StaleData } from '../activity/event-bus.js';
import type { BoardSnapshot } from './board-snapshot.js';

/** The board fetch's bytes for one caller and their ETag. */
export interface BoardJson {
  json: string;
  etag: string;
}

/**
 * Longest an entry is served: a backstop for changes no event announces (SQL typed by hand into
 * the database, a process that died between its commit and its notification, a listener
 * connection that hangs without breaking). Every change the application makes drops the entry at once.
 */
export const BOARD_CACHE_MAX_AGE_MS = 60_000;

/**
 * The one per-caller field, the snapshot's first `role` key: only the board's own scalars (id, name,
 * description, archived) come before it, and no string can hold this text (its quote would be `\"`).
 */
const ROLE_FIELD = ',"role":';

interface Entry {
  /** The snapshot up to its `role` value and from after it: one caller's bytes are head + role + tail. */
  head: string;
  tail: string;
  /** Members' roles: who may see the board at all, and which bytes they get. */
  roles: Map<number, string>;
  /** The bytes and ETag per role, made when a member with that role first asks. */
  views: Map<string, BoardJson>;
  bytes: number;
  at: number;
}

/** One read of a board's snapshot, which the fetches of the board arriving while it runs share. */
interface Reading {
  /** The board's generation and the cache's epoch when it began: only fetches that begin before any change since may share it. */
  generation: number;
  epoch: number;
  /** The snapshot (null: the reader is not a member) and its entry (null: it could not be split at its role). */
  result: Promise<{ snapshot: BoardSnapshot | null; entry: Entry | null }>;
}

/** The fetches of one board in flight, and a generation bumped by each change of the board meanwhile. */
interface Flight {
  count: number;
  generation: number;
  reading?: Reading | undefined;
}

/**
 * Per-process cache of board fetches (GET /boards/{id}), least recently used first out past
 * BOARD_CACHE_MB: a board read far more often than it changes costs no database work, and
 * If-None-Match is answered 304 without a query.
 *
 * Fresh by invalidation: every change publishes on the event bus, which reaches every process
 * (LISTEN/NOTIFY on PostgreSQL); an entry is dropped when its board's event arrives, and a user's
 * boards when their name or address changes. While the bus cannot hear the other processes (its
 * listener connection lost) nothing is served from memory, and the whole cache goes when it hears
 * again. A read that began before a change and ends after its event is not stored (generations).
 * Fetches of a board that miss together share one read (after a change, every open board page
 * asks at once), unless a change came between.
 *
 * One entry per board serves every member: the snapshot differs between callers only in `role`,
 * which is spliced in from the entry's member list, and a non-member is not found without a query.
 * Limited keys are checked by the caller (getBoardJson) before the cache is asked.
 */
export class BoardCache {
  private readonly entries = new Map<number, Entry>();
  private bytes = 0;
  /** Bumped by every change that may touch any board (a user's name, anything). */
  private epoch = 0;
  private readonly inflight = new Map<number, Flight>();
  /** Fetches so far by how they were answered: from memory, by a read of their own, or by joining another's read. */
  readonly fetches = { hit: 0, read: 0, shared: 0 };

  constructor(
    private readonly bus: EventBus | null,
    private readonly maxBytes: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** What the entries hold: boards, and their strings' lengths (about bytes for mostly-ASCII text; head and tail share the first view's string). */
  get size() {
    return { boards: this.entries.size, bytes: this.bytes };
  }

  /**
   * The board as `userId` sees it: from memory, or through `load` (the one-statement snapshot),
   * which fills the cache. Null: not a member.
   */
  async get(boardId: number, userId: number, load: () => Promise<BoardSnapshot | null>): Promise<BoardJson | null> {
    if (!this.usable()) {
      this.fetches.read++;
      return uncached(await load());
    }
    const stored = this.entries.get(boardId);
    if (stored && this.now() - stored.at <= BOARD_CACHE_MAX_AGE_MS) {
      // Most recently used last: Map keeps insertion order.
      this.entries.delete(boardId);
      this.entries.set(boardId, stored);
      this.fetches.hit++;
      return this.answer(boardId, stored, userId);
    }
    if (stored) this.drop(boardId);

    const flight = this.inflight.get(boardId) ?? { count: 0, generation: 0 };
    this.inflight.set(boardId, flight);
    flight.count++;
    try {
      const shared = flight.reading;
      if (shared && shared.generation === flight.generation && shared.epoch === this.epoch) {
        this.fetches.shared++;
        const { entry } = await shared.result;
        // The reader was not a member, or its snapshot could not be split: this caller reads for itself.
        return entry ? this.answer(boardId, entry, userId) : uncached(await load());
      }
      this.fetches.read++;
      const { snapshot, entry } = await this.read(boardId, flight, userId, load).result;
      if (!snapshot) return null;
      return entry ? this.answer(boardId, entry, userId) : uncached(snapshot);
    } finally {
      if (--flight.count === 0) this.inflight.delete(boardId);
    }
  }

  /** Forgets what `stale` may have changed. */
  forget(stale: StaleData) {
    if ('boardId' in stale) {
      this.drop(stale.boardId);
      const flight = this.inflight.get(stale.boardId);
      if (flight) flight.generation++;
    } else if ('userId' in stale) {
      this.epoch++;
      for (const [boardId, entry] of this.entries) if (entry.roles.has(stale.userId)) this.drop(boardId);
    } else {
      this.forgetAll();
    }
  }

  forgetAll() {
    this.epoch++;
    this.entries.clear();
    this.bytes = 0;
  }

  private usable() {
    return this.maxBytes > 0 && (this.bus?.hearsAll ?? true);
  }

  /** Reads the snapshot for `userId`, shared with the fetches that join it; stores it unless the board changed meanwhile. */
  private read(boardId: number, flight: Flight, userId: number, load: () => Promise<BoardSnapshot | null>): Reading {
    const generation = flight.generation;
    const epoch = this.epoch;
    const result = load().then((snapshot) => {
      const entry = snapshot && this.split(snapshot, snapshot.roles.get(userId)!);
      if (entry && this.epoch === epoch && flight.generation === generation && this.usable()) this.store(boardId, entry);
      return { snapshot, entry };
    });
    const reading: Reading = { generation, epoch, result };
    flight.reading = reading;
    // A failed read fails its sharers too (they get its error), and is not shared again.
    result.then(
      () => void (flight.reading === reading && (flight.reading = undefined)),
      () => void (flight.reading === reading && (flight.reading = undefined)),
    );
    return reading;
  }

  /** The snapshot as an entry, split at the caller's role; null when its first role field is not that role (never, defensively). */
  private split(snapshot: BoardSnapshot, role: string): Entry | null {
    const { json } = snapshot;
    const at = json.indexOf(ROLE_FIELD);
    const value = JSON.stringify(role);
    if (at < 0 || !json.startsWith(value, at + ROLE_FIELD.length)) return null;
    return {
      head: json.slice(0, at + ROLE_FIELD.length),
      tail: json.slice(at + ROLE_FIELD.length + value.length),
      roles: snapshot.roles,
      views: new Map([[role, { json, etag: etagOfBytes(json) }]]),
      bytes: json.length,
      at: this.now(),
    };
  }

  private store(boardId: number, entry: Entry) {
    if (entry.bytes > this.maxBytes) return;
    this.drop(boardId);
    this.entries.set(boardId, entry);
    this.bytes += entry.bytes;
    this.evict();
  }

  /** The entry's bytes for `userId`; null when they are not a member. */
  private answer(boardId: number, entry: Entry, userId: number): BoardJson | null {
    const role = entry.roles.get(userId);
    if (role === undefined) return null;
    let view = entry.views.get(role);
    if (!view) {
      const json = entry.head + JSON.stringify(role) + entry.tail;
      view = { json, etag: etagOfBytes(json) };
      entry.views.set(role, view);
      entry.bytes += json.length;
      // Counted while the entry is held (a shared read's entry may not have been stored).
      if (this.entries.get(boardId) === entry) {
        this.bytes += json.length;
        this.evict();
      }
    }
    return view;
  }

  private drop(boardId: number) {
    const entry = this.entries.get(boardId);
    if (!entry) return;
    this.entries.delete(boardId);
    this.bytes -= entry.bytes;
  }

  /** Least recently used first, until the entries fit. */
  private evict() {
    for (const boardId of this.entries.keys()) {
      if (this.bytes <= this.maxBytes) return;
      this.drop(boardId);
    }
  }
}

const uncached = (snapshot: BoardSnapshot | null): BoardJson | null => snapshot && { json: snapshot.json, etag: etagOfBytes(snapshot.json) };

declare module 'fastify' {
  interface FastifyInstance {
    /** Board fetches kept in memory, dropped by the change stream. */
    boardCache: BoardCache;
  }
}

/** The board cache, sized by BOARD_CACHE_MB (0: off) and kept fresh by the event bus. */
export const boardCachePlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    const cache = new BoardCache(app.events, config.BOARD_CACHE_MB * 1024 * 1024);
    app.decorate('boardCache', cache);
    const stopStale = app.events.onStale((stale) => cache.forget(stale));
    // Changes made while the listener was away were never heard here.
    const stopReconnect = app.events.onReconnect(() => cache.forgetAll());
    app.addHook('onClose', async () => {
      stopStale();
      stopReconnect();
      cache.forgetAll();
    });
  },
  { name: 'board-cache', dependencies: ['event-bus'] },
);

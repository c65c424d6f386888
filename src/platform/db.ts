import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { type Prisma, PrismaClient } from '../generated/prisma/client.js';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.js';

export type { PrismaClient } from '../generated/prisma/client.js';

/** What domain functions take: the client, or a transaction of it (`tx ?? db`). */
export type DbClient = PrismaClient | Prisma.TransactionClient;

/** One SQL connection, for work Prisma does not do: migrations, advisory locks, LISTEN. */
export interface SqlSession {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs a script of several statements (no parameters). */
  exec(text: string): Promise<void>;
}

export interface Database {
  kind: 'embedded' | 'postgres';
  prisma: PrismaClient;
  /** Borrows one connection for the duration of fn. */
  withSession<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
  /** The PGlite instance when embedded (tests dump it; the admin socket shares it). */
  pglite?: PGlite;
  /** The pg pool when on PostgreSQL. */
  pool?: pg.Pool;
  close(): Promise<void>;
}

export interface PostgresOptions {
  url: string;
  poolSize?: number;
  connectTimeoutMs?: number;
}

/** A Database on a PostgreSQL server; nothing is connected until the first query. */
export function openPostgres(options: PostgresOptions): Database {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    // Fail fast so a request gets 503 instead of hanging on an unreachable server.
    connectionTimeoutMillis: options.connectTimeoutMs ?? 2000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its server emits 'error' on the pool; without a listener Node exits.
  pool.on('error', () => {});
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    kind: 'postgres',
    prisma,
    pool,
    async withSession(fn) {
      const client = await pool.connect();
      try {
        return await fn({
          query: async (text, params) => (await client.query(text, params as unknown[])).rows,
          exec: async (text) => {
            await client.query(text);
          },
        });
      } finally {
        client.release();
      }
    },
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

/** A Database on an already open PGlite instance (tests hand in one loaded from a template). */
export function openPGliteInstance(pglite: PGlite, onClose?: () => Promise<void>): Database {
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  return {
    kind: 'embedded',
    prisma,
    pglite,
    withSession: (fn) =>
      fn({
        query: async (text, params) => (await pglite.query(text, params as unknown[])).rows as never,
        exec: async (text) => {
          await pglite.exec(text);
        },
      }),
    async close() {
      await prisma.$disconnect();
      await pglite.close();
      await onClose?.();
    },
  };
}

/**
 * The embedded database persisted under dataDir. Only one process may hold a data directory:
 * a second opener gets DataDirBusyError (the admin CLI then talks to the server instead).
 */
export async function openEmbedded(dataDir: string): Promise<Database> {
  mkdirSync(dataDir, { recursive: true });
  const lock: DataDirLock = acquireDataDirLock(dataDir);
  try {
    const pglite = await PGlite.create({ dataDir: path.join(dataDir, 'pgdata') });
    return openPGliteInstance(pglite, async () => lock.release());
  } catch (error) {
    lock.release();
    throw error;
  }
}

export interface DatabaseSettings {
  DATABASE_URL?: string | undefined;
  DATABASE_POOL_SIZE: number;
  DATABASE_CONNECT_TIMEOUT_MS: number;
  dataDir: string;
}

/** PostgreSQL when DATABASE_URL is set, else the embedded database under DATA_DIR. */
export async function openDatabase(config: DatabaseSettings): Promise<Database> {
  if (config.DATABASE_URL) {
    return openPostgres({
      url: config.DATABASE_URL,
      poolSize: config.DATABASE_POOL_SIZE,
      connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    });
  }
  return openEmbedded(config.dataDir);
}

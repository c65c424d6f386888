import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.js';
import type { PrismaClient } from '../../platform/db.js';
import { DiskBlobStore } from './attachment-disk.js';
import type { BlobStore } from './blob-store.js';

/** What routes and domain code use: the blob store plus the clean-ups that need the database. */
export interface AttachmentStore extends Pick<BlobStore, 'write' | 'open' | 'remove'> {
  /** Removes the files of attachment rows deleted since (listed in "DeletedFile"); never throws. */
  purgeDeleted(): Promise<void>;
  /**
   * Removes crash leftovers: uncommitted writes, and committed files no Attachment row (nor user's avatar) names
   * (a crash between the rename and the commit). Only those older than SWEEP_GRACE_MS, so that
   * another process's upload in flight is never touched. Never throws.
   */
  sweep(): Promise<void>;
  /** Resolves when no purge or sweep is running. */
  idle(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    attachments: AttachmentStore;
  }
}

/** How old a temporary or unreferenced file must be before the sweep removes it. */
export const SWEEP_GRACE_MS = 60 * 60 * 1000;
const PURGE_EVERY_MS = 60 * 1000;
const SWEEP_EVERY_MS = 60 * 60 * 1000;
const BATCH = 500;

/** Runs `task` once at a time; a call while it runs asks for one more run after it. */
function coalesced(task: () => Promise<void>) {
  let running: Promise<void> | null = null;
  let again = false;
  const run = (): Promise<void> => {
    again = true;
    running ??= (async () => {
      try {
        while (again) {
          again = false;
          await task();
        }
      } finally {
        running = null;
      }
    })();
    return running;
  };
  return { run, idle: async () => void (await running) };
}

/** The attachment store over `blobs`, cleaning up with the database's help. */
export function createAttachmentStore(options: { db: PrismaClient; blobs: BlobStore; log: FastifyBaseLogger }): AttachmentStore {
  const { db, blobs, log } = options;

  // Which database the files belong to: the id of its first migration, made when it was created.
  let owner: Promise<string | null> | null = null;
  const databaseId = () =>
    (owner ??= db
      .$queryRaw<{ id: string }[]>`SELECT id FROM "_prisma_migrations" ORDER BY started_at, id LIMIT 1`
      .then((rows) => rows[0]?.id ?? null)
      .catch(() => {
        owner = null;
        return null;
      }));
  let claimed: Promise<boolean> | null = null;
  const claim = () =>
    (claimed ??= databaseId().then(async (id) => {
      if (!id) {
        claimed = null;
        return false;
      }
      const mine = await blobs.claim(id);
      if (!mine) {
        log.warn(
          { databaseId: id },
          "the attachment store belongs to another database (its database-id file or object differs): files no row names are not swept; remove it if the files are this database's",
        );
      }
      return mine;
    }));

  async function purgeOnce() {
    try {
      for (;;) {
        const rows = await db.deletedFile.findMany({ select: { storageKey: true }, orderBy: { deletedAt: 'asc' }, take: BATCH });
        const removed: string[] = [];
        for (const { storageKey } of rows) {
          try {
            await blobs.remove(storageKey);
            removed.push(storageKey);
          } catch (err) {
            log.warn({ err, storageKey }, 'could not remove a deleted attachment\'s file; will retry');
          }
        }
        if (removed.length) await db.deletedFile.deleteMany({ where: { storageKey: { in: removed } } });
        if (rows.length < BATCH || removed.length < rows.length) return;
      }
    } catch (err) {
      log.warn({ err }, 'purging deleted attachments\' files failed; will retry');
    }
  }

  async function removeUnreferenced(keys: string[]) {
    const rows = await db.attachment.findMany({ where: { storageKey: { in: keys } }, select: { storageKey: true } });
    // Avatar pictures live in the same store, named by their user's row.
    const avatars = await db.user.findMany({ where: { avatarKey: { in: keys } }, select: { avatarKey: true } });
    const referenced = new Set([...rows.map((r) => r.storageKey), ...avatars.map((u) => u.avatarKey)]);
    const orphans = keys.filter((k) => !referenced.has(k));
    for (const key of orphans) await blobs.remove(key);
    return orphans.length;
  }

  async function sweepOnce() {
    try {
      const before = new Date(Date.now() - SWEEP_GRACE_MS);
      const temporaries = await blobs.removeStaleTemporaries(before);
      let orphans = 0;
      let batch: string[] = [];
      for await (const blob of blobs.list()) {
        if (blob.modifiedAt >= before) continue;
        if (batch.length === 0 && orphans === 0 && !(await claim())) break;
        batch.push(blob.key);
        if (batch.length === BATCH) {
          orphans += await removeUnreferenced(batch);
          batch = [];
        }
      }
      if (batch.length) orphans += await removeUnreferenced(batch);
      if (temporaries || orphans) log.info({ temporaries, orphans }, 'removed attachment files left by an interrupted upload');
    } catch (err) {
      log.warn({ err }, 'sweeping attachment leftovers failed; will retry');
    }
  }

  const purge = coalesced(purgeOnce);
  const sweep = coalesced(sweepOnce);
  return {
    write: async (source) => {
      await claim().catch(() => false);
      return blobs.write(source);
    },
    open: (key) => blobs.open(key),
    remove: (key) => blobs.remove(key),
    purgeDeleted: purge.run,
    sweep: sweep.run,
    idle: async () => {
      await Promise.all([purge.idle(), sweep.idle()]);
    },
  };
}

/**
 * `app.attachments`: files under DATA_DIR/attachments, or in the bucket of ATTACHMENTS_S3_URL
 * (its client loaded only then). Leftovers are swept and deleted rows'
 * files purged once the app is ready (in the background: start-up does not wait for them), then
 * every minute (purge) and every hour (sweep); closing waits for a clean-up in progress.
 */
export const attachmentStorePlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    const log = app.log.child({ module: 'attachments' });
    const s3 = config.ATTACHMENTS_S3_URL;
    const blobs: BlobStore = s3
      ? new (await import('./attachment-s3.js')).S3BlobStore({ location: s3, log })
      : new DiskBlobStore(path.join(config.dataDir, 'attachments'));
    const store = createAttachmentStore({ db: app.db.prisma, blobs, log });
    app.decorate('attachments', store);
    const timers: NodeJS.Timeout[] = [];
    let startup: Promise<void> = Promise.resolve();
    app.addHook('onReady', async () => {
      startup = store.sweep().then(() => store.purgeDeleted());
      timers.push(setInterval(() => void store.purgeDeleted(), PURGE_EVERY_MS).unref());
      timers.push(setInterval(() => void store.sweep(), SWEEP_EVERY_MS).unref());
    });
    app.addHook('onClose', async () => {
      for (const timer of timers) clearInterval(timer);
      // A clean-up stuck on an unreachable database must not hold the shutdown.
      await Promise.race([Promise.all([startup, store.idle()]), new Promise((resolve) => setTimeout(resolve, 3000).unref())]);
      await blobs.close?.();
    });
  },
  { name: 'attachment-store', dependencies: ['db'] },
);

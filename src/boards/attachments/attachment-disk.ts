import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { BlobStore, PendingBlob, StoredBlob } from './blob-store.js';
import { isStorageKey, newStorageKey } from './storage-keys.js';

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Attachment bytes on local disk: `<root>/objects/<2 hex>/<key>`, written first to
 * `<root>/tmp/<key>.part`, flushed, then renamed into place, so a file under `objects/` is always
 * complete. `<root>/database-id` says which database the files belong to (see claim()).
 */
export class DiskBlobStore implements BlobStore {
  private readonly objects: string;
  private readonly tmp: string;
  private readonly ownerFile: string;

  constructor(readonly root: string) {
    this.objects = path.join(root, 'objects');
    this.tmp = path.join(root, 'tmp');
    this.ownerFile = path.join(root, 'database-id');
  }

  private pathOf(key: string) {
    return path.join(this.objects, key.slice(0, 2), key);
  }

  async write(source: AsyncIterable<Uint8Array>): Promise<PendingBlob> {
    const key = newStorageKey();
    await mkdir(this.tmp, { recursive: true });
    const partial = path.join(this.tmp, `${key}.part`);
    const final = this.pathOf(key);
    let size = 0;
    // `flush`: on disk (fsync) before it is renamed into place, so a crash never leaves a short file under objects/.
    const out = createWriteStream(partial, { flags: 'wx', mode: 0o600, flush: true, highWaterMark: 1024 * 1024 });
    try {
      await pipeline(
        source,
        async function* count(chunks: AsyncIterable<Uint8Array>) {
          for await (const chunk of chunks) {
            size += chunk.byteLength;
            yield chunk;
          }
        },
        out,
      );
    } catch (error) {
      // The file is opened asynchronously: a source failing at once can reject the pipeline before
      // the open completes, and a file removed before it would be created after. Wait for the close.
      if (!out.closed) await once(out, 'close').catch(() => {});
      await rm(partial, { force: true });
      throw error;
    }
    return {
      key,
      size,
      commit: async () => {
        await mkdir(path.dirname(final), { recursive: true });
        await rename(partial, final);
      },
      discard: async () => {
        await rm(partial, { force: true });
        await rm(final, { force: true });
      },
    };
  }

  async open(key: string): Promise<StoredBlob | null> {
    if (!isStorageKey(key)) return null;
    let handle;
    try {
      handle = await open(this.pathOf(key), 'r');
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    const fh = handle;
    let owned = true;
    try {
      const { size } = await fh.stat();
      return {
        size,
        // The open handle keeps the bytes readable even if the file is removed meanwhile.
        stream: (range) => {
          owned = false;
          return fh.createReadStream({ start: range?.start ?? 0, ...(range ? { end: range.end } : {}), highWaterMark: 256 * 1024 });
        },
        close: async () => {
          if (!owned) return;
          owned = false;
          await fh.close();
        },
      };
    } catch (error) {
      await fh.close();
      throw error;
    }
  }

  async remove(key: string) {
    if (isStorageKey(key)) await rm(this.pathOf(key), { force: true });
  }

  async *list(): AsyncIterable<{ key: string; modifiedAt: Date }> {
    const shards = await readdir(this.objects).catch((error: unknown) => (isMissing(error) ? [] : Promise.reject(error)));
    for (const shard of shards) {
      const names = await readdir(path.join(this.objects, shard)).catch(() => [] as string[]);
      for (const name of names) {
        if (!isStorageKey(name) || name.slice(0, 2) !== shard) continue;
        const info = await stat(path.join(this.objects, shard, name)).catch(() => null);
        if (info?.isFile()) yield { key: name, modifiedAt: info.mtime };
      }
    }
  }

  async removeStaleTemporaries(before: Date): Promise<number> {
    const names = await readdir(this.tmp).catch((error: unknown) => (isMissing(error) ? [] : Promise.reject(error)));
    let removed = 0;
    for (const name of names) {
      const file = path.join(this.tmp, name);
      const info = await stat(file).catch(() => null);
      if (info && info.mtime < before) {
        await rm(file, { force: true, recursive: true });
        removed++;
      }
    }
    return removed;
  }

  async claim(owner: string): Promise<boolean> {
    try {
      return (await readFile(this.ownerFile, 'utf8')).trim() === owner;
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    await mkdir(this.root, { recursive: true });
    try {
      await writeFile(this.ownerFile, `${owner}\n`, { flag: 'wx', mode: 0o600 });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      return (await readFile(this.ownerFile, 'utf8')).trim() === owner;
    }
  }
}

import type { Readable } from 'node:stream';

// The contract of a store of attachment bytes, implemented on disk (attachment-disk.ts) and on S3
// (attachment-s3.ts); apart from the plugin that picks one, which imports both.

/** A write that is complete but not yet visible under its key. */
export interface PendingBlob {
  /** A new random key (never derived from the file name). */
  key: string;
  size: number;
  /** Makes the bytes readable under `key`. */
  commit(): Promise<void>;
  /** Removes the bytes, committed or not. */
  discard(): Promise<void>;
}

/** An object opened for reading. */
export interface StoredBlob {
  size: number;
  /** The bytes, or `range` of them (inclusive); the stream owns the object from then on. */
  stream(range?: { start: number; end: number }): Readable;
  /** Releases the object when it is not streamed. */
  close(): Promise<void>;
}

/**
 * Where bytes live: local disk (DiskBlobStore, the default) or an S3-compatible bucket
 * (S3BlobStore, ATTACHMENTS_S3_URL: written to the final key, visible only once complete; commit
 * is a no-op, discard deletes).
 */
export interface BlobStore {
  /** Streams `source` into a new object; whatever fails (the source throws, the disk fills), nothing is left. */
  write(source: AsyncIterable<Uint8Array>): Promise<PendingBlob>;
  /** The object under `key`, or null when there is none. */
  open(key: string): Promise<StoredBlob | null>;
  /** Removes the object under `key`; a missing one is fine. */
  remove(key: string): Promise<void>;
  /** Every committed object, for the orphan sweep. */
  list(): AsyncIterable<{ key: string; modifiedAt: Date }>;
  /** Removes uncommitted writes last touched before `before` (left by a crash); how many. */
  removeStaleTemporaries(before: Date): Promise<number>;
  /**
   * Marks the store as holding the files of database `owner`, unless it already holds another
   * database's (then false): the orphan sweep never deletes files of a database it cannot see.
   */
  claim(owner: string): Promise<boolean>;
  /** Releases what the store holds open (connections); called once, when the app closes. */
  close?(): Promise<void>;
}

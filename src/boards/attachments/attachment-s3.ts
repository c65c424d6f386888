import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { FastifyBaseLogger } from 'fastify';
import type { S3Location } from '../../config.js';
import { unavailable } from '../../platform/errors.js';
import type { BlobStore, PendingBlob, StoredBlob } from './blob-store.js';
import { isStorageKey, newStorageKey } from './storage-keys.js';

/**
 * The smallest part S3 accepts: an upload holds at most one part in memory (a smaller file is
 * sent whole, in one PUT), whatever the file's size.
 */
const PART_BYTES = 5 * 1024 * 1024;
/** Longest a request that moves no file (head, list, delete) may take. */
const REQUEST_TIMEOUT_MS = 10_000;

type S3Failure = Error & { $metadata?: { httpStatusCode?: number } };
const statusOf = (error: unknown) => (error as S3Failure).$metadata?.httpStatusCode;
/** Options for a request that moves no file. */
const bounded = () => ({ abortSignal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });

/** The object is not there (HEAD answers a bare 404, GET NoSuchKey). */
const isMissingObject = (error: unknown) => {
  const name = (error as Error).name;
  return name === 'NotFound' || name === 'NoSuchKey';
};

/**
 * Attachment bytes in an S3-compatible bucket: `<prefix>objects/<key>`. An object becomes visible
 * only once complete (a PUT, or a multipart upload's completion), so a crash mid-upload leaves no
 * short object under its key, only an unfinished multipart upload, aborted by the sweep (and by a
 * bucket lifecycle rule, where the store has them). `<prefix>database-id` says which database the
 * objects belong to (see claim()). Several processes may share one bucket.
 */
export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly objects: string;
  private readonly ownerKey: string;
  private readonly log: FastifyBaseLogger;

  constructor({ location, log }: { location: S3Location; log: FastifyBaseLogger }) {
    this.client = new S3Client({
      endpoint: location.endpoint,
      region: location.region,
      forcePathStyle: location.forcePathStyle,
      ...(location.credentials ? { credentials: location.credentials } : {}),
      // Checksums only where S3 requires them: many S3-compatible stores refuse the SDK's default ones.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // A store that stops answering fails the request instead of holding it; a socket idle this long is dropped.
      requestHandler: { connectionTimeout: 5000, requestTimeout: 60_000 },
    });
    this.bucket = location.bucket;
    this.objects = `${location.prefix}objects/`;
    this.ownerKey = `${location.prefix}database-id`;
    this.log = log;
  }

  /** A store failure as the client sees it (503, retry), logged with its cause for the operator. */
  private failed(error: unknown, action: string) {
    this.log.error({ err: error, status: statusOf(error), bucket: this.bucket }, `attachment storage: ${action} failed`);
    return unavailable('attachment storage is unavailable; retry shortly');
  }

  async write(source: AsyncIterable<Uint8Array>): Promise<PendingBlob> {
    const key = newStorageKey();
    let size = 0;
    let sourceError: unknown;
    const body = Readable.from(
      (async function* count() {
        try {
          for await (const chunk of source) {
            size += chunk.byteLength;
            yield chunk;
          }
        } catch (error) {
          sourceError = error;
          throw error;
        }
      })(),
    );
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.objects + key, Body: body, ContentType: 'application/octet-stream' },
      partSize: PART_BYTES,
      queueSize: 1,
    });
    try {
      await upload.done();
    } catch (error) {
      body.destroy();
      // Nothing was made visible (the upload is aborted); the delete covers a completion whose answer was lost.
      await this.remove(key).catch(() => {});
      // The source's own error (413, a client gone) wins over what the upload made of it.
      if (sourceError !== undefined) throw sourceError;
      throw this.failed(error, 'upload');
    }
    return {
      key,
      size,
      commit: async () => {},
      discard: () => this.remove(key),
    };
  }

  async open(key: string): Promise<StoredBlob | null> {
    if (!isStorageKey(key)) return null;
    const Key = this.objects + key;
    let size: number;
    try {
      size = (await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key }), bounded())).ContentLength ?? 0;
    } catch (error) {
      if (isMissingObject(error)) return null;
      throw this.failed(error, 'opening an object');
    }
    return {
      size,
      stream: (range) => {
        const out = new PassThrough({ highWaterMark: 256 * 1024 });
        const stop = new AbortController();
        // The client went away: the request to the store goes too.
        out.once('close', () => stop.abort());
        const command = new GetObjectCommand({ Bucket: this.bucket, Key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) });
        this.client
          .send(command, { abortSignal: stop.signal })
          .then((response) => pipeline(response.Body as Readable, out))
          .catch((error: unknown) => {
            if (!stop.signal.aborted) this.log.warn({ err: error, status: statusOf(error) }, 'attachment storage: a download broke off');
            out.destroy(error as Error);
          });
        return out;
      },
      close: async () => {},
    };
  }

  async remove(key: string) {
    if (!isStorageKey(key)) return;
    // S3 answers 204 for a missing object too.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objects + key }), bounded());
  }

  async *list(): AsyncIterable<{ key: string; modifiedAt: Date }> {
    let token: string | undefined;
    do {
      const list = new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.objects, ...(token ? { ContinuationToken: token } : {}) });
      const page = await this.client.send(list, bounded());
      for (const object of page.Contents ?? []) {
        const key = object.Key?.slice(this.objects.length) ?? '';
        if (isStorageKey(key) && object.LastModified) yield { key, modifiedAt: object.LastModified };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** Aborts multipart uploads begun before `before` (a process died mid-upload); stores without the listing have none to abort. */
  async removeStaleTemporaries(before: Date): Promise<number> {
    let removed = 0;
    let markers: { KeyMarker?: string; UploadIdMarker?: string } = {};
    for (;;) {
      let page;
      try {
        page = await this.client.send(new ListMultipartUploadsCommand({ Bucket: this.bucket, Prefix: this.objects, ...markers }), bounded());
      } catch (error) {
        if (statusOf(error) === 501) return removed;
        throw error;
      }
      for (const upload of page.Uploads ?? []) {
        if (!upload.Key || !upload.UploadId || !upload.Initiated || upload.Initiated >= before) continue;
        await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: upload.Key, UploadId: upload.UploadId }), bounded());
        removed++;
      }
      if (!page.IsTruncated) return removed;
      markers = { ...(page.NextKeyMarker ? { KeyMarker: page.NextKeyMarker } : {}), ...(page.NextUploadIdMarker ? { UploadIdMarker: page.NextUploadIdMarker } : {}) };
    }
  }

  async claim(owner: string): Promise<boolean> {
    const current = await this.readOwner();
    if (current !== null) return current === owner;
    const put = (conditional: boolean) =>
      this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: this.ownerKey,
          Body: `${owner}\n`,
          ContentType: 'text/plain',
          // Only if no process wrote one meanwhile (S3 and most stores honour it; the rest ignore it).
          ...(conditional ? { IfNoneMatch: '*' } : {}),
        }),
        bounded(),
      );
    try {
      await put(true);
      return true;
    } catch (error) {
      const status = statusOf(error);
      if (status === 412 || status === 409) return (await this.readOwner()) === owner;
      if (status !== 501) throw error;
    }
    await put(false);
    return true;
  }

  private async readOwner(): Promise<string | null> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.ownerKey }), bounded());
      return (await object.Body!.transformToString()).trim();
    } catch (error) {
      if (isMissingObject(error)) return null;
      throw error;
    }
  }

  async close() {
    this.client.destroy();
  }
}

import { mkdtemp, readdir, rm, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/** s3rver's fixed credentials: it checks every request's signature against them. */
const ACCESS_KEY = 'S3RVER';
const SECRET = 'S3RVER';

export interface TestS3 {
  /** ATTACHMENTS_S3_URL for the bucket (under a prefix, as an operator sharing a bucket would set it). */
  url: string;
  bucket: string;
  prefix: string;
  /** A client of its own, to look at the bucket behind the app's back. */
  client: S3Client;
  /** Every object key under the prefix (committed objects only: unfinished uploads are not objects). */
  keys(): Promise<string[]>;
  /** Makes the objects whose key ends with `key` look `ms` older (s3rver's Last-Modified is the file's mtime). */
  age(key: string, ms: number): Promise<void>;
  close(): Promise<void>;
}

/** An S3-compatible server (s3rver) on a loopback port, with one empty bucket, its files in a temporary directory. */
export async function startTestS3(): Promise<TestS3> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'tb-s3-'));
  const bucket = 'attachments';
  const prefix = 'taskboard/';
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const client = new S3Client({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: SECRET },
  });
  return {
    url: `s3+http://${ACCESS_KEY}:${SECRET}@127.0.0.1:${port}/${bucket}/${prefix.slice(0, -1)}`,
    bucket,
    prefix,
    client,
    async keys() {
      const out: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }));
        out.push(...(page.Contents ?? []).map((o) => o.Key!));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return out.sort();
    },
    async age(key, ms) {
      const dir = path.join(directory, bucket, ...prefix.split('/').filter(Boolean), 'objects');
      const when = new Date(Date.now() - ms);
      for (const name of await readdir(dir)) {
        if (name.startsWith(`${key}._S3rver_`)) await utimes(path.join(dir, name), when, when);
      }
    },
    async close() {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { ConfigError, loadConfig } from '../../../src/config.js';
import { BOARD_TEST_ENV, client, expectError, expectNoContent, expectStatus, makeCard, makeList, makeTeam } from '../../board-factories.js';
import { makeBoard, makeKey, makeUser } from '../../factories.js';
import { buildTestApp, createTestDatabase, LogCapture, type TestAppHandle, testConfig, useTestApp } from '../../helper.js';
import { freePort } from '../../net.js';
import { startTestS3, type TestS3 } from '../../s3-server.js';
import { EventBus } from '../../../src/boards/activity/event-bus.js';

/**
 * Attachments in an S3-compatible bucket (ATTACHMENTS_S3_URL), against s3rver on loopback: the
 * same behaviours as on disk (streamed upload, 413 leaving nothing, sniffed type, ranges, deletion
 * with the card and the board, the sweep of crash leftovers), nothing written to DATA_DIR, and a
 * store that cannot be reached answering 503 without its secret in any log line.
 */
let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
// Stopped once the apps are closed (after-hooks run in reverse order).
afterAll(() => s3?.close());
const t = useTestApp(() => ({ ...BOARD_TEST_ENV, ATTACHMENTS_S3_URL: s3.url }));
const small = useTestApp(() => ({ ...BOARD_TEST_ENV, ATTACHMENTS_S3_URL: s3.url, MAX_ATTACHMENT_BYTES: '1000' }));
// Past one multipart part.
const mid = useTestApp(() => ({ ...BOARD_TEST_ENV, ATTACHMENTS_S3_URL: s3.url, MAX_ATTACHMENT_BYTES: String(6 * 1024 * 1024) }));

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), randomBytes(200)]);
const TEXT = Buffer.from('Shopping list\n- milk\n- café ☕\n');
type Auth = Record<string, string>;

function multipart(filename: string, data: Buffer) {
  const boundary = `----tb${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const upload = (app: TestAppHandle, auth: Auth, cardId: number, data: Buffer, filename = 'notes.txt') => {
  const body = multipart(filename, data);
  return app.app.inject({ method: 'POST', url: `/api/cards/${cardId}/attachments`, headers: { ...auth, ...body.headers }, payload: body.payload });
};

const download = (app: TestAppHandle, auth: Auth, id: number, headers: Auth = {}) =>
  app.app.inject({ method: 'GET', url: `/api/attachments/${id}/download`, headers: { ...auth, ...headers } });

const objectOf = async (app: TestAppHandle, attachmentId: number) => {
  const row = await app.db.prisma.attachment.findUniqueOrThrow({ where: { id: attachmentId } });
  return `${s3.prefix}objects/${row.storageKey}`;
};

// 30 s: a bound, not a measurement (5 s ran out beside a loaded CI run).
async function eventually(check: () => boolean | Promise<boolean>, what: string, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function teamWithCard(app: TestAppHandle = t) {
  const team = await makeTeam(app);
  const card = await makeCard(team.as.admin, team.list.id, 'With files');
  return { ...team, card };
}

describe('ATTACHMENTS_S3_URL', () => {
  it('reads the endpoint, bucket, prefix, credentials and options', () => {
    expect(loadConfig({ ATTACHMENTS_S3_URL: 's3+http://AK:s%2Fe%2Bc@127.0.0.1:9000/files/team/one?region=eu-central-1' }).ATTACHMENTS_S3_URL).toEqual({
      endpoint: 'http://127.0.0.1:9000',
      bucket: 'files',
      prefix: 'team/one/',
      region: 'eu-central-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'AK', secretAccessKey: 's/e+c' },
    });
    // AWS: virtual-hosted buckets, the region from the host name, credentials from the SDK's chain.
    expect(loadConfig({ ATTACHMENTS_S3_URL: 's3://s3.eu-west-1.amazonaws.com/my-bucket' }).ATTACHMENTS_S3_URL).toEqual({
      endpoint: 'https://s3.eu-west-1.amazonaws.com',
      bucket: 'my-bucket',
      prefix: '',
      region: 'eu-west-1',
      forcePathStyle: false,
    });
    expect(loadConfig({ ATTACHMENTS_S3_URL: 's3://minio.internal/b12?forcePathStyle=false' }).ATTACHMENTS_S3_URL).toMatchObject({ forcePathStyle: false, region: 'us-east-1' });
    expect(loadConfig({}).ATTACHMENTS_S3_URL).toBeUndefined();
  });

  it.each([
    ['https://minio/bucket', /must be s3:\/\//],
    ['s3://host', /is not a bucket name/],
    ['s3://host/Bad_Bucket', /is not a bucket name/],
    ['s3://AK@host/bucket', /both the access key and the secret/],
    ['s3://AK:sekritvalue@host/bucket?pathStyle=1', /unknown parameter "pathStyle"/],
    ['s3://AK:sekritvalue@host/bucket?forcePathStyle=yes', /forcePathStyle must be true or false/],
    ['s3://AK:sekrit/value@host/bucket', /must be s3:\/\//],
  ])('refuses %s in one line naming the variable, never showing the secret', (value, message) => {
    let error: unknown;
    try {
      loadConfig({ ATTACHMENTS_S3_URL: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const text = (error as Error).message;
    expect(text).toMatch(/^invalid setting ATTACHMENTS_S3_URL: /);
    expect(text).toMatch(message);
    expect(text).not.toContain('\n');
    expect(text).not.toContain('sekrit');
  });
});

describe('attachments in an S3-compatible bucket', () => {
  it('stores the upload in the bucket (not in DATA_DIR), sniffs its type, and serves the same bytes', async () => {
    const team = await teamWithCard();
    const res = await upload(t, team.keys.member.auth, team.card.id, PNG, 'shot.bin');
    expectStatus(res, 201);
    expect(res.json()).toMatchObject({ filename: 'shot.bin', mimeType: 'image/png', size: PNG.length });
    expect(await s3.keys()).toContain(await objectOf(t, res.json().id));
    expect(existsSync(`${t.config.dataDir}/attachments`)).toBe(false);

    const got = await download(t, team.keys.observer.auth, res.json().id);
    expectStatus(got, 200);
    expect(got.rawPayload.equals(PNG)).toBe(true);
    expect(got.headers).toMatchObject({ 'content-type': 'image/png', 'content-length': String(PNG.length), 'accept-ranges': 'bytes', 'x-content-type-options': 'nosniff' });
    expect(got.headers['content-disposition']).toContain('filename="shot.bin"');
  });

  it('answers ranges (206, If-Range, 416) and HEAD from the bucket', async () => {
    const team = await teamWithCard();
    const data = randomBytes(1000);
    const id = (await upload(t, team.keys.admin.auth, team.card.id, data, 'r.bin')).json().id;
    const auth = team.keys.admin.auth;

    const part = await download(t, auth, id, { range: 'bytes=100-199' });
    expectStatus(part, 206);
    expect(part.headers['content-range']).toBe('bytes 100-199/1000');
    expect(part.rawPayload.equals(data.subarray(100, 200))).toBe(true);
    const suffix = await download(t, auth, id, { range: 'bytes=-10' });
    expect(suffix.rawPayload.equals(data.subarray(990))).toBe(true);
    const open = await download(t, auth, id, { range: 'bytes=995-' });
    expect(open.rawPayload.equals(data.subarray(995))).toBe(true);

    const etag = part.headers.etag as string;
    const matching = await download(t, auth, id, { range: 'bytes=0-9', 'if-range': etag });
    expectStatus(matching, 206);
    const stale = await download(t, auth, id, { range: 'bytes=0-9', 'if-range': '"a0-1"' });
    expectStatus(stale, 200);
    expect(stale.rawPayload.equals(data)).toBe(true);

    const beyond = await download(t, auth, id, { range: 'bytes=1000-' });
    expectError(beyond, 416);
    expect(beyond.headers['content-range']).toBe('bytes */1000');

    const head = await t.app.inject({ method: 'HEAD', url: `/api/attachments/${id}/download`, headers: auth });
    expectStatus(head, 200);
    expect(head.headers['content-length']).toBe('1000');
    expect(head.rawPayload.length).toBe(0);
  });

  it('streams a file of several parts (a multipart upload) and reads ranges across a part boundary', async () => {
    const team = await teamWithCard(mid);
    const data = randomBytes(5 * 1024 * 1024 + 300_000);
    const res = await upload(mid, team.keys.admin.auth, team.card.id, data, 'big.bin');
    expectStatus(res, 201);
    expect(res.json().size).toBe(data.length);
    const whole = await download(mid, team.keys.admin.auth, res.json().id);
    expect(createHash('sha256').update(whole.rawPayload).digest('hex')).toBe(createHash('sha256').update(data).digest('hex'));
    const boundary = 5 * 1024 * 1024;
    const across = await download(mid, team.keys.admin.auth, res.json().id, { range: `bytes=${boundary - 5}-${boundary + 4}` });
    expectStatus(across, 206);
    expect(across.rawPayload.equals(data.subarray(boundary - 5, boundary + 5))).toBe(true);
  });

  it('refuses a file over MAX_ATTACHMENT_BYTES with 413 and leaves no object, in one PUT or several parts', async () => {
    const before = await s3.keys();
    const team = await teamWithCard(small);
    const res = await upload(small, team.keys.admin.auth, team.card.id, randomBytes(1001));
    expectError(res, 413, /MAX_ATTACHMENT_BYTES/);
    const exact = await upload(small, team.keys.admin.auth, team.card.id, randomBytes(1000));
    expectStatus(exact, 201);

    const big = await teamWithCard(mid);
    const over = await upload(mid, big.keys.admin.auth, big.card.id, randomBytes(6 * 1024 * 1024 + 1));
    expectError(over, 413, /MAX_ATTACHMENT_BYTES/);
    expect(await s3.keys()).toEqual([...before, await objectOf(small, exact.json().id)].sort());
    expect(await mid.db.prisma.attachment.count({ where: { cardId: big.card.id } })).toBe(0);
  });

  it('leaves no object when the client gives up halfway through a multipart upload', async () => {
    const team = await teamWithCard(mid);
    if (!mid.app.server.listening) await mid.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = mid.app.server.address() as AddressInfo;
    const before = await s3.keys();
    const req = http.request({
      port,
      host: '127.0.0.1',
      method: 'POST',
      path: `/api/cards/${team.card.id}/attachments`,
      headers: { ...team.keys.admin.auth, 'content-type': 'multipart/form-data; boundary=cut', 'content-length': 6 * 1024 * 1024 },
    });
    req.on('error', () => {});
    req.write('--cut\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\n\r\n');
    // More than a part: the multipart upload has begun and its first part is on its way.
    await new Promise((r) => req.write(randomBytes(5 * 1024 * 1024 + 1024), r));
    await new Promise((r) => setTimeout(r, 300));
    req.destroy();
    await new Promise((r) => setTimeout(r, 500));
    expect(await s3.keys()).toEqual(before);
    expect(await mid.db.prisma.attachment.count({ where: { cardId: team.card.id } })).toBe(0);
    expectStatus(await upload(mid, team.keys.admin.auth, team.card.id, TEXT), 201);
  });

  it('removes the object when the attachment, its card or its board is deleted', async () => {
    const team = await teamWithCard();
    const auth = team.keys.admin.auth;
    const gone = (key: string) => async () => !(await s3.keys()).includes(key);

    const one = (await upload(t, auth, team.card.id, TEXT)).json().id;
    const oneKey = await objectOf(t, one);
    expectError(await t.app.inject({ method: 'DELETE', url: `/api/attachments/${one}`, headers: team.keys.observer.auth }), 403);
    expectNoContent(await t.app.inject({ method: 'DELETE', url: `/api/attachments/${one}`, headers: team.keys.member.auth }));
    await eventually(gone(oneKey), 'the object to be removed');
    expectError(await download(t, auth, one), 404);

    const two = (await upload(t, auth, team.card.id, TEXT)).json().id;
    const twoKey = await objectOf(t, two);
    expectNoContent(await team.as.admin.del(`/api/cards/${team.card.id}`));
    await eventually(gone(twoKey), "the card's object to be removed");

    const other = await makeCard(team.as.admin, team.list.id, 'Other');
    const three = (await upload(t, auth, other.id, PNG)).json().id;
    const threeKey = await objectOf(t, three);
    expectNoContent(await team.as.admin.del(`/api/boards/${team.board.id}`));
    await eventually(gone(threeKey), "the board's object to be removed");
    // The purge removes the object first and its row after: the row may outlive the object by a moment.
    await eventually(async () => (await t.db.prisma.deletedFile.count()) === 0, 'the purge to forget the removed objects');
  });
});

describe('crash leftovers in the bucket', () => {
  it('are swept at start-up: objects no row names (old enough) and deleted rows\' objects go, the rest stays', async () => {
    const own = await startTestS3();
    const db = await createTestDatabase();
    const config = testConfig({ ...BOARD_TEST_ENV, ATTACHMENTS_S3_URL: own.url });
    const first = await buildApp({ events: new EventBus(), config, db, logStream: new LogCapture() });
    let second: Awaited<ReturnType<typeof buildApp>> | undefined;
    try {
      const user = await makeUser(db);
      const key = await makeKey(db, user.id);
      const api = client(first, key.auth);
      const board = await makeBoard(db, user.id);
      const list = await makeList(api, board.id);
      const card = await makeCard(api, list.id);
      const body = multipart('keep.txt', TEXT);
      const kept = await first.inject({ method: 'POST', url: `/api/cards/${card.id}/attachments`, headers: { ...key.auth, ...body.headers }, payload: body.payload });
      expectStatus(kept, 201);
      await first.close();
      const row = await db.prisma.attachment.findUniqueOrThrow({ where: { id: kept.json().id } });

      const put = (name: string, text: string) => own.client.send(new PutObjectCommand({ Bucket: own.bucket, Key: `${own.prefix}objects/${name}`, Body: text }));
      const orphan = randomBytes(16).toString('hex');
      await put(orphan, 'uploaded, then the process died before the row was committed');
      const fresh = randomBytes(16).toString('hex');
      await put(fresh, "another process's upload, its row about to be committed");
      const purged = randomBytes(16).toString('hex');
      await put(purged, 'its row was deleted, the process died before removing it');
      await db.prisma.deletedFile.create({ data: { storageKey: purged } });
      for (const name of [row.storageKey!, orphan]) await own.age(name, 2 * 60 * 60 * 1000);
      expect(await own.keys()).toContain(`${own.prefix}database-id`);

      second = await buildApp({ events: new EventBus(), config, db, logStream: new LogCapture() });
      await second.ready();
      const objects = (name: string) => `${own.prefix}objects/${name}`;
      await eventually(async () => {
        const keys = await own.keys();
        return !keys.includes(objects(orphan)) && !keys.includes(objects(purged));
      }, 'the leftovers to be removed');
      await second.attachments.idle();
      const keys = await own.keys();
      expect(keys).toContain(objects(row.storageKey!));
      expect(keys).toContain(objects(fresh));
      expect(await db.prisma.deletedFile.count()).toBe(0);
      const got = await second.inject({ method: 'GET', url: `/api/attachments/${row.id}/download`, headers: key.auth });
      expect(got.rawPayload.equals(TEXT)).toBe(true);
    } finally {
      await second?.close();
      await first.close();
      await db.close();
      await own.close();
    }
  });
});

describe('a store that cannot be reached', () => {
  it('answers 503 with Retry-After to uploads, logs why, and never logs the secret', async () => {
    const secret = 'wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY';
    const port = await freePort();
    const down = await buildTestApp({ ...BOARD_TEST_ENV, LOG_LEVEL: 'trace', ATTACHMENTS_S3_URL: `s3+http://AKIDEXAMPLE:${secret}@127.0.0.1:${port}/files` });
    try {
      const team = await teamWithCard(down);
      const res = await upload(down, team.keys.admin.auth, team.card.id, TEXT);
      expectError(res, 503);
      expect(res.headers['retry-after']).toBeDefined();
      expect(await down.db.prisma.attachment.count()).toBe(0);
      await down.app.attachments.idle();
      expect(down.logs.raw.some((l) => l.includes('attachment storage: upload failed'))).toBe(true);
      expect(down.logs.raw.filter((l) => l.includes(secret))).toEqual([]);
    } finally {
      await down.close();
    }
  });
});

describe('nothing above', () => {
  it('ended in a 500 or logged an error', () => {
    for (const app of [t, small, mid]) {
      const lines = app.logs.lines;
      expect(lines.filter((l) => typeof l.status === 'number' && l.status >= 500)).toEqual([]);
      expect(lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
    }
  });
});

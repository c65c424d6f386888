import { createHash, randomBytes, randomFillSync } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { sniffMimeType } from '../../../src/boards/attachments/sniff-mime-type.js';
import { BOARD_TEST_ENV, client, expectError, expectFieldError, expectNoContent, expectStatus, makeCard, makeList, makeTeam } from '../../board-factories.js';
import { makeBoard, makeKey, makeUser } from '../../factories.js';
import { createTestDatabase, LogCapture, type TestAppHandle, testConfig, useTestApp } from '../../helper.js';
import { EventBus } from '../../../src/boards/activity/event-bus.js';

/**
 * Attachments (SPEC §3): multipart upload streamed to the store, sniffed type, limits and
 * refusals that leave nothing behind, downloads with ranges and safe headers, deletion with the
 * card, and the start-up clean-up of crash leftovers.
 */
const dirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

// Removed once both apps are closed (after-hooks run in reverse order).
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const t = useTestApp(() => ({ ...BOARD_TEST_ENV, DATA_DIR: tempDir('att-main-') }));
const small = useTestApp(() => ({ ...BOARD_TEST_ENV, DATA_DIR: tempDir('att-small-'), MAX_ATTACHMENT_BYTES: '1000' }));

// --- helpers -------------------------------------------------------------------------------

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), randomBytes(200)]);
const PDF = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n', 'latin1');
const ZIP = Buffer.concat([Buffer.from('504b0304140000000800', 'hex'), randomBytes(100)]);
const JPEG = Buffer.concat([Buffer.from('ffd8ffe000104a464946', 'hex'), randomBytes(100)]);
const GIF = Buffer.concat([Buffer.from('GIF89a'), randomBytes(100)]);
const TEXT = Buffer.from('Shopping list\n- milk\n- café ☕\n');

interface Part {
  name: string;
  filename?: string;
  /** The whole Content-Disposition value, when a test needs a hand-made one. */
  disposition?: string;
  type?: string;
  data: Buffer | string;
}

/** A multipart/form-data body built by hand, byte for byte what a test wants to send. */
function multipart(parts: Part[]) {
  const boundary = `----tb${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = p.disposition ?? `form-data; name="${p.name}"${p.filename === undefined ? '' : `; filename="${p.filename}"`}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`, 'utf8'));
    chunks.push(Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

type Auth = Record<string, string>;

function uploadParts(app: TestAppHandle, auth: Auth, cardId: number, parts: Part[]) {
  const body = multipart(parts);
  return app.app.inject({ method: 'POST', url: `/api/cards/${cardId}/attachments`, headers: { ...auth, ...body.headers }, payload: body.payload });
}

const upload = (app: TestAppHandle, auth: Auth, cardId: number, data: Buffer | string, filename = 'notes.txt', type = 'application/octet-stream') =>
  uploadParts(app, auth, cardId, [{ name: 'file', filename, type, data }]);

const download = (app: TestAppHandle, auth: Auth, id: number, headers: Auth = {}) =>
  app.app.inject({ method: 'GET', url: `/api/attachments/${id}/download`, headers: { ...auth, ...headers } });

/** Every file under the store's directory (committed and temporary). */
function storedFiles(app: TestAppHandle): string[] {
  const root = path.join(app.config.dataDir, 'attachments');
  const out: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name !== 'database-id') out.push(path.relative(root, full));
    }
  };
  walk(root);
  return out.sort();
}

const fileOf = async (app: TestAppHandle, attachmentId: number) => {
  const row = await app.db.prisma.attachment.findUniqueOrThrow({ where: { id: attachmentId } });
  return path.join(app.config.dataDir, 'attachments', 'objects', row.storageKey!.slice(0, 2), row.storageKey!);
};

/** The app listening on a loopback port (started on first use), for tests over a real socket. */
async function listening(app: TestAppHandle): Promise<{ base: string; port: number }> {
  if (!app.app.server.listening) await app.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.app.server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, port };
}

// Generous: it returns as soon as the check holds, and CI runs on a busy 2-core box.
async function eventually(check: () => boolean | Promise<boolean>, what: string, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** RFC 5987 `filename*=UTF-8''…` decoded. */
const extFilename = (disposition: string) => decodeURIComponent(/filename\*=UTF-8''([^;\s]+)/.exec(disposition)![1]!);

async function teamWithCard(app: TestAppHandle = t) {
  const team = await makeTeam(app);
  const card = await makeCard(team.as.admin, team.list.id, 'With files');
  return { ...team, card };
}

// --- upload and download -------------------------------------------------------------------

describe('POST /api/cards/{id}/attachments', () => {
  it('stores the file (201 with the attachment); the card lists it; the download returns the same bytes', async () => {
    const team = await teamWithCard();
    const res = await upload(t, team.keys.member.auth, team.card.id, TEXT, 'list.txt', 'text/plain');
    expectStatus(res, 201);
    const attachment = res.json();
    expect(Object.keys(attachment).sort()).toEqual(['cardId', 'createdAt', 'filename', 'id', 'mimeType', 'size', 'url']);
    expect(attachment.url).toBeNull(); // a file, not a link
    expect(attachment).toMatchObject({ cardId: team.card.id, filename: 'list.txt', mimeType: 'text/plain', size: TEXT.length });
    expect(attachment.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);

    const card = (await team.as.observer.get(`/api/cards/${team.card.id}`)).json();
    expect(card.attachmentCount).toBe(1);
    expect(card.attachments).toEqual([attachment]);
    expect(card.version).toBeGreaterThan(team.card.version);

    const got = await download(t, team.keys.observer.auth, attachment.id);
    expectStatus(got, 200);
    expect(got.rawPayload.equals(TEXT)).toBe(true);
    expect(got.headers).toMatchObject({
      'content-type': 'text/plain',
      'content-length': String(TEXT.length),
      'content-disposition': `attachment; filename="list.txt"; filename*=UTF-8''list.txt`,
      'x-content-type-options': 'nosniff',
      'accept-ranges': 'bytes',
    });
    expect(got.headers.etag).toMatch(/^"[^"]+"$/);
  });

  it('records attachment.created with cardId, attachmentId, the attachment and the card', async () => {
    const team = await teamWithCard();
    const attachment = (await upload(t, team.keys.admin.auth, team.card.id, PNG, 'pic.png')).json();
    const [latest] = (await team.as.admin.get(`/api/boards/${team.board.id}/activity?limit=1`)).json().activities;
    expect(latest).toMatchObject({
      type: 'attachment.created',
      data: { cardId: team.card.id, attachmentId: attachment.id, attachment, card: { id: team.card.id, attachmentCount: 1 } },
    });
  });

  it.each([
    ['a PNG sent as text/plain', PNG, 'text/plain', 'image/png'],
    ['a JPEG', JPEG, 'image/png', 'image/jpeg'],
    ['a GIF', GIF, 'application/octet-stream', 'image/gif'],
    ['a PDF', PDF, 'text/html', 'application/pdf'],
    ['a ZIP', ZIP, 'application/pdf', 'application/zip'],
    ['UTF-8 text sent as text/html', TEXT, 'text/html', 'text/plain'],
    ['HTML (never served as HTML)', Buffer.from('<!doctype html><script>alert(1)</script>'), 'text/html', 'text/plain'],
    ['CSV text named text/csv by the client', Buffer.from('a,b\n1,2\n'), 'text/csv', 'text/csv'],
    ['random bytes sent as image/png', randomBytes(4096), 'image/png', 'application/octet-stream'],
  ])('detects the type from the bytes: %s', async (_what, data, declared, expected) => {
    const team = await teamWithCard();
    const res = await upload(t, team.keys.admin.auth, team.card.id, data, 'x.bin', declared);
    expectStatus(res, 201);
    expect(res.json().mimeType).toBe(expected);
    expect((await download(t, team.keys.admin.auth, res.json().id)).headers['content-type']).toBe(expected);
  });

  it('keeps a file name with quotes, a backslash-free path-free name and non-ASCII, and sends it back safely', async () => {
    const team = await teamWithCard();
    const name = 'Résumé "final" 日本語 (v2); 100%.txt';
    const res = await uploadParts(t, team.keys.admin.auth, team.card.id, [
      { name: 'file', disposition: `form-data; name="file"; filename*=UTF-8''${encodeURIComponent(name)}`, data: TEXT },
    ]);
    expectStatus(res, 201);
    expect(res.json().filename).toBe(name);
    const got = await download(t, team.keys.admin.auth, res.json().id);
    const disposition = got.headers['content-disposition'] as string;
    expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''[A-Za-z0-9%!#$&+\-.^_`|~]+$/);
    expect(/filename="([^"]*)"/.exec(disposition)![1]).toBe('R_sum_ _final_ ___ (v2); 100_.txt');
    expect(extFilename(disposition)).toBe(name);
  });

  it('takes raw UTF-8 file names, and names with quotes as browsers send them (%22)', async () => {
    const team = await teamWithCard();
    const raw = await upload(t, team.keys.admin.auth, team.card.id, TEXT, 'überprüfung.txt');
    expect(raw.json().filename).toBe('überprüfung.txt');
    const quoted = await upload(t, team.keys.admin.auth, team.card.id, TEXT, 'say %22hi%22.txt');
    expect(quoted.json().filename).toBe('say "hi".txt');
    expect(extFilename((await download(t, team.keys.admin.auth, quoted.json().id)).headers['content-disposition'] as string)).toBe('say "hi".txt');
  });

  it('names a file sent without a name "file"', async () => {
    const team = await teamWithCard();
    const res = await uploadParts(t, team.keys.admin.auth, team.card.id, [{ name: 'file', filename: '', data: TEXT }]);
    expectStatus(res, 201);
    expect(res.json().filename).toBe('file');
  });

  it('round-trips through fetch and FormData over a real socket, quotes and non-ASCII in the name included', async () => {
    const team = await teamWithCard();
    const { base } = await listening(t);
    const data = randomBytes(1024 * 1024 + 3);
    const form = new FormData();
    form.append('file', new Blob([data], { type: 'image/png' }), 'a "quoted" naïve name.bin');
    const res = await fetch(`${base}/api/cards/${team.card.id}/attachments`, { method: 'POST', headers: team.keys.member.auth, body: form });
    expect(res.status).toBe(201);
    const attachment = (await res.json()) as { id: number };
    expect(attachment).toMatchObject({ filename: 'a "quoted" naïve name.bin', size: data.length, mimeType: 'application/octet-stream' });
    const got = await fetch(`${base}/api/attachments/${attachment.id}/download`, { headers: team.keys.observer.auth });
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(data)).toBe(true);
    expect(extFilename(got.headers.get('content-disposition')!)).toBe('a "quoted" naïve name.bin');
  });
});

describe('a 20 MB file over a real socket', () => {
  const SIZE = 20 * 1024 * 1024;
  const CHUNK = 64 * 1024;

  // The server's memory during such an upload, in a process of its own: bench/attachments.ts.
  it('is streamed to disk while it arrives (never held in memory) and comes back byte for byte', async () => {
    const team = await teamWithCard();
    const { port } = await listening(t);
    const boundary = `----tb${randomBytes(8).toString('hex')}`;
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const sent = createHash('sha256');
    const tmp = path.join(t.config.dataDir, 'attachments', 'tmp');
    const tmpBytes = () => (existsSync(tmp) ? readdirSync(tmp).reduce((n, f) => n + statSync(path.join(tmp, f)).size, 0) : 0);

    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          port,
          host: '127.0.0.1',
          method: 'POST',
          path: `/api/cards/${team.card.id}/attachments`,
          headers: { ...team.keys.admin.auth, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + SIZE + tail.length },
        },
        (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        },
      );
      req.on('error', reject);
      void (async () => {
        req.write(head);
        // Two buffers refilled in turn, each once the socket has taken it: the client never holds the file.
        const buffers = [Buffer.alloc(CHUNK), Buffer.alloc(CHUNK)];
        const written: Promise<unknown>[] = [Promise.resolve(), Promise.resolve()];
        for (let sentBytes = 0, i = 0; sentBytes < SIZE; sentBytes += CHUNK, i ^= 1) {
          await written[i];
          const chunk = randomFillSync(buffers[i]!);
          sent.update(chunk);
          written[i] = new Promise((r) => req.write(chunk, r));
          if (sentBytes === SIZE / 2) {
            // Half sent, the request still open: the server has already written (nearly) all of it to disk.
            await eventually(() => tmpBytes() >= SIZE / 2 - 2 * 1024 * 1024, 'the first half on disk', 60_000);
          }
        }
        req.end(tail);
      })().catch(reject);
    });
    const res = await response;
    expect(res.status, res.body).toBe(201);
    const attachment = JSON.parse(res.body);
    expect(attachment.size).toBe(SIZE);
    expect(tmpBytes()).toBe(0);

    const received = createHash('sha256');
    let length = 0;
    await new Promise<void>((resolve, reject) => {
      http
        .get({ port, host: '127.0.0.1', path: `/api/attachments/${attachment.id}/download`, headers: team.keys.admin.auth }, (res) => {
          expect(res.statusCode).toBe(200);
          expect(res.headers['content-length']).toBe(String(SIZE));
          res.on('data', (d: Buffer) => {
            received.update(d);
            length += d.length;
          });
          res.on('end', resolve);
          res.on('error', reject);
        })
        .on('error', reject);
    });
    expect(length).toBe(SIZE);
    expect(received.digest('hex')).toBe(sent.digest('hex'));
  });

  it('keeps nothing when the card is deleted while its file is arriving (404)', async () => {
    const team = await teamWithCard();
    const { port } = await listening(t);
    const before = storedFiles(t);
    const head = Buffer.from(`--b\r\nContent-Disposition: form-data; name="file"; filename="late.bin"\r\n\r\n`);
    const tail = Buffer.from('\r\n--b--\r\n');
    const size = 4 * 1024 * 1024;
    const res = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          port,
          host: '127.0.0.1',
          method: 'POST',
          path: `/api/cards/${team.card.id}/attachments`,
          headers: { ...team.keys.member.auth, 'content-type': 'multipart/form-data; boundary=b', 'content-length': head.length + size + tail.length },
        },
        (r) => {
          let body = '';
          r.on('data', (d) => (body += d));
          r.on('end', () => resolve({ status: r.statusCode!, body }));
        },
      );
      req.on('error', reject);
      req.write(head);
      req.write(randomBytes(size / 2));
      void eventually(() => storedFiles(t).length > before.length, 'the upload to start')
        .then(async () => {
          expectNoContent(await team.as.admin.del(`/api/cards/${team.card.id}`));
          req.end(Buffer.concat([randomBytes(size / 2), tail]));
        })
        .catch(reject);
    });
    const answer = await res;
    expect(answer.status, answer.body).toBe(404);
    expect(JSON.parse(answer.body)).toEqual({ error: expect.stringMatching(/^card: /) });
    await eventually(() => storedFiles(t).join() === before.join(), 'the file to be removed');
    expect(await t.db.prisma.attachment.count({ where: { cardId: team.card.id } })).toBe(0);
  });

  it('leaves nothing behind when the client gives up halfway', async () => {
    const team = await teamWithCard();
    const { port } = await listening(t);
    const before = storedFiles(t);
    const boundary = 'xyzzy';
    const req = http.request({
      port,
      host: '127.0.0.1',
      method: 'POST',
      path: `/api/cards/${team.card.id}/attachments`,
      headers: { ...team.keys.admin.auth, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': 10 * 1024 * 1024 },
    });
    req.on('error', () => {});
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\n\r\n`);
    req.write(randomBytes(2 * 1024 * 1024));
    await eventually(() => storedFiles(t).length > before.length, 'the upload to start');
    req.destroy();
    await eventually(() => storedFiles(t).join() === before.join(), 'the partial file to be removed');
    expect(await t.db.prisma.attachment.count({ where: { cardId: team.card.id } })).toBe(0);
  });
});

// --- ranges and HEAD ------------------------------------------------------------------------

describe('GET /api/attachments/{id}/download', () => {
  const data = randomBytes(1000);
  let auth: Auth;
  let id: number;
  beforeAll(async () => {
    const team = await teamWithCard();
    auth = team.keys.observer.auth;
    id = (await upload(t, team.keys.admin.auth, team.card.id, data, 'r.bin')).json().id;
  });

  it.each([
    ['bytes=0-9', 0, 9],
    ['bytes=990-', 990, 999],
    ['bytes=-5', 995, 999],
    ['bytes=500-5000', 500, 999],
    ['bytes=-5000', 0, 999],
  ])('answers Range %s with 206 and that part', async (range, start, end) => {
    const res = await download(t, auth, id, { range });
    expectStatus(res, 206);
    expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/1000`);
    expect(res.headers['content-length']).toBe(String(end - start + 1));
    expect(res.rawPayload.equals(data.subarray(start, end + 1))).toBe(true);
  });

  it.each(['bytes=1000-', 'bytes=5000-6000', 'bytes=-0'])('answers an unsatisfiable Range %s with 416 and Content-Range: bytes */size', async (range) => {
    const res = await download(t, auth, id, { range });
    expectError(res, 416, /^range: /);
    expect(res.headers['content-range']).toBe('bytes */1000');
  });

  it.each(['bytes=0-1,5-6', 'items=0-5', 'bytes=9-3', 'bytes=abc'])('answers Range %s (several ranges or not understood) with the whole file', async (range) => {
    const res = await download(t, auth, id, { range });
    expectStatus(res, 200);
    expect(res.rawPayload.equals(data)).toBe(true);
  });

  it('honours If-Range: the range while the ETag matches, the whole file otherwise', async () => {
    const etag = (await download(t, auth, id)).headers.etag as string;
    expectStatus(await download(t, auth, id, { range: 'bytes=0-1', 'if-range': etag }), 206);
    expectStatus(await download(t, auth, id, { range: 'bytes=0-1', 'if-range': '"other"' }), 200);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: `/api/attachments/${id}/download`, headers: auth });
    expectStatus(res, 200);
    expect(res.headers['content-length']).toBe('1000');
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.rawPayload.length).toBe(0);
  });

  it('is 404 for an attachment that does not exist', async () => {
    expectError(await download(t, auth, 2_000_000_000), 404, /^attachment: /);
    expectFieldError(await download(t, auth, 0 as number), 'params.id');
  });
});

// --- limits and refusals --------------------------------------------------------------------

describe('refusals leave nothing behind', () => {
  it('answers 413 past MAX_ATTACHMENT_BYTES, keeping no file and no row; exactly the limit is fine', async () => {
    const team = await teamWithCard(small);
    const res = await upload(small, team.keys.admin.auth, team.card.id, randomBytes(1001), 'big.bin');
    expectError(res, 413, /^file: .*1000 bytes/);
    expect(storedFiles(small).filter((f) => !f.startsWith('objects/'))).toEqual([]);
    expect(await small.db.prisma.attachment.count({ where: { cardId: team.card.id } })).toBe(0);
    expect((await team.as.admin.get(`/api/cards/${team.card.id}`)).json().attachmentCount).toBe(0);
    expectStatus(await upload(small, team.keys.admin.auth, team.card.id, randomBytes(1000), 'ok.bin'), 201);
  });

  it('answers 413 to a client still sending a body far past the limit, over a real socket', async () => {
    const team = await teamWithCard(small);
    const { base } = await listening(small);
    const before = storedFiles(small);
    const form = new FormData();
    form.append('file', new Blob([randomBytes(5 * 1024 * 1024)]), 'huge.bin');
    const res = await fetch(`${base}/api/cards/${team.card.id}/attachments`, { method: 'POST', headers: team.keys.admin.auth, body: form });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: expect.stringMatching(/^file: /) });
    expect(storedFiles(small)).toEqual(before);
    // The connection is still usable: the rest of the body was read and dropped.
    expect((await fetch(`${base}/api/cards/${team.card.id}`, { headers: team.keys.admin.auth })).status).toBe(200);
  });

  it('answers 413 at once, before reading the body, when Content-Length is far past the limit', async () => {
    const team = await teamWithCard(small);
    const { port } = await listening(small);
    const before = storedFiles(small);
    const res = await new Promise<{ status: number; body: string; connection?: string }>((resolve, reject) => {
      const req = http.request(
        {
          port,
          host: '127.0.0.1',
          method: 'POST',
          path: `/api/cards/${team.card.id}/attachments`,
          headers: { ...team.keys.admin.auth, 'content-type': 'multipart/form-data; boundary=b', 'content-length': 100 * 1024 * 1024 },
        },
        (r) => {
          let body = '';
          r.on('data', (d) => (body += d));
          r.on('end', () => resolve({ status: r.statusCode!, body, connection: r.headers.connection }));
        },
      );
      req.on('error', reject);
      req.write(`--b\r\nContent-Disposition: form-data; name="file"; filename="huge.bin"\r\n\r\n`);
      req.write(randomBytes(1024));
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ error: expect.stringMatching(/^file: larger than/) });
    expect(res.connection).toBe('close');
    expect(storedFiles(small)).toEqual(before);
  });

  const cases: [string, Part[] | 'none' | 'json', RegExp, number?][] = [
    ['an empty (0-byte) file', [{ name: 'file', filename: 'empty.txt', data: '' }], /^file: is empty/],
    ['no file field', [{ name: 'comment', data: 'hello' }], /^comment: unknown field/],
    ['no body at all', 'none', /^file: missing/],
    ['an empty multipart body', [], /^file: missing/],
    ['the file in another field', [{ name: 'upload', filename: 'a.txt', data: 'x' }], /^upload: unknown field/],
    ['`file` as a plain field', [{ name: 'file', data: 'just text' }], /^file: must be a file/],
    ['two files', [{ name: 'file', filename: 'a.txt', data: 'aaa' }, { name: 'file', filename: 'b.txt', data: 'bbb' }], /^file: only one file/],
    ['a file and another field', [{ name: 'file', filename: 'a.txt', data: 'aaa' }, { name: 'title', data: 'x' }], /^title: unknown field/],
    ['a field before the file', [{ name: 'title', data: 'x' }, { name: 'file', filename: 'a.txt', data: 'aaa' }], /^title: unknown field/],
    ['a name with ../', [{ name: 'file', filename: '../../etc/passwd', data: 'x' }], /^filename: /],
    ['a name with a directory', [{ name: 'file', filename: 'dir/a.txt', data: 'x' }], /^filename: /],
    ['a name with a backslash', [{ name: 'file', filename: '..\\..\\boot.ini', data: 'x' }], /^filename: /],
    ['the name ..', [{ name: 'file', filename: '..', data: 'x' }], /^filename: /],
    ['a name with a control character', [{ name: 'file', disposition: `form-data; name="file"; filename*=UTF-8''a%01b.txt`, data: 'x' }], /^filename: .*control/],
    ['a name with a NUL', [{ name: 'file', disposition: `form-data; name="file"; filename*=UTF-8''a%00b.txt`, data: 'x' }], /^filename: .*control/],
    ['a name with an escaped line break', [{ name: 'file', filename: 'a%0Db.txt', data: 'x' }], /^filename: .*control/],
    ['a name with a right-to-left override', [{ name: 'file', filename: 'invoice\u202Etxt.exe', data: 'x' }], /^filename: .*bidirectional/],
    ['a name of 256 characters', [{ name: 'file', filename: `${'n'.repeat(252)}.txt`, data: 'x' }], /^filename: .*255/],
  ];
  it.each(cases)('refuses %s with a clear 400', async (_what, parts, message) => {
    const team = await teamWithCard(small);
    const before = storedFiles(small);
    const res =
      parts === 'none'
        ? await small.app.inject({ method: 'POST', url: `/api/cards/${team.card.id}/attachments`, headers: team.keys.admin.auth })
        : await uploadParts(small, team.keys.admin.auth, team.card.id, parts as Part[]);
    expectError(res, 400, message);
    expect(storedFiles(small)).toEqual(before);
    expect(await small.db.prisma.attachment.count({ where: { cardId: team.card.id } })).toBe(0);
  });

  it('takes a name of exactly 255 characters', async () => {
    const team = await teamWithCard(small);
    const name = `${'é'.repeat(251)}.txt`;
    const res = await upload(small, team.keys.admin.auth, team.card.id, 'x', name);
    expectStatus(res, 201);
    expect(res.json().filename).toBe(name);
  });

  it.each([
    ['JSON', 'application/json', '{"file":"x"}', 415],
    ['text', 'text/plain', 'x', 415],
    ['a urlencoded form', 'application/x-www-form-urlencoded', 'file=x', 415],
    ['multipart without a boundary', 'multipart/form-data', 'x', 400],
    ['truncated multipart', 'multipart/form-data; boundary=abc', '--abc\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nxx', 400],
  ])('refuses %s without a 500', async (_what, type, payload, status) => {
    const team = await teamWithCard(small);
    const before = storedFiles(small);
    const res = await small.app.inject({ method: 'POST', url: `/api/cards/${team.card.id}/attachments`, headers: { ...team.keys.admin.auth, 'content-type': type }, payload });
    expectError(res, status);
    expect(storedFiles(small)).toEqual(before);
  });
});

// --- who may ---------------------------------------------------------------------------------

describe('roles and keys', () => {
  it('lets admins and members upload; observers get 403 (but may download); outsiders get 404', async () => {
    const team = await teamWithCard();
    expectStatus(await upload(t, team.keys.admin.auth, team.card.id, 'a'), 201);
    const mine = await upload(t, team.keys.member.auth, team.card.id, 'b');
    expectStatus(mine, 201);
    expectError(await upload(t, team.keys.observer.auth, team.card.id, 'c'), 403, /attachment\.write/);
    expectError(await upload(t, team.keys.stranger.auth, team.card.id, 'd'), 404, /^card: /);
    expectError(await upload(t, team.keys.admin.auth, 2_000_000_000, 'e'), 404, /^card: /);
    expectStatus(await download(t, team.keys.observer.auth, mine.json().id), 200);
    expectError(await download(t, team.keys.stranger.auth, mine.json().id), 404, /^attachment: /);
    expect((await team.as.admin.get(`/api/cards/${team.card.id}`)).json().attachmentCount).toBe(2);
  });

  it('refuses uploads with a read-only key (403 before 404) but lets it download', async () => {
    const team = await teamWithCard();
    const read = await makeKey(t.db, team.admin.id, { permission: 'read' });
    const id = (await upload(t, team.keys.admin.auth, team.card.id, 'x')).json().id;
    expectError(await upload(t, read.auth, team.card.id, 'y'), 403, /read-only/);
    expectError(await upload(t, read.auth, 2_000_000_000, 'y'), 403, /read-only/);
    expectStatus(await download(t, read.auth, id), 200);
  });

  it('treats a board outside a limited key as not found', async () => {
    const team = await teamWithCard();
    const other = await makeBoard(t.db, team.admin.id);
    const limited = await makeKey(t.db, team.admin.id, { boardIds: [other.id] });
    const id = (await upload(t, team.keys.admin.auth, team.card.id, 'x')).json().id;
    expectError(await upload(t, limited.auth, team.card.id, 'y'), 404);
    expectError(await download(t, limited.auth, id), 404);
  });

  it('asks for credentials first', async () => {
    expectError(await t.app.inject({ method: 'POST', url: '/api/cards/1/attachments' }), 401);
    expectError(await t.app.inject({ method: 'GET', url: '/api/attachments/1/download' }), 401);
  });

  it('does not store the file of a caller who is refused', async () => {
    const team = await teamWithCard(small);
    const before = storedFiles(small);
    expectStatus(await upload(small, team.keys.observer.auth, team.card.id, randomBytes(500)), 403);
    expectStatus(await upload(small, team.keys.stranger.auth, team.card.id, randomBytes(500)), 404);
    expect(storedFiles(small)).toEqual(before);
  });
});

// --- deletion ------------------------------------------------------------------------------

describe('deleting', () => {
  it('DELETE /api/attachments/{id}: members may (204, activity, file removed), observers may not', async () => {
    const team = await teamWithCard();
    const id = (await upload(t, team.keys.admin.auth, team.card.id, PNG, 'p.png')).json().id;
    const file = await fileOf(t, id);
    expect(existsSync(file)).toBe(true);
    expectError(await t.app.inject({ method: 'DELETE', url: `/api/attachments/${id}`, headers: team.keys.observer.auth }), 403);
    expectError(await t.app.inject({ method: 'DELETE', url: `/api/attachments/${id}`, headers: team.keys.stranger.auth }), 404);
    expectNoContent(await t.app.inject({ method: 'DELETE', url: `/api/attachments/${id}`, headers: team.keys.member.auth }));
    await eventually(() => !existsSync(file), 'the file to be removed');
    expectError(await download(t, team.keys.admin.auth, id), 404);
    expectError(await t.app.inject({ method: 'DELETE', url: `/api/attachments/${id}`, headers: team.keys.member.auth }), 404);
    const card = (await team.as.admin.get(`/api/cards/${team.card.id}`)).json();
    expect(card.attachmentCount).toBe(0);
    const [latest] = (await team.as.admin.get(`/api/boards/${team.board.id}/activity?limit=1`)).json().activities;
    expect(latest).toMatchObject({ type: 'attachment.deleted', data: { cardId: team.card.id, attachmentId: id } });
    // The purge removes the file first and its row after: the row may outlive the file by a moment.
    await eventually(async () => (await t.db.prisma.deletedFile.count()) === 0, 'the purge to forget the removed file');
  });

  it('DELETE /api/cards/{id} removes its attachments and their files', async () => {
    const team = await teamWithCard();
    const ids = [
      (await upload(t, team.keys.admin.auth, team.card.id, 'one')).json().id,
      (await upload(t, team.keys.admin.auth, team.card.id, 'two')).json().id,
    ];
    const files = await Promise.all(ids.map((id) => fileOf(t, id)));
    expectNoContent(await team.as.admin.del(`/api/cards/${team.card.id}`));
    expect(await t.db.prisma.attachment.count({ where: { id: { in: ids } } })).toBe(0);
    await eventually(() => files.every((f) => !existsSync(f)), "the card's files to be removed");
  });

  it('DELETE /api/boards/{id} removes the files of every card on it', async () => {
    const team = await teamWithCard();
    const second = await makeCard(team.as.admin, team.list.id, 'Second');
    const ids = [
      (await upload(t, team.keys.admin.auth, team.card.id, 'one')).json().id,
      (await upload(t, team.keys.member.auth, second.id, 'two')).json().id,
    ];
    const files = await Promise.all(ids.map((id) => fileOf(t, id)));
    expectNoContent(await team.as.admin.del(`/api/boards/${team.board.id}`));
    await eventually(() => files.every((f) => !existsSync(f)), "the board's files to be removed");
  });
});

// --- start-up clean-up ---------------------------------------------------------------------

describe('start-up', () => {
  it('removes crash leftovers (stale temporary files, files no row names) and keeps the files of attachments', async () => {
    const db = await createTestDatabase();
    const dataDir = tempDir('att-sweep-');
    const config = testConfig({ ...BOARD_TEST_ENV, DATA_DIR: dataDir });
    const first = await buildApp({ events: new EventBus(), config, db, logStream: new LogCapture() });
    const user = await makeUser(db);
    const key = await makeKey(db, user.id);
    const api = client(first, key.auth);
    const board = await makeBoard(db, user.id);
    const list = await makeList(api, board.id);
    const card = await makeCard(api, list.id);
    const body = multipart([{ name: 'file', filename: 'keep.txt', data: TEXT }]);
    const kept = await first.inject({ method: 'POST', url: `/api/cards/${card.id}/attachments`, headers: { ...key.auth, ...body.headers }, payload: body.payload });
    expectStatus(kept, 201);
    await first.close();

    const root = path.join(dataDir, 'attachments');
    const row = await db.prisma.attachment.findUniqueOrThrow({ where: { id: kept.json().id } });
    const keptFile = path.join(root, 'objects', row.storageKey!.slice(0, 2), row.storageKey!);
    const orphanKey = randomBytes(16).toString('hex');
    const orphan = path.join(root, 'objects', orphanKey.slice(0, 2), orphanKey);
    mkdirSync(path.dirname(orphan), { recursive: true });
    writeFileSync(orphan, 'renamed into place, then the process died before the commit');
    const staleTmp = path.join(root, 'tmp', `${randomBytes(16).toString('hex')}.part`);
    writeFileSync(staleTmp, 'half an upload');
    const freshTmp = path.join(root, 'tmp', `${randomBytes(16).toString('hex')}.part`);
    writeFileSync(freshTmp, 'an upload in progress in another process');
    const purgedKey = randomBytes(16).toString('hex');
    const purged = path.join(root, 'objects', purgedKey.slice(0, 2), purgedKey);
    mkdirSync(path.dirname(purged), { recursive: true });
    writeFileSync(purged, 'its row was deleted, the process died before removing it');
    await db.prisma.deletedFile.create({ data: { storageKey: purgedKey } });
    // Old enough for the sweep (it leaves files younger than an hour: another process may be mid-upload).
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    for (const f of [keptFile, orphan, staleTmp]) utimesSync(f, old, old);

    const second = await buildApp({ events: new EventBus(), config, db, logStream: new LogCapture() });
    try {
      await second.ready();
      await eventually(() => !existsSync(orphan) && !existsSync(staleTmp) && !existsSync(purged), 'the leftovers to be removed');
      await second.attachments.idle();
      expect(existsSync(keptFile)).toBe(true);
      expect(existsSync(freshTmp)).toBe(true);
      expect(await db.prisma.deletedFile.count()).toBe(0);
      const got = await second.inject({ method: 'GET', url: `/api/attachments/${row.id}/download`, headers: key.auth });
      expect(got.rawPayload.equals(TEXT)).toBe(true);
    } finally {
      await second.close();
      await db.close();
    }
  });
});

describe('the OpenAPI document', () => {
  it('describes the upload as multipart/form-data with a binary file, and the download as bytes', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' })).json();
    const post = doc.paths['/cards/{id}/attachments'].post;
    expect(post.requestBody.content['multipart/form-data'].schema.properties.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['201', '400', '403', '404', '413', '415']));
    const get = doc.paths['/attachments/{id}/download'].get;
    expect(get.responses['200'].content['application/octet-stream'].schema).toMatchObject({ type: 'string', format: 'binary' });
    expect(Object.keys(get.responses)).toEqual(expect.arrayContaining(['200', '206', '404', '416']));
    expect(doc.paths['/attachments/{id}'].delete).toBeDefined();
  });
});

describe('sniffMimeType', () => {
  it.each([
    [Buffer.from('RIFF\x00\x00\x00\x00WEBPVP8 ', 'latin1'), 'image/webp'],
    [Buffer.from('1f8b0800000000000003', 'hex'), 'application/gzip'],
    [Buffer.concat([Buffer.from('504b0304', 'hex'), Buffer.alloc(26), Buffer.from('[Content_Types].xml'), Buffer.alloc(40), Buffer.from('word/document.xml')]), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    [Buffer.concat([Buffer.from('504b0304', 'hex'), Buffer.alloc(26), Buffer.from('mimetypeapplication/vnd.oasis.opendocument.text')]), 'application/vnd.oasis.opendocument.text'],
    [Buffer.from('BMW is not a bitmap'), 'text/plain'],
    [Buffer.from('plain text with a cut-off é').subarray(0, -1), 'text/plain'],
    [Buffer.from('text\u0000with a NUL'), 'application/octet-stream'],
    [Buffer.from([0xc3, 0x28, 0x41]), 'application/octet-stream'],
  ])('%#: %s', (head, expected) => {
    expect(sniffMimeType(head)).toBe(expected);
  });
});

describe('nothing above', () => {
  it('ended in a 500 or logged an error', () => {
    for (const app of [t, small]) {
      const lines = app.logs.lines;
      expect(lines.filter((l) => typeof l.status === 'number' && l.status >= 500)).toEqual([]);
      expect(lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
    }
  });
});

import zlib from 'node:zlib';
import { expect, it } from 'vitest';
import { makeAttachment, makeTeam } from '../board-factories.js';
import { useTestApp } from '../helper.js';

const t = useTestApp();

it('compresses JSON over 1 KB for clients that take it, and never attachment bytes', async () => {
  const team = await makeTeam(t, { cards: 40 });
  const auth = team.keys.admin.auth;
  const plain = await t.app.inject({ method: 'GET', url: `/api/boards/${team.board.id}`, headers: auth });
  expect(plain.headers['content-encoding']).toBeUndefined();

  const br = await t.app.inject({ method: 'GET', url: `/api/boards/${team.board.id}`, headers: { ...auth, 'accept-encoding': 'br, gzip' } });
  expect(br.headers['content-encoding']).toBe('br');
  expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
  expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());

  const gzip = await t.app.inject({ method: 'GET', url: `/api/boards/${team.board.id}`, headers: { ...auth, 'accept-encoding': 'gzip' } });
  expect(gzip.headers['content-encoding']).toBe('gzip');
  expect(JSON.parse(zlib.gunzipSync(gzip.rawPayload).toString())).toEqual(plain.json());

  // An uploaded JSON file is served as stored, so ranges and lengths speak of its bytes.
  const content = JSON.stringify({ rows: Array.from({ length: 200 }, (_, i) => ({ i, text: 'the same text again' })) });
  const attachment = await makeAttachment(t.app, auth, team.cards[0]!.id, 'data.json', content);
  const download = await t.app.inject({ method: 'GET', url: `/api/attachments/${attachment.id}/download`, headers: { ...auth, 'accept-encoding': 'br, gzip' } });
  expect(download.statusCode).toBe(200);
  expect(download.headers['content-encoding']).toBeUndefined();
  expect(download.body).toBe(content);
});

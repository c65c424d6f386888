import { execFile } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeKey, makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';

/**
 * What a script author does with the /api document: generate types with openapi-typescript,
 * write a strict TypeScript script with openapi-fetch, compile it with tsc and run it against the
 * server. Also: redocly's recommended rules find nothing in either document.
 */
const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);

const t = useTestApp();
let dir: string;
let baseUrl: string;
beforeAll(async () => {
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  dir = await mkdtemp(path.join(os.tmpdir(), 'tb-openapi-client-'));
  // The script imports openapi-fetch (and tsc finds its types) as it would in a project of its own.
  await symlink(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const document = async (url: string) => (await t.app.inject({ method: 'GET', url })).json();

it.each([['/api/docs/openapi.json'], ['/v1/docs/openapi.json']])('%s passes `redocly lint` with no error and no warning', async (url) => {
  const file = path.join(dir, url.split('/')[1] + '.json');
  await writeFile(file, JSON.stringify(await document(url)));
  const { stdout } = await run(bin('redocly'), ['lint', file, '--format=json', '--config', path.join(root, 'redocly.yaml')], {
    cwd: dir,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  const problems = (JSON.parse(stdout) as { problems: { ruleId: string; message: string; location: { pointer: string }[] }[] }).problems;
  expect(problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
}, 60_000);

const SCRIPT = `
import createClient from 'openapi-fetch';
import type { components, operations, paths } from './api.js';

type Board = components['schemas']['Board'];
type FullCard = components['schemas']['FullCard'];
type MoveCardBody = NonNullable<operations['moveCard']['requestBody']>['content']['application/json'];

const api = createClient<paths>({
  baseUrl: process.env.BASE_URL,
  headers: { authorization: \`Bearer \${process.env.TOKEN}\` },
});

function ok<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) throw new Error(\`\${result.response.status}: \${JSON.stringify(result.error)}\`);
  return result.data;
}

const board: Board = ok(await api.POST('/boards', { body: { name: 'From a generated client' } }));
const todo = ok(await api.POST('/boards/{id}/lists', { params: { path: { id: board.id } }, body: { name: 'To do' } }));
const done = ok(await api.POST('/boards/{id}/lists', { params: { path: { id: board.id } }, body: { name: 'Done' } }));
const card: FullCard = ok(
  await api.POST('/lists/{id}/cards', { params: { path: { id: todo.id } }, body: { title: 'Write the client', dueAt: '2030-01-31' } }),
);
const move: MoveCardBody = { listId: done.id, position: 0 };
const moved = ok(await api.POST('/cards/{id}/move', { params: { path: { id: card.id } }, body: move }));
const activity = ok(await api.GET('/boards/{id}/activity', { params: { path: { id: board.id }, query: { limit: 10 } } }));
const active = ok(await api.GET('/boards', { params: { query: { archived: false } } }));
// Activity is a union discriminated by type: narrowing on it types data.
const latest = activity.activities[0];
const movedTo: number | null = latest?.type === 'card.moved' ? latest.data.to.listId : null;
// @ts-expect-error only a card.moved activity is known to have data.to
void activity.activities[0]?.data.to;
// A card's field values are typed by field type: string | number | boolean.
const values: Record<string, string | number | boolean> = moved.fieldValues;
// @ts-expect-error limit is an integer, not a string
void api.GET('/boards/{id}/activity', { params: { path: { id: board.id }, query: { limit: '10' } } });
const missing = await api.GET('/cards/{id}', { params: { path: { id: 2147483647 } } });
const message: string | undefined = missing.error?.error;

console.log(JSON.stringify({
  listId: moved.listId,
  doneId: done.id,
  dueAt: card.dueAt,
  types: activity.activities.map((a) => a.type),
  movedTo,
  values,
  boards: active.boards.map((b) => b.id),
  boardId: board.id,
  missing: [missing.response.status, message],
}));
`;

it('generates a client with openapi-typescript that strict tsc compiles and that runs against the server', async () => {
  const types = astToString(await openapiTS(await document('/api/docs/openapi.json')));
  await writeFile(path.join(dir, 'api.d.ts'), types);
  await writeFile(path.join(dir, 'script.ts'), SCRIPT);
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  await writeFile(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noUncheckedIndexedAccess: true,
        target: 'es2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        lib: ['es2022', 'dom'],
        types: ['node'],
        outDir: 'out',
      },
      files: ['script.ts', 'api.d.ts'],
    }),
  );
  const compiled = await run(bin('tsc'), ['-p', dir], { cwd: dir }).catch((error: { stdout?: string }) => ({ failed: error.stdout ?? String(error) }));
  expect('failed' in compiled ? compiled.failed : '').toBe('');

  const user = await makeUser(t.db);
  const { token } = await makeKey(t.db, user.id);
  const { stdout } = await run(process.execPath, [path.join(dir, 'out', 'script.js')], {
    cwd: dir,
    env: { ...process.env, BASE_URL: `${baseUrl}/api`, TOKEN: token },
  });
  const result = JSON.parse(stdout);
  expect(result.listId).toBe(result.doneId);
  expect(result.dueAt).toBe('2030-01-31T00:00:00.000Z');
  expect(result.types).toEqual(['card.moved', 'card.created', 'list.created', 'list.created', 'board.created']);
  expect(result.movedTo).toBe(result.doneId);
  expect(result.values).toEqual({});
  expect(result.boards).toEqual([result.boardId]);
  expect(result.missing).toEqual([404, expect.any(String)]);
}, 120_000);

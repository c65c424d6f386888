import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helper.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe.each([
  ['/api/docs', '/api', 'http'],
  ['/v1/docs', '/v1', 'apiKey'],
])('docs at %s', (docs, server, schemeType) => {
  it('serves a valid OpenAPI 3 document at openapi.json', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${docs}/openapi.json` });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.servers).toEqual([{ url: server }]);
    expect(Object.values(doc.components.securitySchemes).map((s) => (s as { type: string }).type)).toContain(schemeType);
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeDefined();
  });

  it('serves Swagger UI from its own assets, with no CDN', async () => {
    const page = await t.app.inject({ method: 'GET', url: `${docs}/` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).not.toMatch(/https?:\/\/(?!localhost)/);
    expect(page.body).toMatch(/<title>[^<]*Taskboard server<\/title>/);
    const bundle = await t.app.inject({ method: 'GET', url: `${docs}/static/swagger-ui-bundle.js` });
    expect(bundle.statusCode).toBe(200);
    const init = await t.app.inject({ method: 'GET', url: `${docs}/static/swagger-initializer.js` });
    expect(init.body).toContain('persistAuthorization');
  });
});

it('describes the /api routes in the /api document only, and /v1 routes in the /v1 one', async () => {
  const api = (await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' })).json();
  const v1 = (await t.app.inject({ method: 'GET', url: '/v1/docs/openapi.json' })).json();
  for (const path of Object.keys(api.paths ?? {})) expect(path.startsWith('/v1')).toBe(false);
  for (const path of Object.keys(v1.paths ?? {})) expect(path.startsWith('/api')).toBe(false);
  expect(Object.keys(api.paths ?? {})).not.toContain('/healthz');
});

it("documents every endpoint of the seed's table, with the errors it can answer", async () => {
  const api = (await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' })).json();
  const seed = `GET /boards, POST /boards, GET /boards/{id}, PATCH /boards/{id}, GET /boards/{id}/search, GET /boards/{id}/activity,
    GET /boards/{id}/archived, GET /boards/{id}/members, POST /boards/{id}/members, PATCH /boards/{id}/members/{userId},
    DELETE /boards/{id}/members/{userId}, GET /boards/{id}/lists, POST /boards/{id}/lists, PATCH /lists/{id}, POST /lists/{id}/move,
    POST /lists/{id}/cards, GET /cards/{id}, PATCH /cards/{id}, POST /cards/{id}/move, POST /cards/{id}/copy, DELETE /cards/{id},
    POST /boards/{id}/labels, PUT /cards/{id}/labels/{labelId}, PUT /cards/{id}/members/{userId}, POST /cards/{id}/checklists,
    POST /checklists/{id}/items, PATCH /items/{id}, POST /items/{id}/convert, POST /boards/{id}/custom-fields,
    PATCH /custom-fields/{id}, PUT /cards/{id}/fields/{fieldId}, POST /cards/{id}/comments, POST /cards/{id}/attachments,
    GET /attachments/{id}/download, GET /boards/{id}/events`;
  for (const endpoint of seed.split(',').map((e) => e.trim())) {
    const [method, path] = endpoint.split(' ') as [string, string];
    const operation = api.paths[path]?.[method.toLowerCase()];
    expect(operation, endpoint).toBeDefined();
    expect(Object.keys(operation.responses), endpoint).toEqual(expect.arrayContaining(['401', '404']));
  }
  const upload = api.paths['/cards/{id}/attachments'].post;
  expect(Object.keys(upload.requestBody.content)).toEqual(['multipart/form-data']);
  expect(Object.keys(upload.responses)).toEqual(expect.arrayContaining(['201', '400', '413', '415']));
});

describe('statuses every route can produce', () => {
  it('are declared: 413/415 wherever there is a body, 400/403 on changes, null in nullable enums', async () => {
    const t = await buildTestApp();
    try {
      const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' })).json();
      for (const [path, item] of Object.entries<Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>>(doc.paths)) {
        for (const [method, op] of Object.entries(item)) {
          if (typeof op !== 'object' || !op.responses) continue;
          if (op.requestBody) expect(Object.keys(op.responses), `${method} ${path}`).toEqual(expect.arrayContaining(['413', '415']));
          if (method !== 'get') expect(Object.keys(op.responses), `${method} ${path}`).toEqual(expect.arrayContaining(['400', '403']));
        }
      }
      expect(doc.paths['/labels/{id}'].patch.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Label' });
      const color = doc.components.schemas.Label.properties.color;
      expect(color.enum).toContain(null);
      const v1 = (await t.app.inject({ method: 'GET', url: '/v1/docs/openapi.json' })).json();
      expect(Object.keys(v1.paths['/answer'].post.responses)).not.toContain('403');
    } finally {
      await t.close();
    }
  });
});

it('declares no 409 on reads: they change nothing, so they never conflict', async () => {
  for (const url of ['/api/docs/openapi.json', '/v1/docs/openapi.json']) {
    const doc = (await t.app.inject({ method: 'GET', url })).json();
    const reads = Object.entries<Record<string, { responses: Record<string, unknown> }>>(doc.paths).filter(([, item]) => item.get);
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.filter(([, item]) => '409' in item.get!.responses).map(([path]) => path)).toEqual([]);
  }
});

import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { buildTestApp, useTestApp } from '../helper.js';

const t = useTestApp();

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
    expect(page.body).toMatch(/<title>[^<]+ — Taskboard<\/title>/);
    const bundle = await t.app.inject({ method: 'GET', url: `${docs}/static/swagger-ui-bundle.js` });
    expect(bundle.statusCode).toBe(200);
    const init = await t.app.inject({ method: 'GET', url: `${docs}/static/swagger-initializer.js` });
    expect(init.body).toContain('persistAuthorization');
  });

  it('serves the page under a strict Content-Security-Policy that forbids framing', async () => {
    for (const url of [`${docs}/`, `${docs}/static/index.html`]) {
      const page = await t.app.inject({ method: 'GET', url });
      const csp = String(page.headers['content-security-policy'] ?? '');
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp, url).toContain("script-src 'self'");
      expect(csp, url).not.toContain('unsafe-inline');
    }
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

it('Swagger UI offers only the schemes a page can send; the document keeps every one, and the web backend says it takes a session only', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' })).json();
  expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKey', 'session']);
  expect(doc.security).toEqual([{ apiKey: [] }, { session: [] }]);
  expect(doc.paths['/boards'].get.security).toBeUndefined();
  // API keys are refused there (sessionAuthentication), so the document does not offer them.
  expect(doc.paths['/account/keys'].get.security).toEqual([{ session: [] }]);
  expect(doc.paths['/auth/login'].post.security).toEqual([]);

  // A page cannot set a Cookie header: the UI's copy offers the key only.
  const ui = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
  expect(Object.keys(ui.components.securitySchemes)).toEqual(['apiKey']);
  expect(ui.security).toEqual([{ apiKey: [] }]);
  expect(JSON.stringify(ui.paths)).not.toContain('"session"');
  // Session-only operations send no key from the UI (it would be refused); a signed-in browser sends its cookie.
  expect(ui.paths['/account/keys'].get.security).toEqual([]);
  expect(ui.paths['/account/keys'].get.description).toMatch(/signed in to the web app/);
  expect(ui.info.description).toMatch(/a page cannot set a Cookie header/);
  expect(ui.paths['/boards'].get).toEqual(doc.paths['/boards'].get);

  // /v1 has no cookie scheme: its UI gets the document as it is.
  const v1 = (await t.app.inject({ method: 'GET', url: '/v1/docs/openapi.json' })).json();
  expect((await t.app.inject({ method: 'GET', url: '/v1/docs/json' })).json()).toEqual(v1);
});

it('documents the event stream, the Activity union and field values by type', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' })).json();
  const schemas = doc.components.schemas;
  const stream = doc.paths['/boards/{id}/events'].get.responses['200'].content;
  expect(Object.keys(stream)).toEqual(['text/event-stream']);
  expect(stream['text/event-stream'].schema).toEqual({ $ref: '#/components/schemas/BoardEvent' });
  expect(schemas.BoardEvent.properties.data).toEqual({ $ref: '#/components/schemas/Activity' });
  const types: string[] = schemas.BoardEvent.properties.event.enum;
  expect(types).toContain('card.moved');
  expect(schemas.Activity.discriminator.propertyName).toBe('type');
  expect(schemas.Activity.oneOf).toHaveLength(types.length);
  expect(schemas.Activity.discriminator.mapping['card.moved']).toBe('#/components/schemas/CardMovedActivity');
  expect(schemas.CardMovedActivity.properties.type.enum).toEqual(['card.moved']);
  expect(schemas.CardMovedActivity.properties.data.required).toEqual(['cardId', 'listId', 'card', 'from', 'to']);
  expect(schemas.ActivityPage.properties.activities.items).toEqual({ $ref: '#/components/schemas/Activity' });

  const values = schemas.Card.properties.fieldValues.additionalProperties.anyOf.map((s: { $ref: string }) => s.$ref.split('/').at(-1));
  expect(values).toEqual(['TextFieldValue', 'NumberFieldValue', 'DateFieldValue', 'CheckboxFieldValue', 'ListFieldValue']);
  expect(doc.paths['/cards/{id}/fields/{fieldId}'].put.requestBody.content['application/json'].schema.properties.value).toEqual({
    $ref: '#/components/schemas/FieldValueInput',
  });
});

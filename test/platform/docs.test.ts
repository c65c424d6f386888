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

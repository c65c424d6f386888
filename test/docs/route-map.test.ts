import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { ROUTE_MAP_FILE, routeMap } from '../../scripts/route-map.js';
import { useTestApp } from '../helper.js';

// docs/route-map.md is generated from the source (route → domain function → rules → SQL): it must
// say what the code says today. After changing a route or a rule: npm run route-map.
it('docs/route-map.md is what scripts/route-map.ts writes from the source (else: npm run route-map)', () => {
  expect(readFileSync(ROUTE_MAP_FILE, 'utf8')).toBe(routeMap());
});

const t = useTestApp();
const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);

// The map reads route declarations from the source text; a route declared some other way (on a
// scope of its own, in a file not under routes/) would be missing from it without a word. Both
// OpenAPI documents list every documented operation: each must be in the map, by method and path.
it('lists every operation of both OpenAPI documents', async () => {
  const map = readFileSync(ROUTE_MAP_FILE, 'utf8');
  const missing: string[] = [];
  for (const url of ['/api/docs/openapi.json', '/v1/docs/openapi.json']) {
    type Operations = Record<string, unknown> & { servers?: { url: string }[] };
    const doc = (await t.app.inject({ method: 'GET', url })).json() as { servers: { url: string }[]; paths: Record<string, Operations> };
    for (const [p, operations] of Object.entries(doc.paths)) {
      // A path's own `servers` (the session routes outside /api) replaces the document's.
      const prefix = (operations.servers?.[0]?.url ?? doc.servers[0]!.url).replace(/\/$/, '');
      const route = `${prefix}${p}`.replace(/\{(\w+)\}/g, ':$1');
      for (const method of Object.keys(operations).filter((k) => METHODS.has(k))) {
        if (!map.includes(`${method.toUpperCase()} ${route} `)) missing.push(`${method.toUpperCase()} ${route}`);
      }
    }
  }
  expect(missing).toEqual([]);
});

import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { ROUTE_MAP_FILE, routeMap } from '../../scripts/route-map.js';

// docs/route-map.md is generated from the source (route → domain function → rules → SQL): it must
// say what the code says today. After changing a route or a rule: npm run route-map.
it('docs/route-map.md is what scripts/route-map.ts writes from the source (else: npm run route-map)', () => {
  expect(readFileSync(ROUTE_MAP_FILE, 'utf8')).toBe(routeMap());
});

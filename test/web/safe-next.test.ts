import { describe, expect, it } from 'vitest';
import { safeNext } from '../../src/web/client/safe-next.js';

/** #44 item 3: `next` after sign-in is resolved as the browser resolves it, and must stay on the origin. */
const ORIGIN = 'http://127.0.0.1:3000';

describe('safeNext', () => {
  it.each([
    '/\t/evil.example/',
    '/\t\\evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '//evil.example',
    '/\\evil.example',
    '/\\/evil.example',
    '/./\t/evil.example',
    '/.//evil.example',
    'https://evil.example/',
    'http://127.0.0.1:3000.evil.example/',
    'javascript:alert(1)',
    '\t/boards',
    'boards',
    '',
    null,
  ])('refuses %j', (next) => {
    expect(safeNext(next, ORIGIN)).toBeNull();
  });

  it.each([
    ['/boards', '/boards'],
    ['/boards/7?card=3#comments', '/boards/7?card=3#comments'],
    ['/oauth/consent/abc', '/oauth/consent/abc'],
    ['/settings/../boards', '/boards'],
  ])('keeps %j as %j', (next, path) => {
    expect(safeNext(next, ORIGIN)).toBe(path);
  });
});

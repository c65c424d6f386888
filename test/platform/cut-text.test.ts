import { expect, it } from 'vitest';
import { cutText, LONE_SURROGATE } from '../../src/platform/schemas.js';

it('cutText cuts to the limit, its suffix included, and never through a surrogate pair', () => {
  expect(cutText('short', 10)).toBe('short');
  expect(cutText('abcdefghij', 10, '…')).toBe('abcdefghij');
  expect(cutText('abcdefghijk', 10)).toBe('abcdefghij');
  expect(cutText('abcdefghijk', 10, '…')).toBe('abcdefghi…');
  // 😀 is two UTF-16 units: a cut between them would leave a lone surrogate, so the pair goes whole.
  expect(cutText('abcdefghi😀', 10)).toBe('abcdefghi');
  expect(cutText('abcdefgh😀x', 10, '…')).toBe('abcdefgh…');
  expect(cutText('abcdefgh😀x', 10)).toBe('abcdefgh😀');
  for (let max = 1; max < 12; max++) for (const suffix of ['', '…']) {
    const cut = cutText('😀'.repeat(6), max, suffix);
    expect(LONE_SURROGATE.test(cut), `${max} ${suffix}`).toBe(false);
    expect(cut.length).toBeLessThanOrEqual(max);
  }
});

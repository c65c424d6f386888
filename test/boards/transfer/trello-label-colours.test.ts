import { describe, expect, it } from 'vitest';
import { labelColor } from '../../../src/boards/transfer/from-trello.js';

/** Trello's 30 label colours are our ten, plain, light or dark (#46): the shade survives an import. */
describe('labelColor (Trello → ours)', () => {
  it.each([
    ['blue_dark', { color: 'blue', shade: 'dark' }],
    ['green_light', { color: 'green', shade: 'light' }],
    ['black_light', { color: 'black', shade: 'light' }],
    ['sky', { color: 'sky', shade: null }],
    [null, { color: null, shade: null }],
    ['', { color: null, shade: null }],
  ] as const)('%s → %o', (trello, ours) => {
    expect(labelColor(trello)).toEqual(ours);
  });

  it('has no answer for a colour we do not have (the import reports it and keeps the label without one)', () => {
    expect(labelColor('teal_dark')).toBeUndefined();
    expect(labelColor('blue_medium')).toBeUndefined();
  });
});

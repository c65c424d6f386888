import { describe, expect, it } from 'vitest';
import { matchMentions } from '../../src/notifications/notify/match-mentions.js';

const members = [
  { userId: 1, name: 'Ada Lovelace', email: 'ada-12@example.test' },
  { userId: 2, name: 'Ada Byron', email: 'byron@example.test' },
  { userId: 3, name: 'Grace Hopper', email: 'grace@example.test' },
  { userId: 4, name: 'Élodie Martin', email: 'em@example.test' },
];

describe('@mentions', () => {
  it('match a whole name, a first name, or the address before @, ignoring case and punctuation', () => {
    expect(matchMentions('@AdaLovelace look', members)).toEqual([1]);
    expect(matchMentions('cc @ada.lovelace.', members)).toEqual([1]);
    expect(matchMentions('@ADA-12: done?', members)).toEqual([1]);
    expect(matchMentions('thanks @grace!', members)).toEqual([3]);
    expect(matchMentions('@élodie', members)).toEqual([4]);
  });

  it('a first name two members share mentions both', () => {
    expect(matchMentions('@ada please', members)).toEqual([1, 2]);
  });

  it('an e-mail address, a bare @ or an unknown name mentions nobody', () => {
    expect(matchMentions('write to grace@example.test', members)).toEqual([]);
    expect(matchMentions('meet @ 5pm, @nobody', members)).toEqual([]);
    expect(matchMentions('no mention here', members)).toEqual([]);
  });
});

describe('notification texts cut short', () => {
  it('never cut through an emoji (a lone surrogate reads as "�" in mail subjects and the bell)', async () => {
    const { shorten } = await import('../../src/notifications/notify/shorten-text.js');
    const text = `${'a'.repeat(118)}😀 and more`;
    const cut = shorten(text, 120);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(120);
    expect(/[\ud800-\udbff](?![\udc00-\udfff])/.test(cut)).toBe(false);
    expect(shorten('short', 120)).toBe('short');
  });
});

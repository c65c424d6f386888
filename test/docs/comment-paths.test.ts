import { describe, expect, it } from 'vitest';
import { issueReferences, namedFiles, resolver, sourceComments } from './source-comments.js';

// A comment a reader follows must lead somewhere: a file it names exists (files get split and
// renamed; their comments must follow), and it says the reason itself rather than an issue number,
// which means nothing to someone reading the code.
describe('comments in src/', () => {
  const comments = sourceComments();

  it('name only files that exist', () => {
    const resolves = resolver();
    const missing = comments.flatMap((c) => namedFiles(c.text).filter((name) => !resolves(c.file, name)).map((name) => `${c.file}:${c.line} names ${name}`));
    expect(missing).toEqual([]);
  });

  it('give the reason, not an issue number', () => {
    const refs = comments
      .flatMap((c) => issueReferences(c.text).map((ref) => `${c.file}:${c.line} says ${ref}`));
    expect(refs).toEqual([]);
  });

  it('the checks see what they look for, and not colours, URLs or examples', () => {
    expect(comments.length).toBeGreaterThan(1000);
    const resolves = resolver();
    expect(namedFiles('/** Locks lists (positions.ts, cards/sql/move-card.sql); see https://example.com/x.md and "Getting started.md". */')).toEqual([
      'positions.ts',
      'cards/sql/move-card.sql',
    ]);
    expect(resolves('src/boards/cards/move-card.ts', 'positions.ts')).toBe(false);
    expect(resolves('src/boards/cards/card-refusal.ts', 'cards/sql/move-card.sql')).toBe(true);
    expect(resolves('src/boards/cards/card-refusal.ts', '../rows.ts')).toBe(true);
    expect(resolves('src/boards/cards/card-refusal.ts', 'docs/architecture.md')).toBe(true);
    expect(issueReferences('// (#44 item 1), issue 47, issue #48; color: #555; #fff; https://example.com/#12; &#39;')).toEqual(['#44', 'issue 47', 'issue #48']);
  });
});

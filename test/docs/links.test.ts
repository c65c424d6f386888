import { mkdtempSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkLinks, headingText, readPage, slug } from './markdown.js';

const root = path.resolve(import.meta.dirname, '../..');

/** Every Markdown page of the manual: the README, the changelog, docs/ and the results pages. */
function manualPages(): string[] {
  const docs = readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join(root, 'docs', name));
  return [
    path.join(root, 'README.md'),
    path.join(root, 'CHANGELOG.md'),
    ...docs,
    path.join(root, 'bench/RESULTS.md'),
    path.join(root, 'eval/RESULTS.md'),
  ];
}

describe('the manual has no dead link', () => {
  it('covers the README, the changelog, every page in docs/ and the results pages', () => {
    const pages = manualPages().map((file) => path.relative(root, file));
    expect(pages).toEqual(expect.arrayContaining(['README.md', 'CHANGELOG.md', 'docs/configuration.md', 'docs/boards-api.md']));
  });

  for (const file of manualPages()) {
    it(path.relative(root, file), () => {
      expect(checkLinks(file, root)).toEqual([]);
    });
  }

  it('README stays under 200 lines and shows the test command CI runs', async () => {
    const { readFileSync } = await import('node:fs');
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThan(200);
    expect(readme).toContain('npm test');
  });
});

describe('the link checker', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'links-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('slugs headings as GitHub does', () => {
    expect(slug(headingText('Assistant connector (MCP)'))).toBe('assistant-connector-mcp');
    expect(slug(headingText('Task-board choices where the spec is silent'))).toBe('task-board-choices-where-the-spec-is-silent');
    expect(slug(headingText('`NODE_ENV` and **other** [things](x.md) ##'))).toBe('node_env-and-other-things');
    expect(slug(headingText('Ticket API (beta)'))).toBe('ticket-api-beta');
    expect(slug(headingText('Inside boards/'))).toBe('inside-boards');
    expect([...readPage('# Added\n\n## Added\n\n### Added\n').anchors]).toEqual(['added', 'added-1', 'added-2']);
  });

  it('finds dead files, missing anchors and bad URLs, and ignores code', () => {
    mkdirSync(path.join(dir, 'docs'), { recursive: true });
    writeFileSync(path.join(dir, 'docs/other.md'), '# Other page\n\n## Several processes\n');
    const page = path.join(dir, 'docs/page.md');
    writeFileSync(
      page,
      [
        '# Page',
        '',
        '## Rate limits',
        '',
        '[fine](other.md) [fine](other.md#several-processes) [fine](#rate-limits) [fine](https://example.com/x)',
        '[dead](missing.md) [bad anchor](other.md#nothing) [bad self](#nowhere) [bad url](https://)',
        '<img src="gone.png" alt="">',
        '',
        '[ref]: ./also-missing.md',
        '',
        '`[in code](missing-in-code.md)`',
        '',
        '```',
        '[in a fence](missing-in-fence.md)',
        '```',
      ].join('\n'),
    );
    const problems = checkLinks(page, dir);
    expect(problems).toEqual([
      'docs/page.md:6: missing.md — no such file',
      'docs/page.md:6: other.md#nothing — no heading with the anchor #nothing',
      'docs/page.md:6: #nowhere — no heading with the anchor #nowhere',
      'docs/page.md:6: https:// — not a valid URL',
      'docs/page.md:7: gone.png — no such file',
      'docs/page.md:9: ./also-missing.md — no such file',
    ]);
  });
});

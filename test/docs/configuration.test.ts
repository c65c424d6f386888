import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config.js';

const root = path.resolve(import.meta.dirname, '../..');

/** The variables named in the first column of docs/configuration.md's settings table. */
function documentedVariables(markdown: string): string[] {
  const lines = markdown.split('\n');
  const header = lines.findIndex((line) => /^\|\s*variable\s*\|/.test(line));
  if (header === -1) throw new Error('docs/configuration.md has no settings table (a header row starting "| variable |")');
  const names: string[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const firstCell = line.split(/(?<!\\)\|/)[1] ?? '';
    for (const m of firstCell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.push(m[1]!);
  }
  return names;
}

describe('docs/configuration.md', () => {
  const page = readFileSync(path.join(root, 'docs/configuration.md'), 'utf8');
  const documented = documentedVariables(page);
  const read = Object.keys(configSchema.shape);

  it('lists every environment variable src/config.ts reads', () => {
    expect(read.filter((name) => !documented.includes(name))).toEqual([]);
  });

  it('lists no variable src/config.ts does not read', () => {
    expect(documented.filter((name) => !read.includes(name))).toEqual([]);
  });

  it('lists each variable once', () => {
    expect(documented.filter((name, i) => documented.indexOf(name) !== i)).toEqual([]);
  });

  it('reads the table as a table (sanity: the checks above compare real lists)', () => {
    expect(read.length).toBeGreaterThan(40);
    expect(documented).toEqual(expect.arrayContaining(['HOST', 'PORT', 'LLM_BASE_URL', 'LLM_API_KEY', 'LLM_MODEL']));
  });
});

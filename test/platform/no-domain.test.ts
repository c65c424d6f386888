import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

/**
 * The ground layer names no domain thing (#33): dependency-cruiser sees import arrows, not
 * knowledge, so this reads platform/'s code (comments left out) for what the modules above own:
 * their tables (schema.prisma's models, as SQL names), the decorations they put on Fastify's
 * app, request and reply, and their SQL functions (tb_…). Modules register with platform instead
 * (metrics sources, rate-limit credentials and identities, SQL sources found by folder).
 */
const root = path.resolve(import.meta.dirname, '../..');
const src = path.join(root, 'src');

/** Tables platform/ itself owns (the rate limiter's counters) or Prisma's bookkeeping. */
const PLATFORM_TABLES = new Set(['RateLimitBucket']);

const code = (file: string) =>
  readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join(dir, f));
}

function domainNames() {
  const models = [...readFileSync(path.join(root, 'prisma/schema.prisma'), 'utf8').matchAll(/^model (\w+)/gm)]
    .map((m) => m[1]!)
    .filter((m) => !PLATFORM_TABLES.has(m));
  const decorations = new Set<string>();
  for (const file of filesBelow(src)) {
    if (file.startsWith(path.join(src, 'platform')) || file.startsWith(path.join(src, 'generated'))) continue;
    const text = readFileSync(file, 'utf8');
    for (const block of text.matchAll(/interface Fastify(?:Instance|Request|Reply) \{([\s\S]*?)\n {2}\}/g)) {
      for (const prop of block[1]!.matchAll(/^\s+(\w+)\??:/gm)) decorations.add(prop[1]!);
    }
  }
  return { models, decorations: [...decorations] };
}

function violations(files: string[]) {
  const { models, decorations } = domainNames();
  const found: string[] = [];
  for (const file of files) {
    const text = code(file);
    for (const model of models) if (text.includes(`"${model}"`)) found.push(`${path.relative(root, file)}: table "${model}"`);
    for (const name of decorations) {
      if (new RegExp(`(\\.|\\{ *|, *)${name}\\b(?! *:)`).test(text) || new RegExp(`['"]${name}['"]`).test(text)) {
        found.push(`${path.relative(root, file)}: decoration ${name}`);
      }
    }
    if (/\btb_\w+\(/.test(text)) found.push(`${path.relative(root, file)}: a module's SQL function`);
  }
  return found;
}

it('finds decorations and tables of the modules to look for', () => {
  const { models, decorations } = domainNames();
  expect(models).toEqual(expect.arrayContaining(['Card', 'WebhookDelivery', 'Activity']));
  expect(decorations).toEqual(expect.arrayContaining(['actor', 'boardCache', 'streams', 'events', 'answerKey', 'ticketWorkspaceId', 'connector']));
});

it('platform/ names no table, decoration or SQL function of a module', () => {
  expect(violations(filesBelow(path.join(src, 'platform')))).toEqual([]);
});

it('would catch a reach-in: the check fails on code that reads a module decoration or table', () => {
  const reachIn = path.join(import.meta.dirname, 'fixtures', 'reach-in.ts.txt');
  const found = violations([reachIn]);
  expect(found.some((v) => v.includes('decoration boardCache'))).toBe(true);
  expect(found.some((v) => v.includes('table "WebhookDelivery"'))).toBe(true);
});

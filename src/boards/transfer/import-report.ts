import { z } from 'zod';
import { LONE_SURROGATE, cutText } from '../../platform/schemas.js';

/** One kind of thing an import could not carry over, how many, and a few of them. */
export const unmappedEntry = z
  .object({
    what: z.string().describe('What was not carried over, and why.'),
    count: z.number().int().describe('How many.'),
    examples: z.array(z.string()).describe('Up to five of them (card titles, links, names).'),
  })
  .meta({ id: 'ImportUnmapped' });

export type UnmappedEntry = z.infer<typeof unmappedEntry>;

/** Collects what an import leaves out, by kind, in the order first met. */
export class ImportReport {
  private readonly entries = new Map<string, UnmappedEntry>();

  add(what: string, example?: string, count = 1) {
    const entry = this.entries.get(what) ?? { what, count: 0, examples: [] };
    entry.count += count;
    if (example !== undefined && entry.examples.length < 5) entry.examples.push(example.length > 200 ? `${example.slice(0, 199)}…` : example);
    this.entries.set(what, entry);
  }

  list(): UnmappedEntry[] {
    return [...this.entries.values()];
  }
}

/** Text cut to `max` characters (trimmed first); the report says so when it was. */
export function fitText(value: string, max: number, report: ImportReport, what: string): string {
  // What PostgreSQL cannot store (NUL, an unpaired surrogate) becomes U+FFFD rather than refusing the file.
  const clean = /[\u0000\ud800-\udfff]/.test(value) ? value.replace(/\u0000/g, '\ufffd').replace(new RegExp(LONE_SURROGATE.source, 'g'), '\ufffd') : value;
  const trimmed = clean.trim();
  if (trimmed.length <= max) return trimmed;
  report.add(`${what} shortened to ${max} characters`, cutText(trimmed, 60));
  return cutText(trimmed, max);
}

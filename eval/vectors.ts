/**
 * The evaluation's vectors: the built-in sentence encoder's (as the product computes them), kept in a
 * cache beside node_modules so a second `npm run eval` does not embed the bases again (the first
 * takes a few minutes: about 3,000 passages and 2,000 messages at 30-70 ms each).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SemanticOptions } from '../src/answers/compose-answer.js';
import type { ArticleVectors } from '../src/answers/retrieval/semantic.js';
import { articleTexts } from '../src/answers/retrieval/vectors/article-texts.js';
import { BuiltinVectorSource } from '../src/answers/retrieval/vectors/builtin-source.js';

/** ANSWER_EVAL_CACHE: another directory for the cache (a worktree whose node_modules is shared). */
const DIR = process.env.ANSWER_EVAL_CACHE ?? path.resolve(import.meta.dirname, '../node_modules/.cache/answer-eval');
const source = new BuiltinVectorSource();
const FILE = path.join(DIR, `${source.id}.json`);
const cache = new Map<string, Float32Array>();
if (existsSync(FILE)) {
  for (const [k, v] of Object.entries(JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, string>)) {
    const bytes = Buffer.from(v, 'base64');
    cache.set(k, new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4));
  }
}
let dirty = 0;
const key = (text: string) => createHash('sha1').update(text).digest('base64');

/** Unit vectors of the texts, from the cache or the encoder. */
export async function embedAll(texts: string[]): Promise<Float32Array[]> {
  const missing = [...new Set(texts.filter((t) => !cache.has(key(t))))];
  for (let i = 0; i < missing.length; i += 32) {
    const batch = missing.slice(i, i + 32);
    const vectors = await source.embed(batch, 'query');
    batch.forEach((t, j) => cache.set(key(t), vectors[j]!));
    dirty += batch.length;
    if (dirty >= 256) save();
  }
  return texts.map((t) => cache.get(key(t))!);
}

/** A vector embedAll computed before, else undefined. */
export function cachedVector(text: string): Float32Array | undefined {
  return cache.get(key(text));
}

export function save() {
  if (!dirty) return;
  mkdirSync(DIR, { recursive: true });
  const out: Record<string, string> = {};
  for (const [k, v] of cache) out[k] = Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
  writeFileSync(FILE, JSON.stringify(out));
  dirty = 0;
}

/** Vectors of every article of a base, as the product stores them (article id → title and passages). */
export async function articleVectors(articles: { id: number; title: string; body: string }[]): Promise<ArticleVectors> {
  const out = new Map<number, Float32Array[]>();
  for (const a of articles) out.set(a.id, await embedAll(articleTexts(a)));
  save();
  return out;
}

/** composeAnswer's semantic options over a base's vectors. */
export function semanticOver(vectors: ArticleVectors): SemanticOptions {
  return { vectors, embed: (texts) => embedAll(texts) };
}

export async function closeVectors() {
  save();
  await source.close();
}

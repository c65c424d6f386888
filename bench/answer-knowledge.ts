/** The answer benchmarks' knowledge and questions: 1,000 help-centre articles and the evaluation's one-sentence questions. */
import { readFileSync } from 'node:fs';
import path from 'node:path';

const data = path.join(path.resolve(import.meta.dirname, '..'), 'eval/set-a');

export interface Article {
  externalId: string;
  title: string;
  body: string;
  url?: string;
}
export const base = JSON.parse(readFileSync(path.join(data, 'articles.json'), 'utf8')) as Article[];
export const QUESTIONS = (JSON.parse(readFileSync(path.join(data, 'questions.json'), 'utf8')) as { turns: string[]; kind: string }[])
  .filter((q) => q.turns.length === 1 && q.kind !== 'smalltalk')
  .map((q) => q.turns[0]!);

/** 1,000 articles of help-centre text: the evaluation's 120, then variants mixing their sentences. */
export function thousandArticles(): Article[] {
  let s = 7;
  const rand = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const sentences = base.flatMap((a) => a.body.split(/(?<=[.!?])\s+/)).filter((x) => x.length > 20);
  const out = base.map((a) => ({ ...a }));
  for (let i = out.length; i < 1000; i++) {
    const from = base[i % base.length]!;
    const own = from.body.split(/(?<=[.!?])\s+/);
    const extra = Array.from({ length: 4 + Math.floor(rand() * 8) }, () => sentences[Math.floor(rand() * sentences.length)]!);
    const body = [...own.slice(0, Math.ceil(own.length / 2)), ...extra].join(' ');
    out.push({ externalId: `gen-${i}`, title: `${from.title} (${['team', 'enterprise', 'legacy', 'mobile', 'admin'][i % 5]} edition ${i})`, body });
  }
  return out;
}

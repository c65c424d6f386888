/**
 * The evaluation's knowledge bases: each a help centre (articles.json) with messages written for it.
 * Set A (an invented product) with set C, its training messages; GNOME's user help; Python's FAQ
 * and tutorial. Set B (over set A's articles) is never fitted on: it is only reported with --set-b.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { KnowledgeIndex, prepareArticle } from '../src/answers/retrieval/knowledge-index.js';
import { Bm25 } from './baseline-bm25.js';
import type { ArticleVectors } from '../src/answers/retrieval/semantic.js';
import { articleVectors, embedAll, save } from './vectors.js';
import { semanticText } from '../src/answers/compose-answer.js';

export interface Article {
  externalId: string;
  title: string;
  body: string;
  url?: string;
}

export interface Question {
  id: string;
  kind: string;
  half: 'tune' | 'test';
  turns: string[];
  expected: string[];
  needsHuman: boolean;
  /** Text read from the message's attachment (kind `attachment`). */
  attachmentText?: string;
}

export interface Base {
  name: string;
  index: KnowledgeIndex;
  bm25: Bm25;
  questions: Question[];
  /**
   * Messages whose answer is only in their attachment, written after the attachment handling was tuned, by
   * someone who read only the articles (attachments-heldout.json): never fitted or tuned on, only reported.
   */
  heldOutAttachments: Question[];
  /** The articles' vectors (eval/vectors.ts); empty with --lexical. */
  vectors: ArticleVectors;
}

const read = <T>(...parts: string[]) => JSON.parse(readFileSync(path.resolve(import.meta.dirname, ...parts), 'utf8')) as T;

function base(name: string, dir: string, questionFiles: string[]): Base {
  const articles = read<Article[]>(dir, 'articles.json');
  return {
    vectors: new Map(),
    name,
    index: new KnowledgeIndex(articles.map((a, i) => prepareArticle({ id: i + 1, externalId: a.externalId, title: a.title, body: a.body, url: a.url ?? null }))),
    bm25: new Bm25(articles),
    // Ids are prefixed with the file's set so that set A's and set C's never collide.
    questions: questionFiles.flatMap((file) => read<Question[]>(file).map((q) => ({ ...q, id: `${path.dirname(file)}/${q.id}` }))),
    heldOutAttachments: existsSync(path.resolve(import.meta.dirname, dir, 'attachments-heldout.json'))
      ? read<Question[]>(dir, 'attachments-heldout.json').map((q) => ({ ...q, id: `${dir}/${q.id}` }))
      : [],
  };
}

/** What composeAnswer embeds for a message's turns: each alone and with the one before it (the last with its attachment's text). */
export function messageTexts(q: Question): string[] {
  return q.turns.flatMap((turn, i) => {
    const attachment = i === q.turns.length - 1 ? q.attachmentText : undefined;
    const alone = semanticText(turn, attachment);
    return i ? [alone, semanticText(`${q.turns[i - 1]}\n${turn}`, attachment)] : [alone];
  });
}

/** The three bases the decision is fitted and measured on, leaving one out at a time; with vectors unless `lexical`; `only`: the one whose name starts so (--build). */
export async function loadBases({ lexical = false, only }: { lexical?: boolean; only?: string | undefined } = {}): Promise<Base[]> {
  const bases = [
    base('set A (+C)', 'set-a', ['set-a/questions.json', 'set-c/questions.json']),
    base('GNOME', 'kb-gnome', ['kb-gnome/questions.json']),
    base('Python', 'kb-python', ['kb-python/questions.json']),
  ].filter((b) => !only || b.name.toLowerCase().startsWith(only.toLowerCase()));
  if (!lexical) {
    for (const b of bases) {
      b.vectors = await articleVectors(b.index.articles.map((a) => a.doc));
      await embedAll(b.questions.concat(b.heldOutAttachments).flatMap(messageTexts));
    }
    save();
  }
  return bases;
}

/** Set B: more messages over set A's articles, held out from everything (reported with --set-b only). */
export function loadSetB(setA: Base): Base {
  return { ...setA, name: 'set B (held out)', questions: read<Question[]>('set-b/questions.json').map((q) => ({ ...q, id: `set-b/${q.id}` })) };
}

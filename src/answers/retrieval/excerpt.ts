import type { KnowledgeIndex, PreparedArticle, QueryTerm } from './knowledge-index.js';
import { foldPhrases } from './synonyms.js';
import { terms } from './text.js';

/** The part of an article that answers a message: a paragraph, a few sentences or the steps, under its heading. */
export interface Excerpt {
  /** The heading of the section it comes from (never the article's title); null when the article has none. */
  heading: string | null;
  /** Markdown as the article has it: list markers, emphasis and links kept. */
  text: string;
}

type Block = { kind: 'heading' | 'paragraph'; text: string } | { kind: 'item'; text: string; list: number };

/** A message asking how to do something: steps answer it. */
const ASKS_HOW = /\b(how (do|can|to|should|would)|how\b.*\?|steps?|where (do|can|is)|set ?up|enable|turn (on|off)|install|configure)\b/i;

const LIST_ITEM = /^\s*(?:[-*•]|\d+[.)])\s+/;
const MARKDOWN_HEADING = /^\s*#{1,6}\s+(.*?)\s*#*\s*$/;
/** Words of a paragraph past which only its best sentences are quoted. */
const LONG_PARAGRAPH = 80;
/** Sentences quoted of a long paragraph. */
const SENTENCES = 3;
/** Items of a list past which only those around the best are quoted. */
const LONG_LIST = 12;

/** A line standing alone that reads as a heading: short, no sentence end, something after it. */
const plainHeading = (line: string) => line.length <= 80 && line.split(/\s+/).length <= 10 && !/[.:;,!?)]$/.test(line) && !LIST_ITEM.test(line);

/** The body as headings, paragraphs (lines joined) and list items (numbered per list). */
export function blocksOf(body: string): Block[] {
  const out: Block[] = [];
  let list = 0;
  const chunks = body.replace(/\r\n?/g, '\n').split(/\n\s*\n/);
  chunks.forEach((chunk, ci) => {
    const lines = chunk.split('\n').map((l) => l.trim()).filter(Boolean);
    let paragraph: string[] = [];
    let inList = false;
    const flush = () => {
      if (paragraph.length) out.push({ kind: 'paragraph', text: paragraph.join(' ') });
      paragraph = [];
    };
    lines.forEach((line, li) => {
      const md = MARKDOWN_HEADING.exec(line);
      if (md) {
        flush();
        inList = false;
        out.push({ kind: 'heading', text: md[1]! });
      } else if (LIST_ITEM.test(line)) {
        flush();
        if (!inList && !(out.at(-1)?.kind === 'item' && li === 0)) list++;
        inList = true;
        out.push({ kind: 'item', text: line, list });
      } else if (inList && paragraph.length === 0 && out.at(-1)?.kind === 'item') {
        // A wrapped list item's next line.
        const last = out.at(-1)!;
        last.text = `${last.text} ${line}`;
      } else {
        // A line alone before the next paragraph, or the first line of a paragraph whose next line starts anew
        // ("PCI (internal) wireless adapter" above "Internal PCI adapters are…"), reads as a heading when short.
        const alone = lines.length === 1 && ci < chunks.length - 1;
        const leading = li === 0 && lines.length > 1 && /^[A-Z0-9"“]/.test(lines[1]!);
        if ((alone || leading) && plainHeading(line)) out.push({ kind: 'heading', text: line });
        else paragraph.push(line);
        inList = false;
      }
    });
    flush();
  });
  return out;
}

const sentencesOf = (text: string) => text.match(/[^.!?]+(?:[.!?]+["'”’)]*|$)\s*/g)?.map((s) => s.trim()).filter(Boolean) ?? [text];

/**
 * The article's answer to the query: its best-matching paragraph (the best few sentences of a long
 * one), or the whole list of steps it belongs to with the sentence introducing them, under the
 * heading of its section. With no word in common (ranked by meaning), the article's opening.
 */
export function answerExcerpt(article: PreparedArticle, query: readonly QueryTerm[], index: KnowledgeIndex, message: string): Excerpt {
  const blocks = blocksOf(article.doc.body);
  const weight = new Map(query.map((q) => [q.term, q.weight * index.idf(q.term)]));
  const score = (text: string) => [...new Set(terms(foldPhrases(text)))].reduce((n, t) => n + (weight.get(t) ?? 0), 0);
  let best = -1;
  let bestScore = 0;
  blocks.forEach((b, i) => {
    if (b.kind === 'heading') return;
    const s = score(b.text);
    if (s > bestScore) {
      best = i;
      bestScore = s;
    }
  });
  // Asked how to do something, the steps answer it when they match nearly as well as the best paragraph.
  if (ASKS_HOW.test(message) && blocks[best]?.kind !== 'item') {
    const lists = new Map<number, number[]>();
    blocks.forEach((b, i) => b.kind === 'item' && lists.set(b.list, [...(lists.get(b.list) ?? []), i]));
    for (const items of lists.values()) {
      const before = blocks[items[0]! - 1];
      const s = score([before?.kind === 'paragraph' ? before.text : '', ...items.map((i) => blocks[i]!.text)].join(' '));
      if (s > 0 && s >= bestScore * 0.6) {
        best = items.reduce((a, i) => (score(blocks[i]!.text) > score(blocks[a]!.text) ? i : a), items[0]!);
        break;
      }
    }
  }
  if (best < 0) best = blocks.findIndex((b) => b.kind !== 'heading');
  if (best < 0) return { heading: null, text: article.doc.body.trim() };
  let heading: string | null = null;
  for (let i = best - 1; i >= 0; i--) {
    const b = blocks[i]!;
    if (b.kind === 'heading') {
      heading = b.text;
      break;
    }
  }
  if (heading && heading.trim().toLowerCase() === article.doc.title.trim().toLowerCase()) heading = null;

  const chosen = blocks[best]!;
  let parts: string[];
  if (chosen.kind === 'item') {
    const items = blocks.flatMap((b, i) => (b.kind === 'item' && b.list === chosen.list ? [i] : []));
    let from = items[0]!;
    let to = items.at(-1)!;
    if (items.length > LONG_LIST) {
      const at = items.indexOf(best);
      from = items[Math.max(0, at - 2)]!;
      to = items[Math.min(items.length - 1, at + 2)]!;
    }
    parts = blocks.slice(from, to + 1).map((b) => b.text);
    // The sentence that introduces the steps ("To reset it:") comes with them.
    const before = blocks[items[0]! - 1];
    if (from === items[0] && before?.kind === 'paragraph' && (before.text.endsWith(':') || before.text.split(/\s+/).length <= 30)) {
      parts = [lastSentences(before.text, 2), parts.join('\n')];
    } else {
      parts = [parts.join('\n')];
    }
  } else {
    parts = [bestSentences(chosen.text, score)];
    // "Do this:" followed by the steps.
    const next = blocks[best + 1];
    if (chosen.text.endsWith(':') && next?.kind === 'item') {
      parts.push(blocks.filter((b) => b.kind === 'item' && b.list === next.list).slice(0, LONG_LIST).map((b) => b.text).join('\n'));
    }
  }
  return { heading, text: parts.join('\n\n') };
}

function lastSentences(text: string, n: number) {
  return sentencesOf(text).slice(-n).join(' ');
}

/** A short paragraph whole; of a long one, the run of SENTENCES sentences that matches best (ties: earliest). */
function bestSentences(text: string, score: (t: string) => number) {
  if (text.split(/\s+/).length <= LONG_PARAGRAPH) return text;
  const sentences = sentencesOf(text);
  let at = 0;
  let top = -1;
  for (let i = 0; i + Math.min(SENTENCES, sentences.length) <= sentences.length; i++) {
    const s = score(sentences.slice(i, i + SENTENCES).join(' '));
    if (s > top) {
      top = s;
      at = i;
    }
  }
  return sentences.slice(at, at + SENTENCES).join(' ');
}

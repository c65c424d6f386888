import { splitPassages } from '../knowledge-index.js';

/** Words of a passage embedded at most: the sentence encoder reads short texts best. */
const PASSAGE_WORDS = 100;
/** Texts embedded of one article at most (its title and first 99 passages, about 10,000 words): a longer article's tail is ranked lexically. */
export const MAX_TEXTS = 100;

/**
 * The texts an article is embedded as: its title, then each passage of at most PASSAGE_WORDS words
 * with the title before it (a passage's "it" is the article's subject). Its cosine to a message is
 * the best of theirs.
 */
export function articleTexts(article: { title: string; body: string }): string[] {
  const out = [article.title];
  for (const passage of splitPassages(article.body)) {
    if (out.length >= MAX_TEXTS) break;
    const words = passage.split(/\s+/).filter(Boolean);
    for (let i = 0; i < words.length; i += PASSAGE_WORDS) out.push(`${article.title}. ${words.slice(i, i + PASSAGE_WORDS).join(' ')}`);
  }
  return out.slice(0, MAX_TEXTS);
}

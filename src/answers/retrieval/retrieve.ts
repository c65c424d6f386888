import { isCommonEnglish, partOfSpeech } from './english.js';
import { type Features, measure } from './features.js';
import { blend, type PartialVectors, type SemanticQuery } from './semantic.js';
import { type KnowledgeIndex, type Passage, type PreparedArticle, type QueryTerm } from './knowledge-index.js';
import { foldPhrases, type Synonyms, synonymsOf } from './synonyms.js';
import { contentWords, frequencies, misspeltStopWord, normalize, plainDegree, stemWord, terms } from './text.js';

export interface RetrievalInput {
  message: string;
  /** Earlier messages of the customer in this conversation, oldest first. */
  context?: string[] | undefined;
  /** Text read from the message's attachments (PDFs), used for this answer only. */
  attachmentText?: string | undefined;
  /** The other stems of a stem's synonym groups: the general ones and the agent's own (synonymLookup). */
  synonyms?: Synonyms | undefined;
}

/** Weights of the parts of a query; tuned on the evaluation's tuning half (npm run eval). */
export interface QueryParams {
  typoWeight: number;
  synonymWeight: number;
  /** Earlier messages' terms when the message reads like a follow-up ("and on android?"). */
  followUpContextWeight: number;
  /** Earlier messages' terms otherwise. */
  contextWeight: number;
  /** The attachment's words (PDF text), among the message's own; 0.6 chosen on the evaluation's attachment messages (0.3, 0.6, 1). */
  attachmentWeight: number;
  attachmentTerms: number;
  /** Sentences around the question ("hi there! we moved from another tool last week…"). */
  chatterWeight: number;
  /** Share of the cosine in the blended ranking when vectors are at hand (semantic.ts); chosen by leaving each base out. */
  semanticWeight: number;
  /** How the ranking blends while some articles lack vectors (semantic.ts, PartialVectors). */
  partialVectors: PartialVectors;
}

export const DEFAULT_QUERY: QueryParams = {
  typoWeight: 0.8,
  synonymWeight: 0.35,
  followUpContextWeight: 0.6,
  contextWeight: 0.25,
  attachmentWeight: 0.6,
  attachmentTerms: 15,
  chatterWeight: 0.35,
  semanticWeight: 0.4,
  // Measured against `lexical` with `npm run eval -- --build` (eval/RESULTS.md): as good at every point of a build, better past a quarter.
  partialVectors: 'partition',
};

/** Words of a message that point at its attachment rather than say what it is about. */
export const POINTING_AT_ATTACHMENT = new Set(['attached', 'attach', 'attachment', 'attachments', 'screenshot', 'screenshots', 'screencap', 'pic', 'photo']);

/** Words of a message asking about its attachment without saying what it is about ("please look at the attached PDF, what should I do?"). */
const ASKING_ABOUT_ATTACHMENT = new Set([
  'see', 'look', 'check', 'read', 'find', 'please', 'pls', 'plz', 'help', 'pdf', 'file', 'files', 'document', 'doc', 'image', 'images',
  'picture', 'pictures', 'photo', 'photos', 'scan', 'page', 'pasted', 'below', 'above', 'here', 'mean', 'means', 'meaning', 'wrong',
  'happening', 'happened', 'fix', 'solve', 'problem', 'issue', 'error', 'message', 'get', 'getting', 'got', 'keep', 'keeps', 'showing',
  'shows', 'show', 'says', 'say', 'said', 'want', 'wants', 'tell', 'explain', 'idea', 'ideas', 'thanks', 'thank', 'hi', 'hello', 'hey',
  'now', 'next', 'anyone', 'someone', 'know', 'understand', 'sent', 'send', 'sending', 'included', 'include', 'enclosed', 'appears',
  'appear', 'popped', 'pops', 'pop', 'up', 'came', 'comes', 'seeing', 'thing', 'stuff', 'supposed', 'question', 'answer',
  // How people hand over a question in a file ("kindly refer to the enclosed document", "details in the attached PDF").
  'questions', 'query', 'queries', 'request', 'requests', 'concern', 'concerns', 'kindly', 'refer', 'referring', 'enclosed',
  'enclose', 'attaching', 'documents', 'details', 'detail', 'described', 'describe', 'describes', 'describing', 'explained',
  'explains', 'explaining', 'written', 'wrote', 'write', 'listed', 'inside', 'contains', 'contained', 'review', 'advise',
  'advice', 'assist', 'assistance', 'support', 'back', 'dear', 'regards', 'everything', 'info', 'information', 'attention',
  'soon', 'possible', 'asap', 'urgent', 'appreciate', 'appreciated', 'grateful', 'team',
]);

/** A closing at the end of a message ("Regards, John", "Thanks, Ana Li"): the name in it is nobody's question. */
const SIGN_OFF = /\b([Rr]egards|[Tt]hanks|[Tt]hank you|[Cc]heers|[Bb]est|[Ss]incerely|BR)(\s*,\s*|\s*\n\s*)[A-Z][\p{L}'-]*(\s+[A-Z][\p{L}'-]*)?\s*[.!]?\s*$/u;

/**
 * The message only points at its attachments ("see the attached screenshot, what does it mean?"): the
 * attachments' text is then the question, for ranking and for the decision. Its words are all words that point
 * or ask, a closing's name aside; with `topical` (whether a word could be what the question is about), a word
 * that could not ("kindly", "advise": the knowledge never uses it, and it names no thing) counts as one too. A
 * noun the knowledge lacks ("my gym membership, see attached") is a topic of the message's own, and stays one.
 */
export function onlyPointsAtAttachment(message: string, topical?: (word: string) => boolean): boolean {
  return contentWords(foldPhrases(message.replace(SIGN_OFF, ''))).every(
    (w) => POINTING_AT_ATTACHMENT.has(w) || ASKING_ABOUT_ATTACHMENT.has(w) || (topical !== undefined && !topical(w)),
  );
}

const ASKING = /\?|\b(how|what|where|when|why|which|who|can|could|would|will|is|are|does|do|did|should|need|needs|want|wants|help|cannot|can't|cant|unable|won't|doesn't|isn't|not|problem|error|issue|please)\b/i;

/**
 * The message's sentences, each with a weight: those that ask or describe a problem count fully,
 * the greetings and context around them less. A message with one sentence, or none that asks,
 * counts fully.
 */
export function weighSentences(message: string, chatterWeight: number): { text: string; weight: number }[] {
  const sentences = message.split(/(?<=[.!?])\s+|\n+/).map((t) => t.trim()).filter(Boolean);
  if (sentences.length <= 1) return [{ text: message, weight: 1 }];
  const asking = sentences.map((t) => ASKING.test(t));
  if (!asking.some(Boolean)) return sentences.map((text) => ({ text, weight: 1 }));
  return sentences.map((text, i) => ({ text, weight: asking[i] ? 1 : chatterWeight }));
}

/**
 * The lines of an attachment whose words the knowledge all uses (at least two content words each): a dialog's or
 * an error's own text stays; log prefixes, paths, sizes, dates and REPL banners, whose words it never uses, go. The
 * whole text when no line qualifies.
 */
export function knownLines(index: KnowledgeIndex, text: string): string {
  const lines = text.split(/\r?\n/).filter((line) => {
    const stems = terms(foldPhrases(line));
    return stems.length >= 2 && stems.every((t) => index.has(t));
  });
  return lines.length ? lines.join('\n') : text;
}

export interface Query {
  terms: QueryTerm[];
  /** The message's own terms (after typo correction), which the features judge. */
  own: QueryTerm[];
  /** Share of the message's own words the knowledge has never seen, even allowing a typo or a synonym. */
  unknownShare: number;
  /** The part of that share made of words that are nouns in general English (see Features.unknownNouns). */
  unknownNounShare: number;
}

/** Short messages that lean on the previous one: "and on android?", "what about the old version". */
export function looksLikeFollowUp(message: string): boolean {
  const words = contentWords(message);
  if (words.length <= 3) return true;
  return /^\s*(and|also|what about|how about|same|ok(ay)? (and|so|but)|but|then|does (it|that|this)|is (it|that|this)|can (it|i do that)|what if|in that case|and if)\b/i.test(message);
}

/** The weighted terms to search for: the message's words, corrected, expanded, with the thread's context. */
export function buildQuery(index: KnowledgeIndex, input: RetrievalInput, params: QueryParams = DEFAULT_QUERY): Query {
  const synonyms = input.synonyms ?? synonymsOf;
  const weights = new Map<string, number>();
  const put = (term: string, weight: number) => {
    if (weight > (weights.get(term) ?? 0)) weights.set(term, weight);
  };

  const ownWeights = new Map<string, number>();
  const own = (term: string, weight: number) => ownWeights.set(term, Math.max(ownWeights.get(term) ?? 0, weight));
  let unknown = 0;
  let unknownNouns = 0;
  let count = 0;
  // A message that only points at its attachment ("see the attached, what should I do?") asks what the attachment
  // says: its words are the question (below), and the message's own ask nothing the knowledge could lack.
  // A word could be the question's topic when the knowledge has it or it names a thing.
  const topical = (word: string) => index.has(stemWord(word)) || partOfSpeech(word) === 'noun';
  const pointsOnly = input.attachmentText !== undefined && onlyPointsAtAttachment(input.message, topical);
  for (const { text, weight } of weighSentences(input.message, params.chatterWeight)) {
    for (const word of contentWords(foldPhrases(text))) {
      // "see the attached screenshot" points at the attachment, whose own words follow below.
      if (input.attachmentText && POINTING_AT_ATTACHMENT.has(word)) continue;
      // Nor do the words that made it a pointer only: those that ask, and those the knowledge has never seen.
      if (pointsOnly && (ASKING_ABOUT_ATTACHMENT.has(word) || !topical(word))) continue;
      count++;
      const stem = stemWord(word);
      if (index.has(stem)) {
        own(stem, weight);
        continue;
      }
      // "quickest" where the knowledge says "quick": the same word, in another degree (not a noun: "router", "scanner").
      const pos = partOfSpeech(word);
      const plain = pos === 'noun' || pos === 'verb' ? undefined : plainDegree(word).map(stemWord).find((s) => index.has(s));
      if (plain) {
        own(plain, weight);
        continue;
      }
      // Only a word that is not common English may be a typo: "seats" is not a misspelt "set", and
      // rewriting it into a word the knowledge has would hide that the knowledge never talks about seats.
      const common = isCommonEnglish(word);
      const corrected = common ? null : index.correct(word);
      if (corrected) {
        own(corrected, weight * params.typoWeight);
      } else if (!common && misspeltStopWord(word)) {
        // "dosnt", "becuase": a stop word misspelt says as little as the stop word.
        count--;
      } else {
        // A word the knowledge words differently ("stopwatch" for "timer") is not foreign to it.
        if (!synonyms(stem).some((s) => index.has(s))) {
          unknown += weight;
          if (partOfSpeech(word) === 'noun') unknownNouns += weight;
        }
        own(stem, weight);
      }
    }
  }
  if (input.attachmentText) {
    // Read as the question when the message says nothing else; else among the message's own words, for less.
    const weight = pointsOnly ? 1 : params.attachmentWeight;
    // The attachment's most telling words the knowledge knows (an error's name, a dialog's title) join the
    // message's own: they are the customer's too, and often all there is ("what does this mean? see attached").
    const tf = frequencies(terms(foldPhrases(knownLines(index, input.attachmentText))).filter((t) => index.has(t)));
    const ranked = [...tf].sort((a, b) => b[1] * index.idf(b[0]) - a[1] * index.idf(a[0]));
    for (const [term] of ranked.slice(0, params.attachmentTerms)) {
      if (!ownWeights.has(term)) own(term, weight);
    }
  }
  for (const [term, weight] of ownWeights) put(term, weight);
  for (const [term, weight] of ownWeights) {
    for (const synonym of synonyms(term)) if (index.has(synonym)) put(synonym, weight * params.synonymWeight);
  }

  if (input.context?.length) {
    const weight = looksLikeFollowUp(input.message) ? params.followUpContextWeight : params.contextWeight;
    // The latest earlier message counts fully, older ones half.
    input.context.slice(-2).reverse().forEach((text, age) => {
      for (const term of terms(foldPhrases(text))) if (index.has(term)) put(term, weight / (age + 1));
    });
  }

  return {
    terms: [...weights].map(([term, weight]) => ({ term, weight })),
    own: [...ownWeights].map(([term, weight]) => ({ term, weight })),
    // A message that only points at its attachment ("see attached") has no words of its own to be unknown.
    unknownShare: count ? unknown / count : ownWeights.size ? 0 : 1,
    unknownNounShare: count ? unknownNouns / count : 0,
  };
}

export interface Candidate {
  article: PreparedArticle;
  /** What ranks it: the blend of its lexical share and its cosine (semantic.ts). */
  score: number;
  /** Without confirmed phrasings (see Hit.textScore). */
  textScore: number;
  /** Its lexical score over the query's best possible one (0-1). */
  lexical: number;
  /** Its best cosine to the message (its lexical share without vectors). */
  cosine: number;
}

export type { Features } from './features.js';

export interface Retrieval {
  query: Query;
  candidates: Candidate[];
  features: Features;
  /** The first candidate is first neither by the message's words nor by its meaning (semantic.ts, isCompromise). */
  compromise: boolean;
}

/** Searches the index and measures how well the best article covers the message. */
export function retrieve(index: KnowledgeIndex, input: RetrievalInput, params: QueryParams = DEFAULT_QUERY, limit = 10, semantic?: SemanticQuery): Retrieval {
  const query = buildQuery(index, input, params);
  const result = index.search(query.terms, semantic ? Math.max(limit, 20) : limit);
  const { ranked, compromise } = blend(index, result, semantic, params.semanticWeight, limit, params.partialVectors);
  const candidates = ranked.map((b) => ({ article: index.articles[b.index]!, score: b.score, textScore: b.textScore, lexical: b.lexical, cosine: b.cosine }));
  const features = measure({ index, synonyms: input.synonyms ?? synonymsOf, own: query.own, unknownShare: query.unknownShare, unknownNounShare: query.unknownNounShare, candidates, maxPossible: result.maxPossible, text: normalize(input.message) });
  return { query, candidates, features, compromise };
}

/**
 * A follow-up read together with the message before it ("how do I export invoices?" then "and as CSV?"):
 * both as one question, ranked without other context. The decision takes this reading only where it is
 * the more confident one about the same best article, so a follow-up gains from the thread and a short
 * standalone question after an unrelated one loses nothing. Null without a thread.
 */
export function threadReading(index: KnowledgeIndex, input: RetrievalInput, params: QueryParams = DEFAULT_QUERY, semantic?: SemanticQuery): Retrieval | null {
  const text = threadText(input);
  if (!text) return null;
  return retrieve(index, { message: text, attachmentText: input.attachmentText, synonyms: input.synonyms }, params, 10, semantic);
}

/** The text threadReading reads: the earlier message and this one as one; null without a thread. */
export function threadText(input: RetrievalInput): string | null {
  const before = input.context?.at(-1);
  return before ? `${before}\n${input.message}` : null;
}

/** The article's passages that best match the query, best first (ties: earlier first). */
export function bestPassages(article: PreparedArticle, query: QueryTerm[], index: KnowledgeIndex, n = 1): Passage[] {
  const scored = article.passages.map((passage, i) => {
    let score = 0;
    for (const { term, weight } of query) if (passage.terms.has(term)) score += weight * index.idf(term);
    return { passage, score, i };
  });
  scored.sort((a, b) => b.score - a.score || a.i - b.i);
  return scored.slice(0, n).map((s) => s.passage);
}

import { type Generator } from './generators/generator.js';
import { answerExcerpt } from './retrieval/excerpt.js';
import { confidenceOf, type DecisionModel, DEFAULT_MODEL, probability } from './decision/decide.js';
import { type Pleasantry, pleasantry } from './decision/intents.js';
import { handOverReason, type NeedsHumanReason } from './decision/needs-human.js';
import { synonymLookup } from './retrieval/synonyms.js';
import { normalize } from './retrieval/text.js';
import type { KnowledgeIndex } from './retrieval/knowledge-index.js';
import type { SemanticOptions, SemanticQuery } from './retrieval/semantic.js';
import { bestPassages, type Candidate, DEFAULT_QUERY, type Features, type QueryParams, type Retrieval, type RetrievalInput, looksLikeFollowUp, onlyPointsAtAttachment, retrieve, threadReading, threadText } from './retrieval/retrieve.js';

export type { NeedsHumanReason } from './decision/needs-human.js';

export interface AgentSettings {
  name: string;
  fallbackMessage: string;
  referralText: string;
  attachmentFallback: 'answer' | 'needs_human';
  /** The agent's own synonym groups (single words), on top of the general ones. */
  synonyms?: readonly (readonly string[])[] | undefined;
  /** Topics always handed to a person. */
  handoffTopics?: readonly string[] | undefined;
}

export interface Source {
  externalId: string;
  title: string;
  /** In [0, 1]: the top source's is the estimated probability that it answers the message. */
  score: number;
}

export interface ComposedAnswer {
  message: string;
  sources: Source[];
  needsHuman: boolean;
  confidence: 'high' | 'medium' | 'low';
  reason: NeedsHumanReason | null;
  /** Every article retrieval ranked, best first (the evaluation measures recall on it). */
  ranking: string[];
  /** What the decision weighed (null: nothing retrieved): kept with the turn, so staff feedback can refit the decision. */
  features: Features | null;
}

export interface ComposeOptions {
  index: KnowledgeIndex;
  message: string;
  /** Earlier turns of the conversation, oldest first. */
  thread: { question: string; reply: string }[];
  agent: AgentSettings;
  generator: Generator;
  attachmentText?: string | undefined;
  images?: { mime: string; base64: string }[];
  /** How many files came with the message, whatever their type (default: none). */
  attachmentCount?: number;
  /** Some attachment was an image or PDF, and none could be read. */
  attachmentsUnreadable?: boolean;
  /** An earlier turn of the conversation needed a human. */
  conversationNeedsHuman?: boolean;
  model?: DecisionModel;
  queryParams?: QueryParams;
  /** Semantic ranking: the knowledge's vectors and a way to embed the message; absent, ranking is lexical. */
  semantic?: SemanticOptions | undefined;
  /**
   * Messages staff confirmed near this one in words, nearest first (decision/confirmed-answers.ts). The first that
   * applies decides: a hand-off (externalId null) hands over (`reason: staff_handoff`); an answer applies when its
   * article is the one this message's ranking puts first with a word of the message in its own text, or its words are
   * the message's (`same`), and the message is then answered from it whatever the decision says. The customer's own request for a person, a hand-off topic and
   * an unreadable attachment still hand over first.
   */
  confirmed?: readonly { externalId: string | null; same: boolean }[] | undefined;
}

export type { SemanticOptions } from './retrieval/semantic.js';

/** Sources cited: at most this many, each scoring at least this share of the best one. */
const MAX_SOURCES = 3;
const MIN_RELATIVE = 0.5;

/** The top source's score of a confirmed answer at least: staff said this article answers a message like this one. */
const CONFIRMED_P = 0.95;

/** A cosine from which an article is about the message even without a word in common (Universal Sentence Encoder Lite: related texts score 0.5-0.8, unrelated 0.0-0.35). */
const SEMANTIC_RELEVANT = 0.5;

const round = (n: number) => Math.round(n * 1000) / 1000;

/** Said after the fallback message when a hand-off carries sources: they are a starting point, not the answer. */
function handOffLine(cited: Candidate[]): string {
  const titles = cited.map((c) => (c.article.doc.url ? `"${c.article.doc.title}" (${c.article.doc.url})` : `"${c.article.doc.title}"`));
  return `I am passing this to a person. Meanwhile, these articles may be related: ${titles.join('; ')}.`;
}

/** The reply to a message made only of pleasantries: no article is looked up for "thanks!", and nobody is needed. */
const PLEASANTRY_REPLY: Record<Pleasantry, string> = {
  greeting: 'Hello! What can I help you with?',
  thanks: "You're welcome! If there is anything else, just ask.",
  goodbye: 'Thanks for getting in touch. Goodbye!',
};

const ASKING_FOR_MORE = /^\W*(how|where|when|and|then)\b/;
const SAYING_IT_FAILED = /\b(no|not|nothing|nope|still|same|again|didnt|doesnt|dont|wont|isnt|cant|tried|wrong|broken|fails?|failed)\b/;

/** A follow-up with no words of its own asking for more of the same answer: "how?", "where is it?", not "no", "still the same". */
function asksForMore(message: string, retrieval: Retrieval): boolean {
  const text = normalize(message).replace(/['’`]/g, '');
  return retrieval.query.own.length === 0 && ASKING_FOR_MORE.test(text) && !SAYING_IT_FAILED.test(text);
}

/**
 * How sure the decision is reading the message with the one before it (threadReading), when that reading's
 * best article is the one ranked first and holds one of the message's own key words (or the message asks for more:
 * asksForMore), and the features it weighed; null when the thread adds nothing.
 */
function threadReadingDecision(retrieval: Retrieval, input: RetrievalInput, options: ComposeOptions, model: DecisionModel, semantic: SemanticQuery | undefined): { p: number; features: Features; compromise: boolean } | null {
  const best = retrieval.candidates[0]?.article.doc.externalId;
  // The message must say something the article says: its key words (its rarest) found in it. Otherwise the earlier
  // message's words alone make any next message look covered: "who made this feature?", "is it secure?", or "no,
  // that's not it" after an answered question was answered again from the same article. A message with no words of
  // its own that asks for more ("how?", "where is it?", "and then?") has only the thread to go on.
  if (!best || (retrieval.features.keyCoverage === 0 && !asksForMore(input.message, retrieval))) return null;
  const reading = threadReading(options.index, input, options.queryParams ?? DEFAULT_QUERY, semantic);
  const top = reading?.candidates[0]?.article.doc.externalId;
  if (!reading || !top || top !== best) return null;
  // What this message brings that the knowledge lacks ("is NordVPN any good?" after a VPN question) is not
  // diluted by the earlier message's words: only how well the article covers the two together is the thread's.
  const own = retrieval.features;
  const features = { ...reading.features, unknownShare: own.unknownShare, unknownNouns: own.unknownNouns, capabilityGap: own.capabilityGap };
  return { p: probability(features, model), features, compromise: reading.compromise };
}

/** The message's vectors for its two readings (alone, and with the message before it), when semantic ranking is on. */
async function semanticQueries(options: ComposeOptions, input: RetrievalInput): Promise<[SemanticQuery | undefined, SemanticQuery | undefined]> {
  const semantic = options.semantic;
  if (!semantic || semantic.vectors.size === 0) return [undefined, undefined];
  const thread = threadText(input);
  const texts = [semanticText(input.message, input.attachmentText), ...(thread ? [semanticText(thread, input.attachmentText)] : [])];
  const vectors = await semantic.embed(texts);
  const query = (v: Float32Array | null | undefined) => (v ? { vector: v, vectors: semantic.vectors } : undefined);
  // A follow-up ("and on android?") means little alone: its meaning is the thread's, for both readings.
  if (thread && looksLikeFollowUp(input.message)) return [query(vectors[1] ?? vectors[0]), query(vectors[1])];
  return [query(vectors[0]), query(vectors[1])];
}

/**
 * Whether the best article is too unsure a match to answer from (retrieval's `compromise`), unless staff confirmed
 * it for a message worded like this one: at least half of the message's own words (by weight) are in the article's
 * confirmed phrasings. A "should have answered" verdict then takes effect for the same question asked again.
 */
function unclearMatch(compromise: boolean, retrieval: Retrieval): boolean {
  const first = retrieval.candidates[0]?.article;
  if (!compromise || !first) return false;
  const own = retrieval.query.own;
  const total = own.reduce((n, t) => n + t.weight, 0);
  const confirmed = own.filter((t) => first.phraseTf.has(t.term)).reduce((n, t) => n + t.weight, 0);
  return !(total > 0 && confirmed / total >= 0.5);
}

/** What is embedded of a message: its text and the start of what its attachments say; for one that only points at them, theirs alone. */
export function semanticText(message: string, attachmentText: string | undefined): string {
  if (!attachmentText) return message;
  // A message that only points at its attachment ("see attached") is the attachment's text.
  return onlyPointsAtAttachment(message) ? attachmentText.slice(0, 500) : `${message}\n${attachmentText.slice(0, 300)}`;
}

/**
 * The agent's answer to one message: retrieval, the decision whether the knowledge answers it,
 * and the generator's reply. Pure: no database; the caller loads and stores.
 */
export async function composeAnswer(options: ComposeOptions): Promise<ComposedAnswer> {
  const { index, agent, model = DEFAULT_MODEL } = options;
  // With an attachment, even "thanks" may be showing something ("thanks, but now this": a screenshot).
  const attached = Boolean(options.attachmentCount || options.attachmentText || options.images?.length || options.attachmentsUnreadable);
  const courtesy = attached ? null : pleasantry(options.message, [agent.name]);
  if (courtesy) {
    // A conversation already with a person stays with them; the reply cites nothing, since nothing was asked.
    const waiting = options.conversationNeedsHuman === true;
    return { message: PLEASANTRY_REPLY[courtesy], sources: [], needsHuman: waiting, confidence: waiting ? 'low' : 'high', reason: waiting ? 'earlier_turn' : null, ranking: [], features: null };
  }
  // One input for both readings: the agent's synonym lookup is built once per answer.
  const input: RetrievalInput = {
    message: options.message,
    context: options.thread.map((t) => t.question),
    attachmentText: options.attachmentText,
    synonyms: synonymLookup(agent.synonyms ?? []),
  };
  const [own, threaded] = await semanticQueries(options, input);
  const retrieval = retrieve(index, input, options.queryParams ?? DEFAULT_QUERY, 10, own);
  const alone = retrieval.candidates.length ? probability(retrieval.features, model) : 0;
  const thread = threadReadingDecision(retrieval, input, options, model, threaded);
  // A confirmed answer applies to a message with other words only where its article is first for the message and its
  // own text (phrasings left out) shares a word with it: a long confirmed message must not make its article answer
  // a few of its words that the article does not cover (decision/confirmed-match.ts).
  const first = retrieval.candidates[0];
  const firstRanked = first && first.textScore > 0 ? first.article.doc.externalId : undefined;
  const confirmed = options.confirmed?.find((c) => c.externalId === null || c.same || c.externalId === firstRanked);
  // A confirmed answer puts its article first (in the sources and in the ranking kept with the turn).
  const confirmedArticle = confirmed?.externalId ? index.articles.find((a) => a.doc.externalId === confirmed.externalId) : undefined;
  const p = Math.max(alone, thread?.p ?? 0, confirmedArticle ? CONFIRMED_P : 0);
  // Kept with the turn: the features of the reading that decided, which a staff verdict refits on.
  const byThread = thread !== null && thread.p > alone;
  const features = byThread ? thread.features : retrieval.candidates.length ? retrieval.features : null;
  const top = retrieval.candidates[0]?.score ?? 0;
  let cited = retrieval.candidates.filter((c) => c.score >= top * MIN_RELATIVE).slice(0, MAX_SOURCES);
  let ranking = retrieval.candidates.map((c) => c.article.doc.externalId);
  if (confirmedArticle) {
    const id = confirmedArticle.doc.externalId;
    const own = retrieval.candidates.find((c) => c.article === confirmedArticle) ?? { article: confirmedArticle, score: top, textScore: 0, lexical: 0, cosine: 0 };
    cited = [{ ...own, score: Math.max(own.score, top) }, ...cited.filter((c) => c.article !== confirmedArticle)].slice(0, MAX_SOURCES);
    ranking = [id, ...ranking.filter((x) => x !== id)];
  }
  const citedTop = cited[0]?.score ?? top;
  const sources = cited.map((c) => ({ externalId: c.article.doc.externalId, title: c.article.doc.title, score: round(citedTop > 0 ? (p * c.score) / citedTop : 0) }));

  const human = (reason: NeedsHumanReason): ComposedAnswer => {
    // The passages the message was weighed against go with the hand-off, so the person taking over (and the
    // caller) start from them, unless the best shares no word with the message itself, nor with a message staff
    // confirmed it answers (nothing relevant: it matched only through the thread or a synonym). An unreadable
    // attachment hands over before the message is weighed at all.
    const best = retrieval.candidates[0];
    const first = best?.article;
    // Ranked by meaning, an article sharing no word with the message is still relevant when it is near enough in meaning.
    const near = own !== undefined && best !== undefined && best.cosine >= SEMANTIC_RELEVANT;
    const relevant = retrieval.features.coverage > 0 || near || (first !== undefined && retrieval.query.own.some((t) => first.phraseTf.has(t.term)));
    const handed = reason !== 'attachment_unreadable' && relevant ? sources : [];
    const parts = [agent.fallbackMessage, agent.referralText, handed.length ? handOffLine(cited) : ''];
    return { message: parts.filter(Boolean).join('\n\n'), sources: handed, needsHuman: true, confidence: 'low', reason, ranking, features };
  };

  const rules = { message: options.message, handoffTopics: agent.handoffTopics ?? [], attachmentsUnreadable: options.attachmentsUnreadable === true, attachmentFallback: agent.attachmentFallback, model };
  // Confirmed by staff: the decision is not asked (its p and the unclear-match rule), the rules before it still are.
  const handOver = confirmed
    ? (handOverReason({ ...rules, p: 1, compromise: false }) ?? (confirmedArticle ? null : 'staff_handoff'))
    : handOverReason({ ...rules, p, compromise: unclearMatch(byThread ? thread.compromise : retrieval.compromise, retrieval) });
  if (handOver) return human(handOver);
  // Every candidate scored at or below 0 (no word in common, meaning opposite): nothing to reply from.
  if (!cited.length) return human('no_knowledge');

  const generation = await options.generator.generate({
    message: options.message,
    thread: options.thread,
    sources: cited.map((c) => ({
      externalId: c.article.doc.externalId,
      title: c.article.doc.title,
      url: c.article.doc.url,
      passages: bestPassages(c.article, retrieval.query.terms, index, 1).map((ps) => ps.text),
      excerpt: answerExcerpt(c.article, retrieval.query.terms, index, options.message),
    })),
    attachmentText: options.attachmentText,
    images: options.images ?? [],
    agentName: agent.name,
  });
  if (!generation.covered) return human('not_covered');

  if (options.conversationNeedsHuman) {
    // The thread already went to a person: answer, but do not let the client think it is settled.
    return { message: generation.message, sources, needsHuman: true, confidence: 'low', reason: 'earlier_turn', ranking, features };
  }
  return { message: generation.message, sources, needsHuman: false, confidence: confidenceOf(p, model), reason: null, ranking, features };
}

import { z } from 'zod';
import { text } from '../platform/schemas.js';
import { agentName, attachmentFallback, articleFields, articleInput, confidence, externalId, fallbackMessage, referralText, source } from './schemas.js';

/** Schemas of the support console's backend (/agent, session cookie). */

export const agent = z
  .object({
    id: z.string().describe('Agent id (agt_…).'),
    name: z.string(),
    published: z.boolean().describe('Only published agents answer.'),
    default: z.boolean().describe('Answers calls that name no agent, and tickets. One per workspace.'),
    fallbackMessage: z.string().describe('The reply when a human is needed.'),
    referralText: z.string().describe('Appended to the fallback reply.'),
    attachmentFallback: z.enum(['answer', 'needs_human']),
    synonyms: z.array(z.array(z.string())).describe('This product\'s synonym groups: a message with one word of a group also looks for the others.'),
    handoffTopics: z.array(z.string()).describe('A message naming one of these is handed to a person (`reason: handoff_topic`).'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .describe('Agent');

const synonyms = z
  .array(
    z
      .array(z.string().trim().min(1, { message: 'a word cannot be empty' }).max(40).regex(/^[\p{L}\p{N}]+$/u, { message: 'one word each, of letters and digits' }))
      .min(2, { message: 'a group needs at least two words' })
      .max(10, { message: 'at most 10 words per group' }),
  )
  .max(100, { message: 'at most 100 groups' })
  .describe(
    'Words customers use for the same thing in this product, one group each, single words: `[["seat", "licence"], ["timer", "stopwatch"]]`. ' +
      'A message with one word of a group also looks for the others (at a lower weight), and a word the knowledge has only as its synonym is not unknown. ' +
      'General synonyms ("invoice"/"bill", "log in"/"sign in", …) are built in; these are for what holds only for your product.',
  );
const handoffTopics = z
  .array(
    text()
      .trim()
      .min(1, { message: 'a topic cannot be empty' })
      .max(100)
      .regex(/[\p{L}\p{N}]/u, { message: 'a topic needs a letter or a digit' }),
  )
  .max(50, { message: 'at most 50 topics' })
  .describe(
    'Words or phrases that always hand the message to a person: `["refund", "legal notice"]`. A message names one when it has its words in a row, ' +
      'each in any form and case ("Refunds", "legal notices"); in a script written without spaces (Chinese, Japanese, Thai…), its characters in a row.',
  );

export const agentCreate = z.strictObject({
  name: agentName,
  published: z.boolean().optional().describe('Default true.'),
  default: z.boolean().optional().describe('Make it the default agent (the first agent of a workspace is).'),
  fallbackMessage: fallbackMessage.optional(),
  referralText: referralText.optional(),
  attachmentFallback: attachmentFallback.optional(),
  synonyms: synonyms.optional(),
  handoffTopics: handoffTopics.optional(),
});

export const agentUpdate = z.strictObject({
  name: agentName.optional(),
  published: z.boolean().optional(),
  default: z.literal(true, { message: 'can only be set to true (make another agent the default to change it)' }).optional()
    .describe('true makes this agent the default; the previous default stops being it.'),
  fallbackMessage: fallbackMessage.optional(),
  referralText: referralText.optional(),
  attachmentFallback: attachmentFallback.optional(),
  synonyms: synonyms.optional(),
  handoffTopics: handoffTopics.optional(),
});

export const answerKey = z
  .object({
    id: z.number().int(),
    name: z.string(),
    prefix: z.string().describe('"ans_" and the first 6 characters of the token.'),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable().describe('To the minute; may lag up to a minute.'),
    revokedAt: z.string().nullable(),
  })
  .describe('AnswerKey');

export const article = z
  .object({
    externalId: z.string(),
    title: z.string(),
    body: z.string(),
    url: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .describe('Article');

export const articleBody = z.strictObject(articleFields);
export const articleCreate = z.strictObject({
  /** Optional: left out (or empty), the server generates one (`art_…`) and returns it. */
  externalId: z
    .preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), externalId.optional())
    .describe('Your identifier of the article (unique per workspace). Leave it out, or empty, and the server generates one (`art_` and 16 letters and digits), returned in the response; an externalId the workspace already has is 409 (PUT replaces an article).'),
  ...articleFields,
});
export const articleImportBody = z.strictObject({
  articles: z.array(articleInput).max(10_000, { message: 'at most 10000 articles per import' }).describe('The CLI\'s import format.'),
  dryRun: z.boolean().optional().describe('Only count what would be created and updated.'),
});

export const verdict = z
  .enum(['right', 'wrong', 'needs_human', 'should_answer'])
  .describe(
    'right: the answer (or the hand-off) was right; wrong: another article answers it (`articleId`); needs_human: it should have gone to a person; ' +
      'should_answer: it was handed over, but its first source was right — it should have answered (only on a handed-over turn that cited an article).',
  );

/** Whether the decision learns from a verdict, and why not. */
const counting = {
  counts: z
    .boolean()
    .describe(
      'Whether the needs_human decision learns from this verdict. false: a turn handed over before the decision was asked (a request for a person, ' +
        'a hand-off topic, an account action, an unreadable file), a turn without stored features, or a `wrong` verdict whose named article does ' +
        'not rank first for the message with the knowledge as it is now (that verdict only adds the message as a phrasing of the article).',
    ),
  why: z.string().nullable().describe('Why it does not count, in a sentence; null when it counts.'),
};

export const turnFeedback = z
  .object({
    verdict,
    articleId: z.string().nullable().describe('The article that answers the message: the one named with `wrong`, else null.'),
    ...counting,
    by: z.string().nullable().describe('Who gave it (null once their account is gone).'),
    updatedAt: z.string(),
  })
  .describe('TurnFeedback');

export const feedbackBody = z.strictObject({
  verdict,
  articleId: externalId.optional().describe('With `wrong` (and only then): the externalId of the article that answers the message.'),
});

const heldOutScore = z.object({
  balanced: z.number().describe('Balanced accuracy: the mean of the share of answerable messages answered and of the rest handed over.'),
  answeredWrongly: z.number().describe('The share of messages that should have gone to a person that were answered.'),
  logLoss: z.number().describe('Mean log loss of its probabilities (lower: surer where staff agreed, less sure where they did not).'),
});

export const learning = z
  .object({
    labels: z.number().int().describe('Verdicts the decision learns from (turns handed over for a request for a person or an unreadable file do not count).'),
    labelsNeeded: z.number().int().describe('Verdicts needed before the workspace gets a decision of its own.'),
    refitted: z.boolean().describe('The agent decides with the model refitted on these verdicts, not the global one.'),
    check: z
      .object({
        labels: z.number().int().describe('Verdicts the check was made on.'),
        fitted: heldOutScore.describe('The new fit, each verdict decided by a fit made without it (5 folds).'),
        previous: heldOutScore.describe('The model that was in use (the global one or the last refit), on the same verdicts.'),
        kept: z.enum(['fitted', 'previous']).describe('`fitted`: the new fit was better (balanced accuracy no lower, no more wrongly answered, and better in one of them or in log loss) and is used; `previous`: it was not, and the model in use stays.'),
      })
      .nullable()
      .describe('The last refit\'s check against the model in use, on verdicts the new fit was not fitted on; null before the first refit.'),
  })
  .describe('Learning');

export const feedbackResult = learning.extend({ turnId: z.number().int(), verdict, articleId: z.string().nullable(), ...counting }).describe('FeedbackResult');

export const confirmedAnswer = z
  .object({
    /** The turn the verdict was given on (DELETE /confirmed-answers/{turnId} removes it). */
    turnId: z.number().int().describe('The turn the verdict was given on (DELETE …/confirmed-answers/{turnId} removes it).'),
    conversationId: z.string().describe('The conversation of that turn.'),
    agentId: z.string().describe('The agent it applies to: the one that gave the turn.'),
    message: z.string().describe('The message staff confirmed; the same message, or one with nearly the same words, is answered as they said.'),
    verdict,
    answers: z.boolean().describe('True: such messages are answered from `article`; false: they are handed to a person (`reason: staff_handoff`).'),
    article: z.object({ externalId: z.string(), title: z.string() }).nullable().describe('The article that answers it; null for a confirmed hand-off.'),
    by: z.string().nullable().describe('Who gave the verdict (null once their account is deleted).'),
    at: z.string().describe('When (ISO 8601).'),
    status: z.enum(['active', 'article_changed']).describe('`active`: used; `article_changed`: the article was edited since and its text no longer holds any word of the message, so it is not used until the verdict is given again.'),
    why: z.string().nullable().describe('Why it is not used; null when active.'),
  })
  .describe('ConfirmedAnswer');

export const turn = z
  .object({
    id: z.number().int(),
    agentId: z.string(),
    channel: z.string().nullable(),
    question: z.string(),
    reply: z.string(),
    sources: z.array(source),
    confidence,
    needsHuman: z.boolean(),
    reason: z.string().nullable().describe('Why a human was needed: no_knowledge, unclear_match (the message\'s words and its meaning lead to different articles), not_covered, human_requested, account_action, handoff_topic (one of the agent\'s hand-off topics), attachment_unreadable, earlier_turn, staff_handoff (staff said a message like this one goes to a person).'),
    why: z.string().nullable().describe('The reason in a sentence that matches what happened ("The best match, \"Reset your password\" (0.55), was not close enough to answer on its own."); null when no human was needed.'),
    attachments: z
      .array(
        z.object({
          filename: z.string().nullable(),
          mime: z.string(),
          note: z.string().optional().describe('Why this image or PDF was not read (skipped while every reader was busy, too large, too slow, not a valid file); absent when it was.'),
        }),
      )
      .describe('Name and type only; the bytes and the text read from them are never stored.'),
    latencyMs: z.number().int(),
    feedback: turnFeedback.nullable().describe('A staff member\'s verdict on this answer, if one was given.'),
    createdAt: z.string(),
  })
  .describe('ConversationTurn');

const conversationBase = {
  id: z.string().describe('cnv_…'),
  ref: z.string().nullable().describe('The caller\'s conversationRef.'),
  agentId: z.string(),
  channels: z.array(z.string()).describe('Every channel its turns came in on (`email`, `chat`, `console` …), first seen first; empty when no turn named one.'),
  needsHuman: z.boolean().describe('Some turn needed a human.'),
  turnCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
};
export const conversationSummary = z
  .object({
    ...conversationBase,
    /** The customer's first message, which titles the conversation in the console (null before any turn). */
    firstQuestion: z.string().nullable().describe('The customer\'s first message: the conversation\'s title in the console (null before any turn).'),
    lastTurn: turn.nullable(),
  })
  .describe('ConversationSummary');
export const conversation = z.object({ ...conversationBase, turns: z.array(turn) }).describe('Conversation');

const stats = z.object({
  answers: z.number().int(),
  needsHuman: z.number().int(),
  needsHumanShare: z.number(),
  confidence: z.object({ high: z.number().int(), medium: z.number().int(), low: z.number().int() }),
  latencyMs: z.object({ p50: z.number().nullable(), p90: z.number().nullable(), p99: z.number().nullable() }),
});
export const metrics = z
  .object({ from: z.string(), to: z.string(), total: stats, days: z.array(stats.extend({ day: z.string().describe('YYYY-MM-DD (UTC)') })) })
  .describe('AnswerMetrics');

export const gaps = z
  .object({
    unanswered: z.number().int().describe('Unanswered questions in the range (at most the 5,000 most recent are grouped).'),
    groups: z.array(
      z.object({
        count: z.number().int(),
        terms: z.array(z.string()).describe('The group\'s most frequent (stemmed) words.'),
        lastAskedAt: z.string(),
        examples: z.array(z.object({ question: z.string(), conversationId: z.string(), askedAt: z.string() })).describe('Up to 5, newest first.'),
      }),
    ),
  })
  .describe('KnowledgeGaps');

const dateTime = z.iso.datetime({ offset: true, message: 'must be an ISO-8601 date-time' });
export const rangeQuery = {
  from: dateTime.optional().describe('Start (inclusive); default 30 days before `to`.'),
  to: dateTime.optional().describe('End (exclusive); default now.'),
};
export { externalId };

export const knowledgeStatus = z
  .object({
    articles: z.number().int().describe('Articles in the workspace.'),
    withVectors: z.number().int().describe('Articles whose vectors for ranking by meaning are current (computed from the article as it is now).'),
    semanticRanking: z.boolean().describe('Ranking by meaning is on in this server (`SEMANTIC_RANKING`); false: ranking is by words only.'),
    rankingByMeaning: z.boolean().describe('Every article has vectors: messages are ranked by their words and their meaning. Until then, by their words (an answer never compares one article\'s meaning with another\'s words).'),
    buildingSince: z.string().nullable().describe('When the build of the missing vectors started (ISO-8601); null when none is under way in the server asked.'),
    secondsLeft: z.number().int().nullable().describe('About how long the build has left, from its pace so far; null when not building or too early to say.'),
    failure: z
      .object({
        at: z.string().describe('When the last build stopped (ISO-8601).'),
        kind: z
          .enum(['unreachable', 'timeout', 'http_error', 'bad_reply', 'encoder', 'internal'])
          .describe('What failed: the embeddings server could not be reached, did not answer in time, answered an HTTP error or unusable vectors; the built-in encoder stopped; or this server (storing the vectors).'),
        reason: z.string().describe('The same, as a sentence for the console (never the endpoint\'s address; the server log has the detail).'),
        retryAt: z.string().describe('From when the build is tried again (ISO-8601): by the next answer or read of this status after it, in the server asked.'),
      })
      .nullable()
      .describe('The last build in the server asked failed and none since has stored an article: answers rank by words only until a retry succeeds. Null when none failed, or every article has vectors.'),
    stalledSince: z.string().nullable().describe('A build is under way but has stored no article since then, over a minute ago (ISO-8601); null when none is under way or it is moving.'),
  })
  .describe('KnowledgeStatus');

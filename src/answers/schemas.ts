import { z } from 'zod';
import { text } from '../platform/schemas.js';

/** Text a client sends: the platform's one rule (no NUL, no unpaired surrogate). */
export const v1Text = text;

export const MAX_MESSAGE = 20_000;

/**
 * Plain base64: A-Z a-z 0-9 + / with at most two `=` at the end. Checked by searching for a wrong
 * character rather than by one pattern over the whole text: `^[…]+={0,2}$` keeps a backtrack entry
 * per character, and over a 19 MB upload V8 has thrown "Maximum call stack size exceeded".
 */
export function isPlainBase64(v: string): boolean {
  if (v.length === 0 || /[^A-Za-z0-9+/=]/.test(v)) return false;
  const pad = v.indexOf('=');
  return pad === -1 || (pad >= v.length - 2 && pad > 0 && /^={1,2}$/.test(v.slice(pad)));
}

const base64 = z
  .string({ message: 'must be a string of base64' })
  .min(1, { message: 'must not be empty' })
  .superRefine((v, ctx) => {
    if (/^data:/i.test(v)) {
      ctx.addIssue({ code: 'custom', message: 'must be plain base64, without a "data:…;base64," prefix' });
    } else if (v.length % 4 === 1 || !isPlainBase64(v)) {
      ctx.addIssue({ code: 'custom', message: 'must be plain base64 (A-Z a-z 0-9 + /, = padding, no spaces or line breaks)' });
    }
  })
  .describe('The file, base64-encoded (standard alphabet), without a `data:` prefix.');

export const answerAttachment = z
  .strictObject({
    mime: z
      .string({ message: 'must be a MIME type such as image/png' })
      .regex(/^[A-Za-z0-9][\w.+-]*\/[A-Za-z0-9][\w.+-]*$/, { message: 'must be a MIME type such as image/png' })
      .max(127, { message: 'must be at most 127 characters' })
      .describe('File type: images (`image/*`) and `application/pdf` are read; other types are ignored. PNG, JPEG, WebP and GIF (its first frame) images are OCR\'d: the text found counts like the message\'s own words, as a PDF\'s text does; an image without text is read all the same.'),
    contentBase64: base64,
    filename: v1Text().min(1, { message: 'must be 1-255 characters' }).max(255, { message: 'must be 1-255 characters' }).optional()
      .describe('File name; kept in the conversation record (the bytes never are).'),
  })
  .meta({ id: 'AnswerAttachment', description: 'A file sent with the message (an image or a PDF). PDFs\' text and the text in images (OCR) are read for this answer only.' });

export const answerRequest = z
  .strictObject({
    message: v1Text()
      .refine((v) => v.trim().length > 0, { message: 'must not be empty' })
      .refine((v) => v.length <= MAX_MESSAGE, { message: `must be at most ${MAX_MESSAGE} characters` })
      .describe(`The user's message, 1-${MAX_MESSAGE} characters.`),
    conversationRef: v1Text().min(1, { message: 'must be 1-200 characters' }).max(200, { message: 'must be 1-200 characters' }).optional()
      .describe('Your identifier of the conversation. The same ref continues the same conversation (the agent reads the earlier turns); without it every call starts from nothing.'),
    agentId: v1Text().min(1, { message: 'must be an agent id' }).max(100, { message: 'must be an agent id' }).optional()
      .describe('Which agent answers (`agt_…`); default: the workspace\'s default agent (the one configured for tickets).'),
    channel: v1Text().min(1, { message: 'must be 1-100 characters' }).max(100, { message: 'must be 1-100 characters' }).optional()
      .describe('Where the message came from (e.g. `email`, `chat`); informational, for metrics.'),
    attachments: z.array(answerAttachment, { message: 'must be an array of attachments' }).max(5, { message: 'at most 5 attachments' }).optional()
      .describe('Up to 5 images or PDFs, each up to MAX_ANSWER_ATTACHMENT_BYTES (15 MiB) decoded. Used for this answer only, never stored.'),
  })
  .meta({ id: 'AnswerRequest', description: 'A user\'s message to answer.' });

export const source = z
  .object({
    externalId: z.string().describe('The article\'s externalId.'),
    title: z.string().describe('The article\'s title.'),
    score: z.number().min(0).max(1).describe('Relevance in [0, 1]. The first source\'s score is the agent\'s estimated probability that it answers the message; the others are scaled by their relevance relative to it. Low (under the agent\'s threshold) when the agent handed the message over because the knowledge did not seem to answer it.'),
  })
  .meta({ id: 'Source', description: 'An article the reply used, or (when needs_human is true) one the message was weighed against.' });

export const confidence = z.enum(['high', 'medium', 'low']).describe('`low` whenever needs_human is true.');

/**
 * Why a message went to a person: the codes a conversation turn stores (`NeedsHumanReason`), each with what a
 * client should do. Declared here so that the OpenAPI document lists them.
 */
export const ANSWER_REASONS = ['no_knowledge', 'unclear_match', 'not_covered', 'human_requested', 'account_action', 'handoff_topic', 'attachment_unreadable', 'earlier_turn', 'staff_handoff'] as const;

export const answerReason = z
  .enum(ANSWER_REASONS)
  .nullable()
  .describe(
    'Why `needs_human` is true; null when it is false (answered, or a courtesy line). ' +
      '`no_knowledge`: nothing in the knowledge is close enough (the sources, if any, are what it was weighed against): route to a person, and consider the question a gap in the knowledge. ' +
      '`unclear_match`: an article matched, but the message\'s words point to one article and its meaning to another: route to a person with the sources as a starting point. ' +
      '`not_covered`: the AI model read the articles found and said they do not answer: route to a person (a knowledge gap, like `no_knowledge`). ' +
      '`human_requested`: the user asked for a person (or for someone to call them back, to escalate…): hand over at once, do not offer the reply as an answer. ' +
      '`account_action`: the user asked for something only staff can do on an account (a refund, a double charge, a locked or hacked account, erasure, an owner change): hand over to staff who can act. ' +
      '`handoff_topic`: the message names one of the agent\'s hand-off topics (a console setting): route as that topic is meant to be routed. ' +
      '`attachment_unreadable`: none of the images or PDFs could be read and the agent is set to hand such messages over: ask for a readable file or hand over. ' +
      '`earlier_turn`: an earlier message of this conversation already went to a person; the message is the agent\'s reply all the same (its sources and text may be used), but the conversation stays with the person. ' +
      '`staff_handoff`: staff said a message like this one (the same words, or nearly) should go to a person rather than be answered (a "should not have answered" verdict in the console): hand over as for `handoff_topic`.',
  );

export const answerResponse = z
  .object({
    conversationId: z.string().describe('The conversation created or continued (`cnv_…`).'),
    agentId: z.string().describe('The agent that answered.'),
    message: z.string().describe('The reply, ready to display, in Markdown. The built-in generator replies with the part of the best article that answers the message (a paragraph, a few sentences, or the numbered steps with the sentence introducing them) under its section\'s heading in bold, then "Read the whole article, …" with its link; with an LLM configured, the model\'s reply written from the retrieved passages only. When this message needs a person, the agent\'s configured message (and referral), then, when there are sources, a line saying the message is passed to a person and naming them. In a conversation an earlier turn handed over, later answers are the reply itself, with needs_human still true. A message made only of pleasantries ("thanks, that worked!", "bye") gets a short courtesy line.'),
    sources: z.array(source).describe('Knowledge the reply used, best first (at most 3). When needs_human is true, still the articles the message was weighed against (with low scores), so that the person taking over and the caller start from them; empty when nothing relevant was found, when unreadable attachments sent the message to a person before it was weighed, and for a message made only of pleasantries (nothing was asked).'),
    needs_human: z.boolean().describe('True when the agent could not resolve the request: nothing relevant enough in the knowledge, an article ranked first by neither the message\'s words nor its meaning (too unsure which article answers), the user asked for a person or for something only staff can do, unreadable attachments with a needs_human fallback, or an earlier turn of the conversation needed a human. The API never escalates by itself: the client decides.'),
    confidence,
    reason: answerReason,
  })
  .meta({ id: 'AnswerResponse', description: 'The agent\'s reply, its sources and whether a human is needed.' });

/** "Try the agent" in the console: the answer, and why it went to a person, in words. */
export const tryAnswerResponse = answerResponse
  .extend({
    why: z.string().nullable().describe('That reason in a sentence that matches what happened; null when no human was needed.'),
  })
  .meta({ id: 'TryAnswerResponse', description: 'The agent\'s reply as POST /v1/answer gives it, with why a human was needed.' });

const httpUrl = z
  .string()
  .max(2000, { message: 'must be at most 2000 characters' })
  .refine(
    (v) => {
      try {
        return ['http:', 'https:'].includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    { message: 'must be an http(s) URL' },
  );

/**
 * An article is addressed by its externalId in URLs (`…/articles/{externalId}`), so only ids every
 * URL can carry are taken: the router answers a path segment past 100 characters with 414, and
 * clients resolve `.` and `..` (even written `%2E`) as "this" and "the parent" segment. Such ids
 * were created, then could be neither read nor deleted.
 */
export const MAX_EXTERNAL_ID = 100;
export const externalId = v1Text()
  .min(1, { message: `must be 1-${MAX_EXTERNAL_ID} characters` })
  .max(MAX_EXTERNAL_ID, { message: `must be 1-${MAX_EXTERNAL_ID} characters (it is a segment of the article's URL)` })
  .refine((v) => v !== '.' && v !== '..', { message: 'must not be "." or ".." (it is a segment of the article\'s URL)' })
  .describe(`Your identifier of the article (unique per workspace); writing the same one again replaces the article. 1-${MAX_EXTERNAL_ID} characters, not \`.\` or \`..\`: it is a segment of the article's URL (percent-encode it there; \`/\` as \`%2F\`).`);

export const articleFields = {
  title: v1Text().trim().min(1, { message: 'must be 1-300 characters' }).max(300, { message: 'must be 1-300 characters' }).describe('Title, 1-300 characters.'),
  body: v1Text()
    .refine((v) => v.trim().length > 0, { message: 'must not be empty' })
    .refine((v) => v.length <= 200_000, { message: 'must be at most 200000 characters' })
    .describe('The article\'s text (plain text or Markdown), up to 200,000 characters.'),
  url: httpUrl.nullable().optional().describe('Where customers can read it; the offline generator links to it.'),
};

export const articleInput = z.strictObject({ externalId, ...articleFields }).describe('ArticleInput');

export const MAX_IMPORT = 10_000;
export const articleImport = z
  .array(articleInput, { message: 'must be a JSON array of {externalId, title, body, url?}' })
  .max(MAX_IMPORT, { message: `at most ${MAX_IMPORT} articles per import` })
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((a, i) => {
      if (seen.has(a.externalId)) ctx.addIssue({ code: 'custom', path: [i, 'externalId'], message: `"${a.externalId}" appears twice` });
      seen.add(a.externalId);
    });
  });

export const agentName = v1Text().trim().min(1, { message: 'must be 1-100 characters' }).max(100, { message: 'must be 1-100 characters' }).describe('Agent name, 1-100 characters.');
export const fallbackMessage = v1Text().trim().min(1, { message: 'must be 1-2000 characters' }).max(2000, { message: 'must be 1-2000 characters' })
  .describe('The reply when a human is needed (the "I do not know" message).');
export const referralText = v1Text().trim().max(2000, { message: 'must be at most 2000 characters' })
  .describe('Appended to that reply: where a person can be reached (may be empty).');
export const attachmentFallback = z.enum(['answer', 'needs_human'], { message: 'must be answer or needs_human' })
  .describe('When none of a message\'s images or PDFs can be read: `answer` from the message alone, or `needs_human`.');

import { setTimeout as sleep } from 'node:timers/promises';
import { type GenerationInput, type Generator, GeneratorError } from './generator.js';

export interface OpenAiOptions {
  baseUrl: string;
  apiKey?: string | undefined;
  model: string;
  timeoutMs: number;
  /** Retries after the first attempt, with exponential backoff. */
  retries: number;
  /** Send the message's images (for models that read them). */
  images: boolean;
  /** First backoff delay; doubled per retry (tests shorten it). */
  backoffMs?: number;
}

/** Said by the model when the passages do not answer the question. */
export const NOT_COVERED = 'NOT_COVERED';

const SYSTEM = `You are a customer-support agent. Answer the customer's last message using ONLY the knowledge
passages below. Do not use any other knowledge, do not guess, do not invent steps, prices, links or
promises. If the passages do not contain the answer, reply with exactly ${NOT_COVERED} and nothing else.
Write a short, friendly reply ready to show to the customer, in the customer's language, and name the
article(s) you used by their title.`;

const RETRYABLE = new Set([408, 409, 425, 429, 500, 502, 503, 504]);

/**
 * Any OpenAI-compatible chat-completions server (LLM_BASE_URL). Written on fetch rather than the
 * `openai` package, whose current versions require Node 22: one POST, a timeout per attempt,
 * retries with backoff on timeouts, connection errors, 429 and 5xx (Retry-After honoured up to 5 s).
 */
export class OpenAiGenerator implements Generator {
  readonly name = 'openai';

  constructor(private readonly options: OpenAiOptions) {}

  async generate(input: GenerationInput) {
    const body = JSON.stringify({ model: this.options.model, temperature: 0.2, messages: this.messages(input) });
    const url = `${this.options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    let lastError = 'no attempt made';
    for (let attempt = 0; attempt <= this.options.retries; attempt++) {
      let waitMs = (this.options.backoffMs ?? 250) * 2 ** attempt;
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
          },
          body,
          redirect: 'error',
          signal: AbortSignal.timeout(this.options.timeoutMs),
        });
        if (res.ok) {
          const json = (await res.json()) as { choices?: { message?: { content?: unknown } }[] };
          const content = json.choices?.[0]?.message?.content;
          if (typeof content !== 'string' || !content.trim()) throw new GeneratorError('the model returned no text');
          const text = content.trim();
          return text.startsWith(NOT_COVERED) ? { message: '', covered: false } : { message: text, covered: true };
        }
        await res.body?.cancel();
        lastError = `the model server answered ${res.status}`;
        if (!RETRYABLE.has(res.status)) break;
        const retryAfter = Number(res.headers.get('retry-after'));
        if (Number.isFinite(retryAfter) && retryAfter > 0) waitMs = Math.min(retryAfter * 1000, 5000);
      } catch (error) {
        if (error instanceof GeneratorError) throw error;
        const e = error as Error;
        lastError = e.name === 'TimeoutError' ? `no answer within ${this.options.timeoutMs} ms` : `could not reach the model server (${e.message})`;
      }
      if (attempt < this.options.retries) await sleep(waitMs * (0.75 + Math.random() * 0.5));
    }
    throw new GeneratorError(lastError);
  }

  private messages(input: GenerationInput) {
    const knowledge = input.sources
      .map((s, i) => `[${i + 1}] ${s.title}${s.url ? ` (${s.url})` : ''}\n${s.passages.join('\n\n')}`)
      .join('\n\n---\n\n');
    const attachment = input.attachmentText ? `\n\nText of the customer's attached document(s):\n${input.attachmentText.slice(0, 8000)}` : '';
    const thread = input.thread.flatMap((t) => [
      { role: 'user' as const, content: t.question },
      { role: 'assistant' as const, content: t.reply },
    ]);
    const text = `${input.message}${attachment}`;
    const images = this.options.images ? input.images : [];
    const last = images.length
      ? [{ type: 'text', text }, ...images.map((i) => ({ type: 'image_url', image_url: { url: `data:${i.mime};base64,${i.base64}` } }))]
      : text;
    return [
      { role: 'system', content: `${SYSTEM}\n\nYou are "${input.agentName}".\n\nKnowledge passages:\n\n${knowledge}` },
      ...thread,
      { role: 'user', content: last },
    ];
  }
}

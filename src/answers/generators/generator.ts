import type { Excerpt } from '../retrieval/excerpt.js';

/** One knowledge article as a generator sees it: the passages retrieval chose. */
export interface GroundingSource {
  externalId: string;
  title: string;
  url: string | null;
  passages: string[];
  /** The part of the article that answers the message, under its heading (retrieval/excerpt.ts). */
  excerpt: Excerpt;
}

export interface GenerationInput {
  message: string;
  /** Earlier turns of the conversation, oldest first. */
  thread: { question: string; reply: string }[];
  /** Best first; never empty (with no source there is nothing to ground a reply on). */
  sources: GroundingSource[];
  /** Text read from the message's PDFs, for this answer only. */
  attachmentText?: string | undefined;
  /** Readable images of the message (plain base64), for generators that take images. */
  images: { mime: string; base64: string }[];
  agentName: string;
}

export interface Generation {
  message: string;
  /** False when the generator found that the sources do not answer the message. */
  covered: boolean;
}

/** Writes the reply from retrieved knowledge. Throws GeneratorError when it cannot. */
export interface Generator {
  readonly name: string;
  generate(input: GenerationInput): Promise<Generation>;
}

/** The generator failed after its retries: the answer API's 502 answer_failed. */
export class GeneratorError extends Error {
  override name = 'GeneratorError';
}

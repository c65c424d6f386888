import fp from 'fastify-plugin';
import type { Config } from '../../config.js';
import { cpuBudget } from '../../platform/http/cpu-budget.js';
import { ocrLanguage } from './ocr.js';
import { AttachmentReader } from './reader-pool.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Reads answer attachments (PDF text, OCR of images) in worker threads. */
    attachmentReader: AttachmentReader;
  }
}

/** The app's attachment readers: none start until an attachment is read; all stop with the app. */
export const attachmentReaderPlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    const reader = new AttachmentReader({
      // One per CPU the process may use, a container's CPU quota counted.
      size: config.ATTACHMENT_READERS ?? cpuBudget(),
      maxQueue: config.ATTACHMENT_READ_QUEUE,
      timeoutMs: config.ATTACHMENT_READ_TIMEOUT_MS,
      // Resolved now, so that a language whose data is not installed stops the server at start.
      ocrLanguages: config.OCR_LANGUAGES.map(ocrLanguage),
      log: app.log,
    });
    app.decorate('attachmentReader', reader);
    app.addHook('onClose', () => reader.close());
  },
  { name: 'attachment-reader' },
);

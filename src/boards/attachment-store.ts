import fp from 'fastify-plugin';
import type { Config } from '../config.js';

/** Where attachment bytes live. (Being written: local disk under DATA_DIR by default.) */
export interface AttachmentStore {
  /** Removes the files of attachment rows deleted since (listed in "DeletedFile"); never throws. */
  purgeDeleted(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    attachments: AttachmentStore;
  }
}

export const attachmentStorePlugin = fp<{ config: Config }>(
  async (app) => {
    app.decorate('attachments', { purgeDeleted: async () => {} } satisfies AttachmentStore);
  },
  { name: 'attachment-store', dependencies: ['db'] },
);

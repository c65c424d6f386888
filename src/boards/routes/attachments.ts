import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config.js';

/** POST /cards/{id}/attachments, GET /attachments/{id}/download (being written). */
export const attachmentRoutes: FastifyPluginAsyncZod<{ config: Config }> = async () => {};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest } from '../../platform/errors.js';
import { errorBody } from '../../platform/openapi.js';
import { getArticle } from '../knowledge/get-article.js';
import { listArticles } from '../knowledge/list-articles.js';
import { previewImport } from '../knowledge/preview-import.js';
import { removeArticle } from '../knowledge/remove-article.js';
import { importArticles, upsertArticle } from '../knowledge/upsert-article.js';
import { presentArticle } from '../presenters.js';
import { limitQueryString } from '../../platform/schemas.js';
import * as v from '../web-schemas.js';
import { consoleWorkspace, workspaceParam } from '../../workspaces/console-context.js';

const tags = ['support console'];
const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };
const articleParams = z.strictObject({ ...workspaceParam, externalId: v.externalId });

/** Knowledge articles of a workspace: every change applies to the next answer. */
export const knowledgeRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.prisma;

  app.get(
    '/agent/workspaces/:workspaceId/articles',
    {
      schema: {
        tags,
        summary: 'List articles by externalId, optionally those containing `q`',
        params: z.strictObject(workspaceParam),
        querystring: z.strictObject({
          q: z.string().max(200).optional().describe('Case-insensitive text in the title, body or externalId.'),
          limit: limitQueryString(200, 50).describe('1-200, default 50.'),
          cursor: z.string().max(200).optional().describe('nextCursor of the previous page.'),
        }),
        response: { 200: z.object({ articles: z.array(v.article), nextCursor: z.string().nullable() }), ...errors },
      },
    },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'read');
      const { q, limit, cursor } = request.query;
      const page = await listArticles({ db, workspaceId: workspace.id, q: q || undefined, limit, after: cursor });
      return { articles: page.articles.map(presentArticle), nextCursor: page.nextCursor };
    },
  );

  app.get(
    '/agent/workspaces/:workspaceId/articles/:externalId',
    { schema: { tags, summary: 'Get an article', params: articleParams, response: { 200: v.article, ...errors } } },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'read');
      return presentArticle(await getArticle({ db, workspaceId: workspace.id, externalId: request.params.externalId }));
    },
  );

  app.put(
    '/agent/workspaces/:workspaceId/articles/:externalId',
    {
      schema: {
        tags,
        summary: 'Create or replace an article (201 when created)',
        params: articleParams,
        body: v.articleBody,
        response: { 200: v.article, 201: v.article, ...errors },
      },
    },
    async (request, reply) => {
      const workspace = await consoleWorkspace(request, 'manage');
      const { article, created } = await upsertArticle({ db, workspaceId: workspace.id, article: { externalId: request.params.externalId, ...request.body } });
      return reply.status(created ? 201 : 200).send(presentArticle(article));
    },
  );

  app.delete(
    '/agent/workspaces/:workspaceId/articles/:externalId',
    { schema: { tags, summary: 'Delete an article', params: articleParams, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      const workspace = await consoleWorkspace(request, 'manage');
      await removeArticle({ db, workspaceId: workspace.id, externalId: request.params.externalId });
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/agent/workspaces/:workspaceId/articles/import',
    {
      bodyLimit: 50 * 1024 * 1024,
      schema: {
        tags,
        summary: 'Create or replace many articles at once (all or none); dryRun previews the counts',
        params: z.strictObject(workspaceParam),
        body: v.articleImportBody,
        response: { 200: z.object({ imported: z.number().int(), created: z.number().int(), updated: z.number().int(), dryRun: z.boolean() }), ...errors, 413: errorBody },
      },
    },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'manage');
      const { articles, dryRun = false } = request.body;
      const ids = new Set<string>();
      articles.forEach((a, i) => {
        if (ids.has(a.externalId)) throw badRequest(`articles.${i}.externalId: "${a.externalId}" appears twice`);
        ids.add(a.externalId);
      });
      const result = dryRun
        ? await previewImport({ db, workspaceId: workspace.id, externalIds: [...ids] })
        : await importArticles({ db, workspaceId: workspace.id, articles });
      return { ...result, dryRun };
    },
  );
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config.js';
import { z } from 'zod';
import { badRequest } from '../../platform/errors.js';
import { errorBody } from '../../platform/openapi.js';
import { createArticle } from '../knowledge/create-article.js';
import { getArticle } from '../knowledge/get-article.js';
import { listArticles } from '../knowledge/list-articles.js';
import { previewImport } from '../knowledge/preview-import.js';
import { readArticleFiles } from '../knowledge/read-article-files.js';
import { removeArticle } from '../knowledge/remove-article.js';
import { importArticles, upsertArticle } from '../knowledge/upsert-article.js';
import { knowledgeLimits } from '../knowledge/knowledge-limits.js';
import { knowledgeStatus } from '../knowledge/knowledge-status.js';
import { presentArticle, presentKnowledgeStatus } from '../presenters.js';
import { MAX_TEXT } from '../attachment-reader/reading.js';
import { limitQueryString } from '../../platform/schemas.js';
import * as v from '../web-schemas.js';
import { isPlainBase64 } from '../schemas.js';
import { consoleWorkspace, workspaceParam } from '../../workspaces/console-context.js';

const tags = ['support console'];
const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };
const articleParams = z.strictObject({ ...workspaceParam, externalId: v.externalId });

/** Knowledge articles of a workspace: every change applies to the next answer. */
export const knowledgeRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  const db = app.db.prisma;
  const limits = knowledgeLimits(config);
  const tooLarge = errorBody.describe(
    `Past the knowledge limits: an article may have ${limits.maxArticleChars} characters of title and body (KNOWLEDGE_MAX_ARTICLE_CHARS), ` +
      `a workspace ${limits.maxWorkspaceChars} in all its articles (KNOWLEDGE_MAX_WORKSPACE_CHARS). Nothing is written.`,
  );

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

  app.post(
    '/agent/workspaces/:workspaceId/articles',
    {
      schema: {
        tags,
        summary: 'Create an article; without an externalId the server generates one',
        params: z.strictObject(workspaceParam),
        body: v.articleCreate,
        response: { 201: v.article, ...errors, 409: errorBody.describe('The externalId given is taken.'), 413: tooLarge },
      },
    },
    async (request, reply) => {
      const workspace = await consoleWorkspace(request, 'manage');
      const article = await createArticle({ db, workspaceId: workspace.id, article: request.body, limits });
      return reply.status(201).send(presentArticle(article));
    },
  );

  app.get(
    '/agent/workspaces/:workspaceId/knowledge-status',
    {
      schema: {
        tags,
        summary: 'How far the knowledge is embedded for ranking by meaning (starts the build when some article lacks vectors)',
        params: z.strictObject(workspaceParam),
        response: { 200: v.knowledgeStatus, ...errors },
      },
    },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'read');
      const status = await knowledgeStatus({ db, workspaceId: workspace.id, semanticRanking: app.semanticRanking });
      return presentKnowledgeStatus(status);
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
        response: { 200: v.article, 201: v.article, ...errors, 413: tooLarge },
      },
    },
    async (request, reply) => {
      const workspace = await consoleWorkspace(request, 'manage');
      const { article, created } = await upsertArticle({ db, workspaceId: workspace.id, article: { externalId: request.params.externalId, ...request.body }, limits });
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
        response: {
          200: z.object({
            imported: z.number().int(),
            created: z.number().int(),
            updated: z.number().int(),
            updatedIds: z.array(z.string()).optional().describe('Dry run only: the externalIds that exist already, which the import would replace.'),
            dryRun: z.boolean(),
          }),
          ...errors,
          413: tooLarge,
        },
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
        ? await previewImport({ db, workspaceId: workspace.id, articles, limits })
        : await importArticles({ db, workspaceId: workspace.id, articles, limits });
      return { ...result, dryRun };
    },
  );

  app.post(
    '/agent/workspaces/:workspaceId/articles/read-files',
    {
      bodyLimit: 100 * 1024 * 1024,
      schema: {
        tags,
        summary: 'Read PDFs and HTML pages for the knowledge import (nothing is stored)',
        description:
          `The import's preview turns each file into an article; Markdown and text are read in the browser, PDFs here, by the ` +
          `answer API's attachment readers: up to 50 pages and ${MAX_TEXT} characters of text a file, within ATTACHMENT_READ_TIMEOUT_MS each, ` +
          `titled by their first page's first heading (else their metadata's Title). HTML pages (a name ending in .html, .htm or .xhtml) ` +
          `are read here too: their main content (Mozilla Readability: navigation, headers and footers left out) as Markdown with its ` +
          `headings, lists and links, titled by their first <h1>, else their <title>.`,
        params: z.strictObject(workspaceParam),
        body: z.strictObject({
          files: z
            .array(
              z.strictObject({
                filename: z.string().min(1).max(255).describe('The file\'s name, echoed back.'),
                contentBase64: z.string().min(1).max(20_000_000).refine(isPlainBase64, { message: 'must be plain base64' }).describe('The PDF or HTML page (UTF-8), base64-encoded (15 MB at most).'),
              }),
            )
            .min(1)
            .max(20, { message: 'at most 20 files at once' })
            .describe('PDFs and HTML pages, up to 20.'),
        }),
        response: {
          200: z.object({
            texts: z
              .array(
                z.object({
                  filename: z.string(),
                  title: z.string().nullable().describe('The document\'s own title (a PDF\'s first heading, an HTML page\'s first <h1> or <title>); null when it has none.'),
                  text: z.string().nullable().describe('A PDF\'s text, whitespace collapsed; an HTML page\'s main content as Markdown; null when none could be read.'),
                  problem: z.string().nullable().describe('Why there is no text.'),
                }),
              )
              .describe('One per file, in order.'),
          }),
          ...errors,
          413: errorBody,
        },
      },
    },
    async (request) => {
      await consoleWorkspace(request, 'manage');
      return { texts: await readArticleFiles({ reader: app.attachmentReader, files: request.body.files }) };
    },
  );
};

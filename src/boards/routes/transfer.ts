import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { type FastifyPluginAsyncZod, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, badRequest } from '../../platform/errors.js';
import { malformed } from '../attachments/attachment-upload.js';
import { errorBody } from '../../platform/openapi.js';
import * as s from '../schemas.js';
import { boardFile } from '../transfer/board-file.js';
import { boardCsv } from '../transfer/board-csv.js';
import { exportBoard } from '../transfer/export-board.js';
import { CSV_FIELDS } from '../transfer/csv/csv-cards.js';
import { csvImportResult, importCsvCards } from '../transfer/csv/import-csv.js';
import { importBoard, importResult } from '../transfer/import-board.js';
import { MAX_IMPORT_BYTES, MAX_IMPORT_DEPTH, tooLarge } from '../transfer/read-board-file.js';
import { boardContext } from './context.js';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };

const IMPORT_DESCRIPTION = `The file is the request body (\`application/json\`), or \`multipart/form-data\` with the file in a part named \`file\`.
It is a Trello board export (Trello: Menu → Print, export and share → Export as JSON) or our own board file (GET /boards/{id}/export).
Everything is created in one transaction, or nothing: a file that is not JSON, nested deeper than ${MAX_IMPORT_DEPTH} levels, of the wrong shape
or contradicting itself (duplicated ids, a card in a list the export does not have) is 400 naming what is wrong; over ${MAX_IMPORT_BYTES / 1024 / 1024} MB, 413.
From Trello: lists and cards in Trello's order, archived ones archived; labels (Trello's shades become our colour; unnamed labels are named by
their colour); descriptions; due dates; start dates and due dates' done state as the custom fields "Start date" and "Due date done"; checklists;
comments (the author's name and date on their first line unless matched); custom fields with their values; attachments as http(s) links in the
description (other links are refused and reported). Members are matched to users only with matchMembers=true, by e-mail address or by a Trello
username equal to the part of an address before @, among people you already share a board with; everyone else is named in the text.
\`unmapped\` lists what was not carried over (votes, stickers, covers, power-ups, history…), due dates outside the years 0001-9999 among them
(in our own file such a date is 400). Any file up to the limit imports: the rows are written by statements of at most 1,000.`;

/** The uploaded file's bytes: the JSON body as it came, or the multipart part named `file`. */
async function uploadedBytes(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) {
    if (!Buffer.isBuffer(request.body)) throw badRequest('body: the file is missing; send it as the JSON body or as a multipart part named file');
    return request.body;
  }
  let bytes: Buffer | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file' || part.fieldname !== 'file') throw badRequest(`${part.fieldname}: unexpected part; send only the file, in a part named file`);
      if (bytes) throw badRequest('file: send one file only');
      bytes = await part.toBuffer();
      if (part.file.truncated) throw tooLarge();
    }
  } catch (error) {
    // No boundary, a body cut short, garbage between boundaries: the client's mistake, never a 500.
    throw malformed(error);
  }
  if (!bytes) throw badRequest('file: missing; send multipart/form-data with the file in a part named file');
  return bytes;
}

/** POST /boards/import (a Trello export or our own file), GET /boards/{id}/export (our JSON, or CSV), POST /boards/{id}/cards/import (CSV). */
export const transferRoutes: FastifyPluginAsyncZod = async (app) => {
  // The import has a scope of its own: it reads its body as bytes (JSON or multipart) and checks it itself.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: MAX_IMPORT_BYTES }, (_request, body, done) => done(null, body));
    await scope.register(multipart, { throwFileSizeLimit: false, limits: { fileSize: MAX_IMPORT_BYTES, files: 1, parts: 2, fields: 1, fieldSize: 1024, headerPairs: 20 } });
    scope.addContentTypeParser('*', (_request, _payload, done) =>
      done(new AppError(415, 'unsupported_media_type', 'content-type: send the file as application/json, or as multipart/form-data in a part named file'), undefined),
    );

    scope.withTypeProvider<ZodTypeProvider>().post(
      '/boards/import',
      {
        bodyLimit: MAX_IMPORT_BYTES,
        schema: {
          operationId: 'importBoard',
          tags: ['boards'],
          summary: 'Create a board from a Trello board export or our own board file (not with a key limited to chosen boards: 403)',
          description: IMPORT_DESCRIPTION,
          consumes: ['application/json', 'multipart/form-data'],
          querystring: z.object({
            matchMembers: s.booleanQuery.describe("true: match the file's people to users here (by e-mail or username) and make them members; false (default): name them in the text."),
            dryRun: s.booleanQuery.describe('true: create nothing; answer what would be created and what would be left out (200).'),
          }),
          body: z.looseObject({}).describe('A Trello board export, or our board file (BoardFile).'),
          response: { 200: importResult, 201: importResult, ...errors, 413: errorBody, 415: errorBody },
        },
        // The body is checked by the import itself (depth, size, then shape), not by a schema of the whole.
        validatorCompiler: (route) => (route.httpPart === 'body' ? (data: unknown) => ({ value: data }) : validatorCompiler(route as never)),
      },
      async (request, reply) => {
        const result = await importBoard({ ...boardContext(request), bytes: await uploadedBytes(request), ...request.query });
        return reply.status(result.board ? 201 : 200).send(result);
      },
    );
  });

  app.get(
    '/boards/:id/export',
    {
      schema: {
        operationId: 'exportBoard',
        tags: ['boards'],
        summary: 'The whole board as our own board file (JSON), or as CSV with ?format=csv (any role on the board)',
        description:
          'JSON: everything on the board, archived lists and cards included, which POST /boards/import turns into an identical new board ' +
          "(new ids; attached files are listed, not included). CSV (text/csv): one row per card, with its list, labels, due date, members, " +
          'checklist progress, comment count and one column per custom field.',
        params: s.boardId,
        querystring: z.object({ format: z.enum(['json', 'csv'], { message: 'must be json or csv' }).default('json').describe('json (default) or csv.') }),
        response: { 200: boardFile, ...errors },
      },
    },
    async (request, reply) => {
      const file = await exportBoard({ db: app.db.prisma, actor: request.actor, boardId: request.params.id });
      const name = `board-${request.params.id}.${request.query.format}`;
      reply.header('content-disposition', `attachment; filename="${name}"`);
      if (request.query.format === 'csv') return reply.type('text/csv; charset=utf-8').serializer((p: unknown) => p as string).send(boardCsv(file) as never);
      return file;
    },
  );

  app.post(
    '/boards/:id/cards/import',
    {
      bodyLimit: 6 * 1024 * 1024,
      schema: {
        operationId: 'importCsvCards',
        tags: ['cards'],
        summary: 'Add cards to a board from CSV (admins and members); dryRun=true previews',
        description:
          'The header row names the columns; each fills a card field, by `columns` or by its name (Title/Name/Summary, List/Status/Column, ' +
          'Description/Notes, Labels/Tags, Due/Due date, Members/Assignee). Labels and members are comma-separated; members are the ' +
          "board's, by e-mail or name. Lists and labels the board does not have are made (lists at the end). All rows or none: a row " +
          `that cannot be a card makes the import 400 (dryRun lists them all). At most 5000 rows.`,
        params: s.boardId,
        querystring: z.object({ dryRun: s.booleanQuery.describe('true: create nothing; answer the preview.') }),
        body: z.strictObject({
          csv: z.string({ message: 'must be the CSV text' }).min(1, { message: 'must be the CSV text' }).max(5 * 1024 * 1024, { message: 'must be at most 5 MB' }).describe('The CSV, header row first.'),
          columns: z
            .record(z.string(), z.enum(CSV_FIELDS, { message: `must be one of ${CSV_FIELDS.join(', ')}` }))
            .optional()
            .describe('Header → card field, for headers not named after one (ignore: leave the column out).'),
        }),
        response: { 200: csvImportResult, 201: csvImportResult, ...errors, 413: errorBody, 415: errorBody },
      },
    },
    async (request, reply) => {
      const result = await importCsvCards({ ...boardContext(request), boardId: request.params.id, text: request.body.csv, columns: request.body.columns, dryRun: request.query.dryRun });
      return reply.status(result.dryRun ? 200 : 201).send(result);
    },
  );
};

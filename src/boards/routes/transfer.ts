import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { type FastifyPluginAsyncZod, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, badRequest } from '../../platform/errors.js';
import { malformed } from '../attachments/receive-upload.js';
import { errorBody } from '../../platform/openapi.js';
import * as s from '../schemas.js';
import { boardFile } from '../transfer/board-file.js';
import { formatBoardCsv } from '../transfer/format-board-csv.js';
import { exportBoard } from '../transfer/export-board.js';
import { CSV_FIELDS } from '../transfer/csv/read-csv-cards.js';
import { csvImportResult, importCsvCards } from '../transfer/csv/import-csv.js';
import { importBoard } from '../transfer/import-board.js';
import { importResult } from '../transfer/import-result.js';
import { MAX_IMPORT_BYTES, MAX_IMPORT_DEPTH, tooLarge } from '../transfer/read-board-file.js';
import { boardContext } from './context.js';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };

const IMPORT_DESCRIPTION = `The file is the request body (\`application/json\`), or \`multipart/form-data\` with the file in a part named \`file\`
and, optionally, the importer's choice of matches in a text part named \`members\`: JSON, member key → user id or null (leave them out).
It is a Trello board export (Trello: Menu → Print, export and share → Export as JSON) or our own board file (GET /boards/{id}/export).
Everything is created in one transaction, or nothing: a file that is not JSON, nested deeper than ${MAX_IMPORT_DEPTH} levels, of the wrong shape
or contradicting itself (duplicated ids, a card in a list the export does not have) is 400 naming what is wrong; over ${MAX_IMPORT_BYTES / 1024 / 1024} MB, 413.
From Trello: lists and cards in Trello's order, archived ones archived; labels (Trello's shades become our colour; unnamed labels are named by
their colour); descriptions; due dates; start dates and due dates' done state as the custom fields "Start date" and "Due date done"; checklists;
comments with Trello's date, by their author; custom fields with their values; attachments as link attachments of the card (Trello's uploaded
files stay on Trello, may need a Trello sign-in, and are reported; links other than http(s) are refused and reported; a cover that is an
attachment is reported, since a cover must be a picture uploaded here).
Members: with matchMembers=true each of the file's people is matched to a user by e-mail address, else by a Trello username equal to the part
of one address before @, else by a full name equal to exactly one user's name; only among you and the people you already share a board with
(a site admin: any active user), so an import tells nobody who has an account elsewhere. Without it, only you are matched, by address.
\`members\` overrides the automatic match member by member; a key the file does not have, or a user you may not pick, is 400. Matched people
join the board (Trello's admins as members), are assignees and the authors of their comments; anyone else is named in the card's text
(assignees) and is the author of their comments by name alone, shown as "Name (from Trello)". The response (dryRun=true too) lists the
file's \`members\` with their proposed match and by what (email, username, name, chosen), and the \`candidates\` you may pick.
\`unmapped\` lists what was not carried over (votes, stickers, covers, power-ups, history…), due dates outside the years 0001-9999 among them
(in our own file such a date is 400). Any file up to the limit imports: the rows are written by statements of at most 1,000.`;

/** The largest `members` part: a choice for each of a file's 1,000 members. */
const MAX_MEMBERS_BYTES = 64 * 1024;

const chosenMatches = z
  .record(z.string().min(1).max(64), z.number({ message: 'must be a user id or null' }).int({ message: 'must be a user id or null' }).positive({ message: 'must be a user id or null' }).nullable())
  .describe("Member key → user id (that user is them here), or null (leave them out: not matched). Overrides the automatic match; members not named keep it.");

/** The `members` part as choices, or a 400 naming what is wrong. */
function parseChosen(text: string) {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw badRequest('members: not JSON; send an object of member key → user id or null');
  }
  const parsed = chosenMatches.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw badRequest(`members${issue.path.length ? `.${issue.path.join('.')}` : ''}: ${issue.code === 'invalid_type' && !issue.path.length ? 'must be an object of member key → user id or null' : issue.message}`);
  }
  return parsed.data;
}

/** The uploaded file's bytes (the JSON body as it came, or the multipart part named `file`) and the multipart part `members`, if sent. */
async function uploadedBytes(request: FastifyRequest): Promise<{ bytes: Buffer; members?: Record<string, number | null> }> {
  if (!request.isMultipart()) {
    if (!Buffer.isBuffer(request.body)) throw badRequest('body: the file is missing; send it as the JSON body or as a multipart part named file');
    return { bytes: request.body };
  }
  let bytes: Buffer | null = null;
  let members: string | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field' && part.fieldname === 'members') {
        if (members !== null) throw badRequest('members: send one members part only');
        if (part.valueTruncated) throw badRequest(`members: larger than ${MAX_MEMBERS_BYTES / 1024} KB`);
        members = String(part.value);
        continue;
      }
      if (part.type !== 'file' || part.fieldname !== 'file') throw badRequest(`${part.fieldname}: unexpected part; send the file in a part named file, and the matches in a part named members`);
      if (bytes) throw badRequest('file: send one file only');
      bytes = await part.toBuffer();
      if (part.file.truncated) throw tooLarge();
    }
  } catch (error) {
    // No boundary, a body cut short, garbage between boundaries: the client's mistake, never a 500.
    throw malformed(error);
  }
  if (!bytes) throw badRequest('file: missing; send multipart/form-data with the file in a part named file');
  return members === null ? { bytes } : { bytes, members: parseChosen(members) };
}

/** POST /boards/import (a Trello export or our own file), GET /boards/{id}/export (our JSON, or CSV), POST /boards/{id}/cards/import (CSV). */
export const transferRoutes: FastifyPluginAsyncZod = async (app) => {
  // The import has a scope of its own: it reads its body as bytes (JSON or multipart) and checks it itself.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: MAX_IMPORT_BYTES }, (_request, body, done) => done(null, body));
    await scope.register(multipart, { throwFileSizeLimit: false, limits: { fileSize: MAX_IMPORT_BYTES, files: 1, parts: 3, fields: 2, fieldSize: MAX_MEMBERS_BYTES, headerPairs: 20 } });
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
            matchMembers: s.booleanQuery.describe(
              "true: match the file's people to users here (by e-mail, username or full name, among you and people you share a board with) and make them members; false (default): only you, by e-mail (and whom the `members` part chooses).",
            ),
            dryRun: s.booleanQuery.describe('true: create nothing; answer what would be created and what would be left out (200).'),
          }),
          body: z.looseObject({}).describe('A Trello board export, or our board file (BoardFile).'),
          response: { 200: importResult, 201: importResult, ...errors, 413: errorBody, 415: errorBody },
        },
        // The body is checked by the import itself (depth, size, then shape), not by a schema of the whole.
        validatorCompiler: (route) => (route.httpPart === 'body' ? (data: unknown) => ({ value: data }) : validatorCompiler(route as never)),
      },
      async (request, reply) => {
        const result = await importBoard({ ...boardContext(request), ...(await uploadedBytes(request)), ...request.query });
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
      if (request.query.format === 'csv') return reply.type('text/csv; charset=utf-8').serializer((p: unknown) => p as string).send(formatBoardCsv(file) as never);
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

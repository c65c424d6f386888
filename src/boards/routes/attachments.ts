import multipart from '@fastify/multipart';
import { type FastifyPluginAsyncZod, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { AppError } from '../../platform/errors.js';
import { errorBody } from '../../platform/openapi.js';
import { MAX_ID, id } from '../../platform/schemas.js';
import { afterUserChange } from '../activity/change-board.js';
import { sendAttachment, settleUploadBody } from '../attachments/attachment-http.js';
import type { UploadPart } from '../attachments/receive-upload.js';
import { createAttachment } from '../attachments/create-attachment.js';
import { deleteAttachment } from '../attachments/delete-attachment.js';
import { COVER_TYPES } from '../attachments/cover-types.js';
import { MAX_PICTURE_PIXELS, MAX_PICTURE_SIDE } from '../attachments/picture-size.js';
import { removeCardCover } from '../attachments/remove-card-cover.js';
import { setCardCover } from '../attachments/set-card-cover.js';
import { getAttachment } from '../attachments/get-attachment.js';
import { findAvatar, findOwnAvatar } from '../attachments/find-avatar.js';
import { removeAvatar } from '../attachments/remove-avatar.js';
import { MAX_AVATAR_BYTES, setAvatar } from '../attachments/set-avatar.js';
import { notFound } from '../../platform/errors.js';
import { presentAttachment } from '../presenters.js';
import * as s from '../schemas.js';
import { boardContext, cardContext, ifMatch, sendCard } from './context.js';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };

/** Documentation only: the body is read as a stream by the handler, not validated as a whole. */
const uploadBody = z
  .strictObject({
    file: z
      .file()
      .describe('The file: exactly one part named `file`, with a filename. Its type is detected from its bytes; the part\'s Content-Type is only a hint.'),
  })
  .describe('AttachmentUpload');

const binary = (description: string) => ({
  description,
  content: { 'application/octet-stream': { schema: z.string().meta({ format: 'binary' }).describe('The bytes.') } },
});

const UPLOAD_DESCRIPTION = `\`multipart/form-data\` with exactly one file part named \`file\`; any other part is 400.
At most MAX_ATTACHMENT_BYTES (413 beyond; nothing is kept); an empty file is 400.
The file name is kept for display and downloads (at most 255 characters; empty → \`file\`); a name with a path
(\`/\` or a backslash), \`.\` or \`..\` alone, or control or bidirectional-override characters is 400.
The stored \`mimeType\` is detected from the bytes (PNG, JPEG, GIF, WebP, PDF, ZIP and Office files, gzip, … ;
UTF-8 text is \`text/plain\`; anything else \`application/octet-stream\`).`;

const noParts = async function* (): AsyncGenerator<UploadPart> {};

const avatarAnswer = z.object({ avatarUrl: z.string().nullable().describe('Where your picture is loaded from (GET /avatars/{key}), or null: initials on a colour.') });

/**
 * POST /cards/{id}/attachments, GET /attachments/{id}/download, DELETE /attachments/{id}; a card's
 * cover (PUT and DELETE /cards/{id}/cover); avatar pictures (/account/avatar, GET /avatars/{key}),
 * kept in the same store.
 */
export const attachmentRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  const maxBytes = Math.min(config.MAX_ATTACHMENT_BYTES, MAX_ID);

  // The upload route has a scope of its own: only it parses multipart, and it takes nothing else.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    await scope.register(multipart, {
      preservePath: true,
      throwFileSizeLimit: false,
      limits: { fileSize: maxBytes + 1, parts: 10, fields: 10, fieldSize: 1024, headerPairs: 20 },
    });
    scope.addContentTypeParser('*', (_request, _payload, done) =>
      done(new AppError(415, 'unsupported_media_type', 'content-type: must be multipart/form-data, with the file in a field named file'), undefined),
    );
    scope.addHook('onSend', settleUploadBody);
    // The avatar is on every board the user belongs to: those boards' cached snapshots go.
    const userChanged = afterUserChange(app.effects);

    scope.withTypeProvider<ZodTypeProvider>().put(
      '/account/avatar',
      {
        schema: {
          operationId: 'setAvatar',
          tags: ['avatars'],
          summary: 'Upload your avatar picture; it replaces the one you had',
          description:
            `\`multipart/form-data\` with one file part named \`file\`: a PNG, JPEG, GIF or WebP picture (detected from its bytes; anything else is 400) ` +
            `of at most ${MAX_PICTURE_SIDE} pixels a side and ${MAX_PICTURE_PIXELS / 1_000_000} megapixels, an animation's frames added up (400 beyond), ` +
            `of at most ${MAX_AVATAR_BYTES} bytes (413 beyond). It shows wherever you do: on cards you are assigned to, in members lists, on your account page.`,
          consumes: ['multipart/form-data'],
          body: uploadBody,
          response: { 200: avatarAnswer, 400: errorBody, 401: errorBody, 403: errorBody, 413: errorBody, 415: errorBody },
        },
        validatorCompiler: (route) =>
          route.httpPart === 'body' ? (data: unknown) => ({ value: data }) : validatorCompiler(route as never),
      },
      async (request) => ({
        avatarUrl: await setAvatar({
          db: app.db.prisma,
          userId: request.actor.userId,
          parts: request.isMultipart() ? request.parts() : noParts(),
          bodyLength: Number(request.headers['content-length']) || undefined,
          store: app.attachments,
          maxBytes: Math.min(maxBytes, MAX_AVATAR_BYTES),
          userChanged,
          effects: app.effects,
        }),
      }),
    );

    scope.withTypeProvider<ZodTypeProvider>().post(
      '/cards/:id/attachments',
      {
        schema: {
          operationId: 'uploadAttachment',
          tags: ['attachments'],
          summary: 'Attach a file to a card (admins and members)',
          description: UPLOAD_DESCRIPTION,
          consumes: ['multipart/form-data'],
          params: s.cardId,
          headers: ifMatch,
          body: uploadBody,
          response: { 201: s.attachment, ...errors, 413: errorBody, 415: errorBody },
        },
        // The body is a stream read by the handler; params are validated as everywhere else.
        validatorCompiler: (route) =>
          route.httpPart === 'body' ? (data: unknown) => ({ value: data }) : validatorCompiler(route as never),
      },
      async (request, reply) => {
        const attachment = await createAttachment({
          ...cardContext(request),
          cardId: request.params.id,
          parts: request.isMultipart() ? request.parts() : noParts(),
          bodyLength: Number(request.headers['content-length']) || undefined,
          store: app.attachments,
          maxBytes,
        });
        return reply.status(201).send(attachment);
      },
    );
  });

  app.get(
    '/attachments/:id/download',
    {
      // Sent exactly as stored: ranges, lengths and ETags speak of these bytes (an uploaded .json too).
      compress: false,
      schema: {
        operationId: 'downloadAttachment',
        tags: ['attachments'],
        summary: "An attachment's bytes (any role on its board)",
        description:
          'Sent with the stored Content-Type, Content-Length, `Content-Disposition: attachment` (`filename*` in UTF-8), ' +
          '`X-Content-Type-Options: nosniff`, ETag. `Range: bytes=a-b`, `a-` or `-n` → 206 with Content-Range; ' +
          'a range beyond the file → 416 with `Content-Range: bytes */size`; several ranges → the whole file (200).',
        params: s.attachmentId,
        headers: z
          .object({
            range: z.string().optional().describe('One byte range: `bytes=0-1023`, `bytes=1024-` or `bytes=-512`.'),
            'if-range': z.string().optional().describe('The ETag: the range applies only while the file is the same.'),
          })
          .passthrough(),
        response: { 200: binary('The whole file, with its stored Content-Type.'), 206: binary('The requested range.'), ...errors, 416: errorBody },
      },
    },
    async (request, reply) => {
      const attachment = await getAttachment({ db: app.db.prisma, actor: request.actor, attachmentId: request.params.id });
      return sendAttachment(request, reply, app.attachments, attachment);
    },
  );

  app.get(
    '/attachments/:id',
    {
      schema: {
        operationId: 'getAttachment',
        tags: ['attachments'],
        summary: "An attachment's metadata (any role on its board); the bytes: GET /attachments/{id}/download",
        params: s.attachmentId,
        response: { 200: s.attachment, 400: errorBody, 401: errorBody, 404: errorBody },
      },
    },
    async (request) => presentAttachment(await getAttachment({ db: app.db.prisma, actor: request.actor, attachmentId: request.params.id })),
  );

  app.delete(
    '/attachments/:id',
    {
      schema: {
        operationId: 'deleteAttachment',
        tags: ['attachments'],
        summary: 'Delete an attachment (admins and members); its file is removed',
        params: s.attachmentId,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await deleteAttachment({ ...boardContext(request), attachmentId: request.params.id });
      return reply.status(204).send(null);
    },
  );

  app.put(
    '/cards/:id/cover',
    {
      schema: {
        operationId: 'setCardCover',
        tags: ['attachments'],
        summary: "Show one of the card's pictures as its cover on the board (admins and members)",
        description: `The attachment must be this card's and a picture (${COVER_TYPES.join(', ')}) of at most ${MAX_PICTURE_SIDE} pixels a side and ${MAX_PICTURE_PIXELS / 1_000_000} megapixels (an animation's frames added up), else 400. The card's \`coverAttachmentId\` names it until it is removed or the attachment is deleted.`,
        params: s.cardId,
        headers: ifMatch,
        body: z.strictObject({ attachmentId: id('Attachment').describe("One of the card's image attachments.") }),
        response: { 200: s.card, ...errors },
      },
    },
    async (request, reply) => {
      const { card } = await setCardCover({ ...cardContext(request), cardId: request.params.id, attachmentId: request.body.attachmentId, store: app.attachments });
      return sendCard(reply, card);
    },
  );

  app.delete(
    '/cards/:id/cover',
    {
      schema: {
        operationId: 'removeCardCover',
        tags: ['attachments'],
        summary: 'Take the cover off a card; the attachment stays (idempotent)',
        params: s.cardId,
        headers: ifMatch,
        response: { 200: s.card, ...errors },
      },
    },
    async (request, reply) => {
      const { card } = await removeCardCover({ ...cardContext(request), cardId: request.params.id });
      return sendCard(reply, card);
    },
  );

  app.get(
    '/account/avatar',
    { schema: { operationId: 'getAvatar', tags: ['avatars'], summary: 'Your avatar picture\'s URL, or null', response: { 200: avatarAnswer, 401: errorBody } } },
    async (request) => ({ avatarUrl: await findOwnAvatar(app.db.prisma, request.actor.userId) }),
  );

  app.delete(
    '/account/avatar',
    {
      schema: {
        operationId: 'removeAvatar',
        tags: ['avatars'],
        summary: 'Remove your avatar picture: your initials on a colour again (idempotent)',
        response: { 200: avatarAnswer, 401: errorBody, 403: errorBody },
      },
    },
    async (request) => {
      await removeAvatar({ db: app.db.prisma, userId: request.actor.userId, effects: app.effects, userChanged: afterUserChange(app.effects) });
      return { avatarUrl: null };
    },
  );

  app.get(
    '/avatars/:key',
    {
      compress: false,
      // The key is what lets a signed-in caller fetch the picture: kept out of the request log.
      config: { secretParams: ['key'] },
      schema: {
        operationId: 'getAvatarPicture',
        tags: ['avatars'],
        summary: 'An avatar picture, by the key in its URL (members\' `avatarUrl`); cached for good: a new picture has a new key',
        params: z.strictObject({ key: z.string().max(64).describe('The key in the avatarUrl.') }),
        response: { 200: binary('The picture, with its detected Content-Type.'), 400: errorBody, 401: errorBody, 404: errorBody },
      },
    },
    async (request, reply) => {
      const avatar = await findAvatar(app.db.prisma, request.params.key);
      const file = await app.attachments.open(avatar.key);
      if (!file) throw notFound('avatar: not found');
      reply
        .header('content-type', avatar.mimeType)
        .header('content-length', String(file.size))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, max-age=31536000, immutable');
      return reply.send(file.stream() as never);
    },
  );
};

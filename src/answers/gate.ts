import type { FastifyRequest } from 'fastify';
import { AppError } from '../platform/errors.js';
import { type AnswerKeyCredential, resolveAnswerKey } from './keys/resolve-answer-key.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the answer API's gate. */
    answerKey: AnswerKeyCredential;
  }
}

const invalidKey = (message: string) => new AppError(401, 'invalid_api_key', message);

/**
 * The one gate of `/v1/answer`: an `X-API-Key: ans_…` header and nothing else. A personal key,
 * a workspace token or a session cookie is not an answer key (401 invalid_api_key).
 */
export async function answerKeyAuthentication(request: FastifyRequest) {
  const header = request.headers['x-api-key'];
  if (header === undefined) {
    const other = request.headers.authorization !== undefined ? ' (Authorization is not accepted here)' : '';
    throw invalidKey(`X-API-Key: missing; send the workspace's answer key (ans_…)${other}`);
  }
  const token = Array.isArray(header) ? '' : header.trim();
  if (!token.startsWith('ans_')) throw invalidKey('X-API-Key: not an answer-API key (ans_…)');
  const key = await resolveAnswerKey({ db: request.server.db.prisma, token });
  if (!key) throw invalidKey('X-API-Key: invalid or revoked');
  request.answerKey = key;
}

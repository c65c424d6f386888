import { hashToken } from '../../accounts/credentials/tokens.js';
import type { DbClient } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';

export const invalidVisitor = (message: string) => new AppError(401, 'invalid_visitor_token', message, { 'www-authenticate': 'Bearer realm="widget"' });

/** A visitor token's shape: `wvt_` and 43 base64url characters. */
export const VISITOR_TOKEN = /^wvt_[A-Za-z0-9_-]{43}$/;

/** The visitor a token belongs to, of this widget and not expired; 401 otherwise (a malformed one costs no lookup). */
export async function resolveVisitor({ db, widgetId, token }: { db: DbClient; widgetId: string; token: string | undefined }) {
  if (!token) throw invalidVisitor('authorization: missing; send "Bearer wvt_…" (the visitor token)');
  if (!VISITOR_TOKEN.test(token)) throw invalidVisitor('authorization: not a visitor token (wvt_…)');
  const visitor = await db.widgetVisitor.findUnique({ where: { tokenHash: hashToken(token) } });
  if (!visitor || visitor.widgetId !== widgetId || visitor.expiresAt.getTime() <= Date.now()) {
    throw invalidVisitor('authorization: unknown or expired visitor token; start a new visit');
  }
  return visitor;
}

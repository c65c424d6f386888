import { randomBytes } from 'node:crypto';
import { hashToken } from '../../accounts/credentials/tokens.js';
import type { PrismaClient } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import type { Widget } from '../../generated/prisma/client.js';
import { identitySigned } from '../identity.js';

/** How long a visitor token continues the visitor's conversations. */
export const VISITOR_DAYS = 30;

export const identityRefused = (message: string) => new AppError(403, 'identity_not_verified', message);

/**
 * A new visitor of the widget: a random token (only its SHA-256 is kept) valid for 30 days. With an
 * identity, its signature must be the widget's (HMAC-SHA256 with the identity secret); with
 * verification required, an identity is required too.
 */
export async function startVisit({ db, widget, identity }: {
  db: PrismaClient;
  widget: Widget;
  identity?: { userId: string; email: string; signature: string } | undefined;
}) {
  if (identity && !identitySigned(widget.identitySecret, identity)) {
    throw identityRefused('identity.signature: not the HMAC-SHA256 of the user id and e-mail with this widget\'s identity secret');
  }
  if (!identity && widget.verificationRequired) throw identityRefused('identity: this widget takes signed-in users only; the site must sign the user\'s identity');
  const token = `wvt_${randomBytes(32).toString('base64url')}`;
  const expiresAt = new Date(Date.now() + VISITOR_DAYS * 24 * 3600_000);
  await db.widgetVisitor.create({
    data: { widgetId: widget.id, tokenHash: hashToken(token), userId: identity?.userId ?? null, email: identity?.email.toLowerCase() ?? null, expiresAt },
  });
  return { token, expiresAt: expiresAt.toISOString(), verified: Boolean(identity) };
}

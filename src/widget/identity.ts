import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * What the host site's server signs for identity verification: the user id, a line break, the
 * e-mail address (a user id holds no line break, so no two pairs sign the same text).
 */
export function identityPayload(userId: string, email: string): string {
  return `${userId}\n${email}`;
}

/** The signature a host server computes: hex HMAC-SHA256 of identityPayload with the widget's identity secret. */
export function signIdentity(secret: string, userId: string, email: string): string {
  return createHmac('sha256', secret).update(identityPayload(userId, email)).digest('hex');
}

/** Whether `signature` is the identity's signature, compared in constant time. */
export function identitySigned(secret: string, identity: { userId: string; email: string; signature: string }): boolean {
  const expected = Buffer.from(signIdentity(secret, identity.userId, identity.email), 'hex');
  const given = /^[0-9a-f]{64}$/i.test(identity.signature) ? Buffer.from(identity.signature, 'hex') : Buffer.alloc(0);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

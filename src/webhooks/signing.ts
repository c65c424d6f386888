import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new endpoint secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks' format). */
export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The `webhook-signature` header for one attempt: one `v1,…` signature per live secret, space
 * separated, so a receiver holding either secret verifies it during a rotation.
 */
export function signatureHeader(secrets: string[], messageId: string, timestamp: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(messageId, timestamp, body)).join(' ');
}

import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new endpoint secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks' format). */
export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** Signers by secret, so a secret's key is decoded once rather than at every attempt. */
const signers = new Map<string, Webhook>();

function signerFor(secret: string) {
  let signer = signers.get(secret);
  if (!signer) {
    signer = new Webhook(secret);
    // Endpoints are few (20 per workspace); a rotation leaves an old secret behind now and then.
    if (signers.size >= 1000) signers.clear();
    signers.set(secret, signer);
  }
  return signer;
}

/**
 * The `webhook-signature` header for one attempt: one `v1,…` signature per live secret, space
 * separated, so a receiver holding either secret verifies it during a rotation.
 */
export function signatureHeader(secrets: string[], messageId: string, timestamp: Date, body: string): string {
  return secrets.map((secret) => signerFor(secret).sign(messageId, timestamp, body)).join(' ');
}

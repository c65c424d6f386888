import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 40 base62 characters carry 40 × log2(62) ≈ 238.2 bits. */
const RANDOM_CHARS = 40;
const CHECKSUM_CHARS = 6;

/** Uniform base62 characters from the CSPRNG (bytes ≥ 248 are rejected to avoid modulo bias). */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

function base62(n: number, width: number): string {
  let out = '';
  for (let i = 0; i < width; i++) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

/**
 * A secret token: prefix, 40 random base62 characters, then a 6-character CRC32 checksum of
 * them (as GitHub's tokens do) so secret scanners can tell a real token from a look-alike
 * without asking us.
 */
export function generateToken(prefix: 'tsk_' | 'ans_' | 'wst_' | 'inv_' | 'set_' | 'eml_'): string {
  const random = randomBase62(RANDOM_CHARS);
  return `${prefix}${random}${base62(crc32(random), CHECKSUM_CHARS)}`;
}

/** Well-formed and with a matching checksum: a cheap filter before any database work. */
export function isWellFormedToken(token: string, prefix: string): boolean {
  if (!token.startsWith(prefix) || token.length !== prefix.length + RANDOM_CHARS + CHECKSUM_CHARS) return false;
  const body = token.slice(prefix.length);
  if (!/^[0-9A-Za-z]+$/.test(body)) return false;
  const random = body.slice(0, RANDOM_CHARS);
  return base62(crc32(random), CHECKSUM_CHARS) === body.slice(RANDOM_CHARS);
}

/** Tokens are high-entropy, so a fast hash suffices (a request costs microseconds, not argon2's 100 ms). */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** What lists show to recognise a token: its prefix and first 6 characters. */
export function displayPrefix(token: string): string {
  const cut = token.indexOf('_') + 1;
  return token.slice(0, cut + 6);
}

/** A session cookie value: 256 random bits, URL-safe. */
export function generateSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** A public random id such as `agt_3fK9…`: unguessable, so ids reveal nothing about counts. */
export function publicId(prefix: string, length = 16): string {
  return `${prefix}${randomBase62(length)}`;
}

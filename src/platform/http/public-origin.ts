import type { AddressInfo } from 'node:net';
import type { Config } from '../../config.js';

/** A host that listens on every interface names none a link can use: loopback stands in for it. */
const ANY_ADDRESS = new Set(['0.0.0.0', '::', '[::]', '']);

/**
 * The origin every link the server makes points at (mail, set-up and invitation links, the
 * unsubscribe link): PUBLIC_BASE_URL's origin, else this server's own listener,
 * `http://HOST:PORT` (the address it is listening on once it listens, so PORT=0 names the real
 * port). A HOST of 0.0.0.0 or :: becomes 127.0.0.1, as the connector's OAuth issuer does. Never
 * the request's Host or X-Forwarded-Host: a link a stranger can point elsewhere hands over the
 * token inside it.
 */
export function publicOrigin(config: Pick<Config, 'PUBLIC_BASE_URL' | 'HOST' | 'PORT'>, listening?: AddressInfo | string | null): string {
  if (config.PUBLIC_BASE_URL) return new URL(config.PUBLIC_BASE_URL).origin;
  const bound = listening && typeof listening === 'object' ? listening : null;
  const raw = bound ? bound.address : config.HOST;
  const host = ANY_ADDRESS.has(raw) ? '127.0.0.1' : raw;
  const port = bound ? bound.port : config.PORT;
  return new URL(`http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`).origin;
}

/** The origin of links, read when a link is made: `app.server.address()` is known only once listening. */
export const linkOrigin = (config: Pick<Config, 'PUBLIC_BASE_URL' | 'HOST' | 'PORT'>, server: { address(): AddressInfo | string | null }) => () =>
  publicOrigin(config, server.address());

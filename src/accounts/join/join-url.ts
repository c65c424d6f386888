import type { AddressInfo } from 'node:net';
import type { Config } from '../../config.js';
import { publicOrigin } from '../../platform/http/public-origin.js';

/**
 * The web page where an invitation, set-up, reset or e-mail change link is opened:
 * `<origin>/join/<token>`, on PUBLIC_BASE_URL's origin, else this server's own listener
 * (publicOrigin). Never the request's Host: a link mailed to someone must not follow a header a
 * stranger chose.
 */
export function joinUrl(server: { address(): AddressInfo | string | null }, config: Config, token: string): string {
  return `${publicOrigin(config, server.address())}/join/${token}`;
}

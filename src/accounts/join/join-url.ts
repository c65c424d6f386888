import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';

/**
 * The web page where an invitation or account set-up link is opened: `<origin>/join/<token>`, on
 * PUBLIC_BASE_URL's origin when set (behind a proxy the request's own host may be an inside name),
 * else the origin the request came to.
 */
export function joinUrl(request: FastifyRequest, config: Config, token: string): string {
  const origin = config.PUBLIC_BASE_URL ? new URL(config.PUBLIC_BASE_URL).origin : `${request.protocol}://${request.host}`;
  return `${origin}/join/${token}`;
}

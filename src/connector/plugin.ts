import type { FastifyPluginAsync } from 'fastify';
import type { Generator } from '../answers/generators/generator.js';
import type { Config } from '../config.js';
import { lazyAuthorizationServer } from './authorization-server.js';
import type { StylesheetHref } from './consent-page.js';
import { sweepExpiredOAuthRecords } from './oauth-store.js';
import { connectionRoutes } from './routes/connections.js';
import { mcpRoutes } from './routes/mcp.js';
import { oauthRoutes } from './routes/oauth.js';
import { connectorUrls } from './urls.js';

const SWEEP_EVERY_MS = 60 * 60_000;

/**
 * The assistant connector (SPEC §9): the MCP server at /mcp, the OAuth authorisation server in
 * front of it (/oauth/…, /.well-known/…), and the consent page. "Connected apps"
 * (/account/connections) is registered with the web backend (see connectionRoutes).
 */
export const connectorPlugin: FastifyPluginAsync<{ config: Config; generator: Generator; stylesheet: StylesheetHref }> = async (
  app,
  { config, generator, stylesheet },
) => {
  const urls = connectorUrls(config);
  const server = lazyAuthorizationServer({
    db: app.db.prisma,
    config,
    urls,
    stylesheet,
    onCreate: (provider) => provider.on('server_error', (_ctx, error) => app.log.error({ err: error }, 'authorisation server error')),
  });
  await app.register(oauthRoutes, { server, urls, config, stylesheet });
  await app.register(mcpRoutes, { server, urls, generator });

  // Expired codes and tokens are already refused; this only keeps the table small.
  const sweep = setInterval(() => {
    sweepExpiredOAuthRecords({ db: app.db.prisma }).catch((error: unknown) => app.log.warn({ err: error }, 'sweeping expired OAuth records failed'));
  }, SWEEP_EVERY_MS);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));
};

export { connectionRoutes };

import { buildApp } from './app.js';
import { ConfigError, loadConfig, loadDotEnv } from './config.js';
import { DataDirBusyError } from './platform/database/data-dir-lock.js';
import { MigrationError } from './platform/database/migrate.js';
import { EventBus } from './boards/activity/event-bus.js';

/** Reads the config, builds the app, listens, and shuts down gracefully on SIGTERM/SIGINT. */
async function main() {
  const startedAt = performance.now();
  loadDotEnv();
  const config = loadConfig();
  const app = await buildApp({ events: new EventBus(), config });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    const force = setTimeout(() => {
      // What is still open says what the shutdown was waiting for.
      app.log.error({ pending: process.getActiveResourcesInfo() }, 'shutdown took longer than SHUTDOWN_TIMEOUT_MS; exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    force.unref();
    try {
      await app.close();
      app.log.info('shutdown complete');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ host: config.HOST, port: config.PORT });
  app.log.info(
    {
      database: app.db.kind === 'embedded' ? `embedded (${config.dataDir})` : 'postgresql',
      startupMs: Math.round(performance.now() - startedAt),
    },
    `listening on http://${config.HOST}:${config.PORT} — docs at /api/docs`,
  );
}

main().catch((error: unknown) => {
  // Configuration and start-up problems are the operator's to fix: one clear line, no stack.
  if (error instanceof ConfigError || error instanceof MigrationError || error instanceof DataDirBusyError) {
    console.error(`error: ${error.message}`);
  } else if (error instanceof Error && 'code' in error && error.code === 'EADDRINUSE') {
    console.error(`error: ${error.message} (set PORT or HOST)`);
  } else {
    console.error('error: failed to start:', error);
  }
  process.exit(1);
});

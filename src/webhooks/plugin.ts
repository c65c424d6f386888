import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import type { Outbox } from './outbox.js';
import { WebhookDispatcher } from './dispatcher.js';
import { pruneWebhookEvents } from './prune-events.js';

const PRUNE_EVERY_MS = 3_600_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's webhook dispatcher: woken by the 'webhookWake' effect (platform/after-commit.ts) after a commit that left deliveries due. */
    webhooks: Outbox;
  }
}

/**
 * Runs this process's webhook dispatcher from ready to close. On close it stops claiming, lets
 * attempts in flight finish (up to the attempt timeout or half the shutdown budget), and
 * releases the rest for another process or the next start.
 */
export const webhooksPlugin = fp<{ config: Config; enabled?: boolean }>(
  async (app, { config, enabled = true }) => {
    if (!enabled) {
      app.decorate('webhooks', { wake() {} });
      return;
    }
    const dispatcher = new WebhookDispatcher(app.db, {
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      schedule: config.WEBHOOK_RETRY_SCHEDULE,
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
      disableAfterMs: config.WEBHOOK_DISABLE_AFTER,
      pollMs: config.WEBHOOK_POLL_MS,
      log: app.log,
    });
    app.decorate('webhooks', dispatcher);
    app.addHook('onReady', async () => dispatcher.start());
    app.addHook('preClose', async () => dispatcher.stop(Math.min(config.WEBHOOK_TIMEOUT_MS, config.SHUTDOWN_TIMEOUT_MS / 2)));
    // After the dispatcher's hooks: closing stops the dispatcher first, then the prune.
    schedulePruning(app, config.WEBHOOK_RETENTION);
  },
  { name: 'webhooks', dependencies: ['db'] },
);

/**
 * Deletes old settled events (see pruneWebhookEvents) once the app is ready, in the background,
 * then every hour; closing waits for the batch under way. A failed prune is logged and tried again
 * at the next hour: nothing is lost by waiting.
 */
function schedulePruning(app: FastifyInstance, retentionMs: number) {
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  const prune = () => {
    running = running.then(async () => {
      if (closed) return;
      try {
        // Closing stops it between batches: a large first backlog must not hold up the shutdown.
        const deleted = await pruneWebhookEvents(app.db, retentionMs, () => closed);
        if (deleted) app.log.info({ deleted }, 'old webhook events deleted');
      } catch (err) {
        app.log.error({ err }, 'deleting old webhook events failed');
      }
    });
  };
  app.addHook('onReady', async () => {
    prune();
    timer = setInterval(prune, PRUNE_EVERY_MS).unref();
  });
  app.addHook('preClose', async () => {
    closed = true;
    if (timer) clearInterval(timer);
    await running;
  });
}

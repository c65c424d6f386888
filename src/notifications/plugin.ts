import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { EffectRunners } from '../platform/after-commit.js';
import type { Config } from '../config.js';
import { PRUNE_EVERY_MS } from '../mail/prune-mail.js';
import { linkOrigin } from '../platform/http/public-origin.js';
import { NOTIFYING_TYPES } from './notify/choose-recipients.js';
import { NotificationSignals } from './inbox/notification-signals.js';
import { Notifier } from './notify/notifier.js';
import { pruneNotifications } from './notify/prune-notifications.js';
import type { OpenStreams } from './inbox/open-unread-stream.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Notifications: the notifier, and the signals and open streams of the live unread count. */
    notifications: { notifier: Notifier; signals: NotificationSignals; streams: OpenStreams };
  }
}

const types: ReadonlySet<string> = new Set(NOTIFYING_TYPES);

/**
 * The 'notifierWake' effect (platform/after-commit.ts): a board activity this process committed,
 * of a type that notifies someone, wakes the notifier (which reads the activity table itself).
 */
export function notificationsEffect(app: FastifyInstance): EffectRunners['notifierWake'] {
  return ({ activity }) => {
    if (types.has(activity.type)) app.notifications.notifier.wake();
  };
}

/**
 * Runs this process's notifier from ready to close: woken by every board change this process
 * commits that notifies (notificationsEffect), it reads the activity table for notifications and
 * mails each person's batch. Links in mail go to PUBLIC_BASE_URL, else to where this server listens (publicOrigin).
 */
export const notificationsPlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    const signals = new NotificationSignals();
    const origin = linkOrigin(config, app.server);
    const notifier = new Notifier(app.db, {
      mail: app.mail,
      effects: app.effects,
      signals,
      batchSeconds: config.NOTIFY_MAIL_BATCH_SECONDS,
      dueSweepSeconds: config.NOTIFY_DUE_SWEEP_SECONDS,
      pollMs: config.MAIL_POLL_MS,
      origin,
      log: app.log,
    });
    const streams: OpenStreams = new Set();
    app.decorate('notifications', { notifier, signals, streams });
    // NOTIFY_RETENTION, beside the mail log's pruning: at start and every hour.
    let pruner: NodeJS.Timeout | null = null;
    let pruning: Promise<unknown> = Promise.resolve();
    const prune = () => {
      pruning = pruneNotifications({ db: app.db.prisma, retentionMs: config.NOTIFY_RETENTION }).catch((error: unknown) =>
        app.log.warn({ err: error }, 'could not prune old notifications; retrying in an hour'),
      );
    };
    app.addHook('onReady', async () => {
      notifier.start();
      prune();
      pruner = setInterval(prune, PRUNE_EVERY_MS).unref();
    });
    app.addHook('preClose', async () => {
      if (pruner) clearInterval(pruner);
      for (const close of [...streams]) close();
      await notifier.stop();
      // Before the database closes: a prune under way would otherwise fail and warn.
      await pruning;
    });
  },
  { name: 'notifications', dependencies: ['db', 'mail', 'after-commit'] },
);

import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { publicOrigin } from '../platform/http/public-origin.js';
import { NO_MAIL, type MailOutbox } from './outbox.js';
import { PRUNE_EVERY_MS, pruneSentMail } from './prune-mail.js';
import { createMailSender } from './transport.js';
import { MailWorker } from './worker.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's mail outbox: `enabled` when SMTP_URL is set; woken by the 'mailWake' effect (platform/after-commit.ts) after a commit that recorded mail. */
    mail: MailOutbox;
  }
}

/**
 * Runs this process's mail worker from ready to close, when SMTP_URL is set. `worker: false`
 * (tests of restarts) records mail without sending it here.
 */
export const mailPlugin = fp<{ config: Config; worker?: boolean }>(
  async (app, { config, worker = true }) => {
    // MAIL_RETENTION, with or without SMTP (a server that stopped mailing still prunes its log).
    let pruner: NodeJS.Timeout | null = null;
    let pruning: Promise<unknown> = Promise.resolve();
    const prune = () => {
      pruning = pruneSentMail({ db: app.db.prisma, retentionMs: config.MAIL_RETENTION }).catch((error: unknown) =>
        app.log.warn({ err: error }, 'could not prune sent mail; retrying in an hour'),
      );
    };
    app.addHook('onReady', async () => {
      prune();
      pruner = setInterval(prune, PRUNE_EVERY_MS).unref();
    });
    app.addHook('preClose', async () => {
      if (pruner) clearInterval(pruner);
      // Before the database closes: a prune under way would otherwise fail and warn.
      await pruning;
    });
    if (!config.SMTP_URL || !config.MAIL_FROM) {
      app.decorate('mail', NO_MAIL);
      return;
    }
    if (!config.PUBLIC_BASE_URL) {
      // Mailed links then point at this server's own listener (publicOrigin), which people outside may not reach.
      app.log.warn(
        { origin: publicOrigin(config) },
        'SMTP_URL is set but PUBLIC_BASE_URL is not: links in mail point at this server\'s listen address (HOST:PORT); set PUBLIC_BASE_URL to the address people use',
      );
    }
    if (!worker) {
      app.decorate('mail', { enabled: true, wake() {} });
      return;
    }
    const sender = createMailSender({ url: config.SMTP_URL, from: config.MAIL_FROM, timeoutMs: config.MAIL_TIMEOUT_MS });
    const mailWorker = new MailWorker(app.db, { sender, schedule: config.MAIL_RETRY_SCHEDULE, timeoutMs: config.MAIL_TIMEOUT_MS, pollMs: config.MAIL_POLL_MS, log: app.log });
    app.decorate('mail', mailWorker);
    app.addHook('onReady', async () => mailWorker.start());
    app.addHook('preClose', async () => mailWorker.stop(config.SHUTDOWN_TIMEOUT_MS / 2));
  },
  { name: 'mail', dependencies: ['db'] },
);

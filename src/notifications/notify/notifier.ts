import type { Database } from '../../platform/db.js';
import { OutboxWaker } from '../../platform/outbox-waker.js';
import type { MailOutbox } from '../../mail/outbox.js';
import type { Effects } from '../../platform/after-commit.js';
import { CursorHorizons } from './cursor-horizons.js';
import { mailDigests, nextDigestAt } from '../mail/mail-digests.js';
import type { NotificationSignals } from '../inbox/notification-signals.js';
import { notifyActivities } from './notify-activities.js';
import { notifyDueCards } from './notify-due-cards.js';

/**
 * At most one look per this long when woken by this process's commits: a look is a transaction of
 * several statements whatever it finds, and a busy board commits a change every few milliseconds
 * (woken at once, the notifier cost card moves a fifth of their throughput in bench/boards.ts). A
 * burst is read in one look; a notification waits a quarter of a second at most for it.
 */
const WAKE_GAP_MS = 250;

export interface NotifierOptions {
  /** Whether this server sends mail (no batch is mailed when not). */
  mail: MailOutbox;
  /** What follows the commit of a batch's mail ('mail.queued' wakes the mail worker). */
  effects: Effects;
  signals: NotificationSignals;
  /** NOTIFY_MAIL_BATCH_SECONDS: a person's notifications are mailed together this long after the first. */
  batchSeconds: number;
  /** NOTIFY_DUE_SWEEP_SECONDS. */
  dueSweepSeconds: number;
  /** How often to look besides being woken (other processes' and the CLI's changes). */
  pollMs: number;
  /** The origin links in mail point at (PUBLIC_BASE_URL, else where this server listens). */
  origin: () => string;
  log: { warn(o: object, m: string): void };
}

/**
 * Runs the three jobs that turn board changes into notifications and notifications into mail:
 * notifyActivities (who is told of a change: chooseRecipients), notifyDueCards (due dates, every
 * NOTIFY_DUE_SWEEP_SECONDS) and mailDigests (one mail per person per batch). Each is durable in the
 * database; this only says when they run. The post-commit effect 'notifierWake'
 * (platform/after-commit.ts, notificationsEffect in plugin.ts) only wakes it; the poll finds what
 * other processes and the CLI did. It tells this process's unread-count streams whose
 * notifications changed.
 */
export class Notifier {
  private readonly waker: OutboxWaker;
  private readonly horizons = new CursorHorizons();
  private sweeper: NodeJS.Timeout | null = null;
  private sweeping: Promise<unknown> = Promise.resolve();

  constructor(private readonly db: Database, private readonly options: NotifierOptions) {
    this.waker = new OutboxWaker({
      look: () => this.look(),
      nextDue: () => this.nextBatchAt(),
      pollMs: options.pollMs,
      onError: (error) => options.log.warn({ err: error }, 'notifier could not read changes or mail notifications; retrying'),
    });
  }

  start() {
    this.waker.start();
    const sweep = () => {
      this.sweeping = this.sweepDue().then(
        (n) => n && this.wake(),
        (error: unknown) => this.options.log.warn({ err: error }, 'due-date sweep failed; retrying at the next one'),
      );
    };
    sweep();
    this.sweeper = setInterval(sweep, this.options.dueSweepSeconds * 1000).unref();
  }

  async stop() {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
    await this.waker.stop();
    await this.sweeping;
  }

  private lastLookAt = 0;

  /** A change was committed here: read it now, or WAKE_GAP_MS after the last look began. */
  wake() {
    const at = this.lastLookAt + WAKE_GAP_MS;
    if (Date.now() >= at) this.waker.wake();
    else this.waker.wakeAt(at);
  }

  private async look(): Promise<boolean> {
    this.lastLookAt = Date.now();
    while (!(await this.scan()));
    await this.mailBatches();
    return true;
  }

  /** One page of unread activities turned into notifications (notifyActivities); true when none are left. */
  async scan(): Promise<boolean> {
    const { done, told } = await notifyActivities({ db: this.db.prisma, horizons: this.horizons, mailEnabled: this.options.mail.enabled });
    this.options.signals.changed(told);
    return done;
  }

  /** The due-date sweep (notifyDueCards); how many notifications were written. */
  async sweepDue(): Promise<number> {
    const { count, told } = await notifyDueCards({ db: this.db.prisma, mailEnabled: this.options.mail.enabled });
    if (count) this.options.signals.changed(told);
    return count;
  }

  /** When the earliest person's batch falls due, or null (no pending notification, or no mail). */
  private async nextBatchAt(): Promise<number | null> {
    if (!this.options.mail.enabled) return null;
    return nextDigestAt({ db: this.db.prisma, batchSeconds: this.options.batchSeconds });
  }

  /** Mails every person whose batch is due (mailDigests): one mail each; the mail worker is woken after. */
  async mailBatches(): Promise<number> {
    if (!this.options.mail.enabled) return 0;
    const mailed = await mailDigests({ db: this.db.prisma, batchSeconds: this.options.batchSeconds, origin: this.options.origin });
    if (mailed) this.options.effects.committed({ kind: 'mail.queued' });
    return mailed;
  }
}

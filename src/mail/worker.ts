import { channel } from 'node:diagnostics_channel';
import type { Database } from '../platform/db.js';
import { withJitter } from '../platform/jitter.js';
import { MAIL_ATTEMPT_CHANNEL } from './metrics.js';
import { type OutboxSql, outboxSql } from '../platform/outbox-sql.js';
import { OutboxWaker, settleWithin } from '../platform/outbox-waker.js';
import { type ClaimedMail, claimMail, type MailResult, nextMailAt, recordMailResult } from './claim-mail.js';
import type { MailOutbox } from './outbox.js';
import type { MailSender, SendOutcome } from './transport.js';

export interface MailWorkerOptions {
  sender: MailSender;
  /** MAIL_RETRY_SCHEDULE: delays between consecutive attempts; then the mail is failed. */
  schedule: readonly number[];
  /** MAIL_TIMEOUT_MS: per SMTP step; one send may take at most three of them. */
  timeoutMs: number;
  pollMs: number;
  /** Mails handed to the SMTP server at once by this process. */
  concurrency?: number;
  log: { warn(o: object, m: string): void; info(o: object, m: string): void };
}

/** Each finished attempt, for metrics: `{ db, status }`, the mail's status after it (sent, pending, failed). */
const attempted = channel(MAIL_ATTEMPT_CHANNEL);

/**
 * Sends the mail outbox, as the webhook dispatcher sends its deliveries: every app process runs
 * one; it claims due mail with `FOR UPDATE SKIP LOCKED` under a lease, is woken at once by this
 * process's commits and otherwise looks every `pollMs` (and when the next retry falls due).
 * Results are written under the lease as a fencing token, and the lease outlasts the longest a
 * send may take, so no other process takes a mail while it is being sent here.
 */
export class MailWorker implements MailOutbox {
  readonly enabled = true;
  private readonly sql: OutboxSql;
  private readonly concurrency: number;
  /** A send still running past this is given up (counted as failed, retried later). */
  private readonly deadlineMs: number;
  private readonly leaseMs: number;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly waker: OutboxWaker;

  constructor(private readonly db: Database, private readonly options: MailWorkerOptions) {
    this.sql = outboxSql(db);
    this.concurrency = options.concurrency ?? 4;
    this.deadlineMs = 3 * options.timeoutMs;
    this.leaseMs = this.deadlineMs + options.timeoutMs + 10_000;
    this.waker = new OutboxWaker({
      look: () => this.claimAndSend(),
      nextDue: () => nextMailAt({ sql: this.sql }),
      pollMs: options.pollMs,
      onError: (error) => this.options.log.warn({ err: error }, 'mail worker could not claim mail; retrying'),
    });
  }

  start() {
    this.waker.start();
  }

  /** A change committed mail: look for due mail now. */
  wake() {
    this.waker.wake();
  }

  /**
   * Stops claiming and lets sends in flight finish for up to `graceMs`. A send still running then
   * keeps its lease (it may yet be delivered): another process takes that mail only once the
   * lease has run out.
   */
  async stop(graceMs: number) {
    await this.waker.stop();
    await settleWithin(this.inFlight, graceMs);
    this.options.sender.close();
  }

  /** Claims due mail while this process has room to send it; true when fewer were due than room (idle). */
  private async claimAndSend(): Promise<boolean> {
    while (this.waker.isRunning) {
      const room = this.concurrency - this.inFlight.size;
      // Full: a send finishing wakes the waker.
      if (room <= 0) return false;
      const claimed = await claimMail({ sql: this.sql, limit: room, leaseSeconds: this.leaseMs / 1000 });
      for (const mail of claimed) this.track(mail);
      if (claimed.length < room) return true;
    }
    return false;
  }

  private track(mail: ClaimedMail) {
    const done: Promise<void> = this.attempt(mail)
      .catch((error: unknown) => this.options.log.warn({ err: error, mailId: mail.id }, 'mail attempt could not be recorded; its lease will run out'))
      .finally(() => {
        this.inFlight.delete(done);
        this.wake();
      });
    this.inFlight.add(done);
  }

  private async attempt(mail: ClaimedMail) {
    const outcome = await this.sendWithin(mail);
    const result = this.resultOf(mail, outcome);
    const moved = await recordMailResult({ sql: this.sql, mail, result });
    if (attempted.hasSubscribers) attempted.publish({ db: this.db.prisma, status: result.status });
    if (!moved) return;
    if (result.status === 'pending') {
      this.options.log.warn({ mailId: mail.id, error: result.error, retryAt: result.retryAt }, 'mail not sent; will retry');
      this.waker.wakeAt(result.retryAt.getTime());
    } else if (result.status === 'failed') this.options.log.warn({ mailId: mail.id, error: result.error }, 'mail failed for good');
  }

  private async sendWithin(mail: ClaimedMail): Promise<SendOutcome> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<SendOutcome>((resolve) => {
      timer = setTimeout(() => resolve({ sent: false, permanent: false, error: `no answer from the SMTP server within ${this.deadlineMs} ms` }), this.deadlineMs);
    });
    try {
      return await Promise.race([this.options.sender.send({ to: mail.recipient, subject: mail.subject, text: mail.text, html: mail.html, messageId: mail.messageId, headers: mail.headers ?? undefined }), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Sent; a permanent refusal or a spent schedule: failed; otherwise retried after the schedule's delay, jittered. */
  private resultOf(mail: ClaimedMail, outcome: SendOutcome): MailResult {
    if (outcome.sent) return { status: 'sent' };
    const round = mail.attempts + 1;
    const delay = this.options.schedule[round - 1];
    if (outcome.permanent) return { status: 'failed', error: outcome.error };
    if (delay === undefined) return { status: 'failed', error: `${outcome.error} (gave up after ${round} attempts)` };
    return { status: 'pending', error: outcome.error, retryAt: new Date(Date.now() + withJitter(delay)) };
  }
}

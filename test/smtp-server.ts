import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll } from 'vitest';

/** A mail the loopback server accepted, decoded enough for tests to read. */
export interface ReceivedMail {
  /** The envelope's recipients (RCPT TO). */
  to: string[];
  from: string;
  subject: string;
  messageId: string;
  /** The whole message with quoted-printable undone: both bodies, headers included. */
  decoded: string;
  /** The plain-text part. */
  text: string;
  /** The HTML part. */
  html: string;
}

/** Undoes quoted-printable (soft line breaks, =XX bytes) as UTF-8. */
const unQuote = (s: string) => Buffer.from(s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8');

/** The body of the first MIME part of the given type (quoted-printable or base64 undone). */
export function part(raw: string, type: string): string {
  const at = raw.search(new RegExp(`Content-Type: ${type}`, 'i'));
  if (at < 0) return '';
  const rest = raw.slice(at);
  const headerEnd = rest.search(/\r?\n\r?\n/);
  const headers = rest.slice(0, headerEnd);
  const body = rest.slice(headerEnd).replace(/^\r?\n\r?\n/, '').split(/\r?\n--/)[0]!;
  if (/base64/i.test(headers)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/quoted-printable/i.test(headers)) return unQuote(body);
  return body;
}

/** A header's value, unfolded, with RFC 2047 encoded words (=?UTF-8?Q?…?=, =?UTF-8?B?…?=) decoded. */
export const header = (raw: string, name: string) =>
  (new RegExp(`^${name}: (.*(?:\\r?\\n[ \\t].*)*)`, 'im').exec(raw)?.[1]?.replace(/\r?\n[ \t]/g, ' ') ?? '')
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, enc: string, text: string) =>
      enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : unQuote(text.replace(/_/g, ' ')),
    );

/**
 * A real SMTP server on 127.0.0.1 for tests (the `smtp-server` package): no TLS, any login
 * accepted. `refuse` maps a recipient to a reply (`550 …`) given to its RCPT TO; `stop()` and
 * `start()` take it away and bring it back on the same port (an outage).
 */
export class LoopbackSmtp {
  readonly received: ReceivedMail[] = [];
  readonly refuse = new Map<string, { code: number; message: string }>();
  port = 0;
  private server: SMTPServer | null = null;
  private waiters: (() => void)[] = [];

  async start() {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth: (_auth, _session, callback) => callback(null, { user: 'test' }),
      onRcptTo: (address, _session, callback) => {
        const refusal = this.refuse.get(address.address.toLowerCase());
        if (refusal) return callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
        callback();
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          this.received.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            subject: header(raw, 'Subject'),
            messageId: header(raw, 'Message-ID'),
            decoded: unQuote(raw),
            text: part(raw, 'text/plain'),
            html: part(raw, 'text/html'),
          });
          for (const w of this.waiters.splice(0)) w();
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    // A client killed mid-conversation (kill -9 of the server under test) resets its connection,
    // which smtp-server emits on the server: without a listener that would end this process.
    server.on('error', () => {});
    this.port = (server.server.address() as { port: number }).port;
    this.server = server;
    return this;
  }

  /** Closes the server; connections in progress are cut. */
  async stop() {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** SMTP_URL and MAIL_FROM for an app that sends here. */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return { SMTP_URL: `smtp://user:secret@127.0.0.1:${this.port}`, MAIL_FROM: 'Taskboard <taskboard@example.test>', MAIL_POLL_MS: '200', ...extra };
  }

  /** The mails to `address` so far. */
  to(address: string) {
    return this.received.filter((m) => m.to.includes(address));
  }

  /** Waits until a mail to `address` has arrived (up to `timeoutMs`), and returns the latest. */
  async waitFor(address: string, timeoutMs = 60_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.to(address);
      if (found.length) return found[found.length - 1]!;
      if (Date.now() > deadline) throw new Error(`no mail to ${address} within ${timeoutMs} ms (got mail to: ${this.received.flatMap((m) => m.to).join(', ') || 'nobody'})`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 200);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }
}

/**
 * A loopback SMTP server for the tests of this file (or describe block): started before them, stopped after.
 * Tests that wait for mail get 90 s (their describe's timeout): the worker sends in the background,
 * and a loaded 2-core machine runs it late; nothing in them is timed tightly.
 */
export function useLoopbackSmtp(): LoopbackSmtp {
  const smtp = new LoopbackSmtp();
  beforeAll(async () => {
    await smtp.start();
  });
  afterAll(async () => {
    await smtp.stop();
  });
  return smtp;
}

/** The first http(s) link in a text. */
export const linkIn = (text: string) => /https?:\/\/\S+/.exec(text)?.[0] ?? null;

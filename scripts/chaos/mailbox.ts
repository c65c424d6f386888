import { SMTPServer } from 'smtp-server';
import { header, part } from '../../test/smtp-server.js';
import { onCleanup } from './cleanup.js';

/** A mail the loopback SMTP server accepted: it answered 250 on a connection that was still open. */
export interface ArrivedMail {
  to: string[];
  messageId: string;
  subject: string;
  /** The plain-text part, decoded. */
  text: string;
  at: number;
}

/**
 * The operator's SMTP server: `smtp-server` on loopback, accepting everything, but slowly — it
 * holds its answer to DATA for `delayMs` after the message's last byte, so a `kill -9` of the
 * server or a PostgreSQL stop often lands while a mail is being handed over. A mail counts as
 * arrived only when the 250 goes out on a connection that is still open (a sender killed before
 * it never learns the mail was taken, and must send it again); a connection that closes while a
 * message is in DATA or waiting for its answer is counted as a send cut short.
 */
export async function startMailbox({ delayMs }: { delayMs: number }) {
  const arrived: ArrivedMail[] = [];
  const inData = new Set<string>();
  const closed = new Set<string>();
  let cut = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (_auth, _session, callback) => callback(null, { user: 'chaos' }),
    onClose: (session) => {
      closed.add(session.id);
      if (inData.delete(session.id)) cut++;
    },
    onData: (stream, session, callback) => {
      inData.add(session.id);
      const chunks: Buffer[] = [];
      // A connection cut mid-message destroys the stream with an error: counted in onClose.
      stream.on('error', () => {});
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        setTimeout(() => {
          if (closed.has(session.id)) return callback();
          inData.delete(session.id);
          arrived.push({
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            messageId: header(raw, 'Message-ID'),
            subject: header(raw, 'Subject'),
            text: part(raw, 'text/plain'),
            at: Date.now(),
          });
          callback();
        }, delayMs);
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  // A client killed mid-conversation (kill -9 of the server under test) resets its connection,
  // which smtp-server emits on the server: without a listener that would end this process.
  server.on('error', () => {});
  onCleanup('SMTP server', () => server.close());
  const { port } = server.server.address() as { port: number };
  return {
    /** SMTP_URL for the server under test. */
    url: `smtp://chaos:chaos@127.0.0.1:${port}`,
    arrived,
    /** Sends cut short: the connection closed while a message was in DATA or waiting for its 250. */
    cut: () => cut,
  };
}

export type Mailbox = Awaited<ReturnType<typeof startMailbox>>;

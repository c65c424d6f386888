import nodemailer from 'nodemailer';

export interface MailTransportOptions {
  /** SMTP_URL: smtp:// (STARTTLS when offered) or smtps:// (implicit TLS). */
  url: string;
  /** MAIL_FROM. */
  from: string;
  /** Per SMTP step: connecting, the greeting, each answer. */
  timeoutMs: number;
}

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  headers?: Record<string, string> | undefined;
}

/** How one hand-over to the SMTP server went: sent, or refused / failed, and whether for good. */
export type SendOutcome = { sent: true } | { sent: false; permanent: boolean; error: string };

/** Sends one mail; never throws. */
export type MailSender = { send(mail: OutgoingMail): Promise<SendOutcome>; close(): void };

/**
 * nodemailer over SMTP, one connection per mail (a worker sends few; a pool would hold idle
 * connections an SMTP server closes anyway). A 5xx answer is a permanent refusal (RFC 5321 §4.2.1):
 * retrying cannot help. Everything else (4xx, timeouts, a refused connection) is retried.
 */
export function createMailSender({ url, from, timeoutMs }: MailTransportOptions): MailSender {
  const transport = nodemailer.createTransport({ url, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs }, { from });
  return {
    async send(mail) {
      try {
        const info = await transport.sendMail({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, messageId: mail.messageId, ...(mail.headers ? { headers: mail.headers } : {}) });
        if (info.rejected.length) return { sent: false, permanent: true, error: `refused: ${info.response}` };
        return { sent: true };
      } catch (error) {
        const e = error as { responseCode?: number; response?: string; message?: string; code?: string };
        const code = e.responseCode;
        const permanent = code !== undefined && code >= 500 && code < 600;
        // The server's own words when it answered; the error's message (no credentials in it) when it did not.
        const what = e.response ?? `${e.code ? `${e.code}: ` : ''}${e.message ?? String(error)}`;
        return { sent: false, permanent, error: what.replace(/\s+/g, ' ').trim() };
      }
    },
    close() {
      transport.close();
    },
  };
}

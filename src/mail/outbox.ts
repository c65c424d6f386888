/**
 * This process's mail worker as changes see it. `enabled` is false on a server without SMTP_URL:
 * flows that need a mail to reach someone (an e-mail change, a reset by mail) are refused there
 * instead of writing mail nobody sends. `wake` after a commit that recorded mail sends it at once.
 */
export interface MailOutbox {
  readonly enabled: boolean;
  wake(): void;
}

/** The outbox of a server that sends no mail. */
export const NO_MAIL: MailOutbox = { enabled: false, wake() {} };

import { useState } from 'preact/hooks';
import { get, post } from '../api';
import { Alert, useAction, useLoad } from '../ui';

/**
 * "Forgot password?" under the sign-in form: mails a link that sets a new password, with the same
 * answer whether or not the address has an account. A server that sends no mail says whom to ask.
 */
export function ForgotPassword({ email: typed }: { email: string }) {
  const [open, setOpen] = useState(false);
  if (!open)
    return (
      <p>
        <button type="button" class="link" onClick={() => setOpen(true)}>
          Forgot password?
        </button>
      </p>
    );
  return <ResetRequest typed={typed} />;
}

function ResetRequest({ typed }: { typed: string }) {
  const server = useLoad(() => get<{ mail: boolean }>('/auth/session'), []);
  const [email, setEmail] = useState(typed);
  const [sent, setSent] = useState<string | null>(null);
  const { error, busy, run } = useAction();
  if (!server.data) return server.error ? <Alert error={server.error} /> : null;
  if (!server.data.mail)
    return (
      <section class="panel" aria-label="Forgot password">
        <p role="status">This server sends no mail. Ask your site administrator for a link to set a new password.</p>
      </section>
    );
  return (
    <section class="panel" aria-label="Forgot password">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            const { message } = await post<{ message: string }>('/auth/password-reset', { email });
            setSent(message);
          });
        }}
      >
        <label>
          E-mail for the link
          <input type="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </label>
        <Alert error={error} />
        {sent && <p role="status">{sent}</p>}
        <button type="submit" disabled={busy}>
          Mail me a link
        </button>
      </form>
    </section>
  );
}

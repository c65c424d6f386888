import { post } from '../api';
import type { User } from '../types';
import { Alert, PageTitle, useAction } from '../ui';

/**
 * /join/eml_…: the link mailed to a new e-mail address. It is confirmed by the account that
 * asked for it, signed in: someone else who opens the mail cannot give their address away.
 */
export function ConfirmEmailPage({ token, signedInAs }: { token: string; signedInAs: User | null }) {
  const { error, busy, run } = useAction();
  if (!signedInAs) {
    return (
      <main class="narrow auth">
        <PageTitle>Confirm your new e-mail address</PageTitle>
        <p>Sign in to the account that asked for this change (with its current address), and the link will finish the change.</p>
        <p>
          <a class="button primary" href={`/signin?next=${encodeURIComponent(`/join/${token}`)}`}>
            Sign in to confirm
          </a>
        </p>
      </main>
    );
  }
  return (
    <main class="narrow auth">
      <PageTitle>Confirm your new e-mail address</PageTitle>
      <p>
        You are signed in as <strong>{signedInAs.email}</strong>. Confirming makes the address this link was mailed to the one you sign in with; we tell your
        current address.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            await post<{ user: User }>('/account/email/confirm', { token });
            // A real navigation: the app starts again and reads the account with its new address.
            location.assign('/settings/account?email=confirmed');
          });
        }}
      >
        <Alert error={error} />
        <button type="submit" class="primary" disabled={busy}>
          Confirm this address
        </button>
      </form>
    </main>
  );
}

import { useState } from 'preact/hooks';
import { post } from '../api';
import { Alert, PageTitle } from '../ui';

/**
 * `/unsubscribe/<token>`, the link at the foot of every notification mail: one click on its button
 * turns all notification mail off, signed in or not (the token is the proof). Opening the page
 * changes nothing: mail scanners that open links (and run their scripts) must not unsubscribe
 * anyone. A mail client's own one-click unsubscribe (RFC 8058) POSTs to the same address directly.
 */
export function UnsubscribePage({ token }: { token: string }) {
  const [done, setDone] = useState<{ email: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const stop = () => {
    setBusy(true);
    setError(null);
    post<{ email: string }>(`/unsubscribe/${encodeURIComponent(token)}`).then(setDone, setError).finally(() => setBusy(false));
  };
  return (
    <main class="narrow">
      <PageTitle>Notification mail</PageTitle>
      <Alert error={error} />
      {!done && (
        <>
          <p>Stop all notification mail to this address? Notifications stay listed under the bell when you sign in.</p>
          <button type="button" class="primary" onClick={stop} disabled={busy}>
            Stop notification mail
          </button>
        </>
      )}
      {done && (
        <>
          <p role="status">
            You are unsubscribed: <strong>{done.email}</strong> gets no more notification mail. Notifications are still listed under the bell when you sign in.
          </p>
          <p>
            Changed your mind? Choose what is mailed on <a href="/settings/account">your account page</a>.
          </p>
        </>
      )}
    </main>
  );
}

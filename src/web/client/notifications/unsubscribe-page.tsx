import { useEffect, useState } from 'preact/hooks';
import { post } from '../api';
import { Alert, PageTitle } from '../ui';

/**
 * `/unsubscribe/<token>`, the link at the foot of every notification mail: opening it turns all
 * notification mail off, signed in or not (the token is the proof). Asked once per page load.
 */
export function UnsubscribePage({ token }: { token: string }) {
  const [done, setDone] = useState<{ email: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    post<{ email: string }>(`/unsubscribe/${encodeURIComponent(token)}`).then(setDone, setError);
  }, [token]);
  return (
    <main class="narrow">
      <PageTitle>Notification mail</PageTitle>
      <Alert error={error} />
      {!done && !error && <p>Unsubscribing…</p>}
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

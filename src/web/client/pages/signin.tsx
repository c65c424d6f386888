import { useState } from 'preact/hooks';
import { post } from '../api';
import type { User } from '../types';
import { Alert, Notice, PageTitle, useAction } from '../ui';
import { ForgotPassword } from './forgot-password';

export function SignInPage({ notice, onSignedIn }: { notice?: string | undefined; onSignedIn: (user: User) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { error, busy, run } = useAction();
  return (
    <main class="narrow auth">
      <PageTitle>Sign in</PageTitle>
      {notice && <Notice>{notice}</Notice>}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            const { user } = await post<{ user: User }>('/auth/login', { email, password }, { quiet401: true });
            onSignedIn(user);
          });
        }}
      >
        <label>
          E-mail
          <input type="email" name="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </label>
        <label>
          Password
          <input type="password" name="password" autocomplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        </label>
        <Alert error={error} />
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <ForgotPassword email={email} />
    </main>
  );
}

import { useState } from 'preact/hooks';
import { post } from '../api';
import type { User } from '../types';
import { Alert, PageTitle, useAction } from '../ui';

/** First run: the site has no user yet; this page creates its first administrator. */
export function SetupPage({ onDone }: { onDone: (user: User) => void }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { error, busy, run } = useAction();
  return (
    <main class="narrow auth">
      <PageTitle>Welcome</PageTitle>
      <p>This server has no users yet. Create the first account: it will be a site administrator, who can add everyone else.</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            const { user } = await post<{ user: User }>('/auth/setup', { name: name || undefined, email, password });
            onDone(user);
          });
        }}
      >
        <label>
          Name
          <input name="name" autocomplete="name" value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <label>
          E-mail
          <input type="email" name="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </label>
        <label>
          Password <span class="hint">(at least 8 characters)</span>
          <input type="password" name="password" autocomplete="new-password" required minLength={8} value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        </label>
        <Alert error={error} />
        <button type="submit" class="primary" disabled={busy}>
          Create administrator
        </button>
      </form>
    </main>
  );
}

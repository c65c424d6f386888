import { useState } from 'preact/hooks';
import { ApiError, get, post } from '../api';
import type { JoinLink, User } from '../types';
import { ConfirmEmailPage } from './confirm-email';
import { Alert, errorFor, FieldError, formatDate, PageTitle, useAction, useLoad } from '../ui';

/**
 * /join/<token>: an invitation to a board (an address without an account) or a set-up link a
 * site admin made. The person chooses a name and password here, is signed in and lands on the
 * board. Used, revoked and expired links each get a page that says so and whom to ask.
 */
export function JoinPage({ token, signedInAs }: { token: string; signedInAs: User | null }) {
  // A new e-mail address's confirmation (eml_…) is the account's own business, not a sign-up.
  if (token.startsWith('eml_')) return <ConfirmEmailPage token={token} signedInAs={signedInAs} />;
  return <JoinLinkPage token={token} signedInAs={signedInAs} />;
}

function JoinLinkPage({ token, signedInAs }: { token: string; signedInAs: User | null }) {
  const link = useLoad(() => get<{ link: JoinLink }>(`/auth/join/${encodeURIComponent(token)}`).then((r) => r.link), [token]);
  if (link.error) return <LinkProblem error={link.error} />;
  if (!link.data) return <p class="boot">Loading…</p>;
  return <JoinForm token={token} link={link.data} signedInAs={signedInAs} />;
}

function LinkProblem({ error }: { error: unknown }) {
  const expired = error instanceof ApiError && error.status === 410;
  const unknown = error instanceof ApiError && (error.status === 404 || error.status === 400);
  return (
    <main class="narrow auth">
      <PageTitle>{expired ? 'This link has expired' : unknown ? 'This link does not work' : 'Something went wrong'}</PageTitle>
      {expired && <p>{error instanceof ApiError ? error.detail : ''}</p>}
      {unknown && <p>It was already used, replaced by a newer link, or revoked. Ask whoever sent it for a new one.</p>}
      {!expired && !unknown && <Alert error={error} />}
      <p>
        Already have an account? <a href="/signin">Sign in</a>.
      </p>
    </main>
  );
}

function JoinForm({ token, link, signedInAs }: { token: string; link: JoinLink; signedInAs: User | null }) {
  const [name, setName] = useState(link.name ?? '');
  const [password, setPassword] = useState('');
  const { error, busy, run } = useAction();
  const invalid = (field: string) => (errorFor(error, field) ? true : undefined);
  const invitation = link.kind === 'invitation';
  return (
    <main class="narrow auth">
      <PageTitle>{invitation ? `Join “${link.board!.name}”` : link.passwordSet ? 'Set a new password' : 'Set up your account'}</PageTitle>
      {invitation ? (
        <p>
          <strong>{link.invitedBy}</strong> invited <strong>{link.email}</strong> to the board <strong>{link.board!.name}</strong> as {article(link.role!)}{' '}
          {link.role}. Choose your name and a password to join.
        </p>
      ) : (
        <p>
          Your account is <strong>{link.email}</strong>. {link.passwordSet ? 'Choose a new password (and check your name) to sign in; your other sessions end.' : 'Choose your name and a password to sign in.'}
        </p>
      )}
      {signedInAs && (
        <p class="notice" role="status">
          You are signed in as {signedInAs.email}; continuing signs you in as {link.email} instead.
        </p>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            const { boardId } = await post<{ user: User; boardId: number | null }>(`/auth/join/${encodeURIComponent(token)}`, { name, password });
            // A real navigation: the app starts again with the new session.
            location.assign(boardId !== null ? `/boards/${boardId}` : '/boards');
          });
        }}
      >
        <label>
          E-mail
          <input type="email" autocomplete="username" value={link.email} readOnly />
        </label>
        <label>
          Name
          <input autocomplete="name" required value={name} onInput={(e) => setName(e.currentTarget.value)} aria-invalid={invalid('name')} aria-describedby="join-name-error" />
          <FieldError error={error} field="name" id="join-name-error" />
        </label>
        <label>
          Password <span class="hint">(at least 8 characters)</span>
          <input
            type="password"
            autocomplete="new-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
            aria-invalid={invalid('password')}
            aria-describedby="join-password-error"
          />
          <FieldError error={error} field="password" id="join-password-error" />
        </label>
        <Alert error={error} fields={['name', 'password']} />
        <button type="submit" class="primary" disabled={busy}>
          {invitation ? 'Join the board' : 'Set up and sign in'}
        </button>
        <p class="hint">This link works until {formatDate(link.expiresAt, { time: true })}.</p>
      </form>
    </main>
  );
}

const article = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a');

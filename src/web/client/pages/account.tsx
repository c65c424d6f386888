import { useState } from 'preact/hooks';
import { del, get, patch, post, put } from '../api';
import { useSession } from '../session';
import { AvatarPicture } from './account-avatar';
import { DateSettings } from './account-dates';
import type { Session, User } from '../types';
import { NotificationMailSettings } from '../notifications/mail-settings';
import { Alert, errorFor, FieldError, formatDate, Notice, PageTitle, plural, Table, useAction, useLoad } from '../ui';

/** Your account: name and e-mail address, dates' time zone, password, and where you are signed in. */
export function AccountPage() {
  // Bumped when a password change ends the other sessions: the list is read again.
  const [sessionsVersion, setSessionsVersion] = useState(0);
  return (
    <main class="narrow account">
      <PageTitle>Your account</PageTitle>
      <Profile />
      <AvatarPicture />
      <DateSettings />
      <Password onChanged={() => setSessionsVersion((v) => v + 1)} />
      <NotificationMailSettings />
      <Sessions version={sessionsVersion} />
    </main>
  );
}

function Profile() {
  const { user, updateUser } = useSession();
  const [name, setName] = useState(user.name);
  const [email, setEmail] = useState(user.email);
  const [currentPassword, setCurrentPassword] = useState('');
  const [saved, setSaved] = useState(false);
  // Where the confirmation link of a new address went: the address changes once it is opened.
  const [pendingEmail, setPendingEmail] = useState<string | null>(null);
  const { error, busy, run } = useAction();
  const emailChanged = email.trim().toLowerCase() !== user.email;
  const dirty = name.trim() !== user.name || emailChanged;
  const invalid = (field: string) => (errorFor(error, field) ? true : undefined);
  return (
    <section class="panel" aria-labelledby="profile-heading">
      <h2 id="profile-heading">Profile</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setSaved(false);
          void run(async () => {
            const { user: updated, emailChange } = await patch<{ user: User; emailChange: { email: string } | null }>('/account', {
              ...(name.trim() !== user.name ? { name } : {}),
              ...(emailChanged ? { email, currentPassword } : {}),
            });
            updateUser(updated);
            setName(updated.name);
            setEmail(updated.email);
            setCurrentPassword('');
            if (emailChange) setPendingEmail(emailChange.email);
            setSaved(true);
          });
        }}
      >
        <label>
          Name
          <input autocomplete="name" required value={name} onInput={(e) => setName(e.currentTarget.value)} aria-invalid={invalid('name')} aria-describedby="name-error" />
          <FieldError error={error} field="name" id="name-error" />
        </label>
        <label>
          E-mail <span class="hint">(you sign in with it)</span>
          <input type="email" autocomplete="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} aria-invalid={invalid('email')} aria-describedby="email-error" />
          <FieldError error={error} field="email" id="email-error" />
        </label>
        {emailChanged && (
          <label>
            Current password <span class="hint">(to change your e-mail address)</span>
            <input
              type="password"
              autocomplete="current-password"
              required
              value={currentPassword}
              onInput={(e) => setCurrentPassword(e.currentTarget.value)}
              aria-invalid={invalid('currentPassword')}
              aria-describedby="profile-password-error"
            />
            <FieldError error={error} field="currentPassword" id="profile-password-error" />
          </label>
        )}
        <Alert error={error} fields={['name', 'email', 'currentPassword']} />
        {saved && !dirty && <p role="status">Saved.</p>}
        {!pendingEmail && new URLSearchParams(location.search).get('email') === 'confirmed' && (
          <p class="notice" role="status">
            Your new e-mail address is confirmed: you sign in with {user.email} from now on.
          </p>
        )}
        {pendingEmail && (
          <p class="notice" role="status">
            We sent a link to <strong>{pendingEmail}</strong>. Your address changes once you open it while signed in here.
          </p>
        )}
        <button type="submit" class="primary" disabled={busy || !dirty}>
          Save profile
        </button>
      </form>
    </section>
  );
}

function Password({ onChanged }: { onChanged: () => void }) {
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [done, setDone] = useState<number | null>(null);
  const { error, busy, run } = useAction();
  const invalid = (field: string) => (errorFor(error, field) ? true : undefined);
  return (
    <section class="panel" aria-labelledby="password-heading">
      <h2 id="password-heading">Password</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setDone(null);
          void run(async () => {
            const { endedSessions } = await put<{ endedSessions: number }>('/account/password', { currentPassword, newPassword });
            setCurrentPassword('');
            setNewPassword('');
            setDone(endedSessions);
            onChanged();
          });
        }}
      >
        <label>
          Current password
          <input
            type="password"
            autocomplete="current-password"
            required
            value={currentPassword}
            onInput={(e) => setCurrentPassword(e.currentTarget.value)}
            aria-invalid={invalid('currentPassword')}
            aria-describedby="current-password-error"
          />
          <FieldError error={error} field="currentPassword" id="current-password-error" />
        </label>
        <label>
          New password <span class="hint">(at least 8 characters)</span>
          <input
            type="password"
            autocomplete="new-password"
            required
            minLength={8}
            value={newPassword}
            onInput={(e) => setNewPassword(e.currentTarget.value)}
            aria-invalid={invalid('newPassword')}
            aria-describedby="new-password-error"
          />
          <FieldError error={error} field="newPassword" id="new-password-error" />
        </label>
        <Alert error={error} fields={['currentPassword', 'newPassword']} />
        {done !== null && (
          <p role="status">
            Password changed. {done === 0 ? 'You were signed in nowhere else.' : `Signed out of ${plural(done, 'other session')}; this one stays signed in.`}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          Change password
        </button>
      </form>
    </section>
  );
}

function Sessions({ version }: { version: number }) {
  const sessions = useLoad(() => get<{ sessions: Session[] }>('/account/sessions').then((r) => r.sessions), [version]);
  const action = useAction();
  const [ended, setEnded] = useState<number | null>(null);
  const others = (sessions.data ?? []).filter((s) => !s.current).length;
  return (
    <section class="panel" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Where you are signed in</h2>
      <Alert error={sessions.error ?? action.error} onDismiss={() => action.setError(null)} />
      <Table
        columns={['Browser', 'Signed in', 'Last seen']}
        actions
        rows={sessions.data}
        row={(s) => (
          <tr key={s.id}>
            <th scope="row">
              {describeBrowser(s.userAgent)} {s.current && <span class="badge ok">This browser</span>}
              {s.ip && <span class="hint block">from {s.ip}</span>}
            </th>
            <td>{formatDate(s.createdAt, { time: true })}</td>
            <td>{s.current ? 'Now' : s.lastSeenAt ? formatDate(s.lastSeenAt, { time: true }) : 'Not since signing in'}</td>
            <td class="row-actions">
              {!s.current && (
                <button
                  type="button"
                  class="small"
                  aria-label={`Sign out ${describeBrowser(s.userAgent)} signed in ${formatDate(s.createdAt, { time: true })}`}
                  onClick={() =>
                    action.run(async () => {
                      await del(`/account/sessions/${s.id}`);
                      setEnded(1);
                      await sessions.reload();
                    })
                  }
                >
                  Sign out
                </button>
              )}
            </td>
          </tr>
        )}
      />
      {ended !== null && <Notice>Signed out of {plural(ended, 'session')}.</Notice>}
      <button
        type="button"
        class="danger"
        disabled={others === 0 || action.busy}
        onClick={() =>
          action.run(async () => {
            const result = await post<{ ended: number }>('/account/sessions/end-others');
            setEnded(result.ended);
            await sessions.reload();
          })
        }
      >
        Sign out everywhere else
      </button>
      {others === 0 && sessions.data && <p class="hint">You are signed in only here.</p>}
    </section>
  );
}

/** "Firefox on Linux" from a User-Agent header; the header itself when it says nothing known. */
export function describeBrowser(userAgent: string | null): string {
  if (!userAgent) return 'Unknown browser';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /OPR\//.test(userAgent)
      ? 'Opera'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Chrom(e|ium)\//.test(userAgent)
          ? 'Chrome'
          : /Safari\//.test(userAgent)
            ? 'Safari'
            : null;
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(userAgent)
          ? 'macOS'
          : /Linux|X11/.test(userAgent)
            ? 'Linux'
            : null;
  if (!browser) return userAgent.length > 60 ? `${userAgent.slice(0, 57)}…` : userAgent;
  return system ? `${browser} on ${system}` : browser;
}

import { useState } from 'preact/hooks';
import { del, get, post } from '../api';
import { useSession } from '../session';
import type { AdminUser } from '../types';
import { Alert, ConfirmButton, CopyValue, errorFor, FieldError, formatDate, PageTitle, Table, useAction, useLoad } from '../ui';

/** An account set-up link: a schema the admin routes declare without exporting it (src/accounts/routes/admin.ts). */
interface SetupLink {
  url: string;
  expiresAt: string;
}

/** Site administration: users (create, block, unblock, delete). */
export function AdminPage() {
  const { user: me } = useSession();
  const users = useLoad(() => get<{ users: AdminUser[] }>('/admin/users').then((r) => r.users), []);
  const action = useAction();
  /** The set-up link just made, for whom: shown once (it is stored as a hash). */
  const [link, setLink] = useState<{ email: string; setupLink: SetupLink } | null>(null);

  const setStatus = (u: AdminUser, verb: 'block' | 'unblock') =>
    action.run(async () => {
      await post(`/admin/users/${u.id}/${verb}`);
      await users.reload();
    });

  return (
    <main>
      <PageTitle>Users</PageTitle>
      <Alert error={users.error ?? action.error} onDismiss={() => action.setError(null)} />
      <Table
        columns={['Name', 'E-mail', 'Role', 'Status', 'Created']}
        actions
        rows={users.data}
        row={(u) => (
          <tr key={u.id} class={u.status !== 'active' ? 'inactive' : undefined}>
            <th scope="row">{u.name}</th>
            <td>{u.email}</td>
            <td>{u.siteAdmin ? 'Site admin' : 'User'}</td>
            <td>
              <span class={`badge ${u.status}`}>{u.status}</span>
              {u.status === 'active' && !u.passwordSet && <span class="badge warn">not set up</span>}
            </td>
            <td>{formatDate(u.createdAt)}</td>
            <td class="row-actions">
              {u.id !== me.id && u.status === 'active' && (
                <button
                  type="button"
                  class="small"
                  title="A link with which they choose their password (and name); a new link replaces the previous one"
                  aria-label={`Set-up link for ${u.email}`}
                  onClick={() =>
                    action.run(async () => {
                      const { setupLink } = await post<{ setupLink: SetupLink }>(`/admin/users/${u.id}/setup-link`);
                      setLink({ email: u.email, setupLink });
                    })
                  }
                >
                  Set-up link
                </button>
              )}
              {u.id !== me.id && u.status === 'active' && (
                <button type="button" class="small" onClick={() => setStatus(u, 'block')} aria-label={`Block ${u.email}`}>
                  Block
                </button>
              )}
              {u.status === 'blocked' && (
                <button type="button" class="small" onClick={() => setStatus(u, 'unblock')} aria-label={`Unblock ${u.email}`}>
                  Unblock
                </button>
              )}
              {u.id !== me.id && u.status !== 'deleted' && (
                <ConfirmButton
                  class="small danger"
                  label={`Delete ${u.email}`}
                  title="Delete this user?"
                  message={
                    <>
                      <strong>{u.email}</strong> can no longer sign in, and their keys and sessions stop at once. Their name stays in boards' history.
                    </>
                  }
                  confirmLabel="Delete user"
                  action={() => del(`/admin/users/${u.id}`)}
                  onDone={users.reload}
                >
                  Delete
                </ConfirmButton>
              )}
            </td>
          </tr>
        )}
      />
      {link && (
        <section class="token-box" aria-labelledby="setup-link-heading">
          <h2 id="setup-link-heading">Set-up link for {link.email}</h2>
          <p>
            Send it to them: they choose their name and password with it and are signed in. It works until {formatDate(link.setupLink.expiresAt, { time: true })}, once, and is
            shown only now.
          </p>
          <CopyValue value={link.setupLink.url} label="set-up link" testId="setup-link" />
          <button type="button" onClick={() => setLink(null)}>
            Done
          </button>
        </section>
      )}
      <CreateUser
        onCreated={(email, setupLink) => {
          if (setupLink) setLink({ email, setupLink });
          void users.reload();
        }}
      />
    </main>
  );
}

function CreateUser({ onCreated }: { onCreated: (email: string, setupLink: SetupLink | null) => void }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [siteAdmin, setSiteAdmin] = useState(false);
  const { error, busy, run } = useAction();
  const invalid = (field: string) => (errorFor(error, field) ? true : undefined);
  return (
    <section class="panel" aria-labelledby="new-user">
      <h2 id="new-user">New user</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            const created = await post<{ user: AdminUser; setupLink: SetupLink | null }>('/admin/users', {
              name: name || undefined,
              email,
              password: password || undefined,
              siteAdmin,
            });
            setName('');
            setEmail('');
            setPassword('');
            setSiteAdmin(false);
            onCreated(created.user.email, created.setupLink);
          });
        }}
      >
        <label>
          Name
          <input value={name} onInput={(e) => setName(e.currentTarget.value)} aria-invalid={invalid('name')} aria-describedby="new-user-name-error" />
          <FieldError error={error} field="name" id="new-user-name-error" />
        </label>
        <label>
          E-mail
          <input type="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} aria-invalid={invalid('email')} aria-describedby="new-user-email-error" />
          <FieldError error={error} field="email" id="new-user-email-error" />
        </label>
        <label>
          Initial password <span class="hint">(optional: leave it empty to get a link with which they choose their own)</span>
          <input
            type="password"
            autocomplete="new-password"
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
            aria-invalid={invalid('password')}
            aria-describedby="new-user-password-error"
          />
          <FieldError error={error} field="password" id="new-user-password-error" />
        </label>
        <label class="inline">
          <input type="checkbox" checked={siteAdmin} onChange={(e) => setSiteAdmin(e.currentTarget.checked)} /> Site administrator
        </label>
        <Alert error={error} fields={['name', 'email', 'password']} />
        <button type="submit" class="primary" disabled={busy}>
          Create user
        </button>
      </form>
    </section>
  );
}

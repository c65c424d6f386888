import { useState } from 'preact/hooks';
import { del, get, post } from '../api';
import { useSession } from '../session';
import { Alert, Confirm, formatDate, PageTitle, useAction, useLoad } from '../ui';

interface AdminUser {
  id: number;
  email: string;
  name: string;
  siteAdmin: boolean;
  status: 'active' | 'blocked' | 'deleted';
  createdAt: string;
}

/** Site administration: users (create, block, unblock, delete). */
export function AdminPage() {
  const { user: me } = useSession();
  const users = useLoad(() => get<{ users: AdminUser[] }>('/admin/users').then((r) => r.users), []);
  const action = useAction();
  const [deleting, setDeleting] = useState<AdminUser | null>(null);

  const setStatus = (u: AdminUser, verb: 'block' | 'unblock') =>
    action.run(async () => {
      await post(`/admin/users/${u.id}/${verb}`);
      await users.reload();
    });

  return (
    <main>
      <PageTitle>Users</PageTitle>
      <Alert error={users.error ?? action.error} onDismiss={() => action.setError(null)} />
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">E-mail</th>
              <th scope="col">Role</th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {(users.data ?? []).map((u) => (
              <tr key={u.id} class={u.status !== 'active' ? 'inactive' : undefined}>
                <th scope="row">{u.name}</th>
                <td>{u.email}</td>
                <td>{u.siteAdmin ? 'Site admin' : 'User'}</td>
                <td>
                  <span class={`badge ${u.status}`}>{u.status}</span>
                </td>
                <td>{formatDate(u.createdAt)}</td>
                <td class="row-actions">
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
                    <button type="button" class="small danger" onClick={() => setDeleting(u)} aria-label={`Delete ${u.email}`}>
                      Delete
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <CreateUser onCreated={() => users.reload()} />
      {deleting && (
        <Confirm
          title="Delete this user?"
          message={
            <>
              <strong>{deleting.email}</strong> can no longer sign in, and their keys and sessions stop at once. Their name stays in boards' history.
            </>
          }
          confirmLabel="Delete user"
          onCancel={() => setDeleting(null)}
          onConfirm={async () => {
            await del(`/admin/users/${deleting.id}`);
            setDeleting(null);
            await users.reload();
          }}
        />
      )}
    </main>
  );
}

function CreateUser({ onCreated }: { onCreated: () => void }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [siteAdmin, setSiteAdmin] = useState(false);
  const { error, busy, run } = useAction();
  return (
    <section class="panel" aria-labelledby="new-user">
      <h2 id="new-user">New user</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            await post('/admin/users', { name: name || undefined, email, password, siteAdmin });
            setName('');
            setEmail('');
            setPassword('');
            setSiteAdmin(false);
            onCreated();
          });
        }}
      >
        <label>
          Name
          <input value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <label>
          E-mail
          <input type="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </label>
        <label>
          Initial password <span class="hint">(at least 8 characters)</span>
          <input type="password" autocomplete="new-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        </label>
        <label class="inline">
          <input type="checkbox" checked={siteAdmin} onChange={(e) => setSiteAdmin(e.currentTarget.checked)} /> Site administrator
        </label>
        <Alert error={error} />
        <button type="submit" class="primary" disabled={busy}>
          Create user
        </button>
      </form>
    </section>
  );
}

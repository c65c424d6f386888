import { useState } from 'preact/hooks';
import { del, get, patch, post } from '../api';
import { useSession } from '../session';
import { Alert, Table, useAction, useLoad } from '../ui';
import type { SectionProps, WorkspaceMember, WorkspaceRole } from './types';

export function MembersPage({ workspace, canManage }: SectionProps) {
  const { user } = useSession();
  const members = useLoad(() => get<{ members: WorkspaceMember[] }>(`/agent/workspaces/${workspace.id}/members`).then((r) => r.members), [workspace.id]);
  const action = useAction();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<WorkspaceRole>('member');
  const roles: WorkspaceRole[] = workspace.role === 'owner' ? ['owner', 'admin', 'member'] : ['admin', 'member'];
  const act = (fn: () => Promise<unknown>) =>
    action.run(async () => {
      await fn();
      await members.reload();
    });
  return (
    <section aria-labelledby="members-heading">
      <h2 id="members-heading">Members</h2>
      <p class="lead">Owners and admins change settings, knowledge, agents, keys and webhooks; members read and try the agent.</p>
      <Alert error={members.error ?? action.error} onDismiss={() => action.setError(null)} />
      <Table
        columns={['Name', 'E-mail', 'Role']}
        actions={canManage}
        rows={members.data}
        row={(m) => (
          <tr key={m.userId} class={m.active ? undefined : 'inactive'}>
            <th scope="row">
              {m.name} {m.userId === user.id && <span class="hint">(you)</span>}
            </th>
            <td>{m.email}</td>
            <td>
              {canManage && (workspace.role === 'owner' || m.role !== 'owner') ? (
                <select aria-label={`Role of ${m.name}`} value={m.role} onChange={(e) => act(() => patch(`/agent/workspaces/${workspace.id}/members/${m.userId}`, { role: e.currentTarget.value }))}>
                  {(roles.includes(m.role) ? roles : [m.role, ...roles]).map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </select>
              ) : (
                m.role
              )}
            </td>
            {canManage && (
              <td>
                {(workspace.role === 'owner' || m.role !== 'owner') && (
                  <button type="button" class="small danger" onClick={() => act(() => del(`/agent/workspaces/${workspace.id}/members/${m.userId}`))} aria-label={`Remove ${m.name}`}>
                    Remove
                  </button>
                )}
              </td>
            )}
          </tr>
        )}
      />
      {canManage && (
        <form
          class="row"
          onSubmit={(e) => {
            e.preventDefault();
            void act(async () => {
              await post(`/agent/workspaces/${workspace.id}/members`, { email, role });
              setEmail('');
            });
          }}
        >
          <label>
            E-mail of a registered user
            <input type="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
          </label>
          <label>
            Role
            <select value={role} onChange={(e) => setRole(e.currentTarget.value as WorkspaceRole)}>
              {roles.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" class="primary">
            Add member
          </button>
        </form>
      )}
    </section>
  );
}

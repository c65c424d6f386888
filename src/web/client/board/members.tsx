import { useState } from 'preact/hooks';
import { del, get, patch, post } from '../api';
import type { Board, Role } from '../types';
import { Alert, formatDate, Modal, useAction, useLoad } from '../ui';

interface Invitation {
  email: string;
  role: Role;
  expiresAt: string;
}

/** Members and their roles; board admins add, change and remove them and manage invitations. */
export function MembersDialog({ board, onClose, onChanged }: { board: Board; onClose: () => void; onChanged: () => Promise<void> }) {
  const isAdmin = board.role === 'admin';
  const invitations = useLoad(
    () => (isAdmin ? get<{ invitations: Invitation[] }>(`/api/boards/${board.id}/invitations`).then((r) => r.invitations) : Promise.resolve([])),
    [board.id, isAdmin],
  );
  const action = useAction();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [sent, setSent] = useState<string | null>(null);
  const act = (fn: () => Promise<unknown>) =>
    action.run(async () => {
      await fn();
      await Promise.all([onChanged(), invitations.reload()]);
    });

  return (
    <Modal title="Members" onClose={onClose}>
      <Alert error={action.error ?? invitations.error} onDismiss={() => action.setError(null)} />
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Role</th>
            {isAdmin && (
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {board.members.map((m) => (
            <tr key={m.userId}>
              <th scope="row">
                {m.name} <span class="hint">{m.email}</span>
              </th>
              <td>
                {isAdmin ? (
                  <select aria-label={`Role of ${m.name}`} value={m.role} onChange={(e) => act(() => patch(`/api/boards/${board.id}/members/${m.userId}`, { role: e.currentTarget.value }))}>
                    <option value="admin">admin</option>
                    <option value="member">member</option>
                    <option value="observer">observer</option>
                  </select>
                ) : (
                  m.role
                )}
              </td>
              {isAdmin && (
                <td>
                  <button type="button" class="small danger" onClick={() => act(() => del(`/api/boards/${board.id}/members/${m.userId}`))} aria-label={`Remove ${m.name}`}>
                    Remove
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {isAdmin && (
        <>
          <h3>Invite</h3>
          <form
            class="row"
            onSubmit={(e) => {
              e.preventDefault();
              setSent(null);
              void act(async () => {
                await post(`/api/boards/${board.id}/members`, { email, role });
                setSent(email);
                setEmail('');
              });
            }}
          >
            <label>
              E-mail
              <input type="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
            </label>
            <label>
              Role
              <select value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
                <option value="member">member</option>
                <option value="observer">observer</option>
                <option value="admin">admin</option>
              </select>
            </label>
            <button type="submit" class="small">
              Add
            </button>
          </form>
          {sent && <p role="status">Added {sent} (an address without an account gets an invitation, valid 14 days).</p>}
          {(invitations.data ?? []).length > 0 && (
            <>
              <h3>Pending invitations</h3>
              <ul>
                {invitations.data!.map((i) => (
                  <li key={i.email}>
                    {i.email} as {i.role} <span class="hint">until {formatDate(i.expiresAt)}</span>{' '}
                    <button type="button" class="link small" onClick={() => act(() => del(`/api/boards/${board.id}/invitations/${encodeURIComponent(i.email)}`))}>
                      Revoke
                    </button>
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </Modal>
  );
}

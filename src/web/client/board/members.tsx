import { useEffect, useState } from 'preact/hooks';
import { del, get, patch, post } from '../api';
import type { Activity, Board, InvitationWithLink, Member, PendingInvitation, Role } from '../types';
import { Alert, Avatar, CopyValue, errorFor, FieldError, formatDate, Modal, Table, useAction, useLoad } from '../ui';

/** Members and their roles; board admins add, change and remove them and manage invitations. */
export function MembersDialog({ board, onClose, onChanged, lastEvent }: { board: Board; onClose: () => void; onChanged: () => Promise<void>; lastEvent?: Activity | undefined }) {
  const isAdmin = board.role === 'admin';
  const invitations = useLoad(
    () => (isAdmin ? get<{ invitations: PendingInvitation[] }>(`/api/boards/${board.id}/invitations`).then((r) => r.invitations) : Promise.resolve([])),
    [board.id, isAdmin],
  );
  // Live: an invitation accepted (or made or revoked by another admin) leaves the pending list at once.
  useEffect(() => {
    if (lastEvent && (lastEvent.type.startsWith('member.') || lastEvent.type.startsWith('invitation.'))) void invitations.reload();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lastEvent?.id]);
  const action = useAction();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [added, setAdded] = useState<string | null>(null);
  /** Invitation links made in this dialog, by address: stored as a hash, a link is shown only when made. */
  const [links, setLinks] = useState<Record<string, string>>({});
  /** Addresses whose invitation was mailed from this dialog (the server sends mail). */
  const [mailed, setMailed] = useState<Record<string, boolean>>({});
  const act = (fn: () => Promise<unknown>) =>
    action.run(async () => {
      await fn();
      await Promise.all([onChanged(), invitations.reload()]);
    });

  return (
    <Modal title="Members" onClose={onClose}>
      <Alert error={action.error ?? invitations.error} onDismiss={() => action.setError(null)} fields={['email']} />
      <Table
        columns={['Name', 'Role']}
        actions={isAdmin}
        rows={board.members}
        wrap={false}
        row={(m) => (
          <tr key={m.userId}>
            <th scope="row">
              <Avatar userId={m.userId} name={m.name} url={m.avatarUrl} decorative /> {m.name} <span class="hint">{m.email}</span>
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
        )}
      />
      {isAdmin && (
        <>
          <h3>Invite</h3>
          <form
            class="row"
            onSubmit={(e) => {
              e.preventDefault();
              setAdded(null);
              void act(async () => {
                const result = await post<Member | { invitation: InvitationWithLink }>(`/api/boards/${board.id}/members`, { email, role });
                if ('invitation' in result && result.invitation) {
                  const { email: invited, url, mailed: sent } = result.invitation;
                  setLinks((l) => ({ ...l, [invited]: url }));
                  setMailed((m) => ({ ...m, [invited]: sent }));
                } else setAdded('name' in result ? result.name : email);
                setEmail('');
              });
            }}
          >
            <label>
              E-mail
              <input
                type="email"
                required
                value={email}
                onInput={(e) => setEmail(e.currentTarget.value)}
                aria-invalid={errorFor(action.error, 'email') ? true : undefined}
                aria-describedby="invite-email-error"
              />
              <FieldError error={action.error} field="email" id="invite-email-error" />
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
          <p class="hint">Someone with an account joins at once; an address without one gets an invitation link to hand over, valid 14 days.</p>
          {added && <p role="status">Added {added} to the board.</p>}
          {(invitations.data ?? []).length > 0 && (
            <>
              <h3>Pending invitations</h3>
              <ul>
                {invitations.data!.map((i) => (
                  <li key={i.email} class="invitation">
                    {i.email} as {i.role} <span class="hint">until {formatDate(i.expiresAt)}</span>{' '}
                    {/* Always there: a mail that went astray is resent, and a lost link replaced. */}
                    <button
                      type="button"
                      class="link small"
                      aria-label={`Resend the invitation of ${i.email}`}
                      title="Makes a new link (the previous one stops working), mailed to the address when this server sends mail, and shown here once."
                      onClick={() =>
                        act(async () => {
                          const { invitation } = await post<{ invitation: InvitationWithLink }>(`/api/boards/${board.id}/invitations/${encodeURIComponent(i.email)}/link`);
                          setLinks((l) => ({ ...l, [i.email]: invitation.url }));
                          setMailed((m) => ({ ...m, [i.email]: invitation.mailed }));
                        })
                      }
                    >
                      Resend
                    </button>
                    <button type="button" class="link small" onClick={() => act(() => del(`/api/boards/${board.id}/invitations/${encodeURIComponent(i.email)}`))} aria-label={`Revoke the invitation of ${i.email}`}>
                      Revoke
                    </button>
                    {links[i.email] && (
                      <>
                        <p class="hint" role="status">
                          {mailed[i.email]
                            ? `Mailed to ${i.email}. The link is also here, shown only now, to send it yourself:`
                            : `Send this link to ${i.email}: they choose a name and password there and join the board. It is shown only now.`}
                        </p>
                        <CopyValue value={links[i.email]!} label="invitation link" testId="invitation-link" />
                      </>
                    )}
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

import { useState } from 'preact/hooks';
import { del, get, post } from '../api';
import { Alert, Confirm, ConfirmButton, formatDate, SecretBoxes, Table, useAction, useLoad, useSecrets } from '../ui';
import type { AnswerKey, SectionProps, WorkspaceDetail } from './types';

/** Answer-API keys (ans_…) and the workspace token (wst_…): shown once, revocable. */
export function AccessPage({ workspace, canManage }: SectionProps) {
  const keys = useLoad(() => get<{ keys: AnswerKey[] }>(`/agent/workspaces/${workspace.id}/answer-keys`).then((r) => r.keys), [workspace.id]);
  const detail = useLoad(() => get<WorkspaceDetail>(`/agent/workspaces/${workspace.id}`), [workspace.id]);
  const [name, setName] = useState('');
  const secrets = useSecrets();
  const [regenerating, setRegenerating] = useState(false);
  const create = useAction();
  const token = detail.data?.token ?? null;

  return (
    <section aria-labelledby="access-heading">
      <h2 id="access-heading">Keys & token</h2>
      <SecretBoxes secrets={secrets.secrets} dismiss={secrets.dismiss} />
      <h3>Workspace token</h3>
      <p class="lead">
        Your ticketing system sends it as <code>Authorization: Bearer wst_…</code> to <code>/v1/tickets</code>. There is one per workspace.
      </p>
      <Alert error={detail.error} />
      <p>{token ? <>Current token: <code>{token.prefix}…</code>, generated {formatDate(token.createdAt, { time: true })}</> : 'No token generated yet.'}</p>
      {canManage && (
        <button type="button" class={token ? 'danger' : 'primary'} onClick={() => (token ? setRegenerating(true) : void regenerate())}>
          {token ? 'Regenerate token' : 'Generate token'}
        </button>
      )}
      <h3>Answer API keys</h3>
      <p class="lead">
        Clients call <code>POST /v1/answer</code> with <code>X-API-Key: ans_…</code>.
      </p>
      <Alert error={keys.error} />
      <Table
        columns={['Name', 'Key', 'Created', 'Last used']}
        actions
        rows={keys.data}
        row={(k) => (
          <tr key={k.id} class={k.revokedAt ? 'inactive' : undefined}>
            <th scope="row">{k.name}</th>
            <td>
              <code>{k.prefix}…</code>
            </td>
            <td>{formatDate(k.createdAt)}</td>
            <td>{k.lastUsedAt ? formatDate(k.lastUsedAt, { time: true }) : 'Never'}</td>
            <td>
              {k.revokedAt ? (
                <span class="badge">Revoked</span>
              ) : (
                canManage && (
                  <ConfirmButton
                    class="small danger"
                    label={`Revoke ${k.name}`}
                    title="Revoke this answer key?"
                    message={`Clients using “${k.name}” get 401 at once.`}
                    confirmLabel="Revoke key"
                    action={() => del(`/agent/workspaces/${workspace.id}/answer-keys/${k.id}`)}
                    onDone={keys.reload}
                  >
                    Revoke
                  </ConfirmButton>
                )
              )}
            </td>
          </tr>
        )}
      />
      {canManage && (
        <form
          class="row"
          onSubmit={(e) => {
            e.preventDefault();
            void create.run(async () => {
              const r = await post<{ key: AnswerKey; token: string }>(`/agent/workspaces/${workspace.id}/answer-keys`, { name });
              secrets.add({ label: `Answer key “${r.key.name}”`, value: r.token });
              setName('');
              await keys.reload();
            });
          }}
        >
          <label>
            New key name
            <input required value={name} onInput={(e) => setName(e.currentTarget.value)} />
          </label>
          <button type="submit" class="primary" disabled={create.busy}>
            Create key
          </button>
        </form>
      )}
      <Alert error={create.error} />
      {regenerating && (
        <Confirm
          title="Regenerate the workspace token?"
          message="The current token stops working at once, in every process: your ticketing system gets 401 until it uses the new one."
          confirmLabel="Regenerate token"
          onCancel={() => setRegenerating(false)}
          onConfirm={async () => {
            await regenerate();
            setRegenerating(false);
          }}
        />
      )}
    </section>
  );

  async function regenerate() {
    const r = await post<{ token: string }>(`/agent/workspaces/${workspace.id}/token`);
    secrets.add({ label: 'Workspace token', value: r.token });
    await detail.reload();
  }
}

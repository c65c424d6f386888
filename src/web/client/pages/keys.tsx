import { useMemo, useState } from 'preact/hooks';
import { ApiError, del, get, post } from '../api';
import type { ApiKey, BoardSummary } from '../types';
import { KeyRound } from 'lucide';
import { Alert, ConfirmButton, EmptyState, errorFor, FieldError, formatDate, Notice, PageTitle, Table, useAction, useLoad } from '../ui';

type Expiry = 'never' | '30d' | '90d' | '1y';

/** Personal API keys, modelled on GitHub's fine-grained token page. */
export function KeysPage() {
  const keys = useLoad(() => get<{ keys: ApiKey[] }>('/account/keys').then((r) => r.keys), []);
  const boards = useLoad(() => get<{ boards: BoardSummary[] }>('/api/boards').then((r) => r.boards), []);
  // Each new key's token stays until its own "I have stored it" (a second key does not replace it).
  const [created, setCreated] = useState<{ key: ApiKey; token: string }[]>([]);
  const boardName = useMemo(() => new Map((boards.data ?? []).map((b) => [b.id, b.name])), [boards.data]);

  return (
    <main>
      <PageTitle>API keys</PageTitle>
      <p class="lead">
        Keys let scripts and jobs call the REST API (<a href="/api/docs">documentation</a>) as you: <code>Authorization: Bearer tsk_…</code>. A key
        can do no more than you can, on the boards you choose.
      </p>
      {created.map((c) => (
        <NewToken key={c.key.id} created={c} onDone={() => setCreated((all) => all.filter((x) => x.key.id !== c.key.id))} />
      ))}
      <CreateKey
        boards={boards.data ?? []}
        onCreated={(result) => {
          setCreated((all) => [result, ...all]);
          void keys.reload();
        }}
      />
      <section aria-labelledby="keys-heading">
        <h2 id="keys-heading">Your keys</h2>
        <Alert error={keys.error} />
        <Table
          columns={['Name', 'Key', 'Permission', 'Boards', 'Created', 'Last used', 'Expires']}
          actions
          rows={keys.data}
          empty={
            <EmptyState icon={KeyRound} title="No keys yet." testId="empty-keys">
              A key lets a script or a scheduled job use the API as you. Create one above: name it after where it will run, choose read or write and
              which boards, and copy the token when it is shown (only once).
            </EmptyState>
          }
          hideEmpty
          class="keys"
          row={(key) => {
            const expired = key.expiresAt !== null && Date.parse(key.expiresAt) <= Date.now();
            return (
              <tr key={key.id} class={key.revokedAt || expired ? 'inactive' : undefined} data-key-id={key.id}>
                <th scope="row">{key.name}</th>
                <td>
                  <code>{key.prefix}…</code>
                </td>
                <td>{key.permission === 'write' ? 'Read and write' : 'Read only'}</td>
                <td>{key.boards === null ? 'All boards' : key.boards.map((id) => boardName.get(id) ?? `#${id}`).join(', ') || 'None left'}</td>
                <td>{formatDate(key.createdAt)}</td>
                <td>{key.lastUsedAt ? formatDate(key.lastUsedAt, { time: true }) : 'Never'}</td>
                <td>
                  {key.expiresAt ? formatDate(key.expiresAt) : 'Never'}
                  {expired && !key.revokedAt && <span class="badge warn">Expired</span>}
                </td>
                <td>
                  {key.revokedAt ? (
                    <span class="badge">Revoked</span>
                  ) : (
                    <ConfirmButton
                      class="danger small"
                      label={`Revoke ${key.name}`}
                      title="Revoke this key?"
                      message={
                        <>
                          Scripts using <strong>{key.name}</strong> (<code>{key.prefix}…</code>) stop working at once. This cannot be undone.
                        </>
                      }
                      confirmLabel="Revoke key"
                      action={() => del(`/account/keys/${key.id}`)}
                      onDone={keys.reload}
                    >
                      Revoke
                    </ConfirmButton>
                  )}
                </td>
              </tr>
            );
          }}
        />
      </section>
    </main>
  );
}

function NewToken({ created, onDone }: { created: { key: ApiKey; token: string }; onDone: () => void }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  return (
    <section class="token-box" aria-labelledby={`token-heading-${created.key.id}`}>
      <h2 id={`token-heading-${created.key.id}`}>Key “{created.key.name}” created</h2>
      <p>
        <strong>Copy it now: you will not see it again.</strong> Store it where your script reads secrets.
      </p>
      <div class="token-row">
        <code class="token" data-testid="new-token">
          {created.token}
        </code>
        <button
          type="button"
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(created.token);
              setCopied('yes');
            } catch {
              setCopied('failed');
            }
          }}
        >
          Copy
        </button>
      </div>
      <p role="status">{copied === 'yes' ? 'Copied to the clipboard.' : copied === 'failed' ? 'Copying failed: select the key and copy it by hand.' : ''}</p>
      <button type="button" onClick={onDone}>
        I have stored it
      </button>
    </section>
  );
}

function CreateKey({ boards, onCreated }: { boards: BoardSummary[]; onCreated: (r: { key: ApiKey; token: string }) => void }) {
  const [name, setName] = useState('');
  const [permission, setPermission] = useState<'read' | 'write'>('read');
  const [scope, setScope] = useState<'all' | 'some'>('all');
  const [chosen, setChosen] = useState<number[]>([]);
  const [filter, setFilter] = useState('');
  const [expiresIn, setExpiresIn] = useState<Expiry>('90d');
  const { error, busy, run, setError } = useAction();
  const shown = boards.filter((b) => b.name.toLowerCase().includes(filter.trim().toLowerCase()));

  return (
    <section aria-labelledby="create-heading" class="panel">
      <h2 id="create-heading">New key</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          // Said here, in the page's words, before the server would say it in the API's.
          if (scope === 'some' && chosen.length === 0) return setError(new ApiError(400, 'boardIds: choose at least one board, or choose "All boards"'));
          void run(async () => {
            const result = await post<{ key: ApiKey; token: string }>('/account/keys', {
              name,
              permission,
              boardIds: scope === 'all' ? null : chosen,
              expiresIn,
            });
            setName('');
            setChosen([]);
            onCreated(result);
          });
        }}
      >
        <label>
          Name
          <input
            name="name"
            required
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
            placeholder="nightly-report"
            aria-invalid={errorFor(error, 'name') ? true : undefined}
            aria-describedby="key-name-error"
          />
          <FieldError error={error} field="name" id="key-name-error" />
        </label>
        <fieldset>
          <legend>Permission</legend>
          <label class="inline">
            <input type="radio" name="permission" checked={permission === 'read'} onChange={() => setPermission('read')} /> Read only
          </label>
          <label class="inline">
            <input type="radio" name="permission" checked={permission === 'write'} onChange={() => setPermission('write')} /> Read and write
          </label>
        </fieldset>
        <fieldset aria-describedby="key-boards-error" aria-invalid={errorFor(error, 'boardIds') ? true : undefined}>
          <legend>Boards</legend>
          <FieldError error={error} field="boardIds" id="key-boards-error" />
          <label class="inline">
            <input type="radio" name="scope" checked={scope === 'all'} onChange={() => setScope('all')} /> All boards (also boards you join later)
          </label>
          <label class="inline">
            <input type="radio" name="scope" checked={scope === 'some'} onChange={() => setScope('some')} /> Only selected boards
          </label>
          {scope === 'some' && (
            <div class="picker">
              <label>
                Find a board
                <input type="search" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
              </label>
              <p class="hint" role="status">
                {chosen.length} selected (at most 50)
              </p>
              <ul class="picker-list">
                {shown.map((b) => (
                  <li key={b.id}>
                    <label class="inline">
                      <input
                        type="checkbox"
                        checked={chosen.includes(b.id)}
                        onChange={(e) => setChosen(e.currentTarget.checked ? [...chosen, b.id] : chosen.filter((id) => id !== b.id))}
                      />{' '}
                      {b.name}
                    </label>
                  </li>
                ))}
                {shown.length === 0 && <li class="hint">No board matches.</li>}
              </ul>
            </div>
          )}
        </fieldset>
        <label>
          Expiration
          <select value={expiresIn} onChange={(e) => setExpiresIn(e.currentTarget.value as Expiry)}>
            <option value="30d">30 days</option>
            <option value="90d">90 days</option>
            <option value="1y">1 year</option>
            <option value="never">No expiration</option>
          </select>
        </label>
        {expiresIn === 'never' && <Notice>A key without expiration works until you revoke it.</Notice>}
        <Alert error={error} fields={['name', 'boardIds']} />
        <button type="submit" class="primary" disabled={busy}>
          Create key
        </button>
      </form>
    </section>
  );
}

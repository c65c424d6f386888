import { ApiError, del, get } from '../api';
import { Alert, ConfirmButton, CopyValue, formatDate, PageTitle, Table, useLoad } from '../ui';

/**
 * A connected assistant (GET /account/connections). Written out: its route lives in connector/,
 * a module of web's own layer, which web may not import (.dependency-cruiser.cjs).
 */
interface Connection {
  id: string;
  clientName: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
}

/** Assistants connected through OAuth (the MCP connector): who can act as you, and a way to stop them. */
export function AppsPage() {
  const listed = useLoad(
    () =>
      get<{ connectorUrl: string; connections: Connection[] }>('/account/connections').catch((e: unknown) => {
        if (e instanceof ApiError && e.status === 404) return null;
        throw e;
      }),
    [],
  );
  const connections = { ...listed, data: listed.data ? listed.data.connections : listed.data };
  return (
    <main>
      <PageTitle>Connected apps</PageTitle>
      <p class="lead">AI assistants you connected to this server act as you, with the permission you granted. Disconnect one and its access stops at its next request.</p>
      {listed.data && <ConnectorUrl url={listed.data.connectorUrl} />}
      <Alert error={connections.error} />
      {connections.data === null && !connections.error && <p>No connector is available on this server.</p>}
      <Table
        columns={['App', 'Access', 'Connected', 'Last used']}
        actions
        rows={connections.data}
        empty="No connected apps."
        hideEmpty
        row={(c) => (
          <tr key={c.id}>
            <th scope="row">{c.clientName}</th>
            <td>{c.scopes.includes('write') ? 'Read and write' : 'Read only'}</td>
            <td>{formatDate(c.createdAt)}</td>
            <td>{c.lastUsedAt ? formatDate(c.lastUsedAt, { time: true }) : 'Never'}</td>
            <td>
              <ConfirmButton
                class="danger small"
                label={`Disconnect ${c.clientName}`}
                title="Disconnect this app?"
                message={
                  <>
                    <strong>{c.clientName}</strong> loses access at its next request. You can connect it again later.
                  </>
                }
                confirmLabel="Disconnect"
                action={() => del(`/account/connections/${encodeURIComponent(c.id)}`)}
                onDone={listed.reload}
              >
                Disconnect
              </ConfirmButton>
            </td>
          </tr>
        )}
      />
    </main>
  );
}

/** What a person pastes into their assistant's "add a connector" form; the assistant does the rest (OAuth). */
function ConnectorUrl({ url }: { url: string }) {
  return (
    <section class="panel" aria-labelledby="connector-url-heading">
      <h2 id="connector-url-heading">Connect an assistant</h2>
      <p>Add this URL as a custom connector (MCP server) in your assistant. It asks you to sign in here and approve what it may do.</p>
      <CopyValue value={url} label="connector URL" testId="connector-url" />
    </section>
  );
}

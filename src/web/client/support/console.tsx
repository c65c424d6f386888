import { useEffect, useState } from 'preact/hooks';
import { get, post } from '../api';
import { link, navigate } from '../router';
import { Alert, PageTitle, useAction, useLoad } from '../ui';
import { AccessPage } from './access';
import { AgentsPage } from './agents';
import { ConversationPage, ConversationsPage } from './conversations';
import { KnowledgePage } from './knowledge';
import { MembersPage } from './members';
import { MetricsPage } from './metrics';
import { isComplete, doneCount, StartPage, useSetup } from './start';
import { TicketPage, TicketsPage } from './tickets';
import { TryPage } from './try';
import type { Workspace } from './types';
import { EndpointPage, WebhooksPage } from './webhooks';
import { WidgetPage } from './widget';

const SECTIONS = [
  ['start', 'Get started'],
  ['try', 'Try the agent'],
  ['knowledge', 'Knowledge'],
  ['conversations', 'Conversations'],
  ['metrics', 'Metrics & gaps'],
  ['tickets', 'Tickets'],
  ['widget', 'Widget'],
  ['agents', 'Agents'],
  ['access', 'Keys & token'],
  ['webhooks', 'Webhooks'],
  ['members', 'Members'],
] as const;

/** /support/…: the support console, one workspace at a time (loaded on first visit: support-page.tsx). */
export function SupportConsole({ path }: { path: string }) {
  const workspaces = useLoad(() => get<{ workspaces: Workspace[] }>('/agent/workspaces').then((r) => r.workspaces), []);
  const parts = path.split('/').filter(Boolean).slice(1); // after "support"
  const workspaceId = Number(parts[0]) || null;
  if (!workspaces.data) return <main>{workspaces.error ? <Alert error={workspaces.error} /> : <p>Loading…</p>}</main>;
  if (workspaceId === null) return <WorkspacePicker workspaces={workspaces.data} onCreated={() => workspaces.reload()} />;
  const workspace = workspaces.data.find((w) => w.id === workspaceId);
  if (!workspace)
    return (
      <main class="narrow">
        <PageTitle>Workspace not found</PageTitle>
        <p>You are not a member of this workspace, or it does not exist.</p>
        <a href="/support" onClick={link('/support')}>
          Your workspaces
        </a>
      </main>
    );
  return <WorkspaceConsole key={workspace.id} workspace={workspace} workspaces={workspaces.data} section={parts[1] ?? null} sub={parts[2] ? decodeURIComponent(parts[2]) : null} />;
}

/** One workspace's console: the tabs and the section in the path (without one: Get started until set up, then Try). */
function WorkspaceConsole({ workspace, workspaces, section: given, sub }: { workspace: Workspace; workspaces: Workspace[]; section: string | null; sub: string | null }) {
  // The checklist is re-read on every move between sections until it is complete: its ticks follow what was just done.
  const [complete, setComplete] = useState(false);
  const setup = useSetup(workspace.id, complete ? 'done' : `${given}/${sub}`);
  useEffect(() => setComplete(!!setup.data && isComplete(setup.data)), [setup.data]);
  if (given === null && !setup.data && !setup.error) return <main class="support"><p>Loading…</p></main>;
  const section = given ?? (setup.data && !isComplete(setup.data) ? 'start' : 'try');
  const base = `/support/${workspace.id}`;
  const canManage = workspace.role !== 'member';
  const props = { workspace, canManage, base };
  let content;
  if (section === 'start') content = <StartPage {...props} setup={setup} />;
  else if (section === 'try') content = <TryPage {...props} />;
  else if (section === 'knowledge') content = <KnowledgePage {...props} />;
  else if (section === 'conversations') content = sub ? <ConversationPage {...props} conversationId={sub} /> : <ConversationsPage {...props} />;
  else if (section === 'metrics') content = <MetricsPage {...props} />;
  else if (section === 'tickets') content = sub ? <TicketPage {...props} ticketId={sub} /> : <TicketsPage {...props} />;
  else if (section === 'widget') content = <WidgetPage {...props} />;
  else if (section === 'agents') content = <AgentsPage {...props} />;
  else if (section === 'access') content = <AccessPage {...props} />;
  else if (section === 'webhooks') content = sub ? <EndpointPage {...props} endpointId={Number(sub)} /> : <WebhooksPage {...props} />;
  else if (section === 'members') content = <MembersPage {...props} />;
  else content = <p>There is no such section.</p>;

  return (
    <main class="support">
      <div class="support-head">
        <label class="switcher">
          Workspace
          <select
            value={String(workspace.id)}
            onChange={(e) => {
              const value = e.currentTarget.value;
              navigate(value === 'all' ? '/support' : `/support/${value}/${section}`);
            }}
          >
            {workspaces.map((w) => (
              <option key={w.id} value={String(w.id)}>
                {w.name}
              </option>
            ))}
            <option value="all">All workspaces…</option>
          </select>
        </label>
        <span class="badge" title="Your role in this workspace">
          {workspace.role}
        </span>
      </div>
      {/* On a phone the tabs are one control (styles.css shows one or the other). */}
      <label class="tabs-select">
        Section
        <select value={section} onChange={(e) => navigate(`${base}/${e.currentTarget.value}`)}>
          {SECTIONS.map(([key, label]) => (
            <option key={key} value={key}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <nav class="tabs" aria-label="Support console">
        <ul>
          {SECTIONS.map(([key, label]) => (
            <li key={key}>
              <a href={`${base}/${key}`} onClick={link(`${base}/${key}`)} aria-current={section === key ? 'page' : undefined}>
                {label}
                {key === 'start' && setup.data && (
                  <span class={`badge${isComplete(setup.data) ? ' ok' : ''}`} title="Set-up steps done">
                    {isComplete(setup.data) ? '✓' : `${doneCount(setup.data)}/5`}
                  </span>
                )}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {content}
    </main>
  );
}

function WorkspacePicker({ workspaces, onCreated }: { workspaces: Workspace[]; onCreated: () => void }) {
  const [name, setName] = useState('');
  const { error, busy, run } = useAction();
  return (
    <main>
      <PageTitle>Support workspaces</PageTitle>
      <p class="lead">A workspace holds a support team's knowledge, agents, keys, tickets and webhooks.</p>
      {workspaces.length === 0 && <p>You do not belong to any workspace yet: create one, or ask an owner to add you.</p>}
      <ul class="board-grid">
        {workspaces.map((w) => (
          <li key={w.id}>
            <a class="board-tile" href={`/support/${w.id}`} onClick={link(`/support/${w.id}`)}>
              <strong>{w.name}</strong>
              <span class="badge">{w.role}</span>
            </a>
          </li>
        ))}
      </ul>
      <section class="panel" aria-labelledby="new-ws">
        <h2 id="new-ws">New workspace</h2>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void run(async () => {
              const w = await post<Workspace>('/agent/workspaces', { name });
              onCreated();
              navigate(`/support/${w.id}`);
            });
          }}
        >
          <label>
            Name
            <input required value={name} onInput={(e) => setName(e.currentTarget.value)} />
          </label>
          <Alert error={error} />
          <button type="submit" class="primary" disabled={busy}>
            Create workspace
          </button>
        </form>
      </section>
    </main>
  );
}

import { useState } from 'preact/hooks';
import { del, get } from '../api';
import { Alert, formatDate, Table, useAction, useLoad } from '../ui';
import type { Agent, ConfirmedAnswer } from './types';
import { AgentSelect } from './agent-select';

/**
 * The agent's confirmed answers: messages staff said an article answers, or that go to a person,
 * which the agent follows at once for the same message or one worded nearly like it. Staff remove one here (its
 * verdict is taken back). `version` changes when a verdict was given elsewhere on the page, to read the list again.
 */
export function ConfirmedAnswers({ workspaceId, agents, version = 0 }: { workspaceId: number; agents: Agent[]; version?: number }) {
  const [agentId, setAgentId] = useState('');
  const chosen = agentId || agents[0]?.id || '';
  const list = useLoad(
    () => (chosen ? get<{ confirmedAnswers: ConfirmedAnswer[] }>(`/agent/workspaces/${workspaceId}/confirmed-answers?agentId=${encodeURIComponent(chosen)}`) : Promise.resolve({ confirmedAnswers: [] })),
    [workspaceId, chosen, version],
  );
  const action = useAction();
  const remove = (c: ConfirmedAnswer) =>
    action.run(async () => {
      await del(`/agent/workspaces/${workspaceId}/confirmed-answers/${c.turnId}`);
      await list.reload();
    });
  const rows = list.data?.confirmedAnswers;

  return (
    <details class="confirmed" data-testid="confirmed-answers">
      <summary>Confirmed answers{rows ? ` (${rows.length})` : ''}</summary>
      <p class="hint">
        A verdict that names the right article confirms it: the same message, or one worded nearly like it, is then answered from that article at once. “Should have gone to a person” sends such
        messages to a person. An article edited since is checked again; a deleted one drops its confirmations.
      </p>
      {agents.length > 1 && (
        <AgentSelect agents={agents} value={chosen} onChange={setAgentId} />
      )}
      <Alert error={list.error ?? action.error} />
      <Table
        columns={['Message', 'Answered from', 'By', 'When']}
        actions
        rows={rows}
        hideEmpty
        empty="No confirmed answers yet: give a verdict on a conversation's answer."
        row={(c) => (
          <tr key={c.turnId}>
            <th scope="row">{c.message}</th>
            <td>
              {c.article ? (
                <>
                  “{c.article.title}” <span class="hint">({c.article.externalId})</span>
                </>
              ) : (
                'a person (hand over)'
              )}
              {c.status !== 'active' && <div class="hint" data-testid="confirmed-held">Not used: {c.why}</div>}
            </td>
            <td>{c.by ?? 'a former member'}</td>
            <td>{formatDate(c.at, { time: true })}</td>
            <td>
              <button type="button" class="small" disabled={action.busy} onClick={() => void remove(c)} aria-label={`Remove the confirmed answer to “${c.message}”`}>
                Remove
              </button>
            </td>
          </tr>
        )}
      />
    </details>
  );
}

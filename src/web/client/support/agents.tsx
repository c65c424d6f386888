import { useState } from 'preact/hooks';
import { get, patch, post } from '../api';
import { Alert, Modal, Table, useAction, useLoad } from '../ui';
import type { Agent, SectionProps } from './types';

export function AgentsPage({ workspace, canManage }: SectionProps) {
  const agents = useLoad(() => get<{ agents: Agent[] }>(`/agent/workspaces/${workspace.id}/agents`).then((r) => r.agents), [workspace.id]);
  const [editing, setEditing] = useState<Agent | 'new' | null>(null);
  return (
    <section aria-labelledby="agents-heading">
      <h2 id="agents-heading">Agents</h2>
      <Alert error={agents.error} />
      <Table
        columns={['Name', 'Id', 'Status', 'Unreadable attachments']}
        actions
        rows={agents.data}
        empty="No agents yet: create one to start answering."
        row={(a) => (
          <tr key={a.id}>
            <th scope="row">{a.name}</th>
            <td>
              <code>{a.id}</code>
            </td>
            <td>
              {a.published ? <span class="badge ok">Published</span> : <span class="badge">Draft</span>}
              {a.default && <span class="badge">Default for tickets</span>}
            </td>
            <td>{a.attachmentFallback === 'needs_human' ? 'Ask for a human' : 'Answer from the text'}</td>
            <td>
              <button type="button" class="small" onClick={() => setEditing(a)}>
                {canManage ? 'Edit' : 'View'}
              </button>
            </td>
          </tr>
        )}
      />
      {canManage && (
        <button type="button" class="primary" onClick={() => setEditing('new')}>
          New agent
        </button>
      )}
      {editing && <AgentEditor workspaceId={workspace.id} agent={editing === 'new' ? null : editing} canManage={canManage} onClose={() => setEditing(null)} onSaved={() => void agents.reload()} />}
    </section>
  );
}

function AgentEditor({ workspaceId, agent, canManage, onClose, onSaved }: { workspaceId: number; agent: Agent | null; canManage: boolean; onClose: () => void; onSaved: () => void }) {
  const [form, setForm] = useState({
    name: agent?.name ?? '',
    published: agent?.published ?? true,
    default: agent?.default ?? false,
    fallbackMessage: agent?.fallbackMessage ?? '',
    referralText: agent?.referralText ?? '',
    attachmentFallback: agent?.attachmentFallback ?? 'answer',
    synonyms: (agent?.synonyms ?? []).map((g) => g.join(', ')).join('\n'),
    handoffTopics: (agent?.handoffTopics ?? []).join('\n'),
  });
  const { error, busy, run, setError } = useAction();
  const field = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) => setForm({ ...form, [key]: value });
  return (
    <Modal title={agent ? agent.name : 'New agent'} onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const synonyms = synonymGroups(form.synonyms);
          if (typeof synonyms === 'string') {
            setError(new Error(synonyms));
            return;
          }
          void run(async () => {
            const body: Record<string, unknown> = {
              name: form.name,
              published: form.published,
              referralText: form.referralText,
              attachmentFallback: form.attachmentFallback,
              synonyms,
              handoffTopics: form.handoffTopics.split('\n').map((t) => t.trim()).filter(Boolean),
            };
            if (form.fallbackMessage.trim()) body.fallbackMessage = form.fallbackMessage;
            // "default" can only be given to an agent (there is always one default); it is not taken away directly.
            if (form.default && !agent?.default) body.default = true;
            if (agent) await patch(`/agent/workspaces/${workspaceId}/agents/${agent.id}`, body);
            else await post(`/agent/workspaces/${workspaceId}/agents`, body);
            onSaved();
            onClose();
          });
        }}
      >
        <fieldset disabled={!canManage}>
          <legend class="visually-hidden">Agent settings</legend>
          <label>
            Name
            <input required value={form.name} onInput={(e) => field('name', e.currentTarget.value)} />
          </label>
          <label class="inline">
            <input type="checkbox" checked={form.published} onChange={(e) => field('published', e.currentTarget.checked)} /> Published (answers API calls)
          </label>
          <label class="inline">
            <input type="checkbox" checked={form.default} disabled={agent?.default} onChange={(e) => field('default', e.currentTarget.checked)} /> Default for tickets
            {agent?.default && <span class="hint"> (make another agent the default to change this)</span>}
          </label>
          <label>
            “I do not know” message <span class="hint">(shown when a human is needed)</span>
            <textarea rows={3} value={form.fallbackMessage} onInput={(e) => field('fallbackMessage', e.currentTarget.value)} />
          </label>
          <label>
            Referral text <span class="hint">(how to reach a person)</span>
            <textarea rows={2} value={form.referralText} onInput={(e) => field('referralText', e.currentTarget.value)} />
          </label>
          <label>
            When no attachment can be read
            <select value={form.attachmentFallback} onChange={(e) => field('attachmentFallback', e.currentTarget.value as 'answer' | 'needs_human')}>
              <option value="answer">Answer from the message alone</option>
              <option value="needs_human">Say a human is needed</option>
            </select>
          </label>
          <label>
            Words of your product that mean the same <span class="hint">(one group per line, words separated by commas: “seat, licence”; general ones like “invoice, bill” are built in)</span>
            <textarea rows={3} value={form.synonyms} onInput={(e) => field('synonyms', e.currentTarget.value)} />
          </label>
          <label>
            Always hand to a person <span class="hint">(one topic per line, e.g. “refund”: a message naming one goes to a person)</span>
            <textarea rows={2} value={form.handoffTopics} onInput={(e) => field('handoffTopics', e.currentTarget.value)} />
          </label>
        </fieldset>
        <Alert error={error} />
        {canManage && (
          <button type="submit" class="primary" disabled={busy}>
            Save agent
          </button>
        )}
      </form>
    </Modal>
  );
}

/** The synonym field's lines as groups of words, or what is wrong with a line, in the user's words. */
function synonymGroups(text: string): string[][] | string {
  const groups: string[][] = [];
  for (const [i, line] of text.split('\n').entries()) {
    const words = line.split(',').map((w) => w.trim()).filter(Boolean);
    if (words.length === 0) continue;
    const spaced = words.find((w) => /\s/.test(w));
    if (spaced) return `Words that mean the same, line ${i + 1}: “${spaced}” is more than one word; a group holds single words, separated by commas.`;
    if (words.length === 1) return `Words that mean the same, line ${i + 1}: a group needs at least two words.`;
    if (words.length > 10) return `Words that mean the same, line ${i + 1}: at most 10 words in a group.`;
    groups.push(words);
  }
  return groups;
}

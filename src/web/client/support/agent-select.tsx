import type { Agent } from './types';

/** "Agent": one of the workspace's agents, by name (the widget's, the confirmed answers'). */
export function AgentSelect({ agents, value, onChange }: { agents: Agent[]; value: string; onChange: (agentId: string) => void }) {
  return (
    <label>
      Agent
      <select value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {agents.map((a) => (
          <option key={a.id} value={a.id}>
            {a.name}
          </option>
        ))}
      </select>
    </label>
  );
}

import { useState } from 'preact/hooks';
import { get, post } from '../api';
import { link } from '../router';
import { Alert, Markdown, useAction, useLoad } from '../ui';
import type { Agent, Answer, Confidence, SectionProps, Source } from './types';

async function toBase64(file: File) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

const newRef = () => `console-${crypto.randomUUID()}`;

/** Asks the agent through the answer API's own logic, as a customer's message would. */
export function TryPage({ workspace, base }: SectionProps) {
  const agents = useLoad(() => get<{ agents: Agent[] }>(`/agent/workspaces/${workspace.id}/agents`).then((r) => r.agents), [workspace.id]);
  const [agentId, setAgentId] = useState('');
  const [message, setMessage] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [ref, setRef] = useState(newRef);
  const [thread, setThread] = useState<{ question: string; answer: Answer }[]>([]);
  const { error, busy, run } = useAction();
  const published = (agents.data ?? []).filter((a) => a.published);

  return (
    <section aria-labelledby="try-heading">
      <h2 id="try-heading">Try the agent</h2>
      <p class="lead">Messages go through the same logic as <code>POST /v1/answer</code> and are recorded as conversations on the channel “console”.</p>
      {agents.data && published.length === 0 && <Alert error={new Error('No published agent: publish one under Agents first.')} />}
      <ol class="thread" aria-label="Conversation">
        {thread.map((t, i) => (
          <li key={i}>
            <p class="question">
              <strong>You:</strong> {t.question}
            </p>
            <AnswerView answer={t.answer} base={base} />
          </li>
        ))}
      </ol>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            const attachments = await Promise.all(files.map(async (f) => ({ filename: f.name, mime: f.type || 'application/octet-stream', contentBase64: await toBase64(f) })));
            const answer = await post<Answer>(`/agent/workspaces/${workspace.id}/try`, {
              message,
              conversationRef: ref,
              ...(agentId ? { agentId } : {}),
              ...(attachments.length ? { attachments } : {}),
            });
            setThread((t) => [...t, { question: message, answer }]);
            setMessage('');
            setFiles([]);
            const input = (e.target as HTMLFormElement).querySelector('input[type=file]') as HTMLInputElement | null;
            if (input) input.value = '';
          });
        }}
      >
        <label>
          Agent
          <select value={agentId} onChange={(e) => setAgentId(e.currentTarget.value)}>
            <option value="">The default agent</option>
            {published.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Message
          <textarea rows={3} required value={message} onInput={(e) => setMessage(e.currentTarget.value)} placeholder="How do I reset my password?" />
        </label>
        <label>
          Attachments <span class="hint">(images or PDFs, up to 5)</span>
          <input type="file" multiple accept="image/*,application/pdf" onChange={(e) => setFiles([...(e.currentTarget.files ?? [])].slice(0, 5))} />
        </label>
        <Alert error={error} />
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Asking…' : 'Ask'}
          </button>
          {thread.length > 0 && (
            <button
              type="button"
              onClick={() => {
                setThread([]);
                setRef(newRef());
              }}
            >
              New conversation
            </button>
          )}
        </div>
      </form>
    </section>
  );
}

export function AnswerView({ answer, base }: { answer: { message: string; sources: Source[]; confidence: Confidence; needs_human?: boolean; needsHuman?: boolean; why?: string | null; reason?: string | null }; base: string }) {
  const needsHuman = answer.needs_human ?? answer.needsHuman ?? false;
  return (
    <div class="answer" data-testid="answer">
      <div class="reply">
        <strong>Agent:</strong>
        <Markdown text={answer.message} />
      </div>
      <p>
        <span class={`badge confidence-${answer.confidence}`}>Confidence: {answer.confidence}</span>
        {needsHuman ? <span class="badge warn">Needs a human</span> : <span class="badge ok">Answered</span>}
      </p>
      {answer.why && (
        <p class="hint why">
          Why a human is needed:{' '}
          <span title={answer.reason ? `reason: ${answer.reason}` : undefined} data-reason={answer.reason ?? undefined}>
            {answer.why}
          </span>
        </p>
      )}
      {answer.sources.length > 0 && (
        <>
          <h4>Sources</h4>
          <ol class="sources">
            {answer.sources.map((s) => (
              <li key={s.externalId}>
                <a href={`${base}/knowledge?article=${encodeURIComponent(s.externalId)}`} onClick={link(`${base}/knowledge?article=${encodeURIComponent(s.externalId)}`)}>
                  {s.title}
                </a>{' '}
                <span class="hint">
                  {s.externalId} · score {s.score.toFixed(2)}
                </span>
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}

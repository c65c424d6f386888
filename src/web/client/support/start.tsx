import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { get } from '../api';
import { link } from '../router';
import { Alert, useLoad } from '../ui';
import type { Agent, AnswerKey, Article, ConversationSummary, SectionProps } from './types';

/** What the workspace has, read from the workspace itself (nothing is stored about the checklist). */
export interface Setup {
  articles: number;
  firstArticle: Article | null;
  agents: Agent[];
  tried: boolean;
  liveKeys: number;
  called: boolean;
}

export const isComplete = (s: Setup) => s.articles > 0 && s.agents.length > 0 && s.tried && s.liveKeys > 0 && s.called;
export const doneCount = (s: Setup) => [s.articles > 0, s.agents.length > 0, s.tried, s.liveKeys > 0, s.called].filter(Boolean).length;

/**
 * The set-up state: articles, agents, a conversation from "Try the agent" (channel console), live
 * answer keys, and whether any key has called the API. `refresh` changes re-read it.
 */
export function useSetup(workspaceId: number, refresh: unknown) {
  return useLoad(async (): Promise<Setup> => {
    const w = `/agent/workspaces/${workspaceId}`;
    const [articles, agents, tried, keys] = await Promise.all([
      get<{ articles: Article[] }>(`${w}/articles?limit=1`),
      get<{ agents: Agent[] }>(`${w}/agents`),
      get<{ conversations: ConversationSummary[] }>(`${w}/conversations?channel=console&limit=1`),
      get<{ keys: AnswerKey[] }>(`${w}/answer-keys`),
    ]);
    return {
      articles: articles.articles.length,
      firstArticle: articles.articles[0] ?? null,
      agents: agents.agents,
      tried: tried.conversations.length > 0,
      liveKeys: keys.keys.filter((k) => !k.revokedAt).length,
      called: keys.keys.some((k) => k.lastUsedAt !== null),
    };
  }, [workspaceId, refresh]);
}

/** The curl a developer pastes: this server's URL, a placeholder for the key, a question the knowledge can answer. */
export function answerCurl(origin: string, question: string) {
  const body = JSON.stringify({ message: question, channel: 'api' }).replace(/'/g, "'\\''");
  return [`curl ${origin}/v1/answer \\`, `  -H "X-API-Key: $ANSWER_KEY" \\`, `  -H 'Content-Type: application/json' \\`, `  -d '${body}'`].join('\n');
}

interface Step {
  key: string;
  done: boolean;
  title: string;
  text: ComponentChildren;
  action?: { label: string; href: string };
}

/** The first-run checklist: five steps from an empty workspace to an answer over the API, ticked from the workspace's state. */
export function StartPage({ base, canManage, setup }: SectionProps & { setup: ReturnType<typeof useSetup> }) {
  const s = setup.data;
  // Waiting for the first call from a terminal: look again every few seconds, so the step ticks itself.
  const waiting = !!s && s.liveKeys > 0 && !s.called;
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => {
      if (!document.hidden) void setup.reload();
    }, 3000);
    return () => clearInterval(timer);
  }, [waiting, setup.reload]);
  const question = s?.firstArticle?.title ?? 'How do I reset my password?';
  const curl = answerCurl(location.origin, question);
  const manage = (label: string, href: string) => (canManage ? { label, href } : undefined);
  const steps: Step[] = s
    ? [
        {
          key: 'knowledge',
          done: s.articles > 0,
          title: 'Add knowledge',
          text: 'Write an article, or import Markdown, HTML, text, PDF or JSON files: the agent answers only from them.',
          action: manage('Add articles', `${base}/knowledge`),
        },
        {
          key: 'agent',
          done: s.agents.length > 0,
          title: 'Create an agent',
          text: 'An agent answers with a name, a message for when it cannot, and where a person can be reached.',
          action: manage('Create an agent', `${base}/agents`),
        },
        {
          key: 'try',
          done: s.tried,
          title: 'Try it',
          text: 'Ask it a question your customers ask, and see the answer with the articles it cites.',
          action: { label: 'Try the agent', href: `${base}/try` },
        },
        {
          key: 'key',
          done: s.liveKeys > 0,
          title: 'Create an answer key',
          text: (
            <>
              Your help widget, ticketing system or script sends it as <code>X-API-Key</code>. It is shown once.
            </>
          ),
          action: manage('Create a key', `${base}/access`),
        },
        {
          key: 'call',
          done: s.called,
          title: 'Call the answer API',
          text: (
            <>
              Paste this in a terminal, with <code>ANSWER_KEY</code> set to your key (<code>export ANSWER_KEY=ans_…</code>). This step ticks itself once a key has been used.
            </>
          ),
        },
      ]
    : [];
  const done = steps.filter((x) => x.done).length;
  return (
    <section aria-labelledby="start-heading" class="start">
      <h2 id="start-heading">Get started</h2>
      <p class="lead">
        {s && done === steps.length
          ? 'All set: your agent answers over the API. The steps stay here for the next person who sets one up.'
          : `Five steps from an empty workspace to an answer in your own product. ${canManage ? '' : 'Owners and admins of this workspace can take the steps that change it.'}`}
      </p>
      <Alert error={setup.error} />
      {s && (
        <>
          <p class="progress-line">
            <progress max={steps.length} value={done} aria-label="Set-up progress" /> {done} of {steps.length} done
          </p>
          <ol class="checklist">
            {steps.map((step, i) => (
              <li key={step.key} data-step={step.key} data-done={step.done ? 'true' : 'false'} class={step.done ? 'done' : undefined}>
                <span class="check" aria-hidden="true">
                  {step.done ? '✓' : i + 1}
                </span>
                <div>
                  <h3>
                    {step.title} <span class="visually-hidden">{step.done ? '(done)' : '(to do)'}</span>
                  </h3>
                  <p>{step.text}</p>
                  {step.key === 'call' && (
                    <div class="curl">
                      <pre data-testid="curl">{curl}</pre>
                      <button type="button" class="small" onClick={() => void navigator.clipboard.writeText(curl).catch(() => undefined)}>
                        Copy
                      </button>
                    </div>
                  )}
                  {step.action && !step.done && (
                    <a class="button-link" href={step.action.href} onClick={link(step.action.href)}>
                      {step.action.label} →
                    </a>
                  )}
                </div>
              </li>
            ))}
          </ol>
        </>
      )}
      {!s && !setup.error && <p>Loading…</p>}
    </section>
  );
}

import { useRef, useState } from 'preact/hooks';
import { del, get, put } from '../api';
import { Alert, errorFor, FieldError, plural, useAction } from '../ui';
import type { Article, FeedbackResult, Turn } from './types';

const SAID: Record<NonNullable<Turn['feedback']>['verdict'], string> = {
  right: 'right',
  wrong: 'wrong',
  needs_human: 'should have gone to a person',
  should_answer: 'should have answered (the cited article was right)',
};

type Verdict = NonNullable<Turn['feedback']>['verdict'];

/**
 * What the agent made of the verdicts so far, in words: those on answers it weighed (not on messages
 * where it found nothing, or that asked for a person) teach it when to hand over.
 */
type Check = { labels: number; fitted: { balanced: number }; previous: { balanced: number }; kept: 'fitted' | 'previous' };

const percent = (x: number) => `${Math.round(x * 100)} %`;

export function learningText(l: { labels: number; labelsNeeded: number; refitted: boolean; check?: Check | null }) {
  // The refit is kept only when it decides better on verdicts it was not fitted on (balanced: answerable answered, the rest handed over).
  const check = l.check
    ? l.check.kept === 'fitted'
      ? ` Checked on verdicts it was not fitted on, it decided ${percent(l.check.fitted.balanced)} of them right, against ${percent(l.check.previous.balanced)} before.`
      : ` Its last refit was not used: on verdicts it was not fitted on it decided ${percent(l.check.fitted.balanced)} right, and the model in use ${percent(l.check.previous.balanced)}; it keeps deciding ${l.refitted ? 'with what it learnt before' : 'as it did before your verdicts'}.`
    : '';
  if (l.refitted) return `The agent decides when to hand over with what it learnt from verdicts of your team (${plural(l.labels, 'verdict')} now).${check}`;
  if (l.check) return `${plural(l.labels, 'verdict')} of your team ${l.labels === 1 ? 'counts' : 'count'} toward when to hand over.${check}`;
  return `${plural(l.labels, 'verdict')} of your team ${l.labels === 1 ? 'counts' : 'count'} toward when to hand over; from ${l.labelsNeeded}, the agent decides with them.`;
}

/** What a saved verdict changed, in words. */
function savedText(saved: FeedbackResult, turn: Turn) {
  const answered = !turn.needsHuman || turn.reason === 'earlier_turn';
  const confirmed = (saved.verdict === 'right' && answered) || saved.verdict === 'should_answer';
  const found = saved.articleId ?? (confirmed ? turn.sources[0]?.externalId : undefined);
  const counts = saved.counts ? '' : `It does not teach the agent when to hand over: ${saved.why ?? ''} `;
  // A confirmed answer (or hand-off): the same message, or one worded nearly like it, is treated so at once.
  const now = found ? `Saved. This message, and messages worded like it, will now be answered from “${found}”. ` : saved.verdict === 'needs_human' ? 'Saved. This message, and messages worded like it, will now go to a person. ' : 'Saved. ';
  return `${now}${counts}`;
}

/**
 * A staff member's verdict on one answer: right, wrong (naming the article that answers it), it
 * should have gone to a person, or (on a hand-off that cited an article) it should have answered. The agent learns from them (see docs/answer-api.md).
 */
export function TurnVerdict({ workspaceId, conversationId, turn, onChanged }: { workspaceId: number; conversationId: string; turn: Turn; onChanged: () => void }) {
  const url = `/agent/workspaces/${workspaceId}/conversations/${encodeURIComponent(conversationId)}/turns/${turn.id}/feedback`;
  const action = useAction();
  const [choosing, setChoosing] = useState(false);
  const [article, setArticle] = useState('');
  const [found, setFound] = useState<Article[]>([]);
  const [saved, setSaved] = useState<FeedbackResult | null>(null);
  const give = (body: { verdict: Verdict; articleId?: string }) =>
    action.run(async () => {
      setSaved(await put<FeedbackResult>(url, body));
      setChoosing(false);
      onChanged();
    });
  // Answers may come back out of order: only the latest search's is shown.
  const latest = useRef(0);
  const search = async (q: string) => {
    setArticle(q);
    const mine = ++latest.current;
    if (q.trim().length < 2) return setFound([]);
    const r = await get<{ articles: Article[] }>(`/agent/workspaces/${workspaceId}/articles?q=${encodeURIComponent(q)}&limit=5`).catch(() => null);
    if (r && mine === latest.current) setFound(r.articles);
  };
  const takeBack = () =>
    action.run(async () => {
      await del(url);
      setSaved(null);
      onChanged();
    });
  const current = turn.feedback?.verdict;
  // Handed over, citing an article: staff may say that article was right and it should have answered.
  const handedOverCiting = turn.needsHuman && turn.reason !== 'earlier_turn' && turn.sources.length > 0;
  const suggestions = [...turn.sources.map((s) => ({ externalId: s.externalId, title: s.title })), ...found.filter((a) => !turn.sources.some((s) => s.externalId === a.externalId))];
  const listId = `articles-${turn.id}`;

  return (
    <div class="verdict" role="group" aria-label="Your verdict on this answer">
      {turn.feedback ? (
        <p class="hint" data-testid="verdict">
          Marked <strong>{SAID[turn.feedback.verdict]}</strong>
          {turn.feedback.articleId && <> (the right article: {turn.feedback.articleId})</>}
          {turn.feedback.by && <> by {turn.feedback.by}</>}.{' '}
          {!turn.feedback.counts && <span data-testid="verdict-not-counted">It does not count toward when to hand over: {turn.feedback.why} </span>}
          <button type="button" class="link" disabled={action.busy} onClick={() => void takeBack()}>
            Take it back
          </button>
        </p>
      ) : (
        <p class="hint">Was this answer right? Your verdict teaches the agent.</p>
      )}
      <div class="row">
        <button type="button" class="small" aria-pressed={current === 'right'} disabled={action.busy} onClick={() => void give({ verdict: 'right' })}>
          Right
        </button>
        <button type="button" class="small" aria-pressed={current === 'wrong'} disabled={action.busy} aria-expanded={choosing} onClick={() => setChoosing(!choosing)}>
          Wrong…
        </button>
        {handedOverCiting && (
          <button type="button" class="small" aria-pressed={current === 'should_answer'} disabled={action.busy} onClick={() => void give({ verdict: 'should_answer' })}>
            Should have answered: “{turn.sources[0]!.title}” was right
          </button>
        )}
        <button type="button" class="small" aria-pressed={current === 'needs_human'} disabled={action.busy} onClick={() => void give({ verdict: 'needs_human' })}>
          Should have gone to a person
        </button>
      </div>
      {choosing && (
        <form
          class="row"
          onSubmit={(e) => {
            e.preventDefault();
            void give({ verdict: 'wrong', articleId: article.trim() });
          }}
        >
          <label>
            The article that answers it
            <input
              list={listId}
              value={article}
              required
              placeholder="Its ID (type words of its title to find it)"
              aria-invalid={errorFor(action.error, 'articleId') ? true : undefined}
              aria-describedby={`${listId}-error`}
              onInput={(e) => void search(e.currentTarget.value)}
            />
          </label>
          <FieldError error={action.error} field="articleId" id={`${listId}-error`} />
          <datalist id={listId}>
            {suggestions.map((a) => (
              <option key={a.externalId} value={a.externalId} label={a.title} />
            ))}
          </datalist>
          <button type="submit" disabled={action.busy}>
            Save
          </button>
          <button type="button" class="link" onClick={() => setChoosing(false)}>
            Cancel
          </button>
        </form>
      )}
      <Alert error={action.error} fields={['articleId']} />
      {/* Always there, so that screen readers announce what appears in it. */}
      <p class="hint" role="status">
        {saved && (
          <>
            {savedText(saved, turn)}
            {learningText(saved)}
          </>
        )}
      </p>
    </div>
  );
}

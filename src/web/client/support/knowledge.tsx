import { useEffect, useRef, useState } from 'preact/hooks';
import { del, get, post, put } from '../api';
import { setQuery, useLocation } from '../router';
import { BookOpen } from 'lucide';
import { Alert, ConfirmButton, EmptyState, formatDate, Modal, Pager, Table, useAction, useLoad } from '../ui';
import { ImportDialog } from './import-dialog';
import type { Article, KnowledgeStatus, SectionProps } from './types';

/** "about 2 minutes left": rounded up to what a person reads at a glance. */
export function timeLeft(seconds: number | null): string {
  if (seconds === null) return '';
  if (seconds < 60) return ', less than a minute left';
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 90) return `, about ${minutes} minute${minutes === 1 ? '' : 's'} left`;
  return `, about ${Math.round(minutes / 60)} hours left`;
}

/**
 * How soon the status is read again: every 3 s while a build moves, every 10 s while it has failed (each read after
 * the server's retry time starts a retry), and every 15 s otherwise, so that an import or a deletion made elsewhere
 * (another person, the API, the CLI) shows here without a reload (a poll: the console has no stream of knowledge changes). A read
 * is two counts, and none is made while the tab is hidden.
 */
function nextReadIn(s: KnowledgeStatus): number {
  if (s.failure) return 10_000;
  if (s.semanticRanking && !s.rankingByMeaning && s.articles > 0) return 3000;
  return 15_000;
}

/** The status in words for the person at the console; null when there is nothing to say. */
export function rankingStatusText(s: KnowledgeStatus): { text: string; problem: boolean } | null {
  if (!s.semanticRanking || s.articles === 0) return null;
  if (s.rankingByMeaning) return { text: `Ranking by meaning: all ${s.articles} articles ready.`, problem: false };
  const words = 'Until then answers rank by words only.';
  if (s.failure) {
    const retry = s.buildingSince ? 'Trying again now.' : 'It is tried again about every 30 seconds while this page is open or customers ask.';
    return {
      text: `Ranking by meaning has stopped at ${s.withVectors} of ${s.articles} articles ready: ${lowerFirst(s.failure.reason)} Last try ${formatDate(s.failure.at, { time: true })}. ${retry} ${words} If it lasts, tell whoever runs this server.`,
      problem: true,
    };
  }
  if (s.stalledSince) {
    return {
      text: `Ranking by meaning: ${s.withVectors} of ${s.articles} articles ready, and none finished since ${formatDate(s.stalledSince, { time: true })}: it is waiting for the service that computes meaning. ${words}`,
      problem: true,
    };
  }
  return { text: `Ranking by meaning: ${s.withVectors} of ${s.articles} articles ready${timeLeft(s.secondsLeft)}. ${words}`, problem: false };
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/**
 * How far the knowledge is embedded for ranking by meaning, read again every few seconds (nextReadIn), and at once
 * after each change made on this page (`changes` counts them) and when the tab is shown again. An article count that
 * changed between two reads (an import made elsewhere) reloads the list too (`onArticlesChanged`).
 */
function RankingStatus({ workspaceId, changes, onArticlesChanged }: { workspaceId: number; changes: number; onArticlesChanged: () => void }) {
  const [status, setStatus] = useState<KnowledgeStatus | null>(null);
  const articlesChanged = useRef(onArticlesChanged);
  articlesChanged.current = onArticlesChanged;
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let known: number | null = null;
    const later = (ms: number) => {
      clearTimeout(timer);
      if (!stopped && !document.hidden) timer = setTimeout(read, ms);
    };
    const read = () =>
      get<KnowledgeStatus>(`/agent/workspaces/${workspaceId}/knowledge-status`).then(
        (s) => {
          if (stopped) return;
          if (known !== null && s.articles !== known) articlesChanged.current();
          known = s.articles;
          setStatus(s);
          later(nextReadIn(s));
        },
        () => later(10_000),
      );
    const shown = () => {
      if (document.hidden || stopped) return;
      clearTimeout(timer);
      void read();
    };
    document.addEventListener('visibilitychange', shown);
    void read();
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', shown);
    };
  }, [workspaceId, changes]);
  const shownText = status && rankingStatusText(status);
  if (!shownText) return null;
  return (
    <p class={shownText.problem ? 'alert' : 'muted'} role="status" data-testid="ranking-status">
      {shownText.text}
    </p>
  );
}

/** Articles: search, add, edit, delete, import; every change is live for the next answer. */
export function KnowledgePage({ workspace, canManage }: SectionProps) {
  const { query } = useLocation();
  const [q, setQ] = useState('');
  const [applied, setApplied] = useState('');
  const [cursor, setCursor] = useState<string | null>(null);
  const articles = useLoad(
    () =>
      get<{ articles: Article[]; nextCursor: string | null }>(
        `/agent/workspaces/${workspace.id}/articles?limit=50${applied ? `&q=${encodeURIComponent(applied)}` : ''}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      ),
    [workspace.id, applied, cursor],
  );
  const open = query.get('article');
  const [editing, setEditing] = useState<Article | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  // Articles added, edited or deleted here: the list is read again, and the ranking status too.
  const [changes, setChanges] = useState(0);
  const changed = () => {
    setChanges((n) => n + 1);
    void articles.reload();
  };

  const suggested = query.get('new');
  useEffect(() => {
    if (suggested !== null) setEditing('new');
  }, [suggested]);
  useEffect(() => {
    if (!open) return;
    get<Article>(`/agent/workspaces/${workspace.id}/articles/${encodeURIComponent(open)}`).then(setEditing, () => setQuery('article', null));
  }, [open, workspace.id]);

  const close = () => {
    setEditing(null);
    if (open) setQuery('article', null);
    if (suggested !== null) setQuery('new', null);
  };

  return (
    <section aria-labelledby="knowledge-heading">
      <h2 id="knowledge-heading">Knowledge</h2>
      <RankingStatus workspaceId={workspace.id} changes={changes} onArticlesChanged={() => void articles.reload()} />
      <div class="toolbar">
        <form
          role="search"
          class="row"
          onSubmit={(e) => {
            e.preventDefault();
            setCursor(null);
            setApplied(q.trim());
          }}
        >
          <label>
            <span class="visually-hidden">Search articles</span>
            <input type="search" placeholder="Search articles" value={q} onInput={(e) => setQ(e.currentTarget.value)} />
          </label>
          <button type="submit" class="small">
            Search
          </button>
        </form>
        {canManage && (
          <>
            <button type="button" class="primary" onClick={() => setEditing('new')}>
              New article
            </button>
            <button type="button" onClick={() => setImporting(true)}>
              Import files
            </button>
          </>
        )}
      </div>
      <Alert error={articles.error} />
      <Table
        rows={articles.data?.articles}
        empty={
          applied ? (
            `No article contains “${applied}”.`
          ) : (
            <EmptyState icon={BookOpen} title="No articles yet." testId="empty-knowledge">
              The agent answers only from what is here. Add an article, or import your help pages (Markdown, HTML, text or PDF files) to start.
            </EmptyState>
          )
        }
        row={(a) => (
          <tr key={a.externalId}>
            <th scope="row">
              <button type="button" class="link" onClick={() => setEditing(a)}>
                {a.title}
              </button>
              <div class="hint">{a.externalId}</div>
            </th>
            <td class="excerpt">{a.body.slice(0, 140)}{a.body.length > 140 ? '…' : ''}</td>
            <td class="hint">{formatDate(a.updatedAt)}</td>
            {canManage && (
              <td>
                <ConfirmButton
                  class="small danger"
                  label={`Delete ${a.title}`}
                  title="Delete this article?"
                  message={`“${a.title}” stops being used for answers at once.`}
                  confirmLabel="Delete article"
                  action={() => del(`/agent/workspaces/${workspace.id}/articles/${encodeURIComponent(a.externalId)}`)}
                  onDone={changed}
                >
                  Delete
                </ConfirmButton>
              </td>
            )}
          </tr>
        )}
      />
      <Pager cursor={cursor} next={articles.data?.nextCursor} onPage={setCursor} labels={['First page', 'Next page']} />
      {editing && <ArticleEditor workspaceId={workspace.id} article={editing === 'new' ? null : editing} suggestedTitle={suggested ?? ''} canManage={canManage} onClose={close} onSaved={changed} />}
      {importing && <ImportDialog workspaceId={workspace.id} onClose={() => setImporting(false)} onDone={changed} />}
    </section>
  );
}

function ArticleEditor({ workspaceId, article, suggestedTitle, canManage, onClose, onSaved }: { workspaceId: number; article: Article | null; suggestedTitle: string; canManage: boolean; onClose: () => void; onSaved: () => void }) {
  const [externalId, setExternalId] = useState(article?.externalId ?? '');
  const [title, setTitle] = useState(article?.title ?? suggestedTitle);
  const [body, setBody] = useState(article?.body ?? '');
  const [url, setUrl] = useState(article?.url ?? '');
  const { error, busy, run } = useAction();
  return (
    <Modal title={article ? article.title : 'New article'} onClose={onClose} wide>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            const fields = { title, body, url: url.trim() || null };
            // A new article goes through POST: the server generates an id when none is given,
            // and refuses one already taken rather than replacing that article.
            if (article) await put(`/agent/workspaces/${workspaceId}/articles/${encodeURIComponent(article.externalId)}`, fields);
            else await post(`/agent/workspaces/${workspaceId}/articles`, { ...fields, ...(externalId.trim() ? { externalId: externalId.trim() } : {}) });
            onSaved();
            onClose();
          });
        }}
      >
        <label>
          External id{' '}
          <span class="hint">{article ? "(your system's id for it)" : '(optional: your system’s id for it; left empty, one is generated)'}</span>
          <input value={externalId} readOnly={!!article} placeholder={article ? undefined : 'Generated when left empty'} onInput={(e) => setExternalId(e.currentTarget.value)} />
        </label>
        <label>
          Title
          <input required value={title} readOnly={!canManage} onInput={(e) => setTitle(e.currentTarget.value)} />
        </label>
        <label>
          Body
          <textarea rows={12} required value={body} readOnly={!canManage} onInput={(e) => setBody(e.currentTarget.value)} />
        </label>
        <label>
          URL <span class="hint">(optional: where customers can read it)</span>
          <input type="url" value={url} readOnly={!canManage} onInput={(e) => setUrl(e.currentTarget.value)} />
        </label>
        <Alert error={error} />
        {canManage && (
          <button type="submit" class="primary" disabled={busy}>
            Save article
          </button>
        )}
      </form>
    </Modal>
  );
}

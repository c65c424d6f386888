import { useEffect, useState } from 'preact/hooks';
import { del, get, post, put } from '../api';
import { setQuery, useLocation } from '../router';
import { Alert, Confirm, formatDate, Modal, Notice, Pager, useAction, useLoad } from '../ui';
import type { Article, SectionProps } from './types';

interface ImportArticle {
  externalId: string;
  title: string;
  body: string;
  url?: string | null;
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
  const [deleting, setDeleting] = useState<Article | null>(null);
  const [importing, setImporting] = useState(false);

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
              Import JSON
            </button>
          </>
        )}
      </div>
      <Alert error={articles.error} />
      {articles.data && articles.data.articles.length === 0 && <p>{applied ? `No article contains “${applied}”.` : 'No articles yet.'}</p>}
      <div class="table-wrap">
        <table>
          <tbody>
            {(articles.data?.articles ?? []).map((a) => (
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
                    <button type="button" class="small danger" onClick={() => setDeleting(a)} aria-label={`Delete ${a.title}`}>
                      Delete
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager cursor={cursor} next={articles.data?.nextCursor} onPage={setCursor} labels={['First page', 'Next page']} />
      {editing && <ArticleEditor workspaceId={workspace.id} article={editing === 'new' ? null : editing} suggestedTitle={suggested ?? ''} canManage={canManage} onClose={close} onSaved={() => void articles.reload()} />}
      {importing && <ImportDialog workspaceId={workspace.id} onClose={() => setImporting(false)} onDone={() => void articles.reload()} />}
      {deleting && (
        <Confirm
          title="Delete this article?"
          message={`“${deleting.title}” stops being used for answers at once.`}
          confirmLabel="Delete article"
          onCancel={() => setDeleting(null)}
          onConfirm={async () => {
            await del(`/agent/workspaces/${workspace.id}/articles/${encodeURIComponent(deleting.externalId)}`);
            setDeleting(null);
            await articles.reload();
          }}
        />
      )}
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
            await put(`/agent/workspaces/${workspaceId}/articles/${encodeURIComponent(externalId.trim())}`, { title, body, url: url.trim() || null });
            onSaved();
            onClose();
          });
        }}
      >
        <label>
          External id <span class="hint">(your system's id; the same id replaces the article)</span>
          <input required value={externalId} readOnly={!!article} onInput={(e) => setExternalId(e.currentTarget.value)} />
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

function ImportDialog({ workspaceId, onClose, onDone }: { workspaceId: number; onClose: () => void; onDone: () => void }) {
  const [articles, setArticles] = useState<ImportArticle[] | null>(null);
  const [preview, setPreview] = useState<{ created: number; updated: number } | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const { error, busy, run, setError } = useAction();
  return (
    <Modal title="Import articles" onClose={onClose}>
      <p>
        A JSON file in the CLI's format: an array of <code>{'{externalId, title, body, url?}'}</code> (or <code>{'{"articles": [...]}'}</code>). Articles with an existing
        external id are replaced.
      </p>
      <label>
        JSON file
        <input
          type="file"
          accept="application/json,.json"
          onChange={async (e) => {
            setPreview(null);
            setResult(null);
            setError(null);
            const file = e.currentTarget.files?.[0];
            if (!file) return;
            let parsed: unknown;
            try {
              parsed = JSON.parse(await file.text());
            } catch {
              setError(new Error('This file is not valid JSON.'));
              return;
            }
            const list = Array.isArray(parsed) ? parsed : (parsed as { articles?: unknown }).articles;
            if (!Array.isArray(list)) {
              setError(new Error('Expected an array of articles, or {"articles": [...]}.'));
              return;
            }
            setArticles(list as ImportArticle[]);
            void run(async () => setPreview(await post(`/agent/workspaces/${workspaceId}/articles/import`, { articles: list, dryRun: true })));
          }}
        />
      </label>
      {preview && articles && (
        <Notice>
          {articles.length} articles: <strong>{preview.created}</strong> will be created and <strong>{preview.updated}</strong> updated.
        </Notice>
      )}
      {result && <p role="status">{result}</p>}
      <Alert error={error} />
      <div class="actions">
        <button type="button" onClick={onClose}>
          {result ? 'Done' : 'Cancel'}
        </button>
        <button
          type="button"
          class="primary"
          disabled={!preview || busy || !!result}
          onClick={() =>
            run(async () => {
              const r = await post<{ created: number; updated: number }>(`/agent/workspaces/${workspaceId}/articles/import`, { articles });
              setResult(`Imported: ${r.created} created, ${r.updated} updated.`);
              onDone();
            })
          }
        >
          Import
        </button>
      </div>
    </Modal>
  );
}

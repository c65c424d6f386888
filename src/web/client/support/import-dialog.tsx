import { useState } from 'preact/hooks';
import { post } from '../api';
import { Alert, Modal, Table, useAction } from '../ui';
import { externalIdFromFileName, type FileKind, fromMarkdown, fromText, kindOf, MAX_BODY, MAX_TITLE, titleFromFileName } from './import-files';

/** One article-to-be in the import's preview. */
interface Candidate {
  key: string;
  file: string;
  kind: FileKind;
  externalId: string;
  title: string;
  body: string;
  url?: string | null;
  include: boolean;
  /** Why it cannot be imported (no text found, unreadable PDF, invalid JSON entry). */
  problem: string | null;
  /** The workspace has an article with this externalId: the import replaces it. */
  exists: boolean;
  truncated: boolean;
}

/** What the server's PDF readers return at most (MAX_TEXT in src/answers/attachment-reader/reading.ts). */
const PDF_TEXT_LIMIT = 20_000;
/** Rows shown in the preview; a JSON file of thousands imports them all without listing each. */
const PREVIEW_ROWS = 200;
const KIND_LABEL: Record<FileKind, string> = { json: 'JSON', markdown: 'Markdown', html: 'HTML', text: 'Text', pdf: 'PDF' };
const ACCEPT = '.json,.md,.markdown,.html,.htm,.txt,.pdf,application/json,text/markdown,text/html,text/plain,application/pdf';

function base64Of(buffer: ArrayBuffer) {
  const bytes = new Uint8Array(buffer);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function candidate(file: string, kind: FileKind, parsed: { title: string | null; body: string }, key: string): Candidate {
  const title = (parsed.title || titleFromFileName(file)).slice(0, MAX_TITLE);
  const truncated = parsed.body.length > MAX_BODY;
  const body = parsed.body.slice(0, MAX_BODY);
  return { key, file, kind, externalId: externalIdFromFileName(file), title, body, include: !!body.trim(), problem: body.trim() ? null : 'No text found in this file.', exists: false, truncated };
}

/** Files the server reads in one request at most. */
const READ_BATCH = 20;

/**
 * Reads the chosen files into candidates; PDFs and HTML pages go to the server to be read (a PDF's
 * text and first heading; a page's main content as Markdown, without its navigation).
 */
async function readFiles(workspaceId: number, files: File[]): Promise<Candidate[]> {
  const out: Candidate[] = [];
  const pdfs: { file: File; index: number; kind: 'pdf' | 'html' }[] = [];
  for (const [i, file] of files.entries()) {
    const kind = kindOf(file);
    const key = `${i}:${file.name}`;
    if (kind === null) {
      out.push({ key, file: file.name, kind: 'text', externalId: '', title: file.name, body: '', include: false, problem: 'Not a file type the import reads (Markdown, HTML, text, PDF, JSON).', exists: false, truncated: false });
    } else if (kind === 'json') {
      let list: unknown;
      try {
        const parsed = JSON.parse(await file.text()) as unknown;
        list = Array.isArray(parsed) ? parsed : (parsed as { articles?: unknown }).articles;
      } catch {
        list = null;
      }
      if (!Array.isArray(list)) {
        out.push({ key, file: file.name, kind, externalId: '', title: file.name, body: '', include: false, problem: 'Not valid JSON in the CLI’s format: an array of {externalId, title, body, url?}, or {"articles": [...]}.', exists: false, truncated: false });
        continue;
      }
      list.forEach((a: { externalId?: unknown; title?: unknown; body?: unknown; url?: unknown }, n) => {
        const ok = typeof a?.externalId === 'string' && typeof a.title === 'string' && typeof a.body === 'string';
        out.push({
          key: `${key}:${n}`,
          file: file.name,
          kind,
          externalId: ok ? (a.externalId as string) : '',
          title: ok ? (a.title as string) : `Entry ${n + 1}`,
          body: ok ? (a.body as string) : '',
          url: typeof a?.url === 'string' ? a.url : null,
          include: ok,
          problem: ok ? null : 'This entry lacks a string externalId, title or body.',
          exists: false,
          truncated: false,
        });
      });
    } else if (kind === 'pdf' || kind === 'html') {
      pdfs.push({ file, index: out.length, kind });
      out.push(candidate(file.name, kind, { title: null, body: '' }, key));
    } else {
      const text = await file.text();
      out.push(candidate(file.name, kind, kind === 'markdown' ? fromMarkdown(text) : fromText(text), key));
    }
  }
  for (let start = 0; start < pdfs.length; start += READ_BATCH) {
    const batch = pdfs.slice(start, start + READ_BATCH);
    // The server tells a page from a PDF by its name's ending.
    const files = await Promise.all(
      batch.map(async ({ file, kind }) => ({ filename: kind === 'html' && !/\.x?html?$/i.test(file.name) ? `${file.name}.html` : file.name, contentBase64: base64Of(await file.arrayBuffer()) })),
    );
    const { texts } = await post<{ texts: { title: string | null; text: string | null; problem: string | null }[] }>(`/agent/workspaces/${workspaceId}/articles/read-files`, { files });
    batch.forEach(({ file, index, kind }, n) => {
      const read = texts[n]!;
      const c = candidate(file.name, kind, { title: read.title, body: read.text ?? '' }, out[index]!.key);
      out[index] = read.text ? c : { ...c, include: false, problem: read.problem ?? `No text could be read from this ${kind === 'pdf' ? 'PDF' : 'page'}.` };
    });
  }
  // Two files with one name ("a.md", "a.html") would replace each other: the later ones get a suffix.
  const seen = new Set<string>();
  for (const c of out) {
    if (!c.externalId || c.kind === 'json') {
      if (c.externalId) seen.add(c.externalId);
      continue;
    }
    let id = c.externalId;
    for (let n = 2; seen.has(id); n++) id = `${c.externalId}-${n}`;
    c.externalId = id;
    seen.add(id);
  }
  return out;
}

/** Import from files: choose several, see what each becomes, untick or retitle, then import. */
export function ImportDialog({ workspaceId, onClose, onDone }: { workspaceId: number; onClose: () => void; onDone: () => void }) {
  const [candidates, setCandidates] = useState<Candidate[] | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const { error, busy, run, setError } = useAction();
  const chosen = (candidates ?? []).filter((c) => c.include && !c.problem);
  const replacing = chosen.filter((c) => c.exists).length;
  const update = (key: string, change: Partial<Candidate>) => setCandidates((list) => (list ?? []).map((c) => (c.key === key ? { ...c, ...change } : c)));
  return (
    <Modal title="Import articles" onClose={onClose} wide>
      <p>
        Markdown, HTML, text and PDF files become one article each: the title from the first heading (or the HTML <code>&lt;title&gt;</code>, else the file name), the body as plain
        text, the external id from the file name, so importing a file again replaces its article. A JSON file in the CLI’s format (
        <code>{'[{externalId, title, body, url?}]'}</code>) adds all its articles.
      </p>
      <label>
        Files
        <input
          type="file"
          multiple
          accept={ACCEPT}
          onChange={(e) => {
            const files = [...(e.currentTarget.files ?? [])];
            setCandidates(null);
            setResult(null);
            setError(null);
            if (!files.length) return;
            void run(async () => {
              const list = await readFiles(workspaceId, files);
              const ids = list.filter((c) => c.include && !c.problem).map((c) => c.externalId);
              const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
              if (duplicate) throw new Error(`The external id “${duplicate}” appears twice in these files.`);
              const articles = list.filter((c) => c.include && !c.problem).map((c) => ({ externalId: c.externalId, title: c.title, body: c.body }));
              const preview = articles.length ? await post<{ updatedIds?: string[] }>(`/agent/workspaces/${workspaceId}/articles/import`, { articles, dryRun: true }) : { updatedIds: [] };
              const existing = new Set(preview.updatedIds ?? []);
              setCandidates(list.map((c) => ({ ...c, exists: existing.has(c.externalId) })));
            });
          }}
        />
      </label>
      {busy && !candidates && <p role="status">Reading the files…</p>}
      {candidates && (
        <>
          <p role="status" data-testid="import-summary">
            {chosen.length === 1 ? '1 article' : `${chosen.length} articles`} to import: <strong>{chosen.length - replacing}</strong> new, <strong>{replacing}</strong> replacing an
            existing article.
          </p>
          <Table
            columns={['Import', 'Title', 'From', 'Body']}
            rows={candidates.slice(0, PREVIEW_ROWS)}
            wrapClass="import-preview"
            row={(c) => (
              <tr key={c.key} data-file={c.file} class={c.include && !c.problem ? undefined : 'inactive'}>
                <td>
                  <input type="checkbox" checked={c.include && !c.problem} disabled={!!c.problem} aria-label={`Import ${c.file}${c.kind === 'json' ? `: ${c.title}` : ''}`} onChange={(e) => update(c.key, { include: e.currentTarget.checked })} />
                </td>
                <td>
                  <input class="import-title" value={c.title} maxLength={MAX_TITLE} disabled={!!c.problem} aria-label={`Title of ${c.file}${c.kind === 'json' ? `: ${c.externalId}` : ''}`} onInput={(e) => update(c.key, { title: e.currentTarget.value })} />
                  <div class="hint">
                    <code>{c.externalId}</code> {c.problem ? null : c.exists ? <span class="badge warn">replaces an article</span> : <span class="badge ok">new</span>}
                  </div>
                </td>
                <td>
                  {c.file} <span class="hint">({KIND_LABEL[c.kind]})</span>
                </td>
                <td class="excerpt">
                  {c.problem ? (
                    <span class="field-problem">{c.problem}</span>
                  ) : (
                    <>
                      <span class="import-body">{c.body.slice(0, 220)}{c.body.length > 220 ? '…' : ''}</span>
                      <div class="hint">
                        {c.body.length.toLocaleString()} characters{c.truncated ? ` (cut to ${MAX_BODY.toLocaleString()})` : ''}
                        {c.kind === 'pdf' && c.body.length >= PDF_TEXT_LIMIT - 10 ? ` (a PDF is read up to ${PDF_TEXT_LIMIT.toLocaleString()} characters and 50 pages)` : ''}
                      </div>
                    </>
                  )}
                </td>
              </tr>
            )}
          />
          {candidates.length > PREVIEW_ROWS && <p class="hint">… and {(candidates.length - PREVIEW_ROWS).toLocaleString()} more, imported as they are.</p>}
        </>
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
          disabled={!chosen.length || busy || !!result || chosen.some((c) => !c.title.trim())}
          onClick={() =>
            run(async () => {
              const articles = chosen.map((c) => ({ externalId: c.externalId, title: c.title.trim(), body: c.body, ...(c.url ? { url: c.url } : {}) }));
              const r = await post<{ created: number; updated: number }>(`/agent/workspaces/${workspaceId}/articles/import`, { articles });
              setResult(`Imported: ${r.created} created, ${r.updated} updated.`);
              onDone();
            })
          }
        >
          {chosen.length === 1 ? 'Import 1 article' : `Import ${chosen.length} articles`}
        </button>
      </div>
    </Modal>
  );
}

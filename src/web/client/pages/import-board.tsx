import { useState } from 'preact/hooks';
import { ApiError, post } from '../api';
import { navigate } from '../router';
import { Alert, useAction } from '../ui';

interface ImportResult {
  board: { id: number; name: string } | null;
  source: 'trello' | 'taskboard';
  summary: Record<string, number>;
  unmapped: { what: string; count: number; examples: string[] }[];
}

const COUNTS: [string, string][] = [
  ['lists', 'Lists'],
  ['cards', 'Cards'],
  ['labels', 'Labels'],
  ['customFields', 'Custom fields'],
  ['checklists', 'Checklists'],
  ['comments', 'Comments'],
  ['members', 'People named'],
  ['matchedMembers', 'Matched to users here'],
];

const form = (file: File) => {
  const body = new FormData();
  body.append('file', file);
  return body;
};

const preview = (file: File, query: string) => post<ImportResult>(`/api/boards/import?${query}`, form(file));

/** The import itself, through XMLHttpRequest: fetch cannot tell how much of a large file has gone up. */
function importWithProgress(file: File, query: string, onProgress: (sent: number) => void): Promise<ImportResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/boards/import?${query}`);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onerror = () => reject(new ApiError(0, 'The server cannot be reached. Check your connection and try again.'));
    xhr.onload = () => {
      let body: { error?: string } | null = null;
      try {
        body = JSON.parse(xhr.responseText) as { error?: string };
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as ImportResult);
      else reject(new ApiError(xhr.status, body?.error ?? `The server answered ${xhr.status}.`));
    };
    xhr.send(form(file));
  });
}

/** Boards page: a Trello export (or our own board file) previewed — what will be created, what will not — then imported. */
export function ImportBoard() {
  const [file, setFile] = useState<File | null>(null);
  const [match, setMatch] = useState(false);
  const [shown, setPreview] = useState<ImportResult | null>(null);
  const [sent, setSent] = useState<number | null>(null);
  const { error, busy, run } = useAction();
  const previewOf = (f: File, m: boolean) => run(async () => setPreview(await preview(f, `dryRun=true&matchMembers=${m}`)));
  return (
    <section class="panel" aria-labelledby="import-board" data-testid="import-board">
      <h2 id="import-board">Import from Trello</h2>
      <p class="hint">In Trello: Menu → Print, export and share → Export as JSON. A board file exported here is taken too.</p>
      <label>
        Export file
        <input
          type="file"
          accept=".json,application/json"
          onChange={(e) => {
            const chosen = e.currentTarget.files?.[0] ?? null;
            setFile(chosen);
            setPreview(null);
            if (chosen) void previewOf(chosen, match);
          }}
        />
      </label>
      <label class="inline">
        <input
          type="checkbox"
          checked={match}
          onChange={(e) => {
            setMatch(e.currentTarget.checked);
            if (file) void previewOf(file, e.currentTarget.checked);
          }}
        />{' '}
        Match people to users here (by e-mail or username, among people you share a board with)
      </label>
      <Alert error={error} />
      {busy && sent === null && <p role="status">Reading the file…</p>}
      {busy && sent !== null && (
        <p role="status">
          {sent < 1 ? 'Sending the file…' : 'Creating the board… a large one takes a few seconds.'} <progress max={1} value={sent} />
        </p>
      )}
      {shown && (
        <div data-testid="import-preview">
          <h3>Will be created</h3>
          <ul class="import-counts">
            {COUNTS.map(([key, label]) => (
              <li key={key}>
                {label}: <strong data-count={key}>{shown.summary[key]}</strong>
              </li>
            ))}
          </ul>
          <h3>Not carried over</h3>
          {shown.unmapped.length === 0 ? (
            <p>Nothing: everything in the file has a place here.</p>
          ) : (
            <ul data-testid="import-unmapped">
              {shown.unmapped.map((u) => (
                <li key={u.what}>
                  {u.what}: {u.count}
                  {u.examples.length > 0 && <span class="hint"> (e.g. {u.examples.join('; ')})</span>}
                </li>
              ))}
            </ul>
          )}
          <button
            type="button"
            class="primary"
            disabled={busy || !file}
            onClick={() =>
              file &&
              run(async () => {
                setSent(0);
                try {
                  const done = await importWithProgress(file, `matchMembers=${match}`, setSent);
                  if (done.board) navigate(`/boards/${done.board.id}`);
                } finally {
                  setSent(null);
                }
              })
            }
          >
            Import
          </button>
        </div>
      )}
    </section>
  );
}

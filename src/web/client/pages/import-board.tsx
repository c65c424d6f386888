import { useState } from 'preact/hooks';
import { post } from '../api';
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

const upload = (file: File, query: string) => {
  const form = new FormData();
  form.append('file', file);
  return post<ImportResult>(`/api/boards/import?${query}`, form);
};

/** Boards page: a Trello export (or our own board file) previewed — what will be created, what will not — then imported. */
export function ImportBoard() {
  const [file, setFile] = useState<File | null>(null);
  const [match, setMatch] = useState(false);
  const [preview, setPreview] = useState<ImportResult | null>(null);
  const { error, busy, run } = useAction();
  const previewOf = (f: File, m: boolean) => run(async () => setPreview(await upload(f, `dryRun=true&matchMembers=${m}`)));
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
      {busy && <p role="status">{preview ? 'Importing… a large board takes a few seconds.' : 'Reading the file…'}</p>}
      {preview && (
        <div data-testid="import-preview">
          <h3>Will be created</h3>
          <ul class="import-counts">
            {COUNTS.map(([key, label]) => (
              <li key={key}>
                {label}: <strong data-count={key}>{preview.summary[key]}</strong>
              </li>
            ))}
          </ul>
          <h3>Not carried over</h3>
          {preview.unmapped.length === 0 ? (
            <p>Nothing: everything in the file has a place here.</p>
          ) : (
            <ul data-testid="import-unmapped">
              {preview.unmapped.map((u) => (
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
                const done = await upload(file, `matchMembers=${match}`);
                if (done.board) navigate(`/boards/${done.board.id}`);
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

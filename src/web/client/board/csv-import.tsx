import { useState } from 'preact/hooks';
import { post } from '../api';
import { Alert, useAction } from '../ui';

const FIELDS = ['title', 'list', 'description', 'labels', 'due', 'members', 'ignore'] as const;
type Field = (typeof FIELDS)[number];

interface CsvResult {
  dryRun: boolean;
  columns: Record<string, Field>;
  cards: number;
  newLists: string[];
  newLabels: string[];
  preview: { row: number; title: string; list: string; labels: string[]; dueAt: string | null; members: string[] }[];
  problems: { row: number; message: string }[];
  unmapped: { what: string; count: number; examples: string[] }[];
}

/** Board settings: cards from a CSV (Jira, Asana, a spreadsheet), its columns mapped by the header row, previewed, then added. */
export function CsvImport({ boardId }: { boardId: number }) {
  const [csv, setCsv] = useState<string | null>(null);
  const [columns, setColumns] = useState<Record<string, Field>>({});
  const [preview, setPreview] = useState<CsvResult | null>(null);
  const [done, setDone] = useState<number | null>(null);
  const { error, busy, run } = useAction();
  const previewOf = (text: string, mapping: Record<string, Field>) =>
    run(async () => {
      const result = await post<CsvResult>(`/api/boards/${boardId}/cards/import?dryRun=true`, { csv: text, columns: mapping });
      setPreview(result);
      setColumns(result.columns);
    });
  return (
    <section aria-labelledby="csv-import" data-testid="csv-import">
      <h3 id="csv-import">Import cards from CSV</h3>
      <label>
        CSV file
        <input
          type="file"
          accept=".csv,text/csv"
          onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            setPreview(null);
            setDone(null);
            if (!file) return;
            void file.text().then((text) => {
              setCsv(text);
              void previewOf(text, {});
            });
          }}
        />
      </label>
      <Alert error={error} />
      {preview && csv !== null && (
        <div data-testid="csv-preview">
          <fieldset>
            <legend>Columns</legend>
            {Object.entries(columns).map(([header, field]) => (
              <label key={header} class="inline">
                {header}{' '}
                <select
                  value={field}
                  onChange={(e) => {
                    const next = { ...columns, [header]: e.currentTarget.value as Field };
                    setColumns(next);
                    void previewOf(csv, next);
                  }}
                >
                  {FIELDS.map((f) => (
                    <option key={f} value={f}>
                      {f}
                    </option>
                  ))}
                </select>
              </label>
            ))}
          </fieldset>
          <p>
            <strong data-count="cards">{preview.cards}</strong> cards
            {preview.newLists.length > 0 && <>; new lists: {preview.newLists.join(', ')}</>}
            {preview.newLabels.length > 0 && <>; new labels: {preview.newLabels.join(', ')}</>}
          </p>
          <table>
            <thead>
              <tr>
                <th>Row</th>
                <th>Title</th>
                <th>List</th>
                <th>Labels</th>
                <th>Due</th>
                <th>Members</th>
              </tr>
            </thead>
            <tbody>
              {preview.preview.map((c) => (
                <tr key={c.row}>
                  <td>{c.row}</td>
                  <td>{c.title}</td>
                  <td>{c.list}</td>
                  <td>{c.labels.join(', ')}</td>
                  <td>{c.dueAt?.slice(0, 10) ?? ''}</td>
                  <td>{c.members.join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {preview.problems.length > 0 && (
            <ul data-testid="csv-problems">
              {preview.problems.map((p) => (
                <li key={p.row}>
                  Row {p.row}: {p.message}
                </li>
              ))}
            </ul>
          )}
          {preview.unmapped.map((u) => (
            <p key={u.what} class="hint">
              {u.what}: {u.count}
            </p>
          ))}
          <button
            type="button"
            class="primary"
            disabled={busy || preview.problems.length > 0 || preview.cards === 0}
            onClick={() =>
              run(async () => {
                const result = await post<CsvResult>(`/api/boards/${boardId}/cards/import`, { csv, columns });
                setPreview(null);
                setDone(result.cards);
              })
            }
          >
            Add {preview.cards} cards
          </button>
        </div>
      )}
      {done !== null && <p role="status">Added {done} cards.</p>}
    </section>
  );
}

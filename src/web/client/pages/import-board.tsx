import { useState } from 'preact/hooks';
import type { z } from 'zod';
import type { importResult } from '../../../boards/transfer/import-result.js';
import { ApiError, post } from '../api';
import { navigate } from '../router';
import { Alert, useAction } from '../ui';

type ImportResult = z.output<typeof importResult>;
type Member = ImportResult['members'][number];
/** Member key → user id, or null: left out. */
type Choices = Record<string, number | null>;

const COUNTS: [string, string][] = [
  ['lists', 'Lists'],
  ['cards', 'Cards'],
  ['labels', 'Labels'],
  ['customFields', 'Custom fields'],
  ['checklists', 'Checklists'],
  ['comments', 'Comments'],
  ['members', 'People named'],
];

const form = (file: File, choices?: Choices) => {
  const body = new FormData();
  body.append('file', file);
  if (choices) body.append('members', JSON.stringify(choices));
  return body;
};

const preview = (file: File) => post<ImportResult>('/api/boards/import?dryRun=true&matchMembers=true', form(file));

const BY: Record<NonNullable<Member['match']>['by'], string> = {
  email: 'same e-mail',
  username: 'username = e-mail name',
  name: 'same name',
  chosen: 'chosen',
};

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * The file's people, each with a select: the person here they are (proposed by e-mail, username or
 * name, among you and people you share a board with), someone else of those, or "Leave out".
 */
function People({ result, choices, onChoose }: { result: ImportResult; choices: Choices; onChoose: (key: string, userId: number | null) => void }) {
  if (result.members.length === 0) return null;
  return (
    <fieldset class="import-people" data-testid="import-people">
      <legend>People</legend>
      <p class="hint">
        Who each person of the file is here: they are assigned to their cards and are the authors of their comments. Someone left out is named on their cards,
        and their comments show their name marked “(from Trello)”.
      </p>
      <ul>
        {result.members.map((m, i) => {
          const chosen = choices[m.key] ?? null;
          const proposed = m.match && m.match.by !== 'chosen' ? m.match : null;
          return (
            <li key={m.key}>
              <label for={`import-member-${i}`}>
                {m.name}
                {m.username ? ` (@${m.username})` : ''}
              </label>{' '}
              <span class="hint">
                {[m.role === null ? 'comment author' : null, plural(m.cards, 'card'), plural(m.comments, 'comment')].filter(Boolean).join(', ')}
              </span>{' '}
              <select id={`import-member-${i}`} value={chosen === null ? '' : String(chosen)} onChange={(e) => onChoose(m.key, e.currentTarget.value ? Number(e.currentTarget.value) : null)}>
                <option value="">Leave out</option>
                {result.candidates.map((c) => (
                  <option key={c.userId} value={String(c.userId)}>
                    {c.name} ({c.email}){proposed?.userId === c.userId ? ` — proposed: ${BY[proposed.by]}` : ''}
                  </option>
                ))}
              </select>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

/** The import itself, through XMLHttpRequest: fetch cannot tell how much of a large file has gone up. */
function importWithProgress(file: File, choices: Choices, onProgress: (sent: number) => void): Promise<ImportResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/boards/import');
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
    xhr.send(form(file, choices));
  });
}

/** Boards page: a Trello export (or our own board file) previewed — what will be created, what will not — then imported. */
export function ImportBoard() {
  const [file, setFile] = useState<File | null>(null);
  const [shown, setPreview] = useState<ImportResult | null>(null);
  const [choices, setChoices] = useState<Choices>({});
  const [sent, setSent] = useState<number | null>(null);
  const { error, busy, run } = useAction();
  const previewOf = (f: File) =>
    run(async () => {
      const result = await preview(f);
      setChoices(Object.fromEntries(result.members.map((m) => [m.key, m.match?.userId ?? null])));
      setPreview(result);
    });
  const matched = Object.values(choices).filter((id) => id !== null).length;
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
            if (chosen) void previewOf(chosen);
          }}
        />
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
                {label}: <strong data-count={key}>{shown.summary[key as keyof ImportResult['summary']]}</strong>
              </li>
            ))}
            <li>
              Matched to people here: <strong data-count="matchedMembers">{matched}</strong>
            </li>
          </ul>
          <People result={shown} choices={choices} onChoose={(key, userId) => setChoices({ ...choices, [key]: userId })} />
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
                  const done = await importWithProgress(file, choices, setSent);
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

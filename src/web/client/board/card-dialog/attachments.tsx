import { useState } from 'preact/hooks';
import { api, del } from '../../api';
import { formatDate, formatSize } from '../../ui';
import type { Part } from './part';

/** The card's files: download, delete, upload. */
export function Attachments({ card, canEdit, change }: Part) {
  const [file, setFile] = useState<File | null>(null);
  return (
    <section>
      <h3>Attachments</h3>
      {card.attachments.length === 0 && <p class="hint">None.</p>}
      <ul class="attachments">
        {card.attachments.map((a) => (
          <li key={a.id}>
            <a href={`/api/attachments/${a.id}/download`} download={a.filename}>
              {a.filename}
            </a>{' '}
            <span class="hint">
              {formatSize(a.size)} · {formatDate(a.createdAt)}
            </span>
            {canEdit && (
              <button type="button" class="link small" onClick={() => change(() => del(`/api/attachments/${a.id}`))} aria-label={`Delete attachment ${a.filename}`}>
                Delete
              </button>
            )}
          </li>
        ))}
      </ul>
      {canEdit && (
        <form
          class="row"
          onSubmit={async (e) => {
            e.preventDefault();
            if (!file) return;
            const form = new FormData();
            form.append('file', file, file.name);
            const input = e.currentTarget.querySelector('input[type=file]') as HTMLInputElement | null;
            if (await change(() => api('POST', `/api/cards/${card.id}/attachments`, form))) {
              setFile(null);
              if (input) input.value = '';
            }
          }}
        >
          <label>
            Upload a file
            <input type="file" onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
          </label>
          <button type="submit" class="small" disabled={!file}>
            Upload
          </button>
        </form>
      )}
    </section>
  );
}

import { useState } from 'preact/hooks';
import { Image as ImageIcon, ImageOff, Trash2 } from 'lucide';
import { ApiError, del, put } from '../../api';
import { formatDate, formatSize, Icon } from '../../ui';
import type { Part } from './part';

/**
 * Sends one file as the API's multipart upload, telling how much has gone: fetch cannot report an
 * upload's progress, XMLHttpRequest can. Refusals become the same ApiError as every other call.
 */
function upload(cardId: number, file: File, onProgress: (fraction: number) => void): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/cards/${cardId}/attachments`);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      const body = ((): { error?: string; message?: string } | null => {
        try {
          return xhr.responseText ? (JSON.parse(xhr.responseText) as { error?: string; message?: string }) : null;
        } catch {
          return null;
        }
      })();
      if (xhr.status >= 200 && xhr.status < 300) resolve(body);
      else reject(new ApiError(xhr.status, body?.message ?? body?.error ?? `The server answered ${xhr.status}.`));
    };
    xhr.onerror = () => reject(new ApiError(0, 'The server cannot be reached. Check your connection and try again.'));
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

/** The pictures a cover may be (the server's COVER_TYPES). */
const COVER_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** A link to Trello (an imported upload, a card): it opens only for someone signed in to Trello who may see it. */
const onTrello = (url: string) => /(^|\.)trello\.com$|^trello-attachments\.s3\.amazonaws\.com$/.test(new URL(url).hostname);

/** A link attachment: opens in a new tab; marked when it is on Trello. */
function LinkAttachment({ url, filename }: { url: string; filename: string }) {
  return (
    <>
      <a href={url} target="_blank" rel="noopener noreferrer" class="attachment-link">
        <span>{filename}</span>
      </a>{' '}
      <span class="hint">{onTrello(url) ? 'on Trello — may need a Trello sign-in' : `link · ${new URL(url).hostname}`}</span>
    </>
  );
}

/** The card's files and links: pictures as thumbnails (one may be the card's cover), download, delete; files upload as soon as they are picked, with progress. */
export function Attachments({ card, canEdit, change }: Part) {
  const [sending, setSending] = useState<{ name: string; fraction: number } | null>(null);
  const [done, setDone] = useState('');
  return (
    <section>
      <h3>Attachments</h3>
      {card.attachments.length === 0 && <p class="hint">None yet.{canEdit ? ' Add a file below: it uploads as soon as you pick it.' : ''}</p>}
      <ul class="attachments">
        {card.attachments.map((a) => (
          <li key={a.id} data-attachment-id={a.id}>
            {a.url !== null ? (
              <LinkAttachment url={a.url} filename={a.filename} />
            ) : (
              <>
                <a href={`/api/attachments/${a.id}/download`} download={a.filename} class="attachment-link">
                  {a.mimeType.startsWith('image/') && <img class="thumb" src={`/api/attachments/${a.id}/download`} alt="" width={48} height={48} loading="lazy" />}
                  <span>{a.filename}</span>
                </a>{' '}
                <span class="hint">
                  {formatSize(a.size)} · {formatDate(a.createdAt)}
                  {card.coverAttachmentId === a.id && ' · the cover'}
                </span>
              </>
            )}
            {canEdit && card.coverAttachmentId === a.id && (
              <button type="button" class="link small" onClick={() => change(() => del(`/api/cards/${card.id}/cover`))} aria-label={`Remove ${a.filename} as the cover`}>
                <Icon icon={ImageOff} size={14} /> Remove cover
              </button>
            )}
            {canEdit && card.coverAttachmentId !== a.id && a.url === null && COVER_TYPES.includes(a.mimeType) && (
              <button type="button" class="link small" onClick={() => change(() => put(`/api/cards/${card.id}/cover`, { attachmentId: a.id }))} aria-label={`Make ${a.filename} the cover`}>
                <Icon icon={ImageIcon} size={14} /> Make cover
              </button>
            )}
            {canEdit && (
              <button type="button" class="link small" onClick={() => change(() => del(`/api/attachments/${a.id}`))} aria-label={`Delete attachment ${a.filename}`}>
                <Icon icon={Trash2} size={14} /> Delete
              </button>
            )}
          </li>
        ))}
      </ul>
      {canEdit && (
        <label>
          Add files
          <input
            type="file"
            multiple
            disabled={sending !== null}
            onChange={async (e) => {
              const input = e.currentTarget;
              const files = [...(input.files ?? [])];
              setDone('');
              for (const file of files) {
                setSending({ name: file.name, fraction: 0 });
                const ok = await change(() => upload(card.id, file, (fraction) => setSending({ name: file.name, fraction })));
                if (!ok) break;
                setDone(`Uploaded ${file.name}.`);
              }
              setSending(null);
              input.value = '';
            }}
          />
        </label>
      )}
      {sending && (
        <div class="upload-progress">
          <progress value={sending.fraction} max={1} aria-label={`Uploading ${sending.name}`} /> <span class="hint">{Math.round(sending.fraction * 100)} %</span>
        </div>
      )}
      <p role="status" class="hint">
        {sending ? `Uploading ${sending.name}…` : done}
      </p>
    </section>
  );
}

import { ImageUp, Trash2 } from 'lucide';
import { useState } from 'preact/hooks';
import { del, get, put } from '../api';
import { useSession } from '../session';
import { Alert, Avatar, Icon, useAction, useLoad } from '../ui';

/** The account page's picture: uploaded as soon as it is picked, shown wherever you are (cards, members); removable. */
export function AvatarPicture() {
  const { user } = useSession();
  const avatar = useLoad(() => get<{ avatarUrl: string | null }>('/api/account/avatar'), []);
  const { error, busy, run, setError } = useAction();
  const [said, setSaid] = useState('');
  const url = avatar.data?.avatarUrl ?? null;
  return (
    <section class="panel" aria-labelledby="picture-heading">
      <h2 id="picture-heading">Picture</h2>
      <div class="avatar-row">
        <Avatar userId={user.id} name={user.name} url={url} size="large" />
        <div>
          <label>
            {url ? 'Choose another picture' : 'Choose a picture'}
            <input
              type="file"
              accept="image/png,image/jpeg,image/gif,image/webp"
              disabled={busy}
              onChange={(e) => {
                const input = e.currentTarget;
                const file = input.files?.[0];
                if (!file) return;
                setSaid('');
                void run(async () => {
                  const form = new FormData();
                  form.append('file', file, file.name);
                  await put('/api/account/avatar', form);
                  await avatar.reload();
                  setSaid('Picture saved: it shows wherever you do.');
                }).finally(() => (input.value = ''));
              }}
            />
          </label>
          <p class="hint">A PNG, JPEG, GIF or WebP picture of up to 2 MB. Without one, your initials show on your colour.</p>
          {url && (
            <button
              type="button"
              class="small"
              disabled={busy}
              onClick={() =>
                run(async () => {
                  await del('/api/account/avatar');
                  await avatar.reload();
                  setSaid('Picture removed: your initials show again.');
                })
              }
            >
              <Icon icon={Trash2} size={14} /> Remove picture
            </button>
          )}
        </div>
      </div>
      <Alert error={error ?? avatar.error} onDismiss={() => setError(null)} />
      <p role="status" class="hint">
        {busy ? (
          <>
            <Icon icon={ImageUp} size={14} /> Uploading…
          </>
        ) : (
          said
        )}
      </p>
    </section>
  );
}

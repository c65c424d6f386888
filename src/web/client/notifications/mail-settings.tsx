import { useState } from 'preact/hooks';
import { get, put } from '../api';
import { Alert, useAction, useLoad } from '../ui';

type Settings = { assigned: boolean; mentioned: boolean; due: boolean; watched: boolean };

const KINDS: [keyof Settings, string][] = [
  ['assigned', 'I am assigned to a card'],
  ['mentioned', 'someone @mentions me in a comment'],
  ['due', 'a card I am assigned to is due within a day'],
  ['watched', 'a card I watch changes'],
];

/** The account page's "Notification mail": which kinds are mailed (the app lists them all). */
export function NotificationMailSettings() {
  const { data, error } = useLoad(() => get<Settings>('/account/notifications'), []);
  // Whether this server mails at all (SMTP_URL set).
  const mailing = useLoad(() => get<{ mail?: boolean }>('/auth/session'), []).data?.mail !== false;
  const [draft, setDraft] = useState<Settings | null>(null);
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const shown = draft ?? data;
  return (
    <section class="panel" aria-labelledby="notification-mail-heading">
      <h2 id="notification-mail-heading">Notification mail</h2>
      <p class="hint">
        {mailing
          ? 'Everything is listed under the bell in the top bar. Mail me, in one mail every few minutes, when:'
          : 'This server sends no mail: notifications are listed under the bell only. Once it mails, mail me when:'}
      </p>
      <Alert error={error ?? action.error} />
      {shown && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setSaved(false);
            void action.run(async () => {
              const next = await put<Settings>('/account/notifications', shown);
              setDraft(next);
              setSaved(true);
            });
          }}
        >
          <fieldset>
            <legend class="visually-hidden">Mail me when</legend>
            {KINDS.map(([kind, label]) => (
              <label class="inline" key={kind}>
                <input
                  type="checkbox"
                  name={kind}
                  checked={shown[kind]}
                  onChange={(e) => {
                    setSaved(false);
                    setDraft({ ...shown, [kind]: e.currentTarget.checked });
                  }}
                />{' '}
                {label}
              </label>
            ))}
          </fieldset>
          <button type="submit" disabled={action.busy}>
            Save notification mail
          </button>
          {saved && <span role="status"> Saved.</span>}
        </form>
      )}
    </section>
  );
}

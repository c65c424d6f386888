import { useState } from 'preact/hooks';
import { patch } from '../api';
import { useSession } from '../session';
import type { User } from '../types';
import { Alert, browserTimeZone, formatDate, useAction } from '../ui';

/** Every zone this browser knows (Intl), with the account's own kept even if this browser lacks it. */
function zones(current: string | null) {
  const known = (Intl as unknown as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? ['UTC'];
  return current && !known.includes(current) ? [current, ...known] : known;
}

/** The time zone and clock every date in the app is shown in (PATCH /account `timeZone`, `hour12`). */
export function DateSettings() {
  const { user, updateUser } = useSession();
  const [timeZone, setTimeZone] = useState(user.timeZone ?? '');
  const [clock, setClock] = useState(user.hour12 === true ? '12' : user.hour12 === false ? '24' : '');
  const [saved, setSaved] = useState(false);
  const { error, busy, run } = useAction();
  const hour12 = clock === '12' ? true : clock === '24' ? false : null;
  const dirty = (timeZone || null) !== (user.timeZone ?? null) || hour12 !== (user.hour12 ?? null);
  return (
    <section class="panel" aria-labelledby="dates-heading">
      <h2 id="dates-heading">Dates and times</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setSaved(false);
          void run(async () => {
            const { user: updated } = await patch<{ user: User }>('/account', { timeZone: timeZone || null, hour12 });
            updateUser(updated);
            setSaved(true);
          });
        }}
      >
        {/* Labelled by id, not wrapped: a wrapping label's name would include the chosen option's text. */}
        <div class="field">
          <label for="time-zone">Time zone</label>
          <select id="time-zone" value={timeZone} onChange={(e) => setTimeZone(e.currentTarget.value)}>
            <option value="">Browser's time zone ({browserTimeZone()})</option>
            {zones(user.timeZone ?? null).map((z) => (
              <option key={z} value={z}>
                {z.replace(/_/g, ' ')}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="clock">Clock</label>
          <select id="clock" value={clock} onChange={(e) => setClock(e.currentTarget.value)}>
            <option value="">Your language's usual clock</option>
            <option value="24">24-hour (16:30)</option>
            <option value="12">12-hour (4:30 PM)</option>
          </select>
        </div>
        <p class="hint">Now: {formatDate(new Date().toISOString(), { time: true })}</p>
        <Alert error={error} />
        {saved && !dirty && <p role="status">Saved.</p>}
        <button type="submit" class="primary" disabled={busy || !dirty}>
          Save dates and times
        </button>
      </form>
    </section>
  );
}

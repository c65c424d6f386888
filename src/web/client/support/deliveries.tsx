import { useEffect } from 'preact/hooks';
import { formatDate } from '../ui';
import type { Attempt, Delivery } from './types';

/** The app's one format with seconds: attempts seconds apart must not look alike. */
function formatTime(iso: string) {
  return formatDate(iso, { seconds: true });
}

/** 87 ms, 1.24 s, 5 min 3 s, 2 h 10 min. */
export function formatDuration(ms: number) {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1).replace(/\.?0+$/, '')} s`;
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  const m = Math.round(s / 60);
  return `${Math.floor(m / 60)} h${m % 60 ? ` ${m % 60} min` : ''}`;
}

/**
 * While a delivery is pending the log re-reads itself: every second when an attempt is due within
 * half a minute (or under way), every 15 s otherwise; not while the tab is hidden. Returns whether
 * it is following.
 */
export function useLiveDeliveries(deliveries: { data: Delivery[] | null; error: unknown; reload: () => Promise<void> }, alsoReload: () => Promise<void>) {
  const pending = (deliveries.data ?? []).filter((d) => d.status === 'pending');
  const soonest = Math.min(...pending.map((d) => (d.nextAttemptAt ? Date.parse(d.nextAttemptAt) : 0)));
  const delay = pending.length === 0 ? null : soonest - Date.now() < 30_000 ? 1000 : 15_000;
  useEffect(() => {
    if (delay === null) return;
    const look = () => {
      if (document.hidden) document.addEventListener('visibilitychange', look, { once: true });
      else void Promise.all([deliveries.reload(), alsoReload()]);
    };
    const timer = setTimeout(look, delay);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', look);
    };
    // Each answer (even an unchanged one) is new data, which schedules the next look.
  }, [deliveries.data, deliveries.error, delay]);
  return delay !== null;
}

function statusClass(status: Delivery['status']) {
  return status === 'succeeded' ? 'ok' : status === 'failed' ? 'deleted' : 'warn';
}

function attemptOutcome(a: Attempt) {
  return a.statusCode !== null ? `HTTP ${a.statusCode}` : a.error ? 'No response' : '—';
}

function prettyJson(value: unknown) {
  return JSON.stringify(value, null, 2);
}

function prettyBody(text: string) {
  try {
    return prettyJson(JSON.parse(text));
  } catch {
    return text;
  }
}

/** One delivery: its state, and each attempt with the request sent and the response received. */
export function DeliveryItem({ d, canManage, onRedeliver }: { d: Delivery; canManage: boolean; onRedeliver: () => void }) {
  const due = d.status === 'pending' && d.nextAttemptAt ? Date.parse(d.nextAttemptAt) - Date.now() : null;
  return (
    <li class="panel" data-delivery-id={d.id} data-status={d.status}>
      <div class="delivery-head">
        <code>{d.eventType}</code> <span class={`badge ${statusClass(d.status)}`}>{d.status}</span>
        <span class="hint">
          {d.eventId} · created {formatTime(d.createdAt)}
          {due !== null && (due <= 1000 ? ' · sending now' : ` · next attempt ${formatTime(d.nextAttemptAt!)} (in ${formatDuration(due)})`)}
        </span>
        {canManage && (
          <button type="button" class="small" onClick={onRedeliver} aria-label={`Redeliver ${d.eventId}`}>
            Redeliver
          </button>
        )}
      </div>
      {d.attempts.length === 0 && <p class="hint">No attempt yet.</p>}
      <ol class="attempts">
        {d.attempts.map((a, i) => {
          const previous = d.attempts[i - 1];
          const gap = previous ? Date.parse(a.startedAt) - Date.parse(previous.startedAt) : null;
          return (
            <li key={a.id} data-attempt-id={a.id}>
              <details>
                <summary>
                  <span class={`badge ${a.succeeded ? 'ok' : 'deleted'}`}>{attemptOutcome(a)}</span>{' '}
                  <time dateTime={a.startedAt}>{formatTime(a.startedAt)}</time>
                  <span class="hint">
                    {' '}
                    · {gap === null ? 'first attempt' : `${formatDuration(gap)} after the previous attempt`} · took {formatDuration(a.durationMs)}
                  </span>
                  {(a.error ?? a.responseExcerpt) && <span class="excerpt"> {(a.error ?? a.responseExcerpt)!.slice(0, 100)}</span>}
                </summary>
                <div class="exchange">
                  <section aria-label="Request">
                    <h4>Request</h4>
                    <pre class="http">
                      {`POST\n${Object.entries(a.requestHeaders ?? {})
                        .map(([k, v]) => `${k}: ${v}`)
                        .join('\n')}\n\n${prettyJson(d.payload)}`}
                    </pre>
                  </section>
                  <section aria-label="Response">
                    <h4>Response</h4>
                    {a.statusCode !== null ? (
                      <pre class="http">{`HTTP ${a.statusCode} · ${formatDuration(a.durationMs)}\n\n${a.responseExcerpt ? prettyBody(a.responseExcerpt) : '(empty body)'}`}</pre>
                    ) : (
                      <pre class="http">{`No response after ${formatDuration(a.durationMs)}: ${a.error ?? 'unknown error'}`}</pre>
                    )}
                    {a.responseExcerpt && a.responseExcerpt.length >= 1024 && <p class="hint">The first 1 KB of the body is kept.</p>}
                  </section>
                </div>
              </details>
            </li>
          );
        })}
      </ol>
    </li>
  );
}

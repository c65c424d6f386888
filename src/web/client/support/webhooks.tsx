import { useState } from 'preact/hooks';
import { del, get, patch, post } from '../api';
import { link, navigate } from '../router';
import { Webhook } from 'lucide';
import { Alert, ConfirmButton, EmptyState, errorFor, FieldError, formatDate, fromDateTimeInput, Notice, SecretBoxes, Table, toDateTimeInput, useAction, useLoad, useSecrets } from '../ui';
import { DeliveryItem, useLiveDeliveries } from './deliveries';
import type { Delivery, Endpoint, SectionProps, WebhookEventTypes } from './types';

/** The server's list, typed as it: a type added there fails to compile here until it is added. */
const EVENT_TYPES: WebhookEventTypes = ['ticket.created', 'ticket.updated', 'ticket.comment_created'];
const REASONS: Record<NonNullable<Endpoint['disabledReason']>, string> = {
  manual: 'disabled by a person',
  gone: 'disabled: the receiver answered 410 Gone',
  failing: 'disabled automatically: every delivery failed for too long',
};

/** What a signing secret is for, under its "copy it now". */
const SIGNING_HINT = (
  <>
    Verify each request's <code>webhook-signature</code> with it (Standard Webhooks).
  </>
);

function EventsPicker({ value, onChange }: { value: string[] | null; onChange: (v: string[] | null) => void }) {
  return (
    <fieldset>
      <legend>Events</legend>
      <label class="inline">
        <input type="checkbox" checked={value === null} onChange={(e) => onChange(e.currentTarget.checked ? null : [...EVENT_TYPES])} /> Every event (also types added later)
      </label>
      {value !== null &&
        EVENT_TYPES.map((t) => (
          <label class="inline" key={t}>
            <input type="checkbox" checked={value.includes(t)} onChange={(e) => onChange(e.currentTarget.checked ? [...value, t] : value.filter((x) => x !== t))} /> <code>{t}</code>
          </label>
        ))}
    </fieldset>
  );
}

function EndpointStatus({ e }: { e: Endpoint }) {
  if (e.enabled) return e.failingSince ? <span class="badge warn">Failing since {formatDate(e.failingSince, { time: true })}</span> : <span class="badge ok">Enabled</span>;
  return <span class="badge deleted">Disabled</span>;
}

export function WebhooksPage({ workspace, canManage, base }: SectionProps) {
  const endpoints = useLoad(() => get<{ endpoints: Endpoint[] }>(`/agent/workspaces/${workspace.id}/webhooks`).then((r) => r.endpoints), [workspace.id]);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[] | null>(null);
  const secrets = useSecrets();
  const { error, busy, run } = useAction();
  return (
    <section aria-labelledby="webhooks-heading">
      <h2 id="webhooks-heading">Webhooks</h2>
      <p class="lead">Ticket changes are POSTed to these endpoints, signed, and retried until they succeed.</p>
      <SecretBoxes secrets={secrets.secrets} dismiss={secrets.dismiss} />
      <Alert error={endpoints.error} />
      <Table
        columns={['URL', 'Events', 'Status']}
        rows={endpoints.data}
        empty={
          <EmptyState icon={Webhook} title="No endpoints yet." testId="empty-webhooks">
            Add the URL of a server of yours below: it is sent each ticket event, signed, and retried until it answers.
          </EmptyState>
        }
        hideEmpty
        row={(e) => (
          <tr key={e.id} class={e.enabled ? undefined : 'inactive'}>
            <th scope="row">
              <a href={`${base}/webhooks/${e.id}`} onClick={link(`${base}/webhooks/${e.id}`)}>
                {e.url}
              </a>
            </th>
            <td>{e.events === null ? 'All' : e.events.join(', ')}</td>
            <td>
              <EndpointStatus e={e} />
              {!e.enabled && e.disabledReason && <div class="hint">{REASONS[e.disabledReason]}</div>}
            </td>
          </tr>
        )}
      />
      {canManage && (
        <section class="panel" aria-labelledby="new-endpoint">
          <h3 id="new-endpoint">New endpoint</h3>
          <form
            onSubmit={(ev) => {
              ev.preventDefault();
              void run(async () => {
                const r = await post<{ endpoint: Endpoint; secret: string }>(`/agent/workspaces/${workspace.id}/webhooks`, { url, ...(events ? { events } : {}) });
                secrets.add({ label: 'Signing secret', value: r.secret, hint: SIGNING_HINT });
                setUrl('');
                await endpoints.reload();
              });
            }}
          >
            <label>
              URL
              <input
                type="url"
                required
                value={url}
                onInput={(e) => setUrl(e.currentTarget.value)}
                placeholder="https://example.com/webhooks"
                aria-invalid={errorFor(error, 'url') ? true : undefined}
                aria-describedby="endpoint-url-error"
              />
              <FieldError error={error} field="url" id="endpoint-url-error" />
            </label>
            <EventsPicker value={events} onChange={setEvents} />
            <Alert error={error} fields={['url']} />
            <button type="submit" class="primary" disabled={busy}>
              Add endpoint
            </button>
          </form>
        </section>
      )}
    </section>
  );
}

export function EndpointPage({ workspace, canManage, base, endpointId }: SectionProps & { endpointId: number }) {
  const root = `/agent/workspaces/${workspace.id}/webhooks/${endpointId}`;
  const endpoint = useLoad(() => get<Endpoint>(root), [root]);
  const [status, setStatus] = useState('');
  const deliveries = useLoad(() => get<{ deliveries: Delivery[] }>(`${root}/deliveries?limit=50${status ? `&status=${status}` : ''}`).then((r) => r.deliveries), [root, status]);
  const action = useAction();
  const secrets = useSecrets();
  const [since, setSince] = useState(() => toDateTimeInput(Date.now() - 86_400_000));
  const [editUrl, setEditUrl] = useState<string | null>(null);
  const [editEvents, setEditEvents] = useState<string[] | null | undefined>(undefined);
  const [notice, setNotice] = useState<string | null>(null);
  const e = endpoint.data;
  const live = useLiveDeliveries(deliveries, endpoint.reload);
  const act = (fn: () => Promise<unknown>) =>
    action.run(async () => {
      setNotice(null);
      await fn();
      await Promise.all([endpoint.reload(), deliveries.reload()]);
    });

  return (
    <section aria-labelledby="endpoint-heading">
      <p>
        <a href={`${base}/webhooks`} onClick={link(`${base}/webhooks`)}>
          ← Webhooks
        </a>
      </p>
      <Alert error={endpoint.error ?? action.error} onDismiss={() => action.setError(null)} />
      <SecretBoxes secrets={secrets.secrets} dismiss={secrets.dismiss} />
      {notice && <Notice>{notice}</Notice>}
      {e && (
        <>
          <h2 id="endpoint-heading">{e.url}</h2>
          <p>
            <EndpointStatus e={e} /> {e.events === null ? 'All events' : e.events.join(', ')}
          </p>
          {!e.enabled && (
            <div class="alert" role="alert">
              <span>
                This endpoint is <strong>{REASONS[e.disabledReason ?? 'manual']}</strong>
                {e.disabledAt && ` on ${formatDate(e.disabledAt, { time: true })}`}. Its deliveries wait; enable it to resume them.
              </span>
            </div>
          )}
          {e.secretRotationEndsAt && <Notice>The previous secret still signs too, until {formatDate(e.secretRotationEndsAt, { time: true })}.</Notice>}
          {canManage && (
            <div class="actions start">
              <button type="button" class={e.enabled ? '' : 'primary'} onClick={() => act(() => patch(root, { enabled: !e.enabled }))}>
                {e.enabled ? 'Disable' : 'Enable'}
              </button>
              <button
                type="button"
                onClick={() =>
                  act(async () => {
                    const r = await post<{ secret: string }>(`${root}/rotate-secret`);
                    secrets.add({ label: 'Signing secret', value: r.secret, hint: SIGNING_HINT });
                  })
                }
              >
                Rotate secret
              </button>
              <button
                type="button"
                onClick={() => {
                  setEditUrl(e.url);
                  setEditEvents(e.events);
                }}
              >
                Edit
              </button>
              <ConfirmButton
                class="danger"
                title="Delete this endpoint?"
                message="It gets no more events, and its delivery log is deleted."
                confirmLabel="Delete endpoint"
                action={() => del(root)}
                onDone={() => navigate(`${base}/webhooks`)}
              >
                Delete
              </ConfirmButton>
            </div>
          )}
          {editUrl !== null && editEvents !== undefined && (
            <form
              class="panel"
              onSubmit={(ev) => {
                ev.preventDefault();
                void act(async () => {
                  await patch(root, { url: editUrl, events: editEvents });
                  setEditUrl(null);
                  setEditEvents(undefined);
                });
              }}
            >
              <label>
                URL
                <input type="url" required value={editUrl} onInput={(ev) => setEditUrl(ev.currentTarget.value)} />
              </label>
              <EventsPicker value={editEvents} onChange={setEditEvents} />
              <div class="actions start">
                <button type="submit" class="primary">
                  Save
                </button>
                <button type="button" onClick={() => setEditUrl(null)}>
                  Cancel
                </button>
              </div>
            </form>
          )}
        </>
      )}
      <h3>Delivery log</h3>
      <div class="toolbar">
        <label class="inline">
          Show{' '}
          <select value={status} onChange={(ev) => setStatus(ev.currentTarget.value)}>
            <option value="">All</option>
            <option value="pending">Pending</option>
            <option value="succeeded">Succeeded</option>
            <option value="failed">Failed</option>
          </select>
        </label>
        <button type="button" class="small" onClick={() => deliveries.reload()}>
          Refresh
        </button>
        {live && (
          <span class="hint live" data-testid="live">
            Updating by itself while a delivery is pending
          </span>
        )}
        {canManage && (
          <form
            class="row"
            onSubmit={(ev) => {
              ev.preventDefault();
              void act(async () => {
                const r = await post<{ redelivered: number }>(`${root}/redeliver`, { since: fromDateTimeInput(since) ?? new Date(Date.now() - 86_400_000).toISOString() });
                setNotice(`Queued ${r.redelivered} failed deliveries again.`);
              });
            }}
          >
            <label>
              Failed since
              <input type="datetime-local" value={since} onInput={(ev) => setSince(ev.currentTarget.value)} />
            </label>
            <button type="submit" class="small">
              Redeliver failed
            </button>
          </form>
        )}
      </div>
      <Alert error={deliveries.error} />
      {deliveries.data && deliveries.data.length === 0 && <p>No deliveries.</p>}
      <ol class="deliveries">
        {(deliveries.data ?? []).map((d) => (
          <DeliveryItem key={d.id} d={d} canManage={canManage} onRedeliver={() => act(() => post(`${root}/deliveries/${d.id}/redeliver`))} />
        ))}
      </ol>
    </section>
  );
}

import { MessageCircle } from 'lucide';
import { useState } from 'preact/hooks';
import { del, get, patch, post } from '../api';
import { Alert, ConfirmButton, CopyRow, EmptyState, errorFor, FieldError, SecretBoxes, useAction, useLoad, useSecrets } from '../ui';
import type { Agent, CreatedWidget, SectionProps, Widget } from './types';
import { AgentSelect } from './agent-select';

/** What the host site's server does with the identity secret, under its "copy it now". */
const IDENTITY_HINT = (
  <>
    Keep it on your site's server: it signs a signed-in user's <code>userId + "\n" + email</code> with HMAC-SHA256, and the snippet passes the
    signature (<code>data-user-id</code>, <code>data-email</code>, <code>data-signature</code>). See docs/widget.md.
  </>
);

/** The settings the form edits, as the API names them; origins one per line. */
type Form = Pick<Widget, 'color' | 'greeting' | 'teamName' | 'launcherSide' | 'attachmentsAllowed' | 'handoffText' | 'verificationRequired'> & { origins: string };

const formOf = (w: Widget): Form => ({
  origins: w.origins.join('\n'),
  color: w.color,
  greeting: w.greeting,
  teamName: w.teamName,
  launcherSide: w.launcherSide,
  attachmentsAllowed: w.attachmentsAllowed,
  handoffText: w.handoffText,
  verificationRequired: w.verificationRequired,
});

const originsOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((o) => o.trim())
    .filter(Boolean);

/** Support → Widget: the help widget a company puts on its own site, its snippet and a live preview. */
export function WidgetPage({ workspace, canManage }: SectionProps) {
  const root = `/agent/workspaces/${workspace.id}/widgets`;
  const widgets = useLoad(() => get<{ widgets: Widget[] }>(root).then((r) => r.widgets), [root]);
  const agents = useLoad(() => get<{ agents: Agent[] }>(`/agent/workspaces/${workspace.id}/agents`).then((r) => r.agents), [workspace.id]);
  const secrets = useSecrets();
  return (
    <section aria-labelledby="widget-heading">
      <h2 id="widget-heading">Widget</h2>
      <p class="lead">
        Put the agent on your own site: paste the snippet into its pages. Visitors ask in a chat panel; what the agent cannot answer becomes a ticket,
        and your replies reach them there or by mail.
      </p>
      <SecretBoxes secrets={secrets.secrets} dismiss={secrets.dismiss} />
      <Alert error={widgets.error ?? agents.error} />
      {widgets.data?.length === 0 && (
        <EmptyState icon={MessageCircle} title="No widget yet." testId="empty-widgets">
          {canManage ? 'Create one below: choose the agent that answers and the sites that may show it.' : 'An owner or admin of the workspace can create one.'}
        </EmptyState>
      )}
      {widgets.data?.map((w) => (
        <WidgetSettings key={w.id} root={root} widget={w} agents={agents.data ?? []} canManage={canManage} onChanged={() => void widgets.reload()} />
      ))}
      {canManage && agents.data && (
        <NewWidget
          root={root}
          agents={agents.data}
          first={widgets.data?.length === 0}
          onCreated={(w) => {
            secrets.add({ label: `Identity secret of ${w.id}`, value: w.identitySecret, hint: IDENTITY_HINT });
            void widgets.reload();
          }}
        />
      )}
    </section>
  );
}

function NewWidget({ root, agents, first, onCreated }: { root: string; agents: Agent[]; first: boolean; onCreated: (w: CreatedWidget) => void }) {
  const [agentId, setAgentId] = useState('');
  const [origins, setOrigins] = useState('');
  const { error, busy, run } = useAction();
  const chosen = agentId || agents.find((a) => a.default)?.id || agents[0]?.id || '';
  if (agents.length === 0) return <p>Create an agent first (Agents): the widget needs one to answer.</p>;
  return (
    <section class="panel" aria-labelledby="new-widget">
      <h3 id="new-widget">{first ? 'Create the widget' : 'New widget'}</h3>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            const w = await post<CreatedWidget>(root, { agentId: chosen, origins: originsOf(origins) });
            setOrigins('');
            onCreated(w);
          });
        }}
      >
        <AgentSelect agents={agents} value={chosen} onChange={setAgentId} />
        <OriginsField value={origins} onInput={setOrigins} error={error} id="new-widget-origins" />
        <Alert error={error} fields={['origins']} />
        <button type="submit" class="primary" disabled={busy}>
          Create widget
        </button>
      </form>
    </section>
  );
}

function OriginsField({ value, onInput, error, id, disabled }: { value: string; onInput: (v: string) => void; error: unknown; id: string; disabled?: boolean }) {
  return (
    <label>
      Allowed sites
      <textarea
        rows={3}
        required
        disabled={disabled}
        value={value}
        onInput={(e) => onInput(e.currentTarget.value)}
        placeholder={'https://shop.example.com\nhttps://*.example.com'}
        aria-invalid={errorFor(error, 'origins') ? true : undefined}
        aria-describedby={`${id}-hint ${id}-error`}
      />
      <span class="hint" id={`${id}-hint`}>
        One origin a line: exact, or <code>https://*.example.com</code> for its subdomains. Other sites get nothing.
      </span>
      <FieldError error={error} field="origins" id={`${id}-error`} />
    </label>
  );
}

function WidgetSettings({ root, widget, agents, canManage, onChanged }: { root: string; widget: Widget; agents: Agent[]; canManage: boolean; onChanged: () => void }) {
  const [form, setForm] = useState<Form>(() => formOf(widget));
  const { error, busy, run } = useAction();
  const [saved, setSaved] = useState(false);
  const set = <K extends keyof Form>(key: K, value: Form[K]) => {
    setSaved(false);
    setForm({ ...form, [key]: value });
  };
  const text = (key: 'greeting' | 'teamName' | 'handoffText', label: string, multiline = false) => {
    const props = {
      value: form[key],
      disabled: !canManage,
      required: true,
      maxLength: key === 'teamName' ? 100 : 500,
      onInput: (e: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) => set(key, e.currentTarget.value),
      'aria-invalid': errorFor(error, key) ? true : undefined,
      'aria-describedby': `${widget.id}-${key}-error`,
    };
    return (
      <label>
        {label}
        {multiline ? <textarea rows={2} {...props} /> : <input type="text" {...props} />}
        <FieldError error={error} field={key} id={`${widget.id}-${key}-error`} />
      </label>
    );
  };
  const agent = agents.find((a) => a.id === widget.agentId);
  return (
    <section class="panel widget-settings" aria-labelledby={`${widget.id}-title`}>
      <h3 id={`${widget.id}-title`}>
        <code>{widget.id}</code> {agent ? `answered by ${agent.name}` : ''}
      </h3>
      <h4>Snippet</h4>
      <p class="hint">Paste it before <code>&lt;/body&gt;</code> on every page of the allowed sites.</p>
      <CopyRow value={widget.snippet} testId="widget-snippet" label="Copy snippet" />
      <div class="widget-editor">
        <form
          class="widget-form"
          onSubmit={(e) => {
            e.preventDefault();
            void run(async () => {
              const { origins, ...rest } = form;
              await patch<Widget>(`${root}/${widget.id}`, { ...rest, origins: originsOf(origins) });
              setSaved(true);
              onChanged();
            });
          }}
        >
          <OriginsField value={form.origins} onInput={(v) => set('origins', v)} error={error} id={`${widget.id}-origins`} disabled={!canManage} />
          {text('teamName', 'Team name')}
          {text('greeting', 'Greeting', true)}
          {text('handoffText', 'Hand-off text', true)}
          <label>
            Colour
            <input type="color" value={form.color} disabled={!canManage} onInput={(e) => set('color', e.currentTarget.value)} />
          </label>
          <fieldset disabled={!canManage}>
            <legend>Launcher</legend>
            {(['right', 'left'] as const).map((side) => (
              <label class="inline" key={side}>
                <input type="radio" name={`${widget.id}-side`} checked={form.launcherSide === side} onChange={() => set('launcherSide', side)} /> Bottom {side}
              </label>
            ))}
          </fieldset>
          <label class="inline">
            <input type="checkbox" checked={form.attachmentsAllowed} disabled={!canManage} onChange={(e) => set('attachmentsAllowed', e.currentTarget.checked)} /> Visitors may attach
            images and PDFs
          </label>
          <label class="inline">
            <input type="checkbox" checked={form.verificationRequired} disabled={!canManage} onChange={(e) => set('verificationRequired', e.currentTarget.checked)} /> Only
            visitors your site signed in (identity verification)
          </label>
          <Alert error={error} fields={['origins', 'greeting', 'teamName', 'handoffText']} />
          {canManage && (
            <div class="actions">
              <button type="submit" class="primary" disabled={busy}>
                Save widget
              </button>
              <span role="status">{saved ? 'Saved.' : ''}</span>
              <ConfirmButton
                class="danger"
                label={`Delete ${widget.id}`}
                title="Delete the widget?"
                message="Its snippet stops working on every site at once. Conversations and tickets stay."
                confirmLabel="Delete widget"
                action={() => del(`${root}/${widget.id}`)}
                onDone={onChanged}
              >
                Delete
              </ConfirmButton>
            </div>
          )}
        </form>
        <Preview widget={widget} form={form} />
      </div>
    </section>
  );
}

/**
 * The real widget script in a frame of its own, drawn with the form's settings as they are typed
 * (data-preview: nothing is fetched or sent). A srcdoc frame keeps this origin and its policy, so
 * /widget.js loads from here as on a customer's page.
 */
function Preview({ widget, form }: { widget: Widget; form: Form }) {
  const settings = { id: widget.id, ...form, origins: undefined };
  const attribute = JSON.stringify(settings).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const doc =
    '<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width"><title>Preview</title></head>' +
    // No style attribute: the frame keeps the console's policy (no inline styles); the frame's own background shows through.
    '<body>' +
    `<script src="/widget.js" data-widget="${widget.id}" data-preview="${attribute}"></script></body></html>`;
  return (
    <figure class="widget-preview">
      <iframe title="Widget preview" srcDoc={doc} data-testid="widget-preview" />
      <figcaption class="hint">Preview: how a visitor sees it. Messages are not sent from here.</figcaption>
    </figure>
  );
}

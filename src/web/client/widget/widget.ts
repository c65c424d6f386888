// The help widget a customer's site embeds with one tag (docs/widget.md):
//   <script src="https://support.example/widget.js" data-widget="wdg_…" async></script>
// Plain DOM in an open shadow root: nothing of the host page's CSS gets in or out, assistive
// technology and tests reach it, and no library is shipped to the customer's visitors. Every
// request goes to the server the script came from; text from the server is never parsed as HTML.
import { link, markdown, safeHref } from './markdown.js';
import { STYLES } from './styles.js';

interface Settings {
  id: string;
  color: string;
  greeting: string;
  teamName: string;
  launcherSide: 'left' | 'right';
  attachmentsAllowed: boolean;
  handoffText: string;
  verificationRequired: boolean;
}
interface Source { title: string; url: string | null }
interface Entry { id?: number; from: 'visitor' | 'agent' | 'team'; body: string; sources: Source[]; needs_human: boolean; at?: string }
interface Stored { token?: string; expiresAt?: string; conversationId?: string; verified?: boolean; userId?: string }

const script = (document.currentScript ?? document.querySelector('script[data-widget]')) as HTMLScriptElement | null;

/**
 * White or near-black text, whichever reads better on the widget's colour (WCAG contrast): a
 * company's pale brand colour never leaves white text on it unreadable. One of the two always
 * reaches 4.5:1.
 */
function textOn(hex: string): string {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const l = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  const dark = 0.2126 * 0.0103 + 0.7152 * 0.0103 + 0.0722 * 0.0103; // #1a1a1a
  return 1.05 / (l + 0.05) >= (l + 0.05) / (dark + 0.05) ? '#fff' : '#1a1a1a';
}

function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, children: (Node | string)[] = []): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...children);
  return node;
}

async function start(tag: HTMLScriptElement) {
  const widgetId = tag.dataset.widget ?? '';
  const base = new URL(tag.src).origin;
  const api = `${base}/v1/widgets/${encodeURIComponent(widgetId)}`;
  const storeKey = `tb-widget:${widgetId}`;
  const identity = tag.dataset.userId && tag.dataset.email && tag.dataset.signature
    ? { userId: tag.dataset.userId, email: tag.dataset.email, signature: tag.dataset.signature }
    : undefined;

  // The console's live preview (Support → Widget) draws unsaved settings given in data-preview:
  // nothing is fetched, stored or sent.
  const preview = tag.dataset.preview !== undefined;
  // A page that is not one of the widget's origins gets 403 without CORS headers: fetch fails and nothing is drawn.
  let settings: Settings;
  try {
    if (preview) settings = JSON.parse(tag.dataset.preview!) as Settings;
    else {
      const res = await fetch(api);
      if (!res.ok) return;
      settings = (await res.json()) as Settings;
    }
  } catch {
    return;
  }

  const load = (): Stored => {
    if (preview) return {};
    try {
      return JSON.parse(localStorage.getItem(storeKey) ?? '{}') as Stored;
    } catch {
      return {};
    }
  };
  const save = (s: Stored) => {
    if (preview) return;
    try {
      localStorage.setItem(storeKey, JSON.stringify(s));
    } catch {
      // storage blocked: the visit lasts this page
    }
    memory = s;
  };
  let memory = load();

  async function visitorToken(fresh = false): Promise<string> {
    const stored = memory;
    const sameUser = (stored.userId ?? null) === (identity?.userId ?? null);
    if (!fresh && stored.token && sameUser && stored.expiresAt && Date.parse(stored.expiresAt) > Date.now()) return stored.token;
    const res = await fetch(`${api}/visitors`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(identity ? { identity } : {}) });
    if (!res.ok) throw new Error((await res.json().catch(() => ({}))).message ?? 'could not start');
    const body = (await res.json()) as { token: string; expiresAt: string; verified: boolean };
    save({ token: body.token, expiresAt: body.expiresAt, verified: body.verified, ...(identity ? { userId: identity.userId } : {}) });
    return body.token;
  }

  async function call(method: string, path: string, body?: unknown, retried = false): Promise<any> {
    if (preview) throw new Error('This is a preview: messages are not sent.');
    const token = await visitorToken();
    const res = await fetch(`${api}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (res.status === 401 && !retried) {
      await visitorToken(true);
      return call(method, path, body, true);
    }
    const json = await res.json().catch(() => ({}));
    if (!res.ok) {
      const wait = res.headers.get('retry-after');
      throw new Error(res.status === 429 && wait ? `Too many messages: try again in ${wait} s.` : json.message ?? 'Something went wrong. Try again.');
    }
    return json;
  }

  // ---- the DOM ----
  const host = h('div', { 'data-tb-widget': widgetId });
  const root = host.attachShadow({ mode: 'open' });
  // A constructed style sheet, not a <style> element: a page whose Content-Security-Policy has no
  // 'unsafe-inline' for styles (ours, around the console's preview; many shops') blocks the latter.
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(STYLES);
    root.adoptedStyleSheets = [sheet];
  } catch {
    root.append(h('style', {}, [STYLES]));
  }
  host.style.setProperty('--tbw-color', settings.color);
  host.style.setProperty('--tbw-on', textOn(settings.color));
  const side = settings.launcherSide === 'left' ? 'left' : 'right';

  const launcher = h('button', { type: 'button', class: `launcher ${side}`, 'aria-label': 'Chat with us', 'aria-expanded': 'false', 'aria-controls': 'tbw-panel' }, ['?']);
  const title = h('h2', { id: 'tbw-title' }, [settings.teamName]);
  const close = h('button', { type: 'button', class: 'close', 'aria-label': 'Close' }, ['×']);
  const log = h('div', { class: 'log', role: 'log', 'aria-live': 'polite', 'aria-label': 'Conversation' });
  const box = h('textarea', { id: 'tbw-message', rows: '2', maxlength: '4000', placeholder: 'Type your question…' });
  const boxLabel = h('label', { for: 'tbw-message', class: 'sr' }, ['Message']);
  const send = h('button', { type: 'submit', class: 'send' }, ['Send']);
  const file = h('input', { type: 'file', id: 'tbw-file', accept: 'image/*,application/pdf', multiple: '' });
  const fileLabel = h('label', { for: 'tbw-file', class: 'attach' }, ['Attach']);
  const picked = h('span', { class: 'picked' });
  const status = h('p', { class: 'status', role: 'status' });
  const composer = h('form', { class: 'composer' }, [boxLabel, box, ...(settings.attachmentsAllowed ? [fileLabel, file, picked] : []), send]);
  const human = h('button', { type: 'button', class: 'human', hidden: '' }, ['Talk to a person']);
  const handoff = h('form', { class: 'handoff', hidden: '' });
  const rating = h('form', { class: 'handoff rating', hidden: '' });
  const panel = h('section', { id: 'tbw-panel', class: `panel ${side}`, role: 'dialog', 'aria-labelledby': 'tbw-title', hidden: '' }, [
    h('header', {}, [title, close]),
    composer,
    log,
    status,
    human,
    handoff,
    rating,
  ]);
  root.append(launcher, panel);
  document.body.append(host);

  let conversationId = memory.conversationId;
  // Replies shown but not yet acknowledged (their mail is held back while still due).
  const unseen = new Set<number>();
  let firstMessage = '';
  let handedOff = false;
  let loaded = false;

  function entry(e: Entry) {
    const item = h('div', { class: `msg ${e.from}` });
    if (e.from === 'visitor') item.append(h('p', {}, [e.body]));
    else {
      if (e.from === 'team') item.append(h('p', { class: 'who' }, [settings.teamName]));
      item.append(markdown(e.body));
    }
    if (e.sources.length) {
      const list = h('ul', { class: 'sources', 'aria-label': 'Sources' });
      for (const s of e.sources) {
        const href = s.url ? safeHref(s.url) : null;
        list.append(h('li', {}, [href ? link(s.title, href) : s.title]));
      }
      item.append(list);
    }
    log.append(item);
    log.scrollTop = log.scrollHeight;
    if (e.needs_human && !handedOff) human.hidden = false;
  }

  async function restore() {
    if (loaded) return;
    loaded = true;
    entry({ from: 'agent', body: settings.greeting, sources: [], needs_human: false });
    if (!conversationId) return;
    try {
      const c = await call('GET', `/conversations/${encodeURIComponent(conversationId)}`);
      for (const e of c.entries as Entry[]) {
        entry(e);
        // A reply from the last few minutes, seen on this load: its mail may still be held back.
        if (e.from === 'team' && e.id && Date.parse(e.at ?? '') > Date.now() - 300_000) unseen.add(e.id);
      }
      firstMessage = c.entries[0]?.body ?? '';
      if (c.ticketId !== null) markHandedOff();
      else if (c.entries.length) human.hidden = false;
      if ((c.ticketStatus === 'solved' || c.ticketStatus === 'closed') && !c.rated) askRating();
      acknowledge();
    } catch {
      conversationId = undefined;
      save({ ...memory, conversationId: undefined });
    }
  }

  // Replies that arrived while the panel was shut are acknowledged once it is opened.
  function acknowledge() {
    if (panel.hidden || !conversationId) return;
    for (const id of unseen) void call('POST', `/conversations/${encodeURIComponent(conversationId)}/replies/${id}/seen`).catch(() => undefined);
    unseen.clear();
  }

  function open() {
    panel.hidden = false;
    launcher.setAttribute('aria-expanded', 'true');
    box.focus();
    void restore();
    acknowledge();
  }
  function shut() {
    panel.hidden = true;
    launcher.setAttribute('aria-expanded', 'false');
    launcher.focus();
  }
  launcher.addEventListener('click', () => (panel.hidden ? open() : shut()));
  close.addEventListener('click', shut);
  panel.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      shut();
    }
  });
  box.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      composer.requestSubmit();
    }
  });
  file.addEventListener('change', () => {
    const n = file.files?.length ?? 0;
    picked.textContent = n ? `${n} file${n > 1 ? 's' : ''}` : '';
  });

  const asBase64 = (f: File) =>
    new Promise<string>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
      reader.onerror = () => reject(new Error('could not read the file'));
      reader.readAsDataURL(f);
    });

  composer.addEventListener('submit', async (e) => {
    e.preventDefault();
    const message = box.value.trim();
    if (!message || send.disabled) return;
    const files = [...(file.files ?? [])].slice(0, 5);
    send.disabled = true;
    status.textContent = 'Sending…';
    try {
      const attachments = await Promise.all(files.map(async (f) => ({ mime: f.type || 'application/octet-stream', filename: f.name.slice(0, 255), contentBase64: await asBase64(f) })));
      entry({ from: 'visitor', body: message, sources: [], needs_human: false });
      box.value = '';
      const reply = await call('POST', '/messages', { message, ...(conversationId ? { conversationId } : {}), ...(attachments.length ? { attachments } : {}) });
      if (!conversationId) firstMessage = message;
      conversationId = reply.conversationId as string;
      save({ ...memory, conversationId });
      // Once handed off, the message went to the team: no agent reply.
      if (!reply.forwarded) entry({ from: 'agent', body: reply.message, sources: reply.sources, needs_human: reply.needs_human });
      if (!handedOff) human.hidden = false;
      file.value = '';
      picked.textContent = '';
      status.textContent = '';
    } catch (error) {
      status.textContent = (error as Error).message;
    } finally {
      send.disabled = false;
      box.focus();
    }
  });

  function markHandedOff() {
    handedOff = true;
    human.hidden = true;
    handoff.hidden = true;
    handoff.replaceChildren();
    status.textContent = settings.handoffText;
    void listen();
  }

  // The team's replies, live: server-sent events read with fetch (it carries the visitor token), reconnecting after a cut.
  let listening = false;
  async function listen() {
    if (listening || !conversationId) return;
    listening = true;
    const seen = new Set<number>();
    for (;;) {
      try {
        const token = await visitorToken();
        const res = await fetch(`${api}/conversations/${encodeURIComponent(conversationId)}/events`, { headers: { authorization: `Bearer ${token}` } });
        if (!res.ok || !res.body) throw new Error('stream refused');
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let cut;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const data = block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
            if (!data) continue;
            if (/^event: status$/m.test(block)) {
              const { status: now } = JSON.parse(data) as { status: string };
              if (now === 'solved' || now === 'closed') askRating();
              continue;
            }
            if (!/^event: reply$/m.test(block)) continue;
            const reply = JSON.parse(data) as Entry & { id: number };
            if (seen.has(reply.id)) continue;
            seen.add(reply.id);
            entry(reply);
            // Shown: the team's mail of this reply is not needed (the server holds it back if it is still due).
            unseen.add(reply.id);
            acknowledge();
          }
        }
      } catch {
        // cut or refused: try again shortly
      }
      await new Promise((resolve) => setTimeout(resolve, 3000));
    }
  }

  // "How did we do?" once the ticket is solved: 1-5 and an optional comment, once per ticket.
  let rated = false;
  function askRating() {
    if (rated || !rating.hidden) return;
    const choices = [1, 2, 3, 4, 5].map((n) => {
      const input = h('input', { type: 'radio', name: 'tbw-score', value: String(n), id: `tbw-score-${n}` });
      return h('label', { for: `tbw-score-${n}`, class: 'score' }, [input, String(n)]);
    });
    rating.replaceChildren(
      h('fieldset', {}, [h('legend', {}, ['How did we do? (1 poor, 5 great)']), ...choices]),
      h('label', { for: 'tbw-rating-comment' }, ['Comment (optional)']),
      h('textarea', { id: 'tbw-rating-comment', rows: '2', maxlength: '2000' }),
      h('button', { type: 'submit' }, ['Send rating']),
    );
    rating.hidden = false;
  }
  rating.addEventListener('submit', async (e) => {
    e.preventDefault();
    const picked = rating.querySelector<HTMLInputElement>('input[name="tbw-score"]:checked');
    const submit = rating.querySelector('button');
    if (!picked || !submit || submit.disabled || !conversationId) return;
    submit.disabled = true;
    const comment = rating.querySelector<HTMLTextAreaElement>('#tbw-rating-comment')?.value.trim();
    try {
      await call('POST', `/conversations/${encodeURIComponent(conversationId)}/rating`, { score: Number(picked.value), ...(comment ? { comment } : {}) });
      rated = true;
      rating.hidden = true;
      rating.replaceChildren();
      status.textContent = 'Thank you for your rating.';
    } catch (error) {
      status.textContent = (error as Error).message;
      submit.disabled = false;
    }
  });

  human.addEventListener('click', () => {
    if (!conversationId) {
      status.textContent = 'Write your question first, then we can pass it to a person.';
      box.focus();
      return;
    }
    human.hidden = true;
    const verified = memory.verified === true;
    const email = h('input', { id: 'tbw-email', type: 'email', autocomplete: 'email', required: '', maxlength: '254' });
    const subject = h('input', { id: 'tbw-subject', type: 'text', maxlength: '200' });
    subject.value = firstMessage.slice(0, 200);
    const submit = h('button', { type: 'submit' }, ['Send to the team']);
    handoff.replaceChildren(
      ...(verified ? [] : [h('label', { for: 'tbw-email' }, ['E-mail']), email]),
      h('label', { for: 'tbw-subject' }, ['Subject (optional)']),
      subject,
      submit,
    );
    handoff.hidden = false;
    (verified ? subject : email).focus();
  });

  handoff.addEventListener('submit', async (e) => {
    e.preventDefault();
    const submit = handoff.querySelector('button');
    if (!submit || submit.disabled || !conversationId) return;
    submit.disabled = true;
    const email = handoff.querySelector<HTMLInputElement>('#tbw-email')?.value.trim();
    const subject = handoff.querySelector<HTMLInputElement>('#tbw-subject')?.value.trim();
    try {
      await call('POST', '/handoff', { conversationId, ...(email ? { email } : {}), ...(subject ? { subject } : {}) });
      markHandedOff();
    } catch (error) {
      status.textContent = (error as Error).message;
      submit.disabled = false;
    }
  });

  // The preview shows the panel open, as a visitor sees it after clicking the launcher, without
  // taking the focus from the console's form being typed in.
  if (preview) {
    panel.hidden = false;
    launcher.setAttribute('aria-expanded', 'true');
    void restore();
  }
}

if (script) void start(script);

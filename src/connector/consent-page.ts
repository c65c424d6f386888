import { CONTENT_SECURITY_POLICY } from '../platform/http/content-security-policy.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/**
 * The web app's stylesheet, when it is built (`/assets/app-<hash>.css`): the pages of the
 * authorisation flow are where people decide to trust a client, so they look like the app.
 */
export type StylesheetHref = () => Promise<string | null>;

/**
 * The referrer policy of these pages. Not `no-referrer`: with it a browser sends `Origin: null`
 * on the consent form's post, which the same-origin guard must refuse. `same-origin` still keeps
 * the consent URL (and its interaction id) from the client's redirect URI.
 */
export const OAUTH_REFERRER_POLICY = 'same-origin';

function page(title: string, body: string, stylesheet: string | null) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="${OAUTH_REFERRER_POLICY}">
<title>${escapeHtml(title)} · Task boards</title>
<link rel="icon" href="data:,">
${stylesheet ? `<link rel="stylesheet" href="${escapeHtml(stylesheet)}">\n` : ''}</head>
<body>
<header class="top">
<nav aria-label="Main"><a class="brand" href="/boards">Task boards</a></nav>
</header>
<main class="narrow auth oauth">
${body}
</main>
</body>
</html>
`;
}

/**
 * The web app's policy, with the form also allowed to end at the client's redirect URI: browsers
 * apply form-action to the redirects that follow a form post, and approving ends there.
 */
export function consentPolicy(redirectUri: string | undefined): string {
  let target = '';
  try {
    const url = new URL(redirectUri ?? '');
    target = url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
  } catch {
    // no usable redirect URI: the form may only post to us
  }
  const safe = /^[A-Za-z0-9+.:/[\]-]*$/.test(target) ? target : '';
  return CONTENT_SECURITY_POLICY.replace("form-action 'self'", `form-action 'self'${safe ? ` ${safe}` : ''}`);
}

export interface ConsentView {
  action: string;
  clientName: string;
  clientUri: string | null;
  redirectUri: string;
  userName: string;
  userEmail: string;
  /** The client asked for write access too (else read only). */
  write: boolean;
  stylesheet: string | null;
}

/** The consent page: who asks, for what, on whose behalf; Approve / Deny as a plain form. */
export function consentPage(view: ConsentView): string {
  const client = escapeHtml(view.clientName);
  const read = '<li><strong>Read</strong> your boards, cards, comments, activity, support knowledge and tickets.</li>';
  const write =
    '<li><strong>Write</strong>: create, edit, move, archive and comment on cards, ask the support agent and file tickets — in your name.</li>';
  const readOnlyChoice = view.write ? '\n<button type="submit" name="decision" value="approve_read">Allow read only</button>' : '';
  return page(
    `Connect ${view.clientName}`,
    `<h1>Connect <q>${client}</q>?</h1>
<p class="lead">Signed in as <strong>${escapeHtml(view.userName)}</strong> (${escapeHtml(view.userEmail)}).</p>
<section class="panel">
<p><q>${client}</q>${view.clientUri ? ` (${escapeHtml(view.clientUri)})` : ''} asks to act as you, with exactly your permissions on each board and workspace. It will be able to:</p>
<ul>
${read}${view.write ? `\n${write}` : ''}
</ul>
${view.write ? '<p class="hint">Choose <em>Allow read only</em> to let it look but change nothing.</p>\n' : ''}<p class="hint">After you answer you return to <code>${escapeHtml(view.redirectUri)}</code>. You can disconnect it at any time under <a href="/settings/apps">Connected apps</a>.</p>
</section>
<form method="post" action="${escapeHtml(view.action)}" class="actions column">
<button type="submit" class="primary" name="decision" value="approve">${view.write ? 'Approve read and write' : 'Approve'}</button>${readOnlyChoice}
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
    view.stylesheet,
  );
}

/** An error page of the authorisation flow (never details of the server), with a way back. */
export function errorPage(title: string, message: string, stylesheet: string | null): string {
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p class="alert" role="alert">${escapeHtml(message)}</p>
<p>Start connecting again from your assistant, or <a href="/boards">go to your boards</a>.</p>`,
    stylesheet,
  );
}

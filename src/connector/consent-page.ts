import { CONTENT_SECURITY_POLICY } from '../platform/content-security-policy.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

function page(title: string, body: string) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
</head>
<body>
<main>
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
}

/** The consent page: who asks, for what, on whose behalf; Approve / Deny as a plain form. */
export function consentPage(view: ConsentView): string {
  const client = escapeHtml(view.clientName);
  const scopes = view.write
    ? '<li><strong>Read</strong> your boards, cards, activity, knowledge and tickets</li>\n<li><strong>Write</strong>: create, edit, move and comment on cards, ask the agent, and file tickets — as you</li>'
    : '<li><strong>Read</strong> your boards, cards, activity, knowledge and tickets</li>';
  const readOnlyChoice = view.write
    ? '\n<button type="submit" name="decision" value="approve_read">Allow read only</button>'
    : '';
  return page(
    `Connect ${view.clientName}`,
    `<h1>Connect <q>${client}</q> to your account?</h1>
<p>Signed in as ${escapeHtml(view.userName)} (${escapeHtml(view.userEmail)}).</p>
<p><q>${client}</q>${view.clientUri ? ` (${escapeHtml(view.clientUri)})` : ''} is asking to act as you, with exactly your permissions:</p>
<ul>
${scopes}
</ul>
<p>After approving you return to <code>${escapeHtml(view.redirectUri)}</code>. You can disconnect it at any time under Connected apps.</p>
<form method="post" action="${escapeHtml(view.action)}">
<button type="submit" name="decision" value="approve">${view.write ? 'Approve read and write' : 'Approve'}</button>${readOnlyChoice}
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
  );
}

/** An error page of the authorisation flow (never details of the server). */
export function errorPage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>\n<p>Start again from your assistant.</p>`);
}

/**
 * The web app's Content-Security-Policy, and the base of the OAuth consent page's (src/connector):
 * here rather than in web/ so the two pages share it without the connector importing the web app.
 * Strict: scripts and styles only from this origin (no inline script, no CDN), no framing.
 * `blob:` images let the card dialog preview an attachment before upload.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

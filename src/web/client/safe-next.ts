/**
 * A `next` parameter as a path inside this site, or null: `next` must not send people elsewhere.
 * Resolved as the browser will resolve it (new URL(next, origin): tabs and newlines dropped, `\`
 * read as `/`), then kept only when it stays on `origin` and is not a protocol-relative `//…`
 * path: `/%09/evil.example/` checked as a raw string looked relative, yet `location.assign()`
 * took it to evil.example. Pure, so a unit test reads it without a DOM.
 */
export function safeNext(value: string | null, origin: string): string | null {
  if (!value || !value.startsWith('/')) return null;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return null;
  }
  if (url.origin !== new URL(origin).origin) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // The normalised path is what leaves here; one that reads as `//host` would leave the origin again.
  if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return null;
  return path;
}

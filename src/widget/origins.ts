/**
 * The origins a widget may be embedded on: `https://shop.example.com` (exact, with a port when it
 * is not the scheme's default) or `https://*.example.com` (any one or more labels in front of
 * example.com, never example.com itself). The browser's `Origin` header is compared with them.
 */
const EXACT = /^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/;
const WILDCARD = /^https?:\/\/\*\.[a-z0-9-]+(\.[a-z0-9-]+)+(:\d{1,5})?$/;

/** The origin as stored (lower case, no path), or a sentence saying what is wrong. */
export function normalizeOrigin(input: string): { origin: string } | { error: string } {
  const value = input.trim().toLowerCase().replace(/\/$/, '');
  if (WILDCARD.test(value)) return { origin: value };
  if (!EXACT.test(value)) {
    return { error: `"${input}" is not an origin: write scheme and host, as https://shop.example.com or https://*.example.com (no path)` };
  }
  try {
    const url = new URL(value);
    if (url.origin !== value) return { error: `"${input}" is not an origin: write it as ${url.origin}` };
  } catch {
    return { error: `"${input}" is not an origin: write scheme and host, as https://shop.example.com` };
  }
  return { origin: value };
}

/** Whether the request's Origin header is one of the widget's origins. */
export function originAllowed(origins: readonly string[], origin: string | undefined): boolean {
  if (!origin) return false;
  const value = origin.toLowerCase();
  return origins.some((allowed) => {
    if (!allowed.includes('*')) return allowed === value;
    const [scheme, rest] = allowed.split('://*.') as [string, string];
    if (!value.startsWith(`${scheme}://`)) return false;
    const host = value.slice(scheme.length + 3);
    return host.endsWith(`.${rest}`) && host.length > rest.length + 1 && /^[a-z0-9.-]+(:\d+)?$/.test(host);
  });
}

import { Resolver } from 'node:dns/promises';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { hostOf, isPrivateAddress } from '../webhooks/destination.js';

/**
 * Client ID metadata documents are fetched from a URL anyone may name in an unauthenticated
 * `GET /oauth/authorize`. oidc-provider checks the peer only after the connection is open (and
 * the TLS hello sent), which lets a caller probe ports on loopback and the private network by
 * timing. These checks run before any connection, with the webhooks' rules: a host that is, or
 * resolves to, a private, loopback, link-local or special-use address is never contacted.
 */

/**
 * DNS over c-ares (the DNS protocol, not the system's getaddrinfo): these names come from anyone,
 * and getaddrinfo runs on libuv's four threads, which a flood of slow names would keep busy for
 * everything else that needs them (password hashing, files, compression). c-ares answers on the
 * event loop, with its own deadline. It reads no /etc/hosts, which a public host does not need.
 */
const resolver = new Resolver({ timeout: 1000, tries: 2 });

/** The host's addresses when every one is public; null when it has none or any is not. */
async function publicAddresses(host: string): Promise<{ address: string; family: 4 | 6 }[] | null> {
  // Loopback by definition (RFC 6761): refused without asking anyone.
  if (/(^|\.)localhost\.?$/i.test(host)) return null;
  const [v4, v6] = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
  const found = [
    ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
    ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
  ];
  return found.length > 0 && !found.some((a) => isPrivateAddress(a.address)) ? found : null;
}

/** The connection's lookup: the same resolution and rule, so the address connected to is one that was checked. */
const publicLookup: LookupFunction = (hostname, options, callback) => {
  publicAddresses(hostname).then(
    (found) => {
      if (!found) return callback(new Error(`${hostname} does not resolve to public addresses only`), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: typeof found) => void)(null, found);
      return callback(null, found[0]!.address, found[0]!.family);
    },
    (error: NodeJS.ErrnoException) => callback(error, '', 0),
  );
};

/** The client_id URL may be fetched: https, and every address of its host public. */
export async function clientMetadataFetchAllowed(clientId: string): Promise<boolean> {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:') return false;
  const host = hostOf(url);
  if (isIP(host)) return !isPrivateAddress(host);
  return (await publicAddresses(host)) !== null;
}

/**
 * The `fetch` oidc-provider uses for those documents: node:https with a lookup that applies the
 * same rule, so the address checked is the address connected to (no DNS rebinding between the
 * check above and the connection), and IP literals checked before connecting.
 */
export function guardedMetadataFetch(url: string | URL, options: { method?: string; headers?: ConstructorParameters<typeof Headers>[0]; signal?: AbortSignal | null } = {}): Promise<Response> {
  const target = new URL(url);
  if (target.protocol !== 'https:') return Promise.reject(new Error('client metadata documents are fetched over https only'));
  const host = hostOf(target);
  if (isIP(host) && isPrivateAddress(host)) return Promise.reject(new Error(`destination ${host} is a private or loopback address`));
  return new Promise((done, fail) => {
    const request = https.request(
      target,
      {
        method: options.method ?? 'GET',
        headers: Object.fromEntries(new Headers(options.headers)),
        lookup: publicLookup,
        ...(options.signal ? { signal: options.signal } : {}),
      },
      (response) => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
        }
        const status = response.statusCode ?? 0;
        if (status < 200 || status > 599) {
          response.resume();
          fail(new Error(`unexpected response status ${status}`));
          return;
        }
        const bodyless = status === 204 || status === 304;
        if (bodyless) response.resume();
        done(new Response(bodyless ? null : (Readable.toWeb(response) as ReadableStream), { status, headers }));
      },
    );
    request.on('error', fail);
    request.end();
  });
}

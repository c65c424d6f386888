import https from 'node:https';
import { isIP } from 'node:net';
import { Readable } from 'node:stream';
import { guardedLookup, hostOf, isPrivateAddress, lookupWithTimeout } from '../webhooks/destination.js';

/**
 * Client ID metadata documents are fetched from a URL anyone may name in an unauthenticated
 * `GET /oauth/authorize`. oidc-provider checks the peer only after the connection is open (and
 * the TLS hello sent), which lets a caller probe ports on loopback and the private network by
 * timing. These checks run before any connection, with the webhooks' rules: a host that is, or
 * resolves to, a private, loopback, link-local or special-use address is never contacted.
 */

const resolve = lookupWithTimeout({ timeoutMs: 2500 });

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
  const addresses = await new Promise<string[]>((done) => resolve(host, {}, (error, found) => done(error ? [] : found.map((a) => a.address))));
  return addresses.length > 0 && !addresses.some(isPrivateAddress);
}

/**
 * The `fetch` oidc-provider uses for those documents: node:https with the webhooks' guarded
 * lookup, so the address checked is the address connected to (no DNS rebinding between the
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
        lookup: guardedLookup(false),
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

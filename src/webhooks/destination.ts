import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { badRequest } from '../platform/errors.js';

/**
 * Where a webhook may not go unless WEBHOOK_ALLOW_PRIVATE=true (SPEC §8): loopback, RFC 1918,
 * link-local, carrier-grade NAT, unique-local IPv6 and unspecified addresses; multicast and the
 * reserved 240/4 too, since no customer's receiver lives there. Our own list rather than
 * ipaddr.js's range names, which also take in documentation and benchmarking networks.
 */
const PRIVATE_V4 = [
  '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16',
  '172.16.0.0/12', '192.168.0.0/16', '224.0.0.0/4', '240.0.0.0/4',
].map((cidr) => ipaddr.IPv4.parseCIDR(cidr));
// ::/96 holds :: and ::1 and the deprecated IPv4-compatible addresses (::a.b.c.d); 64:ff9b:1::/48
// is NAT64's local-use prefix (RFC 8215), translated into the operator's own networks.
const PRIVATE_V6 = ['::/96', 'fe80::/10', 'fc00::/7', 'ff00::/8', '64:ff9b:1::/48'].map((cidr) => ipaddr.IPv6.parseCIDR(cidr));

const isPrivateV4 = (address: ipaddr.IPv4) => PRIVATE_V4.some((range) => address.match(range));

/**
 * The IPv4 address an IPv6 address reaches through a translation or tunnel: IPv4-mapped
 * (::ffff:a.b.c.d) and SIIT (::ffff:0:a.b.c.d), NAT64's well-known prefix (64:ff9b::/96, RFC
 * 6052), 6to4 (2002:AABB:CCDD::/48, RFC 3056) and Teredo's client (2001::/32, RFC 4380,
 * obfuscated). Null when it embeds none.
 */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const b = address.toByteArray();
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return new ipaddr.IPv4(b.slice(12));
  if (zero(0, 8) && b[8] === 0xff && b[9] === 0xff && zero(10, 12)) return new ipaddr.IPv4(b.slice(12));
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(4, 12)) return new ipaddr.IPv4(b.slice(12));
  if (b[0] === 0x20 && b[1] === 0x02) return new ipaddr.IPv4(b.slice(2, 6));
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0 && b[3] === 0) return new ipaddr.IPv4(b.slice(12).map((x) => x ^ 0xff));
  return null;
}

/** True when the address is one a webhook may not reach without WEBHOOK_ALLOW_PRIVATE. */
export function isPrivateAddress(address: string): boolean {
  // Node's isIP decides what is an address at all (ipaddr.js also takes legacy forms like 127.1).
  const family = isIP(address);
  if (family === 4) return isPrivateV4(ipaddr.IPv4.parse(address));
  if (family !== 6) return true;
  let v6: ipaddr.IPv6;
  try {
    // Through the URL parser first, which writes a trailing dotted quad as hex groups: ipaddr.js
    // reads "::a.b.c.d" (IPv4-compatible, inside ::/96) as IPv4-mapped "::ffff:a.b.c.d".
    v6 = ipaddr.IPv6.parse(new URL(`http://[${address.replace(/%.*$/, '')}]/`).hostname.slice(1, -1));
  } catch {
    return true;
  }
  // ::ffff:10.0.0.1, 64:ff9b::a00:1, 2002:a00:1:: and friends reach the IPv4 address they embed.
  const embedded = embeddedIpv4(v6);
  if (embedded) return isPrivateV4(embedded);
  return PRIVATE_V6.some((range) => v6.match(range));
}

/**
 * A destination refused for its address. A literal address is named (whoever wrote the URL typed
 * it); a name's addresses never are: the message reaches any member who reads the delivery log,
 * and it must not teach them the internal DNS.
 */
export class PrivateDestinationError extends Error {
  constructor(readonly host: string) {
    super(
      isIP(host)
        ? `destination ${host} is a private or loopback address (WEBHOOK_ALLOW_PRIVATE is off)`
        : `destination ${host} resolves to a private network address (WEBHOOK_ALLOW_PRIVATE is off)`,
    );
  }
}

/** How long a name may take to resolve (the system resolver has no deadline of its own). */
export const DNS_TIMEOUT_MS = 5000;

/** `dns.lookup` with `all: true`, or a stand-in of the same shape (tests). */
export type LookupAll = (hostname: string, options: LookupOptions & { all: true }, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

export class LookupTimeoutError extends Error {
  readonly code = 'ETIMEOUT';
  constructor(hostname: string, ms: number) {
    super(`DNS lookup of ${hostname} timed out after ${ms} ms`);
  }
}

/**
 * Resolves a name with a deadline. Lookups of one name under way at once share one resolver
 * call: `getaddrinfo` runs on libuv's small thread pool (4 threads) and cannot be cancelled, so a
 * hanging resolver must not be able to take every thread (file and crypto work wait on them too).
 */
export function lookupWithTimeout({ lookup = dnsLookup as unknown as LookupAll, timeoutMs = DNS_TIMEOUT_MS }: { lookup?: LookupAll; timeoutMs?: number } = {}) {
  const pending = new Map<string, ((error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void)[]>();
  return (hostname: string, options: LookupOptions, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => {
    const family = typeof options.family === 'number' ? options.family : 0;
    const key = `${family} ${hostname}`;
    let done = false;
    const timer = setTimeout(() => {
      done = true;
      callback(new LookupTimeoutError(hostname, timeoutMs), []);
    }, timeoutMs);
    timer.unref();
    const settle = (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      callback(error, addresses);
    };
    const waiting = pending.get(key);
    if (waiting) {
      waiting.push(settle);
      return;
    }
    pending.set(key, [settle]);
    lookup(hostname, { family, hints: options.hints, all: true }, (error, addresses) => {
      const callbacks = pending.get(key) ?? [];
      pending.delete(key);
      for (const cb of callbacks) cb(error, addresses ?? []);
    });
  };
}

/**
 * A DNS lookup for the delivery's connection that refuses private addresses: the address checked
 * is the address connected to, so a name cannot resolve to a public address for the check and
 * to a private one for the connection (DNS rebinding). It gives up after `timeoutMs`.
 */
export function guardedLookup(allowPrivate: boolean, resolver: { lookup?: LookupAll; timeoutMs?: number } = {}): LookupFunction {
  const resolve = lookupWithTimeout(resolver);
  return (hostname, options, callback) => {
    resolve(hostname, options, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const usable = allowPrivate ? addresses : addresses.filter((a) => !isPrivateAddress(a.address));
      if (usable.length === 0) return callback(new PrivateDestinationError(hostname), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      return callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}

/** The URL's host without IPv6 brackets. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/**
 * Checks a webhook URL when an endpoint is created or changed: http(s), no credentials in it,
 * and (unless allowed) a host that resolves only to public addresses. 400 naming `url` otherwise.
 */
export async function assertDeliverableUrl(raw: string, allowPrivate: boolean, resolver: { lookup?: LookupAll; timeoutMs?: number } = {}): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest('url: must be an absolute http:// or https:// URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest('url: must be an http:// or https:// URL');
  if (url.username || url.password) throw badRequest('url: must not contain a user name or password');
  if (url.hash) throw badRequest('url: must not contain a #fragment');
  // Percent-encoding can make the URL longer than what was typed.
  if (url.toString().length > 2000) throw badRequest('url: must be at most 2000 characters once encoded');
  if (allowPrivate) return url.toString();
  const host = hostOf(url);
  const resolve = lookupWithTimeout(resolver);
  const addresses = isIP(host)
    ? [host]
    : await new Promise<string[]>((done, fail) => resolve(host, {}, (error, found) => (error ? fail(error) : done(found.map((a) => a.address))))).catch(
        (error: unknown) => {
          throw badRequest(error instanceof LookupTimeoutError ? `url: looking up ${host} timed out; try again` : `url: the host name ${host} does not resolve`);
        },
      );
  // The address a name resolves to is not named: any member could otherwise map the internal DNS.
  const what = isIP(host) ? `${host} is a private or loopback address` : `${host} resolves to a private network address`;
  if (addresses.some(isPrivateAddress)) {
    throw badRequest(
      `url: this address is on a private network (${what}), which webhooks do not reach: use a public address (to test against a local receiver, the server can be started with WEBHOOK_ALLOW_PRIVATE=true)`,
    );
  }
  return url.toString();
}

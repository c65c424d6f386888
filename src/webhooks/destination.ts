import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { badRequest } from '../platform/errors.js';

/**
 * Where a webhook may not go unless WEBHOOK_ALLOW_PRIVATE=true (SPEC §8): loopback, RFC 1918,
 * link-local, carrier-grade NAT, unique-local IPv6 and unspecified addresses; multicast and the
 * reserved 240/4 too, since no customer's receiver lives there.
 */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16],
  ['172.16.0.0', 12], ['192.168.0.0', 16], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fe80::', 10], ['fc00::', 7], ['ff00::', 8]] as const) PRIVATE.addSubnet(net, prefix, 'ipv6');

/** True when the address is one a webhook may not reach without WEBHOOK_ALLOW_PRIVATE. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  if (family !== 6) return true;
  // ::ffff:10.0.0.1 and friends reach the IPv4 address they embed.
  const mapped = /^::ffff:(?:0:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4');
  return PRIVATE.check(address, 'ipv6');
}

export class PrivateDestinationError extends Error {
  constructor(readonly address: string) {
    super(`destination ${address} is a private or loopback address (WEBHOOK_ALLOW_PRIVATE is off)`);
  }
}

/**
 * A DNS lookup for the delivery's connection that refuses private addresses: the address checked
 * is the address connected to, so a name cannot resolve to a public address for the check and
 * to a private one for the connection (DNS rebinding).
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const usable = allowPrivate ? addresses : addresses.filter((a) => !isPrivateAddress(a.address));
      if (usable.length === 0) return callback(new PrivateDestinationError(addresses[0]?.address ?? hostname), '', 0);
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
export async function assertDeliverableUrl(raw: string, allowPrivate: boolean): Promise<string> {
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
  const addresses = isIP(host)
    ? [host]
    : await new Promise<string[]>((resolve, reject) =>
        dnsLookup(host, { all: true }, (error, found) => (error ? reject(error) : resolve(found.map((a) => a.address)))),
      ).catch(() => {
        throw badRequest(`url: the host name ${host} does not resolve`);
      });
  const blocked = addresses.find(isPrivateAddress);
  if (blocked) throw badRequest(`url: ${host} is a private or loopback address (${blocked}); webhooks go to public addresses only`);
  return url.toString();
}

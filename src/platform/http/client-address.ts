import ipaddr from 'ipaddr.js';

/**
 * Whom a client address stands for: an IPv6 client holds a whole /64 (one address per request
 * costs it nothing), so it counts as its /64; IPv4, and IPv4 mapped into IPv6, as the address.
 */
export function addressOf(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const parsed = ipaddr.parse(ip);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${v6.parts.slice(0, 4).map((p) => p.toString(16)).join(':')}::/64`;
}

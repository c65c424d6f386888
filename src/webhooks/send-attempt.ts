import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { DNS_TIMEOUT_MS, guardedLookup, hostOf, isPrivateAddress, type LookupAll, LookupTimeoutError, PrivateDestinationError } from './destination.js';

export interface AttemptOutcome {
  startedAt: Date;
  durationMs: number;
  /** The response's status, or null when none came. */
  statusCode: number | null;
  /** Why no response came (timeout, connection error, private destination). */
  error: string | null;
  /** The first 1 KB of the response body. */
  excerpt: string | null;
  /** Seconds from a Retry-After header, when the response had one. */
  retryAfterMs: number | null;
  /** Ended by `abortAll()` (shutting down): not an attempt of the receiver's making. */
  aborted?: boolean;
}

const EXCERPT_BYTES = 1024;
/** A receiver should answer quickly; a body past this is not read to the end. */
const MAX_BODY_BYTES = 64 * 1024;

export interface Sender {
  /** POSTs one attempt; `endpointId` keeps each endpoint's connections apart from the others'. */
  send(request: { endpointId: number; url: string; headers: Record<string, string>; body: string; at?: Date }): Promise<AttemptOutcome>;
  /** Ends every attempt in flight at once (their outcome says `aborted`): the server is shutting down. */
  abortAll(): void;
  close(): void;
}

/** One endpoint's keep-alive connections to one origin, dropped once unused for a while. */
interface EndpointAgent {
  agent: http.Agent;
  lastUsed: number;
  active: number;
}

const IDLE_AGENT_MS = 60_000;
export const USER_AGENT = 'taskboard-webhooks/1';

interface Target {
  target: URL;
  client: typeof http | typeof https;
  options: { protocol: string; hostname: string; port: string; path: string };
}

/** An endpoint URL as request options, or why it cannot be sent to. */
function parseTarget(url: string, allowPrivate: boolean): Target | { error: string } {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { error: 'invalid URL' };
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return { error: 'not an http(s) URL' };
  // A literal address is never looked up, so the lookup's check would not see it.
  const host = hostOf(target);
  if (!allowPrivate && isIP(host) && isPrivateAddress(host)) return { error: new PrivateDestinationError(host).message };
  return {
    target,
    client: target.protocol === 'https:' ? https : http,
    options: { protocol: target.protocol, hostname: host, port: target.port, path: `${target.pathname}${target.search}` },
  };
}

/**
 * POSTs deliveries with Node's HTTP client: no redirects (a 3xx is a failed attempt), a total
 * deadline per attempt, private addresses refused after DNS resolution (the address checked is
 * the address connected to), and keep-alive connections per endpoint, at most `maxSockets` each,
 * so endpoints sharing a host (one SaaS receiver for many customers) do not queue behind each
 * other's connections.
 */
export function createSender({
  timeoutMs,
  allowPrivate,
  maxSockets,
  lookup: resolveWith,
  dnsTimeoutMs = Math.min(DNS_TIMEOUT_MS, timeoutMs),
}: {
  timeoutMs: number;
  allowPrivate: boolean;
  /** Connections per endpoint: the dispatcher's cap on one endpoint's attempts in flight. */
  maxSockets: number;
  /** A stand-in for `dns.lookup` (tests). */
  lookup?: LookupAll;
  dnsTimeoutMs?: number;
}): Sender {
  const lookup = guardedLookup(allowPrivate, { lookup: resolveWith, timeoutMs: dnsTimeoutMs });
  // Keyed by endpoint and origin: an endpoint re-pointed elsewhere keeps its old connections for
  // the attempts still on their way there, and they are swept once idle.
  const agents = new Map<string, EndpointAgent>();
  const aborts = new Set<() => void>();
  // Each URL parsed and checked once (an endpoint's deliveries share it), not at every attempt.
  const targets = new Map<string, Target | { error: string }>();
  const targetOf = (url: string) => {
    let parsed = targets.get(url);
    if (!parsed) {
      parsed = parseTarget(url, allowPrivate);
      if (targets.size >= 1000) targets.clear();
      targets.set(url, parsed);
    }
    return parsed;
  };
  const agentFor = (endpointId: number, target: URL): EndpointAgent => {
    const key = `${endpointId} ${target.origin}`;
    let entry = agents.get(key);
    if (!entry) {
      const Agent = target.protocol === 'https:' ? https.Agent : http.Agent;
      entry = { agent: new Agent({ keepAlive: true, maxSockets, lookup }), lastUsed: 0, active: 0 };
      agents.set(key, entry);
    }
    return entry;
  };
  const sweep = setInterval(() => {
    const before = Date.now() - IDLE_AGENT_MS;
    for (const [key, entry] of agents) {
      if (entry.active === 0 && entry.lastUsed < before) {
        entry.agent.destroy();
        agents.delete(key);
      }
    }
  }, IDLE_AGENT_MS);
  sweep.unref();

  return {
    send({ endpointId, url, headers, body, at }) {
      // The instant the webhook-timestamp header names, so the delivery log can show it as sent.
      const startedAt = at ?? new Date();
      const t0 = performance.now();
      const done = (o: Partial<AttemptOutcome>): AttemptOutcome => ({
        startedAt,
        durationMs: Math.round(performance.now() - t0),
        statusCode: o.statusCode ?? null,
        error: o.error ?? null,
        excerpt: o.excerpt ?? null,
        retryAfterMs: o.retryAfterMs ?? null,
        ...(o.aborted ? { aborted: true } : {}),
      });
      const parsed = targetOf(url);
      if ('error' in parsed) return Promise.resolve(done({ error: parsed.error }));
      const { target, client } = parsed;
      const endpoint = agentFor(endpointId, target);
      return new Promise<AttemptOutcome>((resolve) => {
        let settled = false;
        const finish = (o: Partial<AttemptOutcome>) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          aborts.delete(abort);
          endpoint.active--;
          endpoint.lastUsed = Date.now();
          resolve(done(o));
        };
        endpoint.active++;
        let req: http.ClientRequest;
        const timer = setTimeout(() => {
          finish({ error: `timed out after ${timeoutMs} ms` });
          req.destroy();
        }, timeoutMs);
        const abort = () => {
          finish({ error: 'aborted: the server is shutting down', aborted: true });
          req.destroy();
        };
        aborts.add(abort);
        const request = (fresh: boolean) => {
          req = client.request({
            ...parsed.options,
            method: 'POST',
            agent: endpoint.agent,
            headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': USER_AGENT },
          });
          req.on('error', (error: Error & { code?: string }) => {
            // A kept-alive connection the endpoint closed while idle fails at once, before the
            // request reached it: sent again on a new connection, it is not a failed attempt.
            // (Node's advice for reusedSocket; once, and only before any answer.)
            if (!fresh && req.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE') && !settled) {
              // Its other idle connections were likely dropped too (a restarted endpoint): the retry opens a new one.
              for (const sockets of Object.values(endpoint.agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
              return request(true);
            }
            const message = error instanceof PrivateDestinationError || error instanceof LookupTimeoutError ? error.message : `${error.code ?? 'error'}: ${error.message}`;
            finish({ error: message.slice(0, 300) });
          });
          req.on('response', (res) => {
            const chunks: Buffer[] = [];
            let read = 0;
            const statusCode = res.statusCode ?? 0;
            const retryAfterMs = parseRetryAfter(res.headers['retry-after']);
            const complete = () => {
              const excerpt = chunks.length ? Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8').replace(/\u0000/g, '') : '';
              finish({ statusCode, excerpt, retryAfterMs });
            };
            res.on('data', (chunk: Buffer) => {
              if (read < EXCERPT_BYTES) chunks.push(chunk);
              read += chunk.length;
              if (read > MAX_BODY_BYTES) {
                complete();
                res.destroy();
              }
            });
            res.on('end', complete);
            res.on('error', complete);
          });
          req.end(body);
        };
        request(false);
      });
    },
    abortAll() {
      for (const abort of [...aborts]) abort();
    },
    close() {
      clearInterval(sweep);
      for (const entry of agents.values()) entry.agent.destroy();
      agents.clear();
    },
  };
}

/** Retry-After in seconds or as an HTTP date, in ms from now; capped at a day. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | null {
  if (typeof value !== 'string' || !value.trim()) return null;
  const seconds = /^\s*\d+\s*$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now;
  if (!Number.isFinite(seconds)) return null;
  return Math.min(Math.max(seconds, 0), 86_400_000);
}

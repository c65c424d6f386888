import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, hostOf, isPrivateAddress, PrivateDestinationError } from './destination.js';

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
}

const EXCERPT_BYTES = 1024;
/** A receiver should answer quickly; a body past this is not read to the end. */
const MAX_BODY_BYTES = 64 * 1024;

export interface Sender {
  send(request: { url: string; headers: Record<string, string>; body: string; signal?: AbortSignal }): Promise<AttemptOutcome>;
  close(): void;
}

/**
 * POSTs deliveries with Node's HTTP client: no redirects (a 3xx is a failed attempt), a total
 * deadline per attempt, private addresses refused after DNS resolution (the address checked is
 * the address connected to), and keep-alive connections reused per receiver.
 */
export function createSender({ timeoutMs, allowPrivate, maxSockets }: { timeoutMs: number; allowPrivate: boolean; maxSockets: number }): Sender {
  const lookup = guardedLookup(allowPrivate);
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets, lookup }),
    'https:': new https.Agent({ keepAlive: true, maxSockets, lookup }),
  };

  return {
    send({ url, headers, body, signal }) {
      const startedAt = new Date();
      const t0 = performance.now();
      const done = (o: Partial<AttemptOutcome>): AttemptOutcome => ({
        startedAt,
        durationMs: Math.round(performance.now() - t0),
        statusCode: null,
        error: null,
        excerpt: null,
        retryAfterMs: null,
        ...o,
      });
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        return Promise.resolve(done({ error: 'invalid URL' }));
      }
      // A literal address is never looked up, so the lookup's check would not see it.
      const host = hostOf(target);
      if (!allowPrivate && isIP(host) && isPrivateAddress(host)) return Promise.resolve(done({ error: new PrivateDestinationError(host).message }));
      const client = target.protocol === 'https:' ? https : http;
      const agent = agents[target.protocol as 'http:' | 'https:'];
      if (!agent) return Promise.resolve(done({ error: 'not an http(s) URL' }));

      return new Promise<AttemptOutcome>((resolve) => {
        let settled = false;
        const finish = (o: Partial<AttemptOutcome>) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(done(o));
        };
        const req = client.request(target, {
          method: 'POST',
          agent,
          headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'taskboard-webhooks/1' },
        });
        const timer = setTimeout(() => {
          finish({ error: `timed out after ${timeoutMs} ms` });
          req.destroy();
        }, timeoutMs);
        const onAbort = () => {
          finish({ error: 'aborted: the server is shutting down' });
          req.destroy();
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        req.on('error', (error: Error & { code?: string }) => {
          const message = error instanceof PrivateDestinationError ? error.message : `${error.code ?? 'error'}: ${error.message}`;
          finish({ error: message.slice(0, 300) });
        });
        req.on('response', (res) => {
          const chunks: Buffer[] = [];
          let read = 0;
          const statusCode = res.statusCode ?? 0;
          const retryAfterMs = parseRetryAfter(res.headers['retry-after']);
          const complete = () => {
            const excerpt = Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8').replace(/\u0000/g, '');
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
      });
    },
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
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

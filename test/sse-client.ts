import http from 'node:http';

export interface SseEvent {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

/**
 * A small streaming client for tests: collects parsed events and comment lines as they arrive,
 * can wait for a number of them, and tells when the server ended the stream.
 */
export class SseClient {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  status = 0;
  headers: http.IncomingHttpHeaders = {};
  readonly ended: Promise<void>;
  private buffer = '';
  private waiters: (() => void)[] = [];
  private req!: http.ClientRequest;
  private res?: http.IncomingMessage;
  body = '';

  private constructor(url: string, headers: Record<string, string>, ready: (c: SseClient) => void, fail: (e: Error) => void) {
    this.ended = new Promise((resolveEnded) => {
      this.req = http.get(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
        this.res = res;
        this.status = res.statusCode ?? 0;
        this.headers = res.headers;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => this.onData(chunk));
        res.on('end', () => resolveEnded());
        res.on('close', () => resolveEnded());
        ready(this);
      });
      // A paused response never emits 'end'; the connection closing is the end too.
      this.req.on('close', () => resolveEnded());
      this.req.on('socket', (socket) => socket.on('close', () => resolveEnded()));
      this.req.on('error', (e) => {
        fail(e);
        resolveEnded();
      });
    });
  }

  static open(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
    return new Promise((resolve, reject) => new SseClient(url, headers, resolve, reject));
  }

  /** Stops reading (the socket's buffers fill up) without closing. */
  pause() {
    this.res?.pause();
  }

  close() {
    this.req.destroy();
  }

  /** Resolves once `n` events have arrived in all (rejects after `ms`). */
  async waitFor(n: number, ms = 5000): Promise<SseEvent[]> {
    const deadline = Date.now() + ms;
    while (this.events.length < n) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`expected ${n} events, got ${this.events.length}: ${this.events.map((e) => e.event).join(', ')}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.events.slice(0, n);
  }

  private onData(chunk: string) {
    this.body += chunk;
    this.buffer += chunk;
    let split: number;
    while ((split = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, split);
      this.buffer = this.buffer.slice(split + 2);
      const event: SseEvent = { id: undefined, event: undefined, data: '' };
      let isEvent = false;
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) this.comments.push(line.slice(1).trim());
        else if (line.startsWith('id: ')) ((event.id = line.slice(4)), (isEvent = true));
        else if (line.startsWith('event: ')) ((event.event = line.slice(7)), (isEvent = true));
        else if (line.startsWith('data: ')) ((event.data += line.slice(6)), (isEvent = true));
      }
      if (isEvent) this.events.push(event);
    }
    for (const wake of this.waiters.splice(0)) wake();
  }
}

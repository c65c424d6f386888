import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSender } from '../../src/webhooks/send-attempt.js';

/**
 * An endpoint that keeps connections alive and drops one while it sits idle in our pool: the
 * next attempt on that connection fails before the request reached the endpoint (ECONNRESET on
 * a reused socket). That is not the endpoint failing: the sender tries once more on a new
 * connection. Seen on a loaded CI box, where a receiver's idle timeout raced the next delivery.
 */
let server: net.Server;
let port = 0;
const requestsSeen: number[] = [];
let connections = 0;

beforeAll(async () => {
  server = net.createServer((socket) => {
    const connection = ++connections;
    let buffered = '';
    let answered = 0;
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      // One request per connection is answered; a second one on it resets the connection unread,
      // as an endpoint that closed its idle side would.
      while (buffered.includes('\r\n\r\n')) {
        const end = buffered.indexOf('\r\n\r\n') + 4;
        const length = Number(/content-length: (\d+)/i.exec(buffered.slice(0, end))?.[1] ?? 0);
        if (buffered.length < end + length) return;
        buffered = buffered.slice(end + length);
        if (answered++ > 0) return void socket.resetAndDestroy();
        requestsSeen.push(connection);
        socket.write('HTTP/1.1 200 OK\r\nconnection: keep-alive\r\ncontent-length: 2\r\n\r\nok');
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as net.AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it('sends again on a new connection when a kept-alive one was dropped before the request reached the endpoint', async () => {
  const sender = createSender({ timeoutMs: 5000, allowPrivate: true, maxSockets: 1 });
  try {
    const send = () => sender.send({ endpointId: 1, url: `http://127.0.0.1:${port}/hook`, headers: {}, body: '{}' });
    expect(await send()).toMatchObject({ statusCode: 200, error: null });
    // The second delivery goes out on the kept-alive connection, which the endpoint resets.
    expect(await send()).toMatchObject({ statusCode: 200, error: null, excerpt: 'ok' });
    expect(requestsSeen).toEqual([1, 2]);
  } finally {
    sender.close();
  }
});

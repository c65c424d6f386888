import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helper.js';

const t = useTestApp();
let port: number;
beforeAll(async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});

/** Sends raw bytes and reads the whole response (the server closes these connections). */
function raw(request: string): Promise<{ status: number; headers: string; body: unknown }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let data = '';
    socket.on('data', (c) => (data += c.toString('latin1')));
    socket.on('error', reject);
    socket.on('end', () => {
      const [head = '', body = ''] = data.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head, body: JSON.parse(body) });
    });
  });
}

describe('errors raised before a route is found', () => {
  it('have the surface\'s body and a request id: bad percent-encoding, a too long path segment', async () => {
    const bad = await t.app.inject({ method: 'GET', url: '/api/boards/%ff' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'url: not a valid URL (malformed percent-encoding)' });
    expect(bad.headers['x-request-id']).toBeTruthy();
    const badV1 = await t.app.inject({ method: 'GET', url: '/v1/%ff' });
    expect(badV1.json()).toEqual({ error: 'invalid_request', message: 'url: not a valid URL (malformed percent-encoding)' });
    const long = await t.app.inject({ method: 'GET', url: `/api/boards/${'1'.repeat(150)}` });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({ error: 'url: a path segment is too long' });
    expect(long.headers['x-request-id']).toBeTruthy();
  });

  it('have them too when Node\'s parser refuses the request: an unknown method, a 20 KB header', async () => {
    const foo = await raw('FOO /api/boards HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(foo.status).toBe(400);
    expect(foo.body).toEqual({ error: 'request: malformed HTTP request (unknown method or bad syntax)' });
    expect(foo.headers).toMatch(/X-Request-Id: [0-9a-f-]{36}/);
    const fooV1 = await raw('FOO /v1/answer HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(fooV1.body).toEqual({ error: 'invalid_request', message: 'request: malformed HTTP request (unknown method or bad syntax)' });
    const big = await raw(`GET /api/boards HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(big.status).toBe(431);
    expect(big.body).toEqual({ error: 'headers: too large' });
    expect(big.headers).toMatch(/X-Request-Id: /);
  });
});

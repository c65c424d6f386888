import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { onCleanup } from './cleanup.js';

/** One webhook request as it arrived. */
export interface Delivery {
  webhookId: string;
  type: string;
  ticketId: number | null;
  at: number;
  signatureOk: boolean;
}

/**
 * The customer's endpoint: a loopback HTTP server that records every request's `webhook-id`,
 * event type and ticket id, checks its Standard Webhooks signature once the secret is known,
 * and answers 204 to everything.
 */
export async function startReceiver() {
  const deliveries: Delivery[] = [];
  let verifier: Webhook | null = null;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let type = '';
      let ticketId: number | null = null;
      try {
        const payload = JSON.parse(body) as { type?: string; data?: { id?: number } };
        type = payload.type ?? '';
        ticketId = typeof payload.data?.id === 'number' ? payload.data.id : null;
      } catch {
        // recorded with no type: the check reports it
      }
      let signatureOk = false;
      try {
        verifier?.verify(body, req.headers as Record<string, string>);
        signatureOk = verifier !== null;
      } catch {
        signatureOk = false;
      }
      deliveries.push({ webhookId: String(req.headers['webhook-id'] ?? ''), type, ticketId, at: Date.now(), signatureOk });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  onCleanup('webhook receiver', () => {
    server.closeAllConnections();
    server.close();
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    deliveries,
    /** The endpoint's secret (known once the endpoint exists): later requests are verified with it. */
    setSecret(secret: string) {
      verifier = new Webhook(secret);
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * The floor for sustained webhook deliveries: a bare loop of Standard Webhooks-signed POSTs to
 * the same receiver, 16 at a time over keep-alive connections, with no database, no claiming and
 * no recording. Prints {"perSecond": n}. Usage: tsx bench/webhook-floor.ts URL COUNT
 */
import http from 'node:http';
import { Webhook } from 'standardwebhooks';

const [url, countArg] = process.argv.slice(2);
const count = Number(countArg);
const signer = new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`);
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
const body = JSON.stringify({ type: 'ticket.created', timestamp: new Date().toISOString(), data: { id: 1, subject: 'Bench ticket', description: '', priority: 'normal', status: 'open' } });

function post(i: number) {
  const now = new Date();
  const id = `msg_floor${i}`;
  return new Promise<void>((resolve, reject) => {
    const req = http.request(url!, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': signer.sign(id, now, body) },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(String(res.statusCode)))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

let next = 0;
const t0 = performance.now();
await Promise.all(Array.from({ length: 16 }, async () => {
  while (next < count) await post(next++);
}));
console.log(JSON.stringify({ perSecond: count / ((performance.now() - t0) / 1000) }));
agent.destroy();

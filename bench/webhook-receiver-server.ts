/**
 * A fast webhook receiver for bench/webhooks.ts, in a process of its own: answers 200 at once and
 * records when each delivery arrived. GET /arrivals returns them; DELETE /arrivals clears them.
 */
import http from 'node:http';

let arrivals: { id: string; at: number }[] = [];
const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/arrivals') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(arrivals));
    return;
  }
  if (req.method === 'DELETE' && req.url === '/arrivals') {
    arrivals = [];
    res.end();
    return;
  }
  req.resume();
  req.on('end', () => {
    arrivals.push({ id: String(req.headers['webhook-id']), at: Date.now() });
    res.writeHead(200);
    res.end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT), '127.0.0.1');

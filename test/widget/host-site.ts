import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The customer's site for the widget's browser tests: a plain HTTP server on another origin
 * (another port) than the server the widget comes from, serving the pages set in `pages` by path.
 */
export async function startHostSite() {
  const pages = new Map<string, string>();
  const server = createServer((req, res) => {
    const body = pages.get(req.url ?? '/');
    res.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    pages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

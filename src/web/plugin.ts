import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { CONTENT_SECURITY_POLICY } from '../platform/http/content-security-policy.js';
import { WEB_DIST, type WebManifest } from './build.js';

/** Client-side routes: each serves the same page, which routes in the browser. */
const PAGES = ['/', '/signin', '/setup', '/boards', '/boards/*', '/settings/*', '/site-admin', '/site-admin/*', '/support', '/support/*', '/join/*', '/notifications', '/unsubscribe/*', '/reply/*'];
/** Pages whose path is a working link (/join/inv_…, /join/set_…, /unsubscribe/uns_…): the request log redacts it. */
const SECRET_PAGES = new Set(['/join/*', '/unsubscribe/*', '/reply/*']);
const ASSET = /^app-[A-Za-z0-9_-]{12}\.(js|css)$/;

function page(manifest: WebManifest) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Task boards</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/${manifest.style}">
<script type="module" src="/assets/${manifest.script}"></script>
</head>
<body>
<div id="app"><p class="boot">Loading…</p></div>
<noscript>This application needs JavaScript.</noscript>
</body>
</html>
`;
}

function securityHeaders(reply: FastifyReply) {
  return reply
    .header('content-security-policy', CONTENT_SECURITY_POLICY)
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'same-origin');
}

/**
 * The built stylesheet's URL (`/assets/app-<hash>.css`), or null before the app is built: for
 * server-rendered pages of other modules (the connector's consent page) that should look like the app.
 */
export function webStylesheet(dist = WEB_DIST) {
  let href: string | null = null;
  let builtAt = 0;
  return async (): Promise<string | null> => {
    const manifestPath = path.join(dist, 'manifest.json');
    try {
      const { mtimeMs } = await stat(manifestPath);
      if (mtimeMs !== builtAt) {
        href = `/assets/${(JSON.parse(await readFile(manifestPath, 'utf8')) as WebManifest).style}`;
        builtAt = mtimeMs;
      }
    } catch {
      // not built (yet): the pages stay readable unstyled
    }
    return href;
  };
}

/** The web app: its page at every client route and its hashed, immutable assets under /assets. */
export const webPlugin: FastifyPluginAsync<{ dist?: string }> = async (app, { dist = WEB_DIST }) => {
  let html: string | null = null;
  let builtAt = 0;
  /** The page, read again when dist/web is rebuilt while the server runs (its old assets are gone). */
  async function loadPage() {
    const manifestPath = path.join(dist, 'manifest.json');
    try {
      const { mtimeMs } = await stat(manifestPath);
      if (html && mtimeMs === builtAt) return html;
      html = page(JSON.parse(await readFile(manifestPath, 'utf8')) as WebManifest);
      builtAt = mtimeMs;
    } catch {
      return html;
    }
    return html;
  }
  await loadPage();
  if (!html) app.log.warn({ dist }, 'the web app is not built: run `npm run build:web` (npm install and npm start do)');

  for (const url of PAGES) {
    // The page and its assets are static: like the docs, they do not spend anyone's request budget.
    app.get(url, { schema: { hide: true }, config: { rateLimit: false, ...(SECRET_PAGES.has(url) ? { secretParams: ['*'] } : {}) } as never }, async (_request, reply) => {
      const body = await loadPage();
      securityHeaders(reply).header('cache-control', 'no-cache');
      if (!body) {
        return reply.status(503).type('text/plain; charset=utf-8').send('The web app is not built: run `npm run build:web`.\n');
      }
      return reply.type('text/html; charset=utf-8').send(body);
    });
  }

  app.get('/assets/:name', { schema: { hide: true }, config: { rateLimit: false } as never }, async (request, reply) => {
    const { name } = request.params as { name: string };
    if (!ASSET.test(name)) return reply.status(404).send({ error: 'no such asset' });
    const accepted = String(request.headers['accept-encoding'] ?? '');
    const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : null;
    let bytes: Buffer;
    try {
      bytes = await readFile(path.join(dist, encoding ? `${name}.${encoding === 'br' ? 'br' : 'gz'}` : name));
    } catch {
      return reply.status(404).send({ error: 'no such asset' });
    }
    if (encoding) reply.header('content-encoding', encoding);
    securityHeaders(reply).header('cache-control', 'public, max-age=31536000, immutable').header('vary', 'accept-encoding');
    return reply.type(name.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8').send(bytes);
  });
};

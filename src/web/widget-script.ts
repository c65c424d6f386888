import { createHash } from 'node:crypto';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyPluginAsync } from 'fastify';
import { CLIENT_DIR } from './build.js';

export interface WidgetScript {
  js: Buffer;
  gzip: Buffer;
  brotli: Buffer;
  etag: string;
}

/**
 * The help widget's script (src/web/client/widget), bundled and minified with its styles inline:
 * one file, one request, from this origin only. Built once per process on first use (about 30 ms
 * of esbuild), kept in memory with its compressed forms.
 */
export async function buildWidgetScript(): Promise<WidgetScript> {
  const { build } = await import('esbuild'); // on first use, not with the server
  const result = await build({
    entryPoints: [path.join(CLIENT_DIR, 'widget', 'widget.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020'],
    write: false,
    logLevel: 'silent',
    legalComments: 'none',
  });
  const js = Buffer.from(result.outputFiles[0]!.contents);
  return {
    js,
    gzip: gzipSync(js, { level: 9 }),
    brotli: brotliCompressSync(js, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    etag: `"${createHash('sha256').update(js).digest('base64url').slice(0, 16)}"`,
  };
}

let built: Promise<WidgetScript> | null = null;

/** GET /widget.js: any page may load it (the widget's own requests are what the origins gate). */
export const widgetScriptPlugin: FastifyPluginAsync = async (app) => {
  app.get('/widget.js', { schema: { hide: true }, config: { rateLimit: false } as never }, async (request, reply) => {
    built ??= buildWidgetScript().catch((error: unknown) => {
      built = null;
      throw error;
    });
    const script = await built;
    reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .header('etag', script.etag)
      .header('vary', 'accept-encoding')
      .header('x-content-type-options', 'nosniff')
      .header('cross-origin-resource-policy', 'cross-origin')
      .header('access-control-allow-origin', '*');
    if (request.headers['if-none-match'] === script.etag) return reply.status(304).send();
    const accepted = String(request.headers['accept-encoding'] ?? '');
    if (/\bbr\b/.test(accepted)) return reply.header('content-encoding', 'br').send(script.brotli);
    if (/\bgzip\b/.test(accepted)) return reply.header('content-encoding', 'gzip').send(script.gzip);
    return reply.send(script.js);
  });
};

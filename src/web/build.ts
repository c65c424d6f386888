import { createHash } from 'node:crypto';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
export const CLIENT_DIR = path.join(here, 'client');
export const WEB_DIST = path.resolve(here, '../../dist/web');

export interface WebManifest {
  script: string;
  style: string;
  builtAt: string;
}

/**
 * Bundles the client (TypeScript + Preact) into dist/web with content-hashed names, so the
 * server can let browsers cache assets forever. Run by `npm install` (postinstall) and
 * `npm start` (prestart); nothing built is committed and nothing watches at run time.
 */
export async function buildWeb({ outDir = WEB_DIST, minify = true } = {}): Promise<WebManifest> {
  const result = await build({
    entryPoints: [path.join(CLIENT_DIR, 'main.tsx'), path.join(CLIENT_DIR, 'styles.css')],
    bundle: true,
    minify,
    sourcemap: false,
    format: 'esm',
    target: ['es2022'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    write: false,
    outdir: outDir,
    logLevel: 'silent',
    legalComments: 'none',
  });
  await mkdir(outDir, { recursive: true });
  // Each file is written beside its final name and renamed into place, and stale assets are
  // removed only after the new manifest is in place: a server (or a test run) reading dist/web
  // while `npm start` rebuilds it never sees a missing or half-written file.
  const put = async (name: string, bytes: Uint8Array | string) => {
    const temporary = path.join(outDir, `.${name}.${process.pid}.tmp`);
    await writeFile(temporary, bytes);
    await rename(temporary, path.join(outDir, name));
  };
  const names: Partial<Record<'js' | 'css', string>> = {};
  for (const file of result.outputFiles) {
    const ext = file.path.endsWith('.css') ? 'css' : 'js';
    const hash = createHash('sha256').update(file.contents).digest('base64url').slice(0, 12);
    const name = `app-${hash}.${ext}`;
    await put(name, file.contents);
    // Compressed once here rather than per request: the server sends whichever the browser takes.
    await put(`${name}.br`, brotliCompressSync(file.contents, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    await put(`${name}.gz`, gzipSync(file.contents, { level: 9 }));
    names[ext] = name;
  }
  if (!names.js || !names.css) throw new Error('web build: the bundle lacks its script or stylesheet');
  const manifest: WebManifest = { script: names.js, style: names.css, builtAt: new Date().toISOString() };
  await put('manifest.json', JSON.stringify(manifest));
  const keep = new Set(['manifest.json', ...[names.js, names.css].flatMap((n) => [n, `${n}.br`, `${n}.gz`])]);
  for (const file of await readdir(outDir)) {
    if (!keep.has(file) && /^app-[A-Za-z0-9_-]{12}\.(js|css)(\.br|\.gz)?$/.test(file)) await rm(path.join(outDir, file), { force: true });
  }
  return manifest;
}

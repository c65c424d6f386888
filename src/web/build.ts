import { createHash } from 'node:crypto';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

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
 * Code loaded with `import()` (the support console) goes into chunks of its own, named like
 * the rest (`app-<hash>.js`), which the entry and each other import by those names.
 */
export async function buildWeb({ outDir = WEB_DIST, minify = true } = {}): Promise<WebManifest> {
  // Loaded when a build runs, not with the server: most starts find the build made at install.
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [path.join(CLIENT_DIR, 'main.tsx'), path.join(CLIENT_DIR, 'styles.css')],
    bundle: true,
    minify,
    sourcemap: false,
    format: 'esm',
    target: ['es2022'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    splitting: true,
    chunkNames: 'chunk-[hash]',
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
  const written: string[] = [];
  // Chunks are named by the hash of their final text, which names the chunks they import: each
  // file is renamed once every chunk it imports has its final name (esbuild's chunks form no cycle).
  const pending = new Map(result.outputFiles.map((file) => [path.basename(file.path), file.text]));
  const finalName = new Map<string, string>();
  while (pending.size) {
    let progressed = false;
    for (const [original, text] of pending) {
      const imported = [...text.matchAll(/\.\/(chunk-[A-Z0-9]+\.js)/g)].map((m) => m[1]!);
      if (imported.some((chunk) => !finalName.has(chunk))) continue;
      const contents = Buffer.from(imported.reduce((t, chunk) => t.replaceAll(`./${chunk}`, `./${finalName.get(chunk)}`), text));
      const ext = original.endsWith('.css') ? 'css' : 'js';
      const hash = createHash('sha256').update(contents).digest('base64url').slice(0, 12);
      const name = `app-${hash}.${ext}`;
      await put(name, contents);
      // Compressed once here rather than per request: the server sends whichever the browser takes.
      await put(`${name}.br`, brotliCompressSync(contents, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      await put(`${name}.gz`, gzipSync(contents, { level: 9 }));
      finalName.set(original, name);
      written.push(name);
      if (!original.startsWith('chunk-')) names[ext] = name;
      pending.delete(original);
      progressed = true;
    }
    if (!progressed) throw new Error(`web build: chunks that import each other in a circle: ${[...pending.keys()].join(', ')}`);
  }
  if (!names.js || !names.css) throw new Error('web build: the bundle lacks its script or stylesheet');
  const manifest: WebManifest = { script: names.js, style: names.css, builtAt: new Date().toISOString() };
  await put('manifest.json', JSON.stringify(manifest));
  const keep = new Set(['manifest.json', ...written.flatMap((n) => [n, `${n}.br`, `${n}.gz`])]);
  for (const file of await readdir(outDir)) {
    if (!keep.has(file) && /^app-[A-Za-z0-9_-]{12}\.(js|css)(\.br|\.gz)?$/.test(file)) await rm(path.join(outDir, file), { force: true });
  }
  return manifest;
}

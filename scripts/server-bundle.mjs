// The server as one bundle of our own code (dist/server), built at install and rebuilt by
// `npm start` when a source file is newer: node then loads ~10 files instead of ~600 through tsx's
// loader hooks, which is most of a first start's CPU on a busy machine (#49, bench/startup.ts).
// Packages stay external (node_modules, loaded by node as usual); `import()`s stay lazy (their
// own chunks). Plain JavaScript, so starting needs no TypeScript loader.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(ROOT, 'src');
export const SERVER_OUT = path.join(ROOT, 'dist', 'server');
export const SERVER_ENTRY = path.join(SERVER_OUT, 'server.mjs');

/** Newest modification time of the files under `paths` (relative to the checkout), `skip`ped folders left out. */
export function newestMtime(paths, skip = []) {
  let newest = 0;
  const visit = (full) => {
    const stat = statSync(full);
    if (!stat.isDirectory()) newest = Math.max(newest, stat.mtimeMs);
    else if (!skip.includes(path.relative(ROOT, full))) for (const name of readdirSync(full)) visit(path.join(full, name));
  };
  for (const p of paths) visit(path.join(ROOT, p));
  return newest;
}

/** Whether `built` (relative to the checkout) exists and is at least as new as every file of `sources`. */
export function isCurrent(built, sources, skip = []) {
  try {
    return statSync(path.join(ROOT, built)).mtimeMs >= newestMtime(sources, skip);
  } catch {
    return false;
  }
}

/** Whether dist/server holds a bundle at least as new as every source file (the web client is built apart). */
export function serverBundleIsCurrent() {
  return isCurrent(path.relative(ROOT, SERVER_ENTRY), ['src', 'package.json', 'tsconfig.json', 'scripts/server-bundle.mjs'], [path.join('src', 'web', 'client')]);
}

/** Whether dist/web holds a build of the web client at least as new as its sources. */
export function webBuildIsCurrent() {
  return isCurrent(path.join('dist', 'web', 'manifest.json'), [path.join('src', 'web', 'client'), path.join('src', 'web', 'build.ts'), 'package.json']);
}

/**
 * What `npm start` does before it starts: the web build, then the bundle, each rebuilt only when a
 * source file is newer. Throws when the web build fails (its output went to this process's).
 * Whoever starts several servers at once calls it first, once: each would otherwise rebuild into
 * the same folder while another loads from it.
 */
export async function buildWhatIsStale() {
  if (!webBuildIsCurrent()) {
    const built = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-web.ts'], { stdio: 'inherit', cwd: ROOT });
    if (built.status !== 0) throw new Error(`the web build failed (exit ${built.status ?? built.signal})`);
  }
  if (!serverBundleIsCurrent()) await buildServerBundle();
}

/**
 * Bundles src/server.ts. Each module's `import.meta.url` is rewritten to its source file's URL
 * (relative to the bundle, so a moved checkout still works): files found beside a module (SQL,
 * worker entries, prisma/, dist/web) are found as when run from source.
 */
export async function buildServerBundle() {
  const { build } = await import('esbuild');
  await rm(SERVER_OUT, { recursive: true, force: true });
  await build({
    entryPoints: { server: path.join(SRC, 'server.ts') },
    outdir: SERVER_OUT,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    chunkNames: 'chunk-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [
      {
        name: 'source-urls',
        setup(b) {
          b.onLoad({ filter: /\.ts$/ }, async (args) => {
            let text = await readFile(args.path, 'utf8');
            if (text.includes('import.meta.url')) {
              const relative = path.relative(SERVER_OUT, args.path).split(path.sep).join('/');
              text = text.replaceAll('import.meta.url', `new URL(${JSON.stringify(relative)}, import.meta.url).href`);
            }
            return { contents: text, loader: 'ts' };
          });
        },
      },
    ],
  });
}

// `node scripts/server-bundle.mjs` (postinstall, Dockerfile) builds it.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  await buildServerBundle();
  console.log(`server bundled into ${path.relative(ROOT, SERVER_OUT)} in ${Date.now() - started} ms`);
}

// `npm start`: the web app's build and the server's bundle (scripts/server-bundle.mjs), each rebuilt
// first only when a source file is newer than it (`npm install` builds both), then the server from
// its bundle, in this process. `node --import tsx src/server.ts` runs the same server from source.
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { buildServerBundle, SERVER_ENTRY, serverBundleIsCurrent, webBuildIsCurrent } from './server-bundle.mjs';

if (!webBuildIsCurrent()) {
  const built = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-web.ts'], { stdio: 'inherit', cwd: new URL('..', import.meta.url) });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
if (!serverBundleIsCurrent()) await buildServerBundle();
// Stack traces in the log name the source files and lines, not the bundle's.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(SERVER_ENTRY).href);

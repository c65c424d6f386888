// `npm start`: the web app's build and the server's bundle (scripts/server-bundle.mjs), each rebuilt
// first only when a source file is newer than it (`npm install` builds both), then the server from
// its bundle, in this process. `node --import tsx src/server.ts` runs the same server from source.
import { pathToFileURL } from 'node:url';
import { buildWhatIsStale, SERVER_ENTRY } from './server-bundle.mjs';

try {
  await buildWhatIsStale();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
// Stack traces in the log name the source files and lines, not the bundle's.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(SERVER_ENTRY).href);

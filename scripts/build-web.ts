// Builds the web app's client into dist/web (npm install, npm start and the test setup run it).
import { buildWeb, WEB_DIST } from '../src/web/build.js';

const started = Date.now();
const manifest = await buildWeb();
console.log(`web app built into ${WEB_DIST} (${manifest.script}, ${manifest.style}) in ${Date.now() - started} ms`);

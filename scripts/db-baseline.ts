/**
 * Writes prisma/baseline/ (src/platform/database/embedded-baseline.ts): a migrated embedded cluster that new
 * data directories start from. Run by `npm ci` (postinstall) and `npm run db:baseline`; after a
 * new migration, a new data directory still works without running it again (the migrations newer
 * than the baseline are applied on top). A failure here never fails the install: new data
 * directories are then created and migrated as before, only slower.
 */
import { writeBaseline } from '../src/platform/database/write-baseline.js';

const started = performance.now();
try {
  const manifest = await writeBaseline();
  console.log(`embedded database baseline written to prisma/baseline (${manifest.migrations.length} migrations, PGlite ${manifest.pglite}) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
} catch (error) {
  console.warn(`no embedded database baseline (new data directories will be created and migrated at first start): ${(error as Error).message}`);
}

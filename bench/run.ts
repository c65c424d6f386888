/**
 * `npm run bench [-- name…]`: every benchmark (or those named), one after another, each in its own process so none warms
 * another's caches. Results are printed; bench/RESULTS.md records them with the command.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules/.bin/tsx');
const benches: [string, string[]][] = [
  ['start-up (embedded database)', ['bench/startup.ts', '5']],
  ['start-up beside two CPU-bound processes (embedded database)', ['bench/startup.ts', '3', '--busy', '2']],
  ['authentication cost per request', ['bench/auth.ts', '20000']],
  ['rate limiter cost per request (embedded)', ['bench/rate-limit.ts', '10000']],
  ['boards: fetch, card fetch, move, against a pg floor (PostgreSQL)', ['bench/boards.ts', '5']],
  ['live events: 1,000 / 5,000 / 10,000 streams on one board (PostgreSQL)', ['bench/streams.ts', '1000', '5000', '10000']],
  ['attachments: 10 MB upload/download throughput, server memory during a 20 MB upload (PostgreSQL)', ['bench/attachments.ts', '5']],
  ['search on a board of 5,000 cards (PostgreSQL and embedded)', ['bench/search.ts', '5', '5000']],
  ['answer API: 1,000 articles, PostgreSQL and embedded, against a floor; 20-page PDF', ['bench/answers.ts', '5']],
  ['OCR of screenshots: one 1280×720 read, /v1/answer with a screenshot, RSS with 4 at once (Chromium, embedded)', ['bench/ocr.ts', '20']],
  ['webhooks: tickets/s with a webhook, commit to delivery, sustained deliveries against a floor (PostgreSQL)', ['bench/webhooks.ts', '5', '5000']],
  ['webhook retention: deleting 200,000 old events against one DELETE statement (PostgreSQL)', ['bench/webhook-retention.ts', '300000']],
  ['web app: first load of a 200-card board, script move to screen (Chromium, embedded)', ['bench/web.ts', '7', '30']],
  ['assistant connector: a tool call over /mcp against the same REST call (embedded)', ['bench/connector.ts', '1000']],
  ['tickets as cards: a card move on a ticket board reaching the ticket and its webhook (embedded)', ['bench/ticket-cards.ts', '200']],
  ['help widget: 200 visitors with streams open asking 20 questions/s, beside /v1/answer (embedded)', ['bench/widget.ts', '30', '200']],
];
// `npm run bench -- webhooks web` runs only the benchmarks of those names (their files in bench/).
const only = process.argv.slice(2);
const chosen = only.length ? benches.filter(([, [file]]) => only.includes(path.basename(file!, '.ts'))) : benches;
if (chosen.length === 0) {
  console.error(`no benchmark matches ${only.join(', ')}; they are: ${benches.map(([, [file]]) => path.basename(file!, '.ts')).join(', ')}`);
  process.exit(1);
}
let failed = false;
for (const [title, args] of chosen) {
  console.log(`\n## ${title}\n$ npx tsx ${args.join(' ')}`);
  const res = spawnSync(tsx, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (res.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);

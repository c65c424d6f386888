/**
 * What a CPU profile of the server spent its time on: `npx tsx bench/cpu-profile.ts <file.cpuprofile> [requests]`.
 * Take one with `BENCH_FROM_SOURCE=1 BENCH_CPU_PROF=/tmp/prof npx tsx bench/boards.ts 5` (the app writes it as it stops;
 * from source, since this reads src/ file names, which a profile of the bundle does not have).
 *
 * Prints the CPU time (sampled; a hook's own work, not the rest of the request it hands over to) of each request hook the app registers (found by the
 * source file and line of its function) and of the route handlers and serialisation, per request
 * when the number of requests served is given, then the functions with the most self time, by package.
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, requestsArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: npx tsx bench/cpu-profile.ts <file.cpuprofile> [requests served]');
  process.exit(1);
}
const requests = requestsArg ? Number(requestsArg) : 0;
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;

// Self time per node, from the samples and the time between them.
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const inclusive = new Map<number, number>();
const total = (id: number): number => {
  const known = inclusive.get(id);
  if (known !== undefined) return known;
  const node = byId.get(id)!;
  const sum = (self.get(id) ?? 0) + (node.children ?? []).reduce((s, c) => s + total(c), 0);
  inclusive.set(id, sum);
  return sum;
};
for (const n of profile.nodes) total(n.id);

const where = (f: CallFrame) => {
  const src = f.url.replace(/^file:\/\//, '');
  const local = /\/(src|bench)\/(.*)$/.exec(src);
  if (local && !src.includes('node_modules')) return `${local[1]}/${local[2]}:${f.lineNumber + 1}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(src);
  return pkg ? pkg[1]! : src.startsWith('node:') ? src : f.url ? 'other' : `(${f.functionName || 'program'})`;
};

/** Fastify's own frames: where a hook hands over to the next hook, the handler or the reply. */
const isFastifyCore = (f: CallFrame) => /\/node_modules\/(fastify|find-my-way|avvio)\//.test(f.url);

/**
 * CPU time of what a frame does itself: its self time and its callees', except callees that are
 * Fastify's own frames (a hook calling done() runs the rest of the request inside it; that is not
 * the hook's cost). Frames that are themselves Fastify's count whole.
 */
const ownCache = new Map<number, number>();
function own(id: number, top = true): number {
  if (!top && ownCache.has(id)) return ownCache.get(id)!;
  const node = byId.get(id)!;
  const sum = (self.get(id) ?? 0) + (node.children ?? []).reduce((s, c) => s + (isFastifyCore(byId.get(c)!.callFrame) ? 0 : own(c, false)), 0);
  if (!top) ownCache.set(id, sum);
  return sum;
}

/** Own time of every frame matching `match`, not counting a match inside another. */
function timeOf(match: (f: CallFrame) => boolean): number {
  let sum = 0;
  for (const n of profile.nodes) {
    if (!match(n.callFrame)) continue;
    let p = parent.get(n.id);
    let nested = false;
    while (p !== undefined) {
      if (match(byId.get(p)!.callFrame)) {
        nested = true;
        break;
      }
      p = parent.get(p);
    }
    if (!nested) sum += isFastifyCore(n.callFrame) ? inclusive.get(n.id)! : own(n.id);
  }
  return sum;
}

const busy = profile.nodes.filter((n) => !['(idle)', '(program)', '(garbage collector)'].includes(n.callFrame.functionName)).reduce((s, n) => s + (self.get(n.id) ?? 0), 0);
const gc = profile.nodes.filter((n) => n.callFrame.functionName === '(garbage collector)').reduce((s, n) => s + (self.get(n.id) ?? 0), 0);
const ms = (us: number) => `${(us / 1000).toFixed(0)} ms`;
const per = (us: number) => (requests ? `${(us / requests).toFixed(1)} µs/request` : '');
const pct = (us: number) => `${((100 * us) / busy).toFixed(1)} %`;

console.log(`busy CPU ${ms(busy)} (+ GC ${ms(gc)})${requests ? ` over ${requests} requests: ${(busy / requests).toFixed(0)} µs/request` : ''}\n`);

// The app's request hooks and the parts of a request that are not hooks, by where their code is.
const parts: [string, (f: CallFrame) => boolean][] = [
  ['hook: request log (platform/http/logging.ts)', (f) => f.url.endsWith('/src/platform/http/logging.ts')],
  ['hook: CORS (platform/http/cors.ts)', (f) => f.url.endsWith('/src/platform/http/cors.ts')],
  ['hook: rate limit (platform/http/rate-limit.ts)', (f) => f.url.endsWith('/src/platform/http/rate-limit.ts')],
  ['hook: metrics (platform/http/metrics.ts)', (f) => f.url.endsWith('/src/platform/http/metrics.ts')],
  ['hook: query/body rules (platform/http/query-rules.ts, body-rules.ts)', (f) => /\/src\/platform\/(query|body)-rules\.ts$/.test(f.url)],
  ['hook: graceful close (platform/http/graceful-close.ts)', (f) => f.url.endsWith('/src/platform/http/graceful-close.ts')],
  ['hook: API key authentication (accounts/auth.ts)', (f) => f.url.endsWith('/src/accounts/credentials/auth.ts')],
  ['overload check (@fastify/under-pressure)', (f) => f.url.includes('/@fastify/under-pressure/')],
  ['compression (@fastify/compress)', (f) => f.url.includes('/@fastify/compress/')],
  ['cookies (@fastify/cookie)', (f) => f.url.includes('/@fastify/cookie/')],
  ['request validation (zod)', (f) => f.url.includes('/node_modules/zod/')],
  ['response serialisation (fast-json-stringify, zod type provider)', (f) => /\/(fast-json-stringify|fastify-type-provider-zod)\//.test(f.url)],
  ['route handlers (src/boards)', (f) => f.url.includes('/src/boards/')],
  ['database driver (pg, pg-protocol, @prisma)', (f) => /\/node_modules\/(pg|pg-protocol|pg-pool|@prisma)\//.test(f.url)],
  ['logger (pino)', (f) => /\/node_modules\/(pino|sonic-boom)\//.test(f.url)],
];
console.log('| part | CPU | share of busy | per request |');
console.log('|---|---|---|---|');
for (const [name, match] of parts) {
  const t = timeOf(match);
  console.log(`| ${name} | ${ms(t)} | ${pct(t)} | ${per(t)} |`);
}

// Self time by function, then by package.
const selfBy = (key: (n: ProfileNode) => string) => {
  const m = new Map<string, number>();
  for (const n of profile.nodes) {
    const t = self.get(n.id) ?? 0;
    if (t) m.set(key(n), (m.get(key(n)) ?? 0) + t);
  }
  return [...m].sort((a, b) => b[1] - a[1]);
};
console.log('\nself time, top functions:');
for (const [k, t] of selfBy((n) => `${n.callFrame.functionName || '(anonymous)'} ${where(n.callFrame)}`).slice(0, 25)) console.log(`  ${ms(t).padStart(8)} ${pct(t).padStart(7)}  ${k}`);
console.log('\nself time by package or file:');
for (const [k, t] of selfBy((n) => where(n.callFrame).replace(/:\d+$/, '')).slice(0, 20)) console.log(`  ${ms(t).padStart(8)} ${pct(t).padStart(7)}  ${k}`);

import { OPS, type Outcome } from './load.js';
import type { PartResult } from './scenario.js';

const s = (ms: number | null) => (ms === null ? '—' : `${(ms / 1000).toFixed(2)} s`);

const KIND_NAMES: [Outcome, string][] = [
  ['refused', 'refused'],
  ['reset', 'cut'],
  ['s503', '503'],
  ['s429', '429'],
  ['s4xx', 'other 4xx'],
  ['s5xx', 'other 5xx'],
  ['timeout', 'timeout'],
];

function failures(f: Partial<Record<Outcome, number>>): string {
  const parts = KIND_NAMES.filter(([k]) => (f[k] ?? 0) > 0).map(([k, name]) => `${f[k]} ${name}`);
  return parts.length ? parts.join(', ') : 'none';
}

/** A log message on one line: Prisma's multi-line messages reduced to their gist. */
function oneLine(text: string): string {
  const prisma = /Invalid `([^`]+)` invocation/.exec(text);
  const gist = prisma ? `${prisma[1]}: ${text.trim().split('\n').at(-1)!.trim()}` : text;
  return gist.replace(/\s+/g, ' ').slice(0, 160);
}

function table(header: string[], rows: (string | number)[][]): string {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

/** One part: its disruptions, what was acknowledged and refused, its checks. */
export function partReport(r: PartResult): string {
  const { ledger, options } = r;
  const c = ledger.counts;
  const out: string[] = [];
  out.push(`## ${r.name}: ${r.database}`);
  out.push(
    `${options.clients} clients, ${r.disruptions.length} of ${options.cycles} disruptions, ${options.intervalMs / 1000} s of load before each and after the last` +
      (r.disruptions.some((d) => d.kind === 'PostgreSQL stop') ? `, PostgreSQL stopped ${options.pgDownMs / 1000} s each time` : '') +
      `; first start ${s(r.firstStartMs)}.`,
  );
  out.push('');
  out.push(
    table(
      ['#', 'disruption', 'down', 'back', 'first 2xx after', '/readyz while down', 'failed requests meanwhile'],
      r.disruptions.map((d, i) => [
        i + 1,
        d.kind,
        s(d.downMs),
        d.error ? 'NO' : d.kind === 'kill -9' ? `${s(d.backMs)} (spawn → /healthz)` : `${s(d.backMs)} (→ /readyz 200)`,
        d.kind === 'kill -9' ? `${s(d.firstAckMs)} from the kill` : `${s(d.firstAckMs)} from PostgreSQL up`,
        d.readyzDown ?? '',
        failures(d.failures),
      ]),
    ),
  );
  out.push('');
  out.push(
    table(
      ['operation', '2xx (acknowledged)', ...KIND_NAMES.map(([, n]) => n)],
      OPS.map((op) => [op, c[op].ack, ...KIND_NAMES.map(([k]) => c[op][k])]),
    ),
  );
  out.push('');
  if (r.mail) {
    const m = r.mail;
    out.push(
      `Mail (SMTP server answering each DATA after ${options.smtpDelayMs / 1000} s): ${m.arrived} mails accepted, ${m.messages} distinct Message-IDs, ` +
        `${m.duplicates} resent copies, ${m.cut} hand-overs cut by a disruption; everything arrived and settled ${s(m.waitMs)} after the load stopped.`,
    );
    out.push('');
  }
  if (r.aborted) out.push(`**ABORTED**: ${r.aborted}\n`);
  out.push(table(['check', 'result', 'detail'], r.checks.map((ch) => [ch.name, ch.ok ? 'pass' : '**FAIL**', ch.detail.replace(/\|/g, '\\|')])));
  if (r.serverErrors.length) {
    const byMsg = new Map<string, number>();
    for (const e of r.serverErrors) {
      if (e.msg === 'request') continue; // the access-log line of a 5xx, counted below
      const key = oneLine(`${e.msg}${e.err ? `: ${e.err}` : ''}`);
      byMsg.set(key, (byMsg.get(key) ?? 0) + 1);
    }
    out.push('');
    const accessLines = r.serverErrors.filter((e) => e.msg === 'request').length;
    out.push(`Server error-level log lines (${r.serverErrors.length}, of which ${accessLines} are the access-log lines of 5xx answers):`);
    for (const [msg, n] of [...byMsg.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12)) out.push(`- ${n} × ${msg}`);
  }
  // For each 5xx other than 503: what the server logged for that request.
  for (const e of r.ledger.serverErrors.slice(0, 5)) {
    out.push('');
    out.push(`${e.request} → ${e.status} at ${new Date(e.at).toISOString()}, X-Request-Id ${e.requestId}; the server logged:`);
    const lines = r.serverErrors.filter((l) => e.requestId && l.reqId === e.requestId);
    out.push(lines.length ? lines.map((l) => `    ${l.raw}`).join('\n') : '    (nothing at level error)');
  }
  return out.join('\n');
}

/** Every part in one table. */
export function summary(results: PartResult[]): string {
  return table(
    ['part', 'cycles', 'acknowledged writes', 'failed requests', 'slowest recovery', 'mail', 'checks'],
    results.map((r) => {
      const t = r.ledger.totals();
      const passed = r.checks.filter((ch) => ch.ok).length;
      const slowest = Math.max(0, ...r.disruptions.map((d) => d.firstAckMs ?? 0));
      return [
        r.name,
        r.disruptions.length,
        `${t.ack} (${r.ledger.cards.size} cards, ${r.ledger.counts['card.move'].ack} moves, ${r.ledger.tickets.size} tickets, ${r.ledger.invited.size} invitations, ${r.ledger.counts.assign.ack} assignments)`,
        failures(t),
        `${s(slowest)} to the first 2xx`,
        r.mail ? `${r.mail.messages} messages, ${r.mail.duplicates} resent copies` : '—',
        r.aborted ? `ABORTED, ${passed}/${r.checks.length} passed` : `${passed}/${r.checks.length} passed`,
      ];
    }),
  );
}

export function partPassed(r: PartResult): boolean {
  return !r.aborted && r.checks.length > 0 && r.checks.every((ch) => ch.ok);
}

import { useState } from 'preact/hooks';
import { get } from '../api';
import { link } from '../router';
import { Alert, formatDate, useLoad } from '../ui';
import type { Gaps, Metrics, SectionProps } from './types';

const DAY = 86_400_000;

/** Answers per day, the share needing a human, the confidence mix, latency; and the knowledge gaps. */
export function MetricsPage({ workspace, base, canManage }: SectionProps) {
  const [days, setDays] = useState(30);
  const range = () => {
    const to = new Date(Math.ceil(Date.now() / DAY) * DAY);
    return { from: new Date(to.getTime() - days * DAY).toISOString(), to: to.toISOString() };
  };
  const metrics = useLoad(() => {
    const { from, to } = range();
    return get<Metrics>(`/agent/workspaces/${workspace.id}/metrics?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
  }, [workspace.id, days]);
  const gaps = useLoad(() => {
    const { from, to } = range();
    return get<Gaps>(`/agent/workspaces/${workspace.id}/knowledge-gaps?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&limit=20`);
  }, [workspace.id, days]);
  const m = metrics.data ? withEveryDay(metrics.data, days) : null;
  const pct = (x: number) => `${Math.round(x * 100)}%`;

  return (
    <section aria-labelledby="metrics-heading">
      <h2 id="metrics-heading">Metrics</h2>
      <label class="inline">
        Period{' '}
        <select value={String(days)} onChange={(e) => setDays(Number(e.currentTarget.value))}>
          <option value="7">Last 7 days</option>
          <option value="30">Last 30 days</option>
          <option value="90">Last 90 days</option>
        </select>
      </label>
      <Alert error={metrics.error} />
      {m && (
        <>
          <dl class="stats">
            <div>
              <dt>Answers</dt>
              <dd>{m.total.answers}</dd>
            </div>
            <div>
              <dt>Needed a human</dt>
              <dd>{pct(m.total.needsHumanShare)}</dd>
            </div>
            <div>
              <dt>Latency p50 / p90 / p99</dt>
              <dd>
                {[m.total.latencyMs.p50, m.total.latencyMs.p90, m.total.latencyMs.p99].map((v) => (v === null ? '—' : `${Math.round(v)}`)).join(' / ')} ms
              </dd>
            </div>
          </dl>
          <div class="charts">
            <figure>
              <figcaption>Answers per day (the dark part needed a human)</figcaption>
              <BarChart
                days={m.days.map((d) => d.day)}
                series={[
                  { label: 'answered', values: m.days.map((d) => d.answers - d.needsHuman), className: 'bar-ok' },
                  { label: 'needed a human', values: m.days.map((d) => d.needsHuman), className: 'bar-warn' },
                ]}
              />
            </figure>
            <figure>
              <figcaption>Confidence mix</figcaption>
              <BarChart
                days={m.days.map((d) => d.day)}
                series={[
                  { label: 'high', values: m.days.map((d) => d.confidence.high), className: 'bar-ok' },
                  { label: 'medium', values: m.days.map((d) => d.confidence.medium), className: 'bar-mid' },
                  { label: 'low', values: m.days.map((d) => d.confidence.low), className: 'bar-warn' },
                ]}
              />
              <p class="hint">
                Total: high {m.total.confidence.high}, medium {m.total.confidence.medium}, low {m.total.confidence.low}
              </p>
            </figure>
            <figure>
              <figcaption>Latency p50 and p99 per day (ms)</figcaption>
              <LineChart days={m.days.map((d) => d.day)} lines={[{ values: m.days.map((d) => d.latencyMs.p50), className: 'line-p50' }, { values: m.days.map((d) => d.latencyMs.p99), className: 'line-p99' }]} />
            </figure>
          </div>
        </>
      )}
      <h2>Knowledge gaps</h2>
      <p class="lead">Questions the knowledge did not answer, grouped by similarity, biggest first.</p>
      <Alert error={gaps.error} />
      {gaps.data && gaps.data.groups.length === 0 && <p>No unanswered questions in this period.</p>}
      <ol class="gaps">
        {(gaps.data?.groups ?? []).map((g, i) => (
          <li key={i} class="panel">
            <p>
              <strong>{g.count === 1 ? '1 question' : `${g.count} questions`}</strong> about <em>{g.terms.join(', ') || '(various)'}</em> <span class="hint">· last {formatDate(g.lastAskedAt, { time: true })}</span>
            </p>
            <ul>
              {g.examples.map((ex) => (
                <li key={ex.conversationId + ex.askedAt}>
                  <a href={`${base}/conversations/${ex.conversationId}`} onClick={link(`${base}/conversations/${ex.conversationId}`)}>
                    {ex.question}
                  </a>
                </li>
              ))}
            </ul>
            {canManage && (
              <a class="button-link" href={`${base}/knowledge?new=${encodeURIComponent(g.examples[0]?.question ?? g.terms.join(' '))}`} onClick={link(`${base}/knowledge?new=${encodeURIComponent(g.examples[0]?.question ?? g.terms.join(' '))}`)}>
                Write an article for this
              </a>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}

const EMPTY_DAY = { answers: 0, needsHuman: 0, needsHumanShare: 0, confidence: { high: 0, medium: 0, low: 0 }, latencyMs: { p50: null, p90: null, p99: null } };

/** The server lists days that had answers; the charts show every day of the period. */
function withEveryDay(m: Metrics, count: number): Metrics {
  const byDay = new Map(m.days.map((d) => [d.day, d]));
  const end = Math.ceil(Date.now() / DAY) * DAY;
  const days = Array.from({ length: count }, (_, i) => {
    const day = new Date(end - (count - i) * DAY).toISOString().slice(0, 10);
    return byDay.get(day) ?? { ...EMPTY_DAY, day };
  });
  return { ...m, days };
}

const W = 600;
const H = 160;

/** Stacked bars as SVG: no chart library, no CDN, nothing inline that the CSP would refuse. */
function BarChart({ days, series }: { days: string[]; series: { label: string; values: number[]; className: string }[] }) {
  const totals = days.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const max = Math.max(1, ...totals);
  const width = W / Math.max(1, days.length);
  return (
    <svg viewBox={`0 0 ${W} ${H + 20}`} class="chart" role="img" aria-label={`${series.map((s) => s.label).join(', ')} per day; at most ${max} a day`}>
      {days.map((day, i) => {
        let y = H;
        return (
          <g key={day}>
            <title>{`${day}: ${series.map((s) => `${s.values[i]} ${s.label}`).join(', ')}`}</title>
            {series.map((s) => {
              const h = ((s.values[i] ?? 0) / max) * H;
              y -= h;
              return <rect key={s.label} class={s.className} x={i * width + 1} y={y} width={Math.max(1, width - 2)} height={h} />;
            })}
          </g>
        );
      })}
      <line x1="0" x2={W} y1={H} y2={H} class="axis" />
      <text x="0" y={H + 15} class="tick">
        {days[0] ?? ''}
      </text>
      <text x={W} y={H + 15} class="tick end">
        {days[days.length - 1] ?? ''}
      </text>
    </svg>
  );
}

function LineChart({ days, lines }: { days: string[]; lines: { values: (number | null)[]; className: string }[] }) {
  const max = Math.max(1, ...lines.flatMap((l) => l.values.filter((v): v is number => v !== null)));
  const step = W / Math.max(1, days.length - 1);
  return (
    <svg viewBox={`0 0 ${W} ${H + 20}`} class="chart" role="img" aria-label={`Latency per day, at most ${Math.round(max)} ms`}>
      {lines.map((l) =>
        l.values.map((v, i) => (v === null ? null : <circle key={`${l.className}-${i}`} class={l.className} cx={i * step} cy={H - (v / max) * H} r="3" />)),
      )}
      {lines.map((l) => (
        <polyline
          key={l.className}
          class={l.className}
          fill="none"
          points={l.values
            .map((v, i) => (v === null ? null : `${i * step},${H - (v / max) * H}`))
            .filter(Boolean)
            .join(' ')}
        />
      ))}
      <line x1="0" x2={W} y1={H} y2={H} class="axis" />
      <text x="0" y="12" class="tick">
        {Math.round(max)} ms
      </text>
    </svg>
  );
}

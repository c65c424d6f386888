import { useEffect, useRef, useState } from 'preact/hooks';
import { get } from '../api';
import { link } from '../router';
import { Alert, formatDate, formatUtcDay, useLoad } from '../ui';
import type { Gaps, Metrics, SectionProps, SupportMetrics } from './types';

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
  const support = useLoad(() => {
    const { from, to } = range();
    return get<SupportMetrics>(`/agent/workspaces/${workspace.id}/support-metrics?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
  }, [workspace.id, days]);
  const m = metrics.data ? withEveryDay(metrics.data, days) : null;
  const s = support.data;
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
              <figcaption>Answers per day</figcaption>
              <BarChart
                label="Answers per day"
                days={m.days.map((d) => d.day)}
                series={[
                  { label: 'answered', values: m.days.map((d) => d.answers - d.needsHuman), className: 'bar-ok' },
                  { label: 'needed a human', values: m.days.map((d) => d.needsHuman), className: 'bar-warn' },
                ]}
              />
              <Legend items={[{ label: 'Answered', className: 'bar-ok', value: m.total.answers - m.total.needsHuman }, { label: 'Needed a human', className: 'bar-warn', value: m.total.needsHuman }]} />
            </figure>
            <figure>
              <figcaption>Confidence per day</figcaption>
              <BarChart
                label="Answers per day by confidence"
                days={m.days.map((d) => d.day)}
                series={[
                  { label: 'high', values: m.days.map((d) => d.confidence.high), className: 'bar-ok' },
                  { label: 'medium', values: m.days.map((d) => d.confidence.medium), className: 'bar-mid' },
                  { label: 'low', values: m.days.map((d) => d.confidence.low), className: 'bar-warn' },
                ]}
              />
              <Legend
                items={[
                  { label: 'High', className: 'bar-ok', value: m.total.confidence.high },
                  { label: 'Medium', className: 'bar-mid', value: m.total.confidence.medium },
                  { label: 'Low', className: 'bar-warn', value: m.total.confidence.low, title: 'Every answer that needed a human is low' },
                ]}
              />
            </figure>
            <figure>
              <figcaption>Latency per day ({latencyInSeconds(m) ? 'seconds' : 'ms'})</figcaption>
              <LatencyChart days={m.days.map((d) => d.day)} p50={m.days.map((d) => d.latencyMs.p50)} p99={m.days.map((d) => d.latencyMs.p99)} seconds={latencyInSeconds(m)} />
              <Legend items={[{ label: 'Median (p50)', className: 'bar-mid' }, { label: 'p99: the slowest 1 %', className: 'whisker' }]} />
            </figure>
          </div>
        </>
      )}
      <h2 id="resolution-heading">Resolution and satisfaction</h2>
      <Alert error={support.error} />
      {s && (
        <dl class="stats" aria-labelledby="resolution-heading" data-testid="support-metrics">
          <div>
            <dt>Conversations</dt>
            <dd>{s.conversations.total}</dd>
          </div>
          <div>
            <dt>Resolved by the agent alone</dt>
            <dd>{s.conversations.resolvedByAgent}</dd>
          </div>
          <div>
            <dt>Handed to a person</dt>
            <dd>
              {s.conversations.handedToPerson} <span class="hint">({s.conversations.solvedWithPerson} solved)</span>
            </dd>
          </div>
          <div>
            <dt>Satisfaction</dt>
            <dd>
              {s.satisfaction.average === null ? '—' : `${s.satisfaction.average.toFixed(1)} / 5`}{' '}
              <span class="hint">({s.satisfaction.ratings === 1 ? '1 rating' : `${s.satisfaction.ratings} ratings`})</span>
            </dd>
          </div>
        </dl>
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

const H = 150; // plot height in CSS pixels
const PAD = { left: 44, right: 8, top: 10, bottom: 22 };

/** The element's width in CSS pixels, followed as it resizes: charts are drawn 1:1, never scaled down. */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry!.contentRect.width)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

/** Round numbers for the y axis: 0, a middle line and a top at least `max`. */
function niceMax(max: number) {
  if (max <= 4) return 4;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * power >= max) return m * power;
  return 10 * power;
}

function shortDay(day: string) {
  return formatUtcDay(day);
}

/** Axes shared by the charts: y gridlines with values, x labels at the first, middle and last day. */
function Axes({ width, days, top }: { width: number; days: string[]; top: number }) {
  const plotW = width - PAD.left - PAD.right;
  const x = (i: number) => PAD.left + ((i + 0.5) * plotW) / Math.max(1, days.length);
  const ticks = days.length <= 1 ? [0] : [0, Math.floor((days.length - 1) / 2), days.length - 1];
  return (
    <>
      {[0, top / 2, top].map((v) => {
        const y = PAD.top + H - (v / top) * H;
        return (
          <g key={v}>
            <line x1={PAD.left} x2={width - PAD.right} y1={y} y2={y} class={v === 0 ? 'axis' : 'grid'} />
            <text x={PAD.left - 6} y={y + 4} class="tick y">
              {Number.isInteger(v) ? v : v.toFixed(1)}
            </text>
          </g>
        );
      })}
      {ticks.map((i, n) => (
        <text key={i} x={x(i)} y={PAD.top + H + 16} class={`tick x${n === 0 && ticks.length > 1 ? ' start' : n === ticks.length - 1 && ticks.length > 1 ? ' end' : ''}`}>
          {days[i] ? shortDay(days[i]) : ''}
        </text>
      ))}
    </>
  );
}

/** Stacked bars as SVG: no chart library, no CDN, nothing inline that the CSP would refuse. */
function BarChart({ label, days, series }: { label: string; days: string[]; series: { label: string; values: number[]; className: string }[] }) {
  const { ref, width } = useWidth();
  const totals = days.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const top = niceMax(Math.max(0, ...totals));
  const plotW = Math.max(0, width - PAD.left - PAD.right);
  const slot = plotW / Math.max(1, days.length);
  return (
    <div ref={ref} class="chart-box">
      {width > 0 && (
        <svg width={width} height={H + PAD.top + PAD.bottom} class="chart" role="img" aria-label={`${label}: ${series.map((s) => s.label).join(', ')}; at most ${Math.max(0, ...totals)} a day`}>
          <Axes width={width} days={days} top={top} />
          {days.map((day, i) => {
            let y = PAD.top + H;
            return (
              <g key={day}>
                <title>{`${shortDay(day)}: ${series.map((s) => `${s.values[i]} ${s.label}`).join(', ')}`}</title>
                <rect class="hover" x={PAD.left + i * slot} y={PAD.top} width={slot} height={H} />
                {series.map((s) => {
                  const h = ((s.values[i] ?? 0) / top) * H;
                  y -= h;
                  return h > 0 ? <rect key={s.label} class={s.className} x={PAD.left + i * slot + slot * 0.15} y={y} width={Math.max(1, slot * 0.7)} height={h} /> : null;
                })}
              </g>
            );
          })}
        </svg>
      )}
    </div>
  );
}

/** Per day: a bar to the median latency and a whisker up to p99; days without answers stay empty. */
function latencyInSeconds(m: Metrics) {
  return Math.max(0, ...m.days.map((d) => d.latencyMs.p99 ?? d.latencyMs.p50 ?? 0)) >= 2000;
}

function LatencyChart({ days, p50, p99, seconds }: { days: string[]; p50: (number | null)[]; p99: (number | null)[]; seconds: boolean }) {
  const { ref, width } = useWidth();
  const max = Math.max(0, ...p99.filter((v): v is number => v !== null), ...p50.filter((v): v is number => v !== null));
  const scale = seconds ? 1000 : 1;
  const top = niceMax(max / scale) * scale;
  const plotW = Math.max(0, width - PAD.left - PAD.right);
  const slot = plotW / Math.max(1, days.length);
  const y = (v: number) => PAD.top + H - (v / top) * H;
  const fmt = (v: number | null) => (v === null ? '—' : seconds ? `${(v / 1000).toFixed(1)} s` : `${Math.round(v)} ms`);
  return (
    <div ref={ref} class="chart-box">
      {width > 0 && (
        <svg width={width} height={H + PAD.top + PAD.bottom} class="chart" role="img" aria-label={`Latency per day: median and p99, at most ${fmt(max)}`}>
          <Axes width={width} days={days} top={top / scale} />
          {days.map((day, i) => {
            const a = p50[i] ?? null;
            const b = p99[i] ?? null;
            if (a === null && b === null) return null;
            const cx = PAD.left + i * slot + slot / 2;
            const w = Math.max(2, slot * 0.6);
            return (
              <g key={day}>
                <title>{`${shortDay(day)}: median ${fmt(a)}, p99 ${fmt(b)}`}</title>
                <rect class="hover" x={PAD.left + i * slot} y={PAD.top} width={slot} height={H} />
                {a !== null && <rect class="bar-mid" x={cx - w / 2} y={y(a)} width={w} height={PAD.top + H - y(a)} />}
                {b !== null && (
                  <>
                    <line class="whisker" x1={cx} x2={cx} y1={y(b)} y2={y(a ?? b)} />
                    <line class="whisker" x1={cx - w / 2} x2={cx + w / 2} y1={y(b)} y2={y(b)} />
                  </>
                )}
              </g>
            );
          })}
        </svg>
      )}
    </div>
  );
}

/** What each colour means, with the period's totals when given. */
function Legend({ items }: { items: { label: string; className: string; value?: number; title?: string }[] }) {
  return (
    <ul class="legend">
      {items.map((item) => (
        <li key={item.label} title={item.title}>
          <span class={`swatch ${item.className}`} aria-hidden="true" />
          {item.label}
          {item.value !== undefined && <strong>{item.value}</strong>}
        </li>
      ))}
    </ul>
  );
}

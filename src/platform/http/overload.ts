import { getHeapStatistics } from 'node:v8';
import underPressure from '@fastify/under-pressure';
import fp from 'fastify-plugin';
import type { Config } from '../../config.js';
import { unavailable } from '../errors.js';
import { LoopLag } from './loop-lag.js';

/** Seconds a shed request is told to wait. */
export const OVERLOAD_RETRY_AFTER_SECONDS = 5;

const SAMPLE_INTERVAL_MS = 500;
/**
 * The loop-lag timer's period, and the window its mean lateness is taken over (loop-lag.ts says why
 * a window): as long as the wait a shed request is told to make, since shedding helps a client only
 * when the process has been behind for longer than that wait.
 */
const LAG_TICK_MS = 250;
const LAG_WINDOW_MS = OVERLOAD_RETRY_AFTER_SECONDS * 1000;
/** The event-loop check is armed this long after ready even if the loop never calmed down. */
const ARM_AT_LATEST_MS = 10_000;
/** Routes that answer however loaded the process is: it is alive, and its metrics are how one sees the load. */
const NEVER_SHED = new Set(['/healthz', '/metrics']);

/** The heap limit applied when OVERLOAD_MAX_HEAP_USED_BYTES is unset: 90 % of V8's. */
export const defaultHeapLimit = () => Math.floor(getHeapStatistics().heap_size_limit * 0.9);

/**
 * Sheds load when the process is overloaded -- its event loop behind by more than
 * OVERLOAD_MAX_EVENT_LOOP_DELAY_MS on average over the last 5 s (LoopLag), or V8 heap use over
 * OVERLOAD_MAX_HEAP_USED_BYTES (sampled every half second by @fastify/under-pressure): 503 with
 * Retry-After in the surface's error shape, before any other work.
 * `/healthz` still answers (the process is alive; restarting it would not help), `/readyz` does
 * not (a load balancer should send traffic elsewhere meanwhile).
 */
export const overloadPlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    const pass = () => undefined;
    const limit = config.OVERLOAD_MAX_EVENT_LOOP_DELAY_MS;
    let lag: LoopLag | undefined;
    // Start-up (migrations, building routes and documents, other plugins' onReady work) blocks the
    // loop for seconds, longer on a busy machine: those ticks would shed the first requests. So
    // the event-loop check is armed once two samples in a row after ready are under the limit, not
    // at a fixed time (a timer set in onReady fires as soon as a later hook's block ends, while the
    // lateness of that block still stands) -- or ARM_AT_LATEST_MS after ready, so that a process
    // loaded from its first second on (a restart into live traffic) still sheds.
    let armed = false;
    const timers: NodeJS.Timeout[] = [];
    app.addHook('onReady', async () => {
      if (limit === 0) {
        armed = true;
        return;
      }
      const loop = new LoopLag(LAG_TICK_MS, LAG_WINDOW_MS, performance.now());
      lag = loop;
      timers.push(setInterval(() => loop.tick(performance.now()), LAG_TICK_MS).unref());
      const latest = Date.now() + ARM_AT_LATEST_MS;
      let calm = 0;
      const arming = setInterval(() => {
        calm = loop.mean(performance.now()) <= limit ? calm + 1 : 0;
        if (calm < 2 && Date.now() < latest) return;
        armed = true;
        clearInterval(arming);
      }, SAMPLE_INTERVAL_MS).unref();
      timers.push(arming);
    });
    app.addHook('onClose', async () => {
      for (const timer of timers) clearInterval(timer);
    });
    app.addHook('onRequest', async (request) => {
      if (!armed || !lag || NEVER_SHED.has(request.routeOptions.url ?? '')) return;
      if (lag.mean(performance.now()) > limit) throw unavailable('server overloaded (busy), retry shortly', OVERLOAD_RETRY_AFTER_SECONDS);
    });
    app.addHook('onRoute', (route) => {
      if (NEVER_SHED.has(route.url)) route.config = { ...(route.config as object), pressureHandler: pass } as never;
    });
    // The heap check only: the event loop's is the hook above.
    await app.register(underPressure, {
      maxEventLoopDelay: 0,
      maxHeapUsedBytes: config.OVERLOAD_MAX_HEAP_USED_BYTES ?? defaultHeapLimit(),
      sampleInterval: SAMPLE_INTERVAL_MS,
      retryAfter: OVERLOAD_RETRY_AFTER_SECONDS,
      // A rejected promise goes to the one error handler, which shapes the body per surface.
      pressureHandler: () => (!armed ? undefined : Promise.reject(unavailable('server overloaded (memory), retry shortly', OVERLOAD_RETRY_AFTER_SECONDS))),
    });
  },
  { name: 'overload' },
);

import { getHeapStatistics } from 'node:v8';
import underPressure from '@fastify/under-pressure';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { unavailable } from './errors.js';

/** Seconds a shed request is told to wait. */
export const OVERLOAD_RETRY_AFTER_SECONDS = 5;

const SAMPLE_INTERVAL_MS = 500;
/** The event-loop check is armed this long after ready even if the loop never calmed down. */
const ARM_AT_LATEST_MS = 10_000;

/** The heap limit applied when OVERLOAD_MAX_HEAP_USED_BYTES is unset: 90 % of V8's. */
export const defaultHeapLimit = () => Math.floor(getHeapStatistics().heap_size_limit * 0.9);

/**
 * Sheds load when the process is overloaded (mean event-loop delay over
 * OVERLOAD_MAX_EVENT_LOOP_DELAY_MS, or V8 heap use over OVERLOAD_MAX_HEAP_USED_BYTES, sampled
 * every half second): 503 with Retry-After in the surface's error shape, before any other work.
 * `/healthz` still answers (the process is alive; restarting it would not help), `/readyz` does
 * not (a load balancer should send traffic elsewhere meanwhile).
 */
export const overloadPlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    const pass = () => undefined;
    // Start-up (migrations, building routes and documents, other plugins' onReady work) blocks the
    // loop for seconds, longer on a busy machine: those samples would shed the first requests. So
    // the event-loop check is armed once two samples in a row after ready are under the limit, not
    // at a fixed time (a timer set in onReady fires as soon as a later hook's block ends, while the
    // sample of that block still stands) -- or ARM_AT_LATEST_MS after ready, so that a process
    // loaded from its first second on (a restart into live traffic) still sheds.
    let armed = false;
    let timer: NodeJS.Timeout | undefined;
    app.addHook('onReady', async () => {
      const limit = config.OVERLOAD_MAX_EVENT_LOOP_DELAY_MS;
      const latest = Date.now() + ARM_AT_LATEST_MS;
      let calm = 0;
      timer = setInterval(() => {
        calm = limit === 0 || app.memoryUsage().eventLoopDelay <= limit ? calm + 1 : 0;
        if (calm < 2 && Date.now() < latest) return;
        armed = true;
        clearInterval(timer);
      }, SAMPLE_INTERVAL_MS).unref();
    });
    app.addHook('onClose', async () => clearInterval(timer));
    app.addHook('onRoute', (route) => {
      if (route.url === '/healthz' || route.url === '/metrics') route.config = { ...(route.config as object), pressureHandler: pass } as never;
    });
    await app.register(underPressure, {
      maxEventLoopDelay: config.OVERLOAD_MAX_EVENT_LOOP_DELAY_MS,
      maxHeapUsedBytes: config.OVERLOAD_MAX_HEAP_USED_BYTES ?? defaultHeapLimit(),
      sampleInterval: SAMPLE_INTERVAL_MS,
      retryAfter: OVERLOAD_RETRY_AFTER_SECONDS,
      // A rejected promise goes to the one error handler, which shapes the body per surface.
      pressureHandler: (_request, _reply, type) =>
        !armed ? undefined : Promise.reject(unavailable(`server overloaded (${type === 'heapUsedBytes' ? 'memory' : 'busy'}), retry shortly`, OVERLOAD_RETRY_AFTER_SECONDS)),
    });
  },
  { name: 'overload' },
);

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
    pool: 'forks',
    // Bounds, not measurements: CI runs on a busy 2-core box, where a test that takes 10 s when quiet has taken 31 s.
    testTimeout: 60_000,
    hookTimeout: 90_000,
    // Each file gets its own database. Three files at a time on two cores: files also wait (on
    // spawned servers, timers, the browser), and a third keeps the cores busy meanwhile.
    maxWorkers: 3,
    // A worker runs its files one after another in one module graph: the app's modules are
    // imported (and JIT-compiled, and each test password hashed) once per worker rather than
    // once per file, which halved the run. An embedded database a file closes is emptied and
    // handed to the worker's next file (test/helper.ts): starting one costs ~0.5 s of CPU.
    isolate: false,
  },
});

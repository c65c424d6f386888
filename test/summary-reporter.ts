import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends the run with one plain line, "tests: N passed, N failed, N skipped", for CI to read, after the
 * ten slowest files (CI has 30 minutes on a busy 2-core box: this says where they go).
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const count = { passed: 0, failed: 0, skipped: 0 };
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') count.passed++;
        else if (state === 'failed') count.failed++;
        else count.skipped++;
      }
      if (module.state() === 'failed' && ![...module.children.allTests()].length) count.failed++;
    }
    const slowest = [...modules]
      .map((m) => ({ file: m.moduleId.replace(`${process.cwd()}/`, ''), ms: m.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 10);
    process.stdout.write(`\nslowest files: ${slowest.map((s) => `${s.file} ${(s.ms / 1000).toFixed(1)} s`).join(', ')}\n`);
    process.stdout.write(`\ntests: ${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped\n`);
  }
}

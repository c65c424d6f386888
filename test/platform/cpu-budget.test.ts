import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cgroupCpuQuota, cpuBudget } from '../../src/platform/cpu-budget.js';

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((r) => rm(r, { recursive: true, force: true })));
});

/** A cgroup mount as a container sees it, holding these files. */
async function cgroupRoot(files: Record<string, string>) {
  const root = await mkdtemp(path.join(os.tmpdir(), 'cgroup-'));
  roots.push(root);
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), `${content}\n`);
  }
  return root;
}

describe('the CPUs a process may use', () => {
  it('caps the cores by a cgroup v2 quota, rounded down, at least one', async () => {
    expect(cpuBudget({ cores: 64, cgroupRoot: await cgroupRoot({ 'cpu.max': '200000 100000' }) })).toBe(2);
    expect(cpuBudget({ cores: 64, cgroupRoot: await cgroupRoot({ 'cpu.max': '250000 100000' }) })).toBe(2);
    expect(cpuBudget({ cores: 64, cgroupRoot: await cgroupRoot({ 'cpu.max': '50000 100000' }) })).toBe(1);
    // A quota above the cores the process may run on changes nothing.
    expect(cpuBudget({ cores: 4, cgroupRoot: await cgroupRoot({ 'cpu.max': '800000 100000' }) })).toBe(4);
  });

  it('reads no quota in cgroup v2 "max", and the cores count', async () => {
    const root = await cgroupRoot({ 'cpu.max': 'max 100000' });
    expect(cgroupCpuQuota(root)).toBeNull();
    expect(cpuBudget({ cores: 8, cgroupRoot: root })).toBe(8);
  });

  it('reads a cgroup v1 quota, and -1 as none', async () => {
    expect(cpuBudget({ cores: 16, cgroupRoot: await cgroupRoot({ 'cpu/cpu.cfs_quota_us': '300000', 'cpu/cpu.cfs_period_us': '100000' }) })).toBe(3);
    expect(cpuBudget({ cores: 16, cgroupRoot: await cgroupRoot({ 'cpu,cpuacct/cpu.cfs_quota_us': '150000', 'cpu,cpuacct/cpu.cfs_period_us': '100000' }) })).toBe(1);
    expect(cpuBudget({ cores: 16, cgroupRoot: await cgroupRoot({ 'cpu/cpu.cfs_quota_us': '-1', 'cpu/cpu.cfs_period_us': '100000' }) })).toBe(16);
  });

  it('counts the cores when no cgroup file can be read or one holds nonsense', async () => {
    expect(cpuBudget({ cores: 6, cgroupRoot: path.join(os.tmpdir(), 'no-such-cgroup-root') })).toBe(6);
    expect(cpuBudget({ cores: 6, cgroupRoot: await cgroupRoot({ 'cpu.max': 'garbage' }) })).toBe(6);
    // On this machine, whatever its cgroups: at least one, at most the cores.
    expect(cpuBudget()).toBeGreaterThanOrEqual(1);
    expect(cpuBudget()).toBeLessThanOrEqual(os.availableParallelism());
  });
});

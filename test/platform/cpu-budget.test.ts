import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cgroupCpuQuota, cpuBudget } from '../../src/platform/http/cpu-budget.js';

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
  const none = path.join(os.tmpdir(), 'no-such-proc-self-cgroup');

  it('caps the cores by a cgroup v2 quota, rounded up', async () => {
    expect(cpuBudget({ cores: 64, procSelfCgroup: none, cgroupRoot: await cgroupRoot({ 'cpu.max': '200000 100000' }) })).toBe(2);
    expect(cpuBudget({ cores: 64, procSelfCgroup: none, cgroupRoot: await cgroupRoot({ 'cpu.max': '250000 100000' }) })).toBe(3);
    expect(cpuBudget({ cores: 64, procSelfCgroup: none, cgroupRoot: await cgroupRoot({ 'cpu.max': '50000 100000' }) })).toBe(1);
    // A quota above the cores the process may run on changes nothing.
    expect(cpuBudget({ cores: 4, procSelfCgroup: none, cgroupRoot: await cgroupRoot({ 'cpu.max': '800000 100000' }) })).toBe(4);
  });

  it("takes the smallest quota on the process's own cgroup and its parents (a systemd service, a pod's limit)", async () => {
    // systemd's CPUQuota= on the service, the root without one.
    const service = await cgroupRoot({
      'cgroup.controllers': 'cpu memory',
      'cpu.max': 'max 100000',
      'system.slice/app.service/cpu.max': '150000 100000',
      'proc/self/cgroup': '0::/system.slice/app.service',
    });
    expect(cpuBudget({ cores: 64, cgroupRoot: service, procSelfCgroup: path.join(service, 'proc/self/cgroup') })).toBe(2);
    // A limit on a parent (the pod), none on the container.
    const pod = await cgroupRoot({
      'cgroup.controllers': 'cpu',
      'kubepods/cpu.max': '400000 100000',
      'kubepods/pod1/cpu.max': '300000 100000',
      'kubepods/pod1/c1/cpu.max': 'max 100000',
      'proc/self/cgroup': '0::/kubepods/pod1/c1',
    });
    expect(cpuBudget({ cores: 64, cgroupRoot: pod, procSelfCgroup: path.join(pod, 'proc/self/cgroup') })).toBe(3);
    // cgroup v1 in Docker: /proc/self/cgroup names the host's path, the container's own cgroup is mounted at the root.
    const docker = await cgroupRoot({
      'cpu,cpuacct/cpu.cfs_quota_us': '200000',
      'cpu,cpuacct/cpu.cfs_period_us': '100000',
      'proc/self/cgroup': '12:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n1:name=systemd:/docker/abc',
    });
    expect(cpuBudget({ cores: 64, cgroupRoot: docker, procSelfCgroup: path.join(docker, 'proc/self/cgroup') })).toBe(2);
  });

  it('reads no quota in cgroup v2 "max", and the cores count', async () => {
    const root = await cgroupRoot({ 'cpu.max': 'max 100000' });
    expect(cgroupCpuQuota(root, none)).toBeNull();
    expect(cpuBudget({ cores: 8, cgroupRoot: root, procSelfCgroup: none })).toBe(8);
  });

  it('reads a cgroup v1 quota, and -1 as none', async () => {
    expect(cpuBudget({ cores: 16, procSelfCgroup: none, cgroupRoot: await cgroupRoot({ 'cpu/cpu.cfs_quota_us': '300000', 'cpu/cpu.cfs_period_us': '100000' }) })).toBe(3);
    expect(cpuBudget({ cores: 16, procSelfCgroup: none, cgroupRoot: await cgroupRoot({ 'cpu,cpuacct/cpu.cfs_quota_us': '150000', 'cpu,cpuacct/cpu.cfs_period_us': '100000' }) })).toBe(2);
    expect(cpuBudget({ cores: 16, procSelfCgroup: none, cgroupRoot: await cgroupRoot({ 'cpu/cpu.cfs_quota_us': '-1', 'cpu/cpu.cfs_period_us': '100000' }) })).toBe(16);
  });

  it('counts the cores when no cgroup file can be read or one holds nonsense', async () => {
    expect(cpuBudget({ cores: 6, procSelfCgroup: none, cgroupRoot: path.join(os.tmpdir(), 'no-such-cgroup-root') })).toBe(6);
    expect(cpuBudget({ cores: 6, procSelfCgroup: none, cgroupRoot: await cgroupRoot({ 'cpu.max': 'garbage' }) })).toBe(6);
    // On this machine, whatever its cgroups: at least one, at most the cores.
    expect(cpuBudget()).toBeGreaterThanOrEqual(1);
    expect(cpuBudget()).toBeLessThanOrEqual(os.availableParallelism());
  });
});

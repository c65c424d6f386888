import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';

/**
 * The CPUs this process may use: the ones it may run on (`os.availableParallelism()`), capped by a
 * cgroup CPU quota (`docker run --cpus 2`, a Kubernetes CPU limit, systemd's `CPUQuota=`). Node 20's
 * libuv (1.46) does not read the quota; libuv 1.49 (Node 22.12) reads cgroup v2's too. A fractional
 * quota is rounded up, as Go's runtime and the JVM do: a 1.5-CPU container may run two threads at once
 * for part of each period. Thread pools sized by CPU count (sentence encoder, attachment readers) use
 * it, so a container limited to two CPUs on a 64-core host does not start 32 threads of ~200 MB each.
 */
export function cpuBudget(options: { cores?: number; cgroupRoot?: string; procSelfCgroup?: string } = {}): number {
  const cores = options.cores ?? availableParallelism();
  const quota = cgroupCpuQuota(options.cgroupRoot ?? '/sys/fs/cgroup', options.procSelfCgroup ?? '/proc/self/cgroup');
  return quota === null ? cores : Math.max(1, Math.min(cores, Math.ceil(quota - 1e-9)));
}

const read = (file: string) => {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
};

/**
 * The smallest CPU quota, in CPUs (1.5 for `--cpus 1.5`), on the process's own cgroup and its parents,
 * or null when there is none or none can be read. The process's cgroup comes from /proc/self/cgroup
 * (cgroup v2's `0::/path`, or v1's line naming the `cpu` controller) and is looked for under the mount
 * root; where it is not there (a container sees its own cgroup at the root: Docker's and Kubernetes's
 * cgroup namespace on v2, their bind mount on v1), the root's files count.
 */
export function cgroupCpuQuota(root: string, procSelfCgroup = '/proc/self/cgroup'): number | null {
  const lines = (read(procSelfCgroup) ?? '').split('\n').map((l) => l.split(':'));
  const v2Path = lines.find(([id, controllers]) => id === '0' && controllers === '')?.[2];
  const v1Path = lines.find(([, controllers]) => controllers?.split(',').includes('cpu'))?.[2];
  if (read(path.join(root, 'cgroup.controllers')) !== null || read(path.join(root, 'cpu.max')) !== null) {
    // cgroup v2: "<quota> <period>", or "max <period>" for none.
    return smallest(root, v2Path, (dir) => {
      const [quota, period] = (read(path.join(dir, 'cpu.max')) ?? '').split(/\s+/);
      return ratio(quota, period);
    });
  }
  // cgroup v1: the quota is -1 for none.
  for (const mount of ['cpu', 'cpu,cpuacct', 'cpuacct,cpu']) {
    const dir = path.join(root, mount);
    if (read(path.join(dir, 'cpu.cfs_period_us')) === null) continue;
    return smallest(dir, v1Path, (d) => ratio(read(path.join(d, 'cpu.cfs_quota_us')) ?? undefined, read(path.join(d, 'cpu.cfs_period_us')) ?? undefined));
  }
  return null;
}

/** The smallest quota on `own` (a cgroup path) and its parents under `mount`, the mount itself included. */
function smallest(mount: string, own: string | undefined, quotaOf: (dir: string) => number | null): number | null {
  const parts = (own ?? '/').split('/').filter(Boolean);
  let least: number | null = null;
  for (let depth = parts.length; depth >= 0; depth--) {
    const quota = quotaOf(path.join(mount, ...parts.slice(0, depth)));
    if (quota !== null && (least === null || quota < least)) least = quota;
  }
  return least;
}

function ratio(quota: string | undefined, period: string | undefined): number | null {
  const q = Number(quota);
  const p = Number(period);
  return Number.isFinite(q) && Number.isFinite(p) && q > 0 && p > 0 ? q / p : null;
}

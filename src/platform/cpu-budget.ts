import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';

/**
 * The CPUs this process may use: the ones it may run on (`os.availableParallelism()`), capped by a
 * container's CPU quota (`docker run --cpus 2`, a Kubernetes CPU limit). Node 20's libuv (1.46) does
 * not read the quota; libuv 1.49 (Node 22.12) does, the same way as here: cgroup v2's `cpu.max`, else
 * v1's `cpu.cfs_quota_us` over `cpu.cfs_period_us`, a fractional quota rounded down, at least one.
 * Thread pools sized by core count (sentence encoder, attachment readers) use it, so a container
 * limited to two CPUs on a 64-core host does not start 32 threads of ~200 MB each.
 */
export function cpuBudget(options: { cores?: number; cgroupRoot?: string } = {}): number {
  const cores = options.cores ?? availableParallelism();
  const quota = cgroupCpuQuota(options.cgroupRoot ?? '/sys/fs/cgroup');
  return quota === null ? cores : Math.max(1, Math.min(cores, Math.floor(quota)));
}

/**
 * The container's CPU quota in CPUs (1.5 for `--cpus 1.5`), or null when there is none or it cannot be
 * read. Read where a container sees its own cgroup: the root of the cgroup mount (Docker and Kubernetes
 * give a container a cgroup namespace of its own on cgroup v2, and mount its cgroup there on v1).
 */
export function cgroupCpuQuota(root: string): number | null {
  const read = (file: string) => {
    try {
      return readFileSync(path.join(root, file), 'utf8').trim();
    } catch {
      return null;
    }
  };
  // cgroup v2: "<quota> <period>", or "max <period>" for none.
  const v2 = read('cpu.max');
  if (v2 !== null) {
    const [quota, period] = v2.split(/\s+/);
    return ratio(quota, period);
  }
  // cgroup v1: the quota is -1 for none.
  for (const dir of ['cpu', 'cpu,cpuacct', 'cpuacct,cpu']) {
    const quota = read(`${dir}/cpu.cfs_quota_us`);
    if (quota !== null) return ratio(quota, read(`${dir}/cpu.cfs_period_us`) ?? undefined);
  }
  return null;
}

function ratio(quota: string | undefined, period: string | undefined): number | null {
  const q = Number(quota);
  const p = Number(period);
  return Number.isFinite(q) && Number.isFinite(p) && q > 0 && p > 0 ? q / p : null;
}

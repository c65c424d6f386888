import { readdirSync, readFileSync } from 'node:fs';

/**
 * The CPU time (user + system, ms) a process and all its descendants used so far, from /proc
 * (Linux; 0 elsewhere). The floor runs under tsx's launcher, so its server is a child of the pid we hold; the app is that pid itself.
 */
export function processTreeCpuMs(pid: number, withReaped = false): number {
  const ticksPerSecond = 100; // USER_HZ: 100 on every Linux kernel build we run on
  let total = 0;
  const visit = (p: number) => {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
      // The children it has reaped (a database server's ended connections), for the root only.
      if (withReaped && p === pid) total += ((Number(fields[13]) + Number(fields[14])) * 1000) / ticksPerSecond;
      for (const task of readdirSync(`/proc/${p}/task`)) {
        for (const child of readFileSync(`/proc/${p}/task/${task}/children`, 'utf8').split(' ').filter(Boolean)) visit(Number(child));
      }
    } catch {
      // Not Linux, or the process is gone.
    }
  };
  visit(pid);
  return total;
}

/** The parent of a PostgreSQL backend (its postmaster) when the server runs on this machine, else null. */
export function postmasterOf(backendPid: number): number | null {
  try {
    const parent = /^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${backendPid}/status`, 'utf8'));
    return parent ? Number(parent[1]) : null;
  } catch {
    return null;
  }
}

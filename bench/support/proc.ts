import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** CPU accounting of other processes on this machine, from /proc (Linux). */

export const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** utime, stime, cutime, cstime (clock ticks) and the parent of a process, from /proc. */
export function procStat(pid: number): { ppid: number; own: number; children: number } | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), own: Number(f[11]) + Number(f[12]), children: Number(f[13]) + Number(f[14]) };
  } catch {
    return undefined;
  }
}

/** A process's own CPU time so far (user + system), in µs; undefined when /proc does not show it. */
export function processCpuMicros(pid: number): number | undefined {
  const stat = procStat(pid);
  return stat ? (stat.own * 1e6) / TICKS_PER_SECOND : undefined;
}

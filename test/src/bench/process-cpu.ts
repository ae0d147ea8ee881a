import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time of processes read from /proc: user plus system time of every thread,
 * the ones that already ended included. Unlike throughput it barely moves when
 * other work shares the machine, so it is what the benchmark compares.
 */
const CLOCK_TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** The fields of /proc/<pid>/stat after `(comm)`, which may itself hold spaces and parentheses. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** Microseconds of CPU the process has used so far. */
export function cpuMicros(pid: number): number {
  const fields = statFields(pid);
  if (!fields) throw new Error(`process ${pid} is gone`);
  // Fields 14 and 15 of stat (utime, stime) sit at 11 and 12 once pid, comm and state are cut off.
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1e6) / CLOCK_TICKS_PER_SECOND;
}

/** The running children of a process, by the script each runs (argv[1]). */
export function childrenByScript(parentPid: number): Map<string, number> {
  const children = new Map<string, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (Number(statFields(pid)?.[1]) !== parentPid) continue;
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (argv[1]) children.set(argv[1], pid);
    } catch {
      // It ended while the table was read.
    }
  }
  return children;
}

/** CPU used by named processes between start() and the returned stop(). */
export function cpuMeter(pids: Record<string, number>): () => Record<string, number> {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMicros(pid)]));
  return () => Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMicros(pid) - before[name]]));
}

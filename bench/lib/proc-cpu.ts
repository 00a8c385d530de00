import fs from 'node:fs';

const CLK_TCK = 100;

/** CPU time (ms) of these processes so far (user + system, from /proc; a process gone counts 0) */
export function procCpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(f[11]) + Number(f[12]);
    } catch {
      /* gone or not readable */
    }
  }
  return (ticks * 1000) / CLK_TCK;
}

/** the machine's CPU ticks so far (/proc/stat): all, and all but idle and iowait */
export function machineTicks(): { total: number; busy: number } {
  try {
    const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
    const total = f.reduce((a, b) => a + b, 0);
    return { total, busy: total - f[3] - f[4] };
  } catch {
    return { total: 0, busy: 0 };
  }
}

/** how busy the whole machine was between two machineTicks() readings, in percent */
export function busyPercent(a: { total: number; busy: number }, b: { total: number; busy: number }): number {
  return b.total > a.total ? (100 * (b.busy - a.busy)) / (b.total - a.total) : 0;
}

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

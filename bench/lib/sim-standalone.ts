/**
 * The standalone simulator (`npm run smsc-sim` = server/modules/smsc/sim-main.ts) as a child
 * process, started with node directly so that signals reach it: settings through SMSC_SIM_*, the
 * URL from its {"event":"listening"} line, the counters through SIGUSR2 + its counts file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import type { SimulatorCounts } from '../../server/modules/smsc/simulator';

/** what sim-main.ts writes to its counts file: the simulator's own counters (refs left out here) */
export type StandaloneCounts = SimulatorCounts;

export interface StandaloneSim {
  url: string;
  child: ChildProcess;
  counts(): Promise<StandaloneCounts>;
  close(): Promise<void>;
}

const root = path.resolve(import.meta.dirname, '../..');

export async function startStandaloneSim(env: Record<string, string>): Promise<StandaloneSim> {
  const countsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'smsc-sim-')), 'counts.json');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/modules/smsc/sim-main.ts')], {
    cwd: root,
    env: { ...process.env, SMSC_SIM_PORT: '0', SMSC_SIM_COUNTS_FILE: countsFile, SMSC_SIM_COUNTS_REFS: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const waiters: ((e: { event: string; url?: string }) => void)[] = [];
  readline.createInterface({ input: child.stdout! }).on('line', (line) => {
    let e: { event: string; url?: string };
    try {
      e = JSON.parse(line);
    } catch {
      return;
    }
    for (const w of waiters.splice(0)) w(e);
  });
  const next = (event: string, timeoutMs = 60_000) =>
    new Promise<{ event: string; url?: string }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`simulator: no "${event}" after ${timeoutMs} ms`)), timeoutMs);
      const wait = (e: { event: string; url?: string }) => {
        if (e.event !== event) return void waiters.push(wait);
        clearTimeout(timer);
        resolve(e);
      };
      waiters.push(wait);
    });
  const listening = await Promise.race([
    next('listening'),
    new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`simulator exited (${code})`)))),
  ]);
  return {
    url: listening.url!,
    child,
    async counts() {
      const got = next('counts');
      child.kill('SIGUSR2');
      await got;
      return JSON.parse(fs.readFileSync(countsFile, 'utf8')) as StandaloneCounts;
    },
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(path.dirname(countsFile), { recursive: true, force: true });
    },
  };
}

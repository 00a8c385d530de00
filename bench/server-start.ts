/**
 * Server start with existing data: start the server once to create and seed a data directory,
 * stop it, then time five restarts from spawn to the first answered /api/login/timeout.
 * Target: under 3 s.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-start-'));
const port = 18000 + Math.floor(Math.random() * 1000);

async function startOnce(): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/login/timeout`);
        if (res.ok) return performance.now() - t0;
      } catch {
        /* not up yet */
      }
      if (performance.now() - t0 > 60_000) throw new Error('server did not start in 60 s');
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

const first = await startOnce();
console.log(`first start (migrations + seed): ${(first / 1000).toFixed(2)} s`);
const times: number[] = [];
for (let i = 0; i < 5; i++) times.push(await startOnce());
times.sort((a, b) => a - b);
console.log(
  `start with existing data: median ${(times[2] / 1000).toFixed(2)} s, max ${(times[4] / 1000).toFixed(2)} s (target < 3 s)`,
);
fs.rmSync(dataDir, { recursive: true, force: true });
process.exitCode = times[4] < 3000 ? 0 : 1;

/**
 * GET /api/login/timeout with a logged-in session at 200 concurrent connections on loopback
 * (autocannon, 10 s). Prints p50/p99 latency and requests/s. Target: p99 under 5 ms.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

const root = path.resolve(import.meta.dirname, '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-session-'));
const port = 19000 + Math.floor(Math.random() * 1000);
const base = `http://127.0.0.1:${port}`;
const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
  cwd: root,
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'production' },
  stdio: 'ignore',
});

try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/api/login/timeout`)).ok) break;
    } catch {
      /* starting */
    }
    if (i > 3000) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 20));
  }
  const { loginCookies } = await import('./lib/login');
  const cookie = await loginCookies(base, 'agent1', 'Demo1234');

  const duration = Number(process.env.BENCH_SECONDS ?? 10);
  // warm-up
  await autocannon({ url: `${base}/api/login/timeout`, connections: 20, duration: 2, headers: { cookie } });
  const r = await autocannon({ url: `${base}/api/login/timeout`, connections: 200, duration, headers: { cookie } });
  console.log(
    `GET /api/login/timeout, 200 connections, ${duration} s: p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, ` +
      `${Math.round(r.requests.average)} requests/s, ${r.non2xx} non-2xx, ${r.errors} errors (target p99 < 5 ms)`,
  );
  process.exitCode = r.latency.p99 < 5 && r.errors === 0 && r.non2xx === 0 ? 0 : 1;
} finally {
  child.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
}

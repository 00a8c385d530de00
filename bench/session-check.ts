/**
 * GET /api/login/timeout with a logged-in session over 200 concurrent keep-alive connections on
 * loopback. Target: p99 under 5 ms.
 *
 * Latency is measured open-loop (bench/lib/open-loop.ts): requests are sent on a fixed schedule,
 * spread over the 200 connections, and each one's latency counts from its scheduled time. The
 * figure judged is at BENCH_RATE requests/s (default 10,000: 50 checks a second on each of the 200
 * connections; the console asks once per route change). A sweep of rates shows where the p99
 * leaves the target. Last, for reference, a closed-loop run (autocannon, every connection always
 * busy) prints the saturation throughput; its latency is queueing (200 in flight / throughput),
 * not the cost of a check.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { loginCookies } from './lib/login';
import { openLoop, type OpenLoopResult } from './lib/open-loop';

const root = path.resolve(import.meta.dirname, '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-session-'));
const port = 19000 + Math.floor(Math.random() * 1000);
const base = `http://127.0.0.1:${port}`;
const route = '/api/login/timeout';
const connections = 200;
const targetRate = Number(process.env.BENCH_RATE ?? 10_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
  },
  stdio: 'ignore',
});

const ms = (v: number) => v.toFixed(2);
const line = (r: OpenLoopResult) =>
  `${String(r.rate).padStart(6)} req/s offered: p50 ${ms(r.p50)} ms, p99 ${ms(r.p99)} ms, max ${ms(r.max)} ms, ` +
  `${Math.round(r.throughput)} answered/s, ${r.non2xx} non-2xx, ${r.errors} errors`;

try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}${route}`)).ok) break;
    } catch {
      /* starting */
    }
    if (i > 3000) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 20));
  }
  const cookie = await loginCookies(base, 'agent1', 'Demo1234');
  const headers = { cookie };
  const check = await (await fetch(`${base}${route}`, { headers })).json();
  if (check.data !== true) throw new Error('the benchmark session is not logged in');

  await openLoop({ origin: base, path: route, headers, connections, rate: 5000, durationMs: 3000 }); // warm-up
  console.log(`GET ${route}, ${connections} connections, open loop, ${seconds} s per rate:`);
  let judged: OpenLoopResult | undefined;
  for (const rate of [...new Set([2000, 5000, targetRate, 15_000, 20_000])].sort((a, b) => a - b)) {
    const r = await openLoop({ origin: base, path: route, headers, connections, rate, durationMs: seconds * 1000 });
    console.log(`  ${line(r)}${rate === targetRate ? '  <- judged' : ''}`);
    if (rate === targetRate) judged = r;
  }

  const c = await autocannon({ url: `${base}${route}`, connections, duration: seconds, headers });
  console.log(
    `closed loop (autocannon, every connection always busy), for reference: ${Math.round(c.requests.average)} requests/s at saturation, ` +
      `p50 ${c.latency.p50} ms, p99 ${c.latency.p99} ms (queueing: ${connections} in flight / throughput), ${c.non2xx} non-2xx, ${c.errors} errors`,
  );

  const ok =
    !!judged && judged.p99 < 5 && judged.errors === 0 && judged.non2xx === 0 && judged.completed === judged.sent;
  console.log(
    `p99 at ${targetRate} req/s over ${connections} connections: ${ms(judged!.p99)} ms (target < 5 ms) ${ok ? 'met' : 'NOT met'}`,
  );
  process.exitCode = ok ? 0 : 1;
} finally {
  child.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
}

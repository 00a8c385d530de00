/**
 * Lists under load (issue 23's load figure, issue 28 item 3): the first page of the send-record
 * list (POST /send/getrecords as client1), the task list (POST /send/sendTask as client1) and the
 * sub-account list (POST /client/accounts as agent1), each driven by `CONNECTIONS` (200)
 * concurrent keep-alive connections for `SECONDS` (30) with autocannon (closed loop: every
 * connection sends its next request when the answer arrives), against the real server process
 * (`server/main.ts` with its demo data and its in-process dispatcher, NODE_ENV=production), on the
 * embedded PGlite and on PostgreSQL (a fresh database on DATABASE_URL / TEST_DATABASE_URL,
 * dropped afterwards). Printed per list: requests/s, p50 / p99 / max latency, non-2xx answers and
 * errors, and the server process's resident memory before and after; the whole series runs
 * `RUNS` (2) times so that memory growth across repeated runs shows.
 *
 *   TEST_DATABASE_URL=postgres://sms:sms@127.0.0.1:5432/postgres npx tsx bench/list-load.ts
 *   ONLY=pglite SECONDS=10 npx tsx bench/list-load.ts
 *
 * Targets (issue 28): PostgreSQL ≥ 2,000 requests/s with p99 < 100 ms; PGlite p99 < 1 s (one
 * connection: every statement of every request waits its turn).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { pgAdmin } from './lib/pg-admin';
import { loginCookies } from './lib/login';

const root = path.resolve(import.meta.dirname, '..');
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 200);
const SECONDS = Number(process.env.SECONDS ?? 30);
const RUNS = Number(process.env.RUNS ?? 2);
const pgUrl = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || '';
const only = process.env.ONLY;

interface Target {
  name: string;
  user: string;
  path: string;
  body: Record<string, unknown>;
}

const TARGETS: Target[] = [
  { name: 'send records (发送记录)', user: 'client1', path: '/api/send/getrecords', body: { page: 1, rows: 10 } },
  { name: 'tasks (任务列表)', user: 'client1', path: '/api/send/sendTask', body: { page: 1, rows: 10 } },
  { name: 'sub-accounts (子账户)', user: 'agent1', path: '/api/client/accounts', body: { currentPage: 1, pageSize: 10 } },
];

const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : 0;
};

async function waitUp(base: string, child: ChildProcess) {
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`);
    try {
      if ((await fetch(`${base}/api/login/timeout`)).ok) return;
    } catch {
      /* starting */
    }
    if (i > 6000) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function run(backend: 'pglite' | 'postgres') {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-lists-'));
  const dbName = `bench_lists_${process.pid}`;
  let databaseUrl = '';
  if (backend === 'postgres') {
    await pgAdmin(pgUrl, `create database ${dbName}`);
    const u = new URL(pgUrl);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
  }
  const port = 19000 + Math.floor(Math.random() * 1000);
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    // SMPP_SERVER_PORT 0: the customer SMPP server stays off (its fixed port 2775 may be taken: the server would exit)
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', NODE_ENV: 'production', SMPP_SERVER_PORT: '0' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitUp(base, child);
    const sessions = new Map<string, Record<string, string>>();
    for (const user of new Set(TARGETS.map((t) => t.user))) {
      const cookie = await loginCookies(base, user, 'Demo1234');
      const xsrf = /(?:^|; )XSRF-TOKEN=([^;]*)/.exec(cookie)?.[1] ?? '';
      sessions.set(user, { cookie, 'x-xsrf-token': decodeURIComponent(xsrf), 'content-type': 'application/json' });
    }
    for (const t of TARGETS) {
      const r = await fetch(`${base}${t.path}`, { method: 'POST', headers: sessions.get(t.user)!, body: JSON.stringify(t.body) });
      const b = await r.json();
      if (b.code !== 0) throw new Error(`${t.path}: ${JSON.stringify(b).slice(0, 200)}`);
    }
    console.log(`\n${backend}: ${CONNECTIONS} connections, ${SECONDS} s per list, ${RUNS} runs; server rss at start ${rssMb(child.pid!)} MB`);
    for (let run = 1; run <= RUNS; run++) {
      for (const t of TARGETS) {
        const before = rssMb(child.pid!);
        const r = await autocannon({ url: `${base}${t.path}`, method: 'POST', headers: sessions.get(t.user)!, body: JSON.stringify(t.body), connections: CONNECTIONS, duration: SECONDS });
        const after = rssMb(child.pid!);
        console.log(
          `  run ${run} ${t.name.padEnd(24)} ${String(Math.round(r.requests.average)).padStart(6)} req/s  p50 ${String(r.latency.p50).padStart(5)} ms  p99 ${String(r.latency.p99).padStart(5)} ms  max ${String(r.latency.max).padStart(6)} ms  ` +
            `non-2xx ${r.non2xx}  errors ${r.errors}  timeouts ${r.timeouts}  rss ${before} → ${after} MB`,
        );
      }
    }
  } finally {
    // (a server that has already exited never emits 'exit' again: waiting for it would hang the bench)
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    if (backend === 'postgres') await pgAdmin(pgUrl, `drop database if exists ${dbName}`).catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (only !== 'postgres') await run('pglite');
if (pgUrl && only !== 'pglite') await run('postgres');
else if (!pgUrl) console.log('postgres: skipped (set DATABASE_URL or TEST_DATABASE_URL)');

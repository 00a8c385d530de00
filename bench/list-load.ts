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
 * On a shared machine requests/s are not a figure of the code: each list also prints the CPU time
 * per request of the server process (utime + stime of /proc/<pid>/stat) and, on PostgreSQL, of the
 * database's backends serving it, the statements per request (PostgreSQL: the database's committed
 * transactions in pg_stat_database; every statement of a list runs in its own), and the throughput
 * those figures allow on an idle machine of `CORES` (2) cores: cores / CPU per request.
 *
 *   TEST_DATABASE_URL=postgres://sms:sms@127.0.0.1:5432/postgres npx tsx bench/list-load.ts
 *   ONLY=pglite SECONDS=10 npx tsx bench/list-load.ts
 *   SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' ONLY=postgres ...   (a CPU profile of the server)
 *
 * Targets (issue 28): PostgreSQL ≥ 2,000 requests/s with p99 < 100 ms; PGlite p99 < 1 s (one
 * connection: every statement of every request waits its turn).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { pgAdmin } from './lib/pg-admin';
import { loginCookies } from './lib/login';

const root = path.resolve(import.meta.dirname, '..');
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 200);
const SECONDS = Number(process.env.SECONDS ?? 30);
const RUNS = Number(process.env.RUNS ?? 2);
const pgUrl = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || '';
const only = process.env.ONLY;
const CORES = Number(process.env.CORES ?? 2);
/**
 * RATE (2000; 0: none): after the closed loop, each list is driven again at this many requests/s
 * in all (autocannon's overallRate, the same connections): the latency at the target's rate. A
 * closed loop of 200 connections cannot show p99 < 100 ms below 2,000 requests/s (each connection
 * waits its answer: mean latency = 200 / throughput), so the target's p99 is read here.
 */
const RATE = Number(process.env.RATE ?? 2000);
/**
 * API_PROCESSES (1): on PostgreSQL, this many server processes share the port (HTTP_REUSE_PORT=1:
 * the kernel spreads the connections), as a deployment that outgrows one process's event loop
 * runs them; CPU and memory are summed over them. PGlite is always one process.
 */
const API_PROCESSES = Math.max(1, Number(process.env.API_PROCESSES ?? 1));
const TICK_MS = 1000 / 100; // USER_HZ: 100 on Linux

/** CPU time (user + system) a process has used so far, in ms; 0 when it is gone */
const cpuMs = (pid: number) => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * TICK_MS;
  } catch {
    return 0;
  }
};

/** PostgreSQL: the backends of the bench database (their CPU time by pid) and its committed statements */
async function pgSnapshot(admin: pg.Client, db: string): Promise<{ cpu: Map<number, number>; xacts: number }> {
  const pids = await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [db]);
  const x = await admin.query<{ n: string }>('select xact_commit + xact_rollback as n from pg_stat_database where datname = $1', [db]);
  return { cpu: new Map(pids.rows.map((r) => [r.pid, cpuMs(r.pid)])), xacts: Number(x.rows[0]?.n ?? 0) };
}

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

const serverCpuMs = (pids: number[]) => pids.reduce((t, p) => t + cpuMs(p), 0);
const serverRssMb = (pids: number[]) => pids.reduce((t, p) => t + rssMb(p), 0);

async function stopAll(children: ChildProcess[]) {
  // (a server that has already exited never emits 'exit' again: waiting for it would hang the bench)
  await Promise.all(
    children
      .filter((c) => c.exitCode === null && c.signalCode === null)
      .map((c) => {
        const exited = new Promise((r) => c.once('exit', r));
        c.kill('SIGTERM');
        return exited;
      }),
  );
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
  const processes = backend === 'postgres' ? API_PROCESSES : 1;
  const start = () =>
    spawn(process.execPath, [...(process.env.SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []), '--import', 'tsx', 'server/main.ts'], {
      cwd: root,
      // SMPP_SERVER_PORT 0: the customer SMPP server stays off (its fixed port 2775 may be taken: the server would exit)
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
        SMPP_SERVER_PORT: '0',
        HTTP_REUSE_PORT: processes > 1 ? '1' : '0',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  const children: ChildProcess[] = [];
  // one at a time: the first makes the schema and the demo data, the others find them
  for (let i = 0; i < processes; i++) {
    const c = start();
    children.push(c);
    await waitUp(base, c).catch(async (e) => {
      await stopAll(children);
      throw e;
    });
  }
  const child = { pids: children.map((c) => c.pid!) };
  try {
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
    let admin: pg.Client | undefined;
    if (backend === 'postgres') {
      admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
    }
    // what the server and its database do without requests (the dispatcher's polls, timers): measured
    // for IDLE_SECONDS and taken off each list's figures, so that they are per request
    const IDLE_SECONDS = Number(process.env.IDLE_SECONDS ?? 3);
    // the processes settle first (module compilation, the dispatcher's first rounds, a second process's start)
    await new Promise((res) => setTimeout(res, Number(process.env.SETTLE_SECONDS ?? 5) * 1000));
    const idleCpu0 = serverCpuMs(child.pids);
    const idlePg0 = admin ? await pgSnapshot(admin, dbName) : undefined;
    await new Promise((res) => setTimeout(res, IDLE_SECONDS * 1000));
    const idleCpuPerS = (serverCpuMs(child.pids) - idleCpu0) / IDLE_SECONDS;
    if (admin) await new Promise((res) => setTimeout(res, 1500));
    const idlePg1 = admin ? await pgSnapshot(admin, dbName) : undefined;
    let idlePgPerS = 0;
    let idleXactsPerS = 0;
    if (idlePg0 && idlePg1) {
      for (const [pid, ms] of idlePg1.cpu) idlePgPerS += ms - (idlePg0.cpu.get(pid) ?? 0);
      idlePgPerS /= IDLE_SECONDS + 1.5;
      idleXactsPerS = (idlePg1.xacts - idlePg0.xacts) / (IDLE_SECONDS + 1.5);
    }
    console.log(
      `\n${backend}: idle server ${idleCpuPerS.toFixed(1)} ms CPU/s${admin ? `, postgres ${idlePgPerS.toFixed(1)} ms CPU/s and ${idleXactsPerS.toFixed(1)} statements/s` : ''} (taken off the per-request figures)`,
    );
    console.log(
      `${backend}: ${CONNECTIONS} connections, ${SECONDS} s per list, ${RUNS} runs; ${processes > 1 ? `${processes} server processes on the port, ` : ''}server rss at start ${serverRssMb(child.pids)} MB`,
    );
    /** the list's first page from CONNECTIONS keep-alive connections, closed loop or at an overall rate */
    const drive = (t: Target, o: { duration: number; overallRate?: number }) =>
      autocannon({ url: `${base}${t.path}`, method: 'POST', headers: sessions.get(t.user)!, body: JSON.stringify(t.body), connections: CONNECTIONS, ...o });
    for (let run = 1; run <= RUNS; run++) {
      for (const t of TARGETS) {
        const before = serverRssMb(child.pids);
        const cpu0 = serverCpuMs(child.pids);
        const pg0 = admin ? await pgSnapshot(admin, dbName) : undefined;
        const t0 = Date.now();
        const r = await drive(t, { duration: SECONDS });
        const after = serverRssMb(child.pids);
        const cpu1 = serverCpuMs(child.pids);
        const busyS = (Date.now() - t0) / 1000;
        // the statistics collector publishes a backend's counts within a second of its transactions
        if (admin) await new Promise((res) => setTimeout(res, 1500));
        const pg1 = admin ? await pgSnapshot(admin, dbName) : undefined;
        const n = r.requests.total || 1;
        const nodeMs = Math.max(0, cpu1 - cpu0 - idleCpuPerS * busyS) / n;
        const pgS = busyS + (admin ? 1.5 : 0);
        let dbMs = 0;
        let perReq = '';
        if (pg0 && pg1) {
          for (const [pid, ms] of pg1.cpu) dbMs += ms - (pg0.cpu.get(pid) ?? 0);
          dbMs = Math.max(0, dbMs - idlePgPerS * pgS) / n;
          perReq = `  statements/req ${Math.max(0, (pg1.xacts - pg0.xacts - idleXactsPerS * pgS) / n).toFixed(2)}`;
        }
        const total = nodeMs + dbMs;
        let atRate = '';
        if (RATE > 0) {
          const q = await drive(t, { overallRate: RATE, duration: Math.max(5, Math.round(SECONDS / 2)) });
          atRate = `\n        at ${RATE} req/s offered: ${Math.round(q.requests.average)} req/s answered  p50 ${q.latency.p50} ms  p99 ${q.latency.p99} ms  max ${q.latency.max} ms  non-2xx ${q.non2xx}  errors ${q.errors}  timeouts ${q.timeouts}`;
        }
        console.log(
          `  run ${run} ${t.name.padEnd(24)} ${String(Math.round(r.requests.average)).padStart(6)} req/s  p50 ${String(r.latency.p50).padStart(5)} ms  p99 ${String(r.latency.p99).padStart(5)} ms  max ${String(r.latency.max).padStart(6)} ms  ` +
            `non-2xx ${r.non2xx}  errors ${r.errors}  timeouts ${r.timeouts}  rss ${before} → ${after} MB\n` +
            `        cpu/req: server ${nodeMs.toFixed(3)} ms${pg1 ? ` + postgres ${dbMs.toFixed(3)} ms` : ''} = ${total.toFixed(3)} ms${perReq}  ` +
            `→ idle ${CORES} cores ≈ ${Math.round((CORES * 1000) / total)} req/s${atRate}`,
        );
      }
    }
    await admin?.end();
  } finally {
    await stopAll(children);
    if (backend === 'postgres') await pgAdmin(pgUrl, `drop database if exists ${dbName}`).catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (only !== 'postgres') await run('pglite');
if (pgUrl && only !== 'pglite') await run('postgres');
else if (!pgUrl) console.log('postgres: skipped (set DATABASE_URL or TEST_DATABASE_URL)');

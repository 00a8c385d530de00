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
 * those figures allow on an idle machine of `CORES` (2) cores: cores / CPU per request. The load
 * generator's own CPU per request (autocannon or the open loop, in this process, on the same cores)
 * and how busy the whole machine was during each run are printed too: the latency follows the
 * machine's load.
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
import { openLoop } from './lib/open-loop';
import { busyPercent, machineTicks } from './lib/proc-cpu';

const root = path.resolve(import.meta.dirname, '..');
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 200);
const SECONDS = Number(process.env.SECONDS ?? 30);
const RUNS = Number(process.env.RUNS ?? 2);
const pgUrl = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || '';
const only = process.env.ONLY;
const CORES = Number(process.env.CORES ?? 2);
/**
 * RATE (2000; 0: none): after the closed loop, each list is driven again open loop at this many
 * requests/s on PostgreSQL, evenly spaced, each request's latency measured from the time it was
 * due (bench/lib/open-loop.ts, as bench/session-check.ts; autocannon's overallRate gives each
 * connection a budget per second that it spends as a closed loop from the second's start, so a
 * second's requests arrive as one burst): the latency at the target's rate. A closed loop of 200
 * connections cannot show p99 < 100 ms below 2,000 requests/s (each connection waits its answer:
 * mean latency = 200 / throughput).
 * PGLITE_RATE (0: none): the same on PGlite. Its target is p99 < 1 s under the closed loop; it
 * answers a few hundred requests/s, and an open loop above what a server can answer only measures
 * the backlog that grows.
 */
const RATE = Number(process.env.RATE ?? 2000);
const PGLITE_RATE = Number(process.env.PGLITE_RATE ?? 0);
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
  const x = await admin.query<{ n: string }>(
    'select xact_commit + xact_rollback as n from pg_stat_database where datname = $1',
    [db],
  );
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
  {
    name: 'sub-accounts (子账户)',
    user: 'agent1',
    path: '/api/client/accounts',
    body: { currentPage: 1, pageSize: 10 },
  },
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
    spawn(
      process.execPath,
      [...(process.env.SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []), '--import', 'tsx', 'server/main.ts'],
      {
        cwd: root,
        // SMPP_SERVER_PORT / CMPP_SERVER_PORT / SMGP_SERVER_PORT 0: the customer doors stay off (their fixed ports 2775 / 7890 / 8890 may be taken: the server would exit)
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          DATABASE_URL: databaseUrl,
          LOG_LEVEL: 'warn',
          NODE_ENV: 'production',
          SMPP_SERVER_PORT: '0',
          CMPP_SERVER_PORT: '0',
          SMGP_SERVER_PORT: '0',
          SGIP_SERVER_PORT: '0',
          HTTP_REUSE_PORT: processes > 1 ? '1' : '0',
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
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
      const r = await fetch(`${base}${t.path}`, {
        method: 'POST',
        headers: sessions.get(t.user)!,
        body: JSON.stringify(t.body),
      });
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
    /**
     * The list's first page from CONNECTIONS keep-alive connections, closed loop (autocannon) or
     * open loop at a rate (openLoop); with the load generator's own CPU per request (it runs in
     * this process, on the same cores) and how busy the whole machine was (/proc/stat), which the
     * latency follows. The open loop has no timeout of its own: its `timeouts` is undefined.
     */
    const drive = async (t: Target, o: { duration: number; rate?: number }) => {
      const c0 = process.cpuUsage();
      const m0 = machineTicks();
      const headers = sessions.get(t.user)!;
      const body = JSON.stringify(t.body);
      const r = o.rate
        ? await openLoop({
            origin: base,
            path: t.path,
            method: 'POST',
            headers,
            body,
            rate: o.rate,
            durationMs: o.duration * 1000,
            connections: CONNECTIONS,
          }).then((q) => ({
            sent: q.sent,
            answered: q.completed,
            perSecond: q.throughput,
            p50: Math.round(q.p50),
            p99: Math.round(q.p99),
            max: Math.round(q.max),
            non2xx: q.non2xx,
            errors: q.errors,
            timeouts: undefined as number | undefined,
          }))
        : await autocannon({
            url: `${base}${t.path}`,
            method: 'POST',
            headers,
            body,
            connections: CONNECTIONS,
            duration: o.duration,
          }).then((a) => ({
            sent: a.requests.sent,
            answered: a.requests.total,
            perSecond: a.requests.average,
            p50: a.latency.p50,
            p99: a.latency.p99,
            max: a.latency.max,
            non2xx: a.non2xx,
            errors: a.errors,
            timeouts: a.timeouts,
          }));
      const c = process.cpuUsage(c0);
      const m1 = machineTicks();
      const busy = busyPercent(m0, m1);
      return { r, driverMs: (c.user + c.system) / 1000 / (r.answered || 1), busy };
    };
    const load = (d: { driverMs: number; busy: number }) =>
      `load generator ${d.driverMs.toFixed(3)} ms/req, machine ${d.busy.toFixed(0)} % busy`;
    for (let run = 1; run <= RUNS; run++) {
      for (const t of TARGETS) {
        const before = serverRssMb(child.pids);
        const cpu0 = serverCpuMs(child.pids);
        const pg0 = admin ? await pgSnapshot(admin, dbName) : undefined;
        const t0 = Date.now();
        const closed = await drive(t, { duration: SECONDS });
        const r = closed.r;
        const after = serverRssMb(child.pids);
        const cpu1 = serverCpuMs(child.pids);
        const busyS = (Date.now() - t0) / 1000;
        // the statistics collector publishes a backend's counts within a second of its transactions
        if (admin) await new Promise((res) => setTimeout(res, 1500));
        const pg1 = admin ? await pgSnapshot(admin, dbName) : undefined;
        const n = r.answered || 1;
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
        const rate = backend === 'postgres' ? RATE : PGLITE_RATE;
        if (rate > 0) {
          const d = await drive(t, { rate, duration: Math.max(5, Math.round(SECONDS / 2)) });
          const q = d.r;
          atRate = `\n        at ${rate} req/s offered (open loop): ${Math.round(q.perSecond)} req/s answered  p50 ${q.p50} ms  p99 ${q.p99} ms  max ${q.max} ms  non-2xx ${q.non2xx}  errors ${q.errors}; ${load(d)}`;
        }
        console.log(
          `  run ${run} ${t.name.padEnd(24)} ${String(Math.round(r.perSecond)).padStart(6)} req/s  p50 ${String(r.p50).padStart(5)} ms  p99 ${String(r.p99).padStart(5)} ms  max ${String(r.max).padStart(6)} ms  ` +
            `non-2xx ${r.non2xx}  errors ${r.errors}  timeouts ${r.timeouts}  rss ${before} → ${after} MB\n` +
            `        cpu/req: server ${nodeMs.toFixed(3)} ms${pg1 ? ` + postgres ${dbMs.toFixed(3)} ms` : ''} = ${total.toFixed(3)} ms${perReq}  ` +
            `→ idle ${CORES} cores ≈ ${Math.round((CORES * 1000) / total)} req/s; ${load(closed)}${atRate}`,
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

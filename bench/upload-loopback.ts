/**
 * A 300 MB upload over loopback through the file service (issue 11): the running server
 * (`server/main.ts` on a fresh data directory; PGlite, or PostgreSQL with BENCH_DATABASE_URL: a
 * fresh database is made on that server and dropped after), logged in as client1 through the
 * public login (slider, session cookie, CSRF header on every POST). The client reads the file in
 * 1 MB chunks and posts them 3 at a time over keep-alive HTTP connections as the console does
 * (check → chunks → merge with the MD5 check, then the same file again: reused at once, no byte
 * sent). Each run uploads a new file (one number changed, so a new MD5).
 *
 * Prints per run: the chunks' rate, the merge (the file the server built while the chunks came in,
 * or else the streamed concatenation + MD5; fdatasync; rename), the rate of the whole (the target,
 * ≥ 100 MB/s), and the CPU time per MB of the server process (all its threads), of its PostgreSQL
 * backends (from /proc/<pid>/stat) and of this client, for the chunks, the merge and the whole;
 * then the best and the median over the runs, and the load average (the machine is shared:
 * elapsed figures are noisy, CPU per MB much less).
 *
 *   npx tsx bench/upload-loopback.ts
 *   BENCH_DATABASE_URL=postgres://sms:sms@127.0.0.1:5432/postgres npx tsx bench/upload-loopback.ts
 *
 * BENCH_UPLOAD_MB (300), BENCH_RUNS (3), BENCH_CPU_PROF=<folder> (the server runs with --cpu-prof).
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loginCookies } from './lib/login';

const MB = 1024 * 1024;
const SIZE_MB = Number(process.env.BENCH_UPLOAD_MB ?? 300);
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const PG_URL = process.env.BENCH_DATABASE_URL;
const PROF = process.env.BENCH_CPU_PROF;
const TARGET = 100;
const root = path.resolve(import.meta.dirname, '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-upload-'));
const file = path.join(dataDir, 'numbers.txt');
const port = 19000 + Math.floor(Math.random() * 1000);
const base = `http://127.0.0.1:${port}`;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

// a number file: lines of 11-digit numbers (any bytes would do: the content is checked at merge)
{
  const fd = fs.openSync(file, 'w');
  const block = Buffer.from(
    Array.from({ length: 87_381 }, (_, i) => `1380${String(i).padStart(7, '0')}`).join('\n') + '\n',
  );
  for (let written = 0; written < SIZE_MB * MB; written += block.length)
    fs.writeSync(fd, block, 0, Math.min(block.length, SIZE_MB * MB - written));
  fs.closeSync(fd);
}
const size = fs.statSync(file).size;

/** CPU seconds (user + system) a process has used so far; 0 once it is gone */
const cpuOf = (pid: number) => {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) / 100; // clock ticks (USER_HZ = 100 on Linux)
  } catch {
    return 0;
  }
};
const clientCpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e6;
};

// PostgreSQL: a fresh database; its backends' CPU is read from /proc (same machine)
let admin: pg.Client | undefined;
let dbName = '';
let databaseUrl: string | undefined;
if (PG_URL) {
  admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  dbName = `bench_upload_${process.pid}`;
  await admin.query(`create database ${dbName}`);
  const u = new URL(PG_URL);
  u.pathname = `/${dbName}`;
  databaseUrl = u.toString();
}
const backendPids = async (): Promise<number[]> =>
  admin
    ? (await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [dbName])).rows.map(
        (r) => r.pid,
      )
    : [];
/** CPU of the database backends: sampled before and after (a backend may come during the phase) */
async function dbCpu(): Promise<Map<number, number>> {
  return new Map((await backendPids()).map((p) => [p, cpuOf(p)]));
}
const dbDelta = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((s, [p, c]) => s + c - (before.get(p) ?? 0), 0);

const child = spawn(
  process.execPath,
  [...(PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(PROF)}`] : []), '--import', 'tsx', 'server/main.ts'],
  {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dataDir, 'data'),
      LOG_LEVEL: 'warn',
      DISPATCH: '0',
      DATABASE_URL: databaseUrl ?? '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  },
);

interface Run {
  chunkS: number;
  mergeS: number;
  whole: number;
  server: number;
  serverMerge: number;
  /** server CPU ms per MB of the whole upload (chunks + merge) */
  serverWhole: number;
  db: number;
  dbMerge: number;
  client: number;
  reuseMs: number;
}
const runs: Run[] = [];
try {
  const t0 = performance.now();
  for (;;) {
    try {
      if ((await fetch(`${base}/api/login/timeout`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (performance.now() - t0 > 300_000) throw new Error('server did not start in 300 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  const cookie = await loginCookies(base, 'client1', 'Demo1234');
  const csrf = decodeURIComponent(/XSRF-TOKEN=([^;]*)/.exec(cookie)?.[1] ?? '');
  // keep-alive connections, 3 at most: what a browser holds for the 3 chunks in flight
  const agent = new http.Agent({ keepAlive: true, maxSockets: 3 });
  const post = (url: string, body: Buffer, type: string) =>
    new Promise<{ code: number; msg: string; data: any }>((resolve, reject) => {
      const req = http.request(
        `${base}${url}`,
        {
          method: 'POST',
          agent,
          headers: { cookie, 'x-xsrf-token': csrf, 'content-type': type, 'content-length': body.length },
        },
        (res) => {
          const parts: Buffer[] = [];
          res.on('data', (d: Buffer) => parts.push(d));
          res.on('end', () => {
            try {
              resolve(JSON.parse(Buffer.concat(parts).toString()));
            } catch (e) {
              reject(e);
            }
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const form = async (url: string, body: Record<string, string | number>) => {
    const j = await post(
      url,
      Buffer.from(new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString()),
      'application/x-www-form-urlencoded',
    );
    if (j.code !== 0) throw new Error(`${url}: ${j.msg}`);
    return j.data;
  };

  console.log(
    `upload of ${(size / MB).toFixed(0)} MB over loopback on ${PG_URL ? 'PostgreSQL' : 'PGlite'}, 1 MB chunks, 3 in flight, ${RUNS} run(s); load ${load()}`,
  );
  for (let run = 0; run < RUNS; run++) {
    // a new file each run: its first number changes, so does its MD5
    const fd = await fs.promises.open(file, 'r+');
    await fd.write(Buffer.from(`1390${String(run).padStart(7, '0')}`), 0, 11, 0);
    const md5 = crypto.createHash('md5');
    for await (const b of fs.createReadStream(file, { highWaterMark: 4 * MB })) md5.update(b as Buffer);
    const fileMd5 = md5.digest('hex');
    const key = { fileMd5, fileSize: size };
    const check = await form('/api/file/check', { fileName: 'numbers.txt', ...key });

    const cpu0 = cpuOf(child.pid!);
    const db0 = await dbCpu();
    const cli0 = clientCpu();
    const tUp = performance.now();
    let next = 0;
    const worker = async () => {
      const buf = Buffer.alloc(MB);
      while (next < check.chunks) {
        const i = next++;
        const { bytesRead } = await fd.read(buf, 0, MB, i * MB);
        const j = await post(
          `/api/file/chunk?fileMd5=${fileMd5}&fileSize=${size}&chunk=${i}`,
          buf.subarray(0, bytesRead),
          'application/octet-stream',
        );
        if (j.code !== 0) throw new Error(`chunk ${i}: ${j.msg}`);
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    const upMs = performance.now() - tUp;
    const cpu1 = cpuOf(child.pid!);
    const db1 = await dbCpu();
    const cli1 = clientCpu();
    await fd.close();

    const tMerge = performance.now();
    const merged = await form('/api/file/merge', key);
    const mergeMs = performance.now() - tMerge;
    const cpu2 = cpuOf(child.pid!);
    const db2 = await dbCpu();

    const tReuse = performance.now();
    const again = await form('/api/file/check', { fileName: 'numbers.txt', ...key });
    const reuseMs = performance.now() - tReuse;
    if (!again.uploaded || again.importFilePath !== merged.importFilePath) throw new Error('not reused');
    const mb = size / MB;
    const r: Run = {
      chunkS: upMs / 1000,
      mergeS: mergeMs / 1000,
      whole: mb / ((upMs + mergeMs) / 1000),
      server: ((cpu1 - cpu0) / mb) * 1000,
      serverMerge: cpu2 - cpu1,
      serverWhole: ((cpu2 - cpu0) / mb) * 1000,
      db: (dbDelta(db0, db1) / mb) * 1000,
      dbMerge: dbDelta(db1, db2),
      client: ((cli1 - cli0) / mb) * 1000,
      reuseMs,
    };
    runs.push(r);
    console.log(
      `  run ${run + 1}: chunks ${r.chunkS.toFixed(2)} s (${(mb / r.chunkS).toFixed(0)} MB/s), merge ${r.mergeS.toFixed(2)} s, whole ${r.whole.toFixed(0)} MB/s | CPU per MB of the chunks: server ${r.server.toFixed(2)} ms${PG_URL ? `, PostgreSQL ${r.db.toFixed(2)} ms` : ''}, client ${r.client.toFixed(2)} ms | merge CPU: server ${r.serverMerge.toFixed(2)} s${PG_URL ? `, PostgreSQL ${r.dbMerge.toFixed(2)} s` : ''} | server CPU per MB of the whole ${r.serverWhole.toFixed(2)} ms | reused in ${reuseMs.toFixed(0)} ms | load ${load()}`,
    );
  }
  agent.destroy();
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const best = Math.max(...runs.map((r) => r.whole));
  const med = median(runs.map((r) => r.whole));
  console.log(
    `  whole           : best ${best.toFixed(0)} MB/s, median ${med.toFixed(0)} MB/s (target ≥ ${TARGET}: ${med >= TARGET ? 'met' : best >= TARGET ? 'met by the best run only' : 'NOT met'})`,
  );
  console.log(
    `  chunks          : best ${Math.max(...runs.map((r) => size / MB / r.chunkS)).toFixed(0)} MB/s, median ${median(runs.map((r) => size / MB / r.chunkS)).toFixed(0)} MB/s`,
  );
  console.log(
    `  merge + MD5     : best ${Math.min(...runs.map((r) => r.mergeS)).toFixed(2)} s, median ${median(runs.map((r) => r.mergeS)).toFixed(2)} s`,
  );
  console.log(
    `  chunks CPU / MB : server best ${Math.min(...runs.map((r) => r.server)).toFixed(2)} ms, median ${median(runs.map((r) => r.server)).toFixed(2)} ms (${(1000 / median(runs.map((r) => r.server))).toFixed(0)} MB per server-CPU-second)` +
      (PG_URL ? `; PostgreSQL median ${median(runs.map((r) => r.db)).toFixed(2)} ms` : '') +
      `; client median ${median(runs.map((r) => r.client)).toFixed(2)} ms`,
  );
  console.log(
    `  whole upload    : server CPU per MB best ${Math.min(...runs.map((r) => r.serverWhole)).toFixed(2)} ms, median ${median(runs.map((r) => r.serverWhole)).toFixed(2)} ms (${(1000 / median(runs.map((r) => r.serverWhole))).toFixed(0)} MB per server-CPU-second, chunks + merge)`,
  );
  console.log(`  load average    : ${load()}`);
  if (best < TARGET) process.exitCode = 1;
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  if (admin) {
    await admin.query(`drop database if exists ${dbName} with (force)`).catch(() => undefined);
    await admin.end();
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}

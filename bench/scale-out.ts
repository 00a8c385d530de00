/**
 * Scale-out rehearsal (issue 40): the deployment of docs/architecture.md "Processes" over one
 * PostgreSQL database, under load, with one process of each kind killed and restarted mid-run.
 *
 * 1. a fresh database (`scaleout_<pid>` on TEST_DATABASE_URL / DATABASE_URL; dropped afterwards
 *    unless KEEP=1), migrated and seeded; client1 and client0 as direct-charge customers with money
 *    enough, no review, no speed limit, the sign 好易购 approved;
 * 2. as child processes: the carrier simulator (bench/lib/sim-standalone.ts, as bench/crash.ts:
 *    90 % delivered, 10 % failed, receipts after 50-500 ms, counting every ref it receives);
 *    2 API processes on one port (`server/main.ts`, DISPATCH=0, doors off, HTTP_REUSE_PORT=1: Node
 *    ≥ 22.12, which `npx tsx` runs: the project's `node` package); 2 dispatch workers
 *    (`server/worker.ts`, SMPP_URL to the simulator with our ref in a TLV, short lease); 1 door
 *    process (`server/smpp-server.ts`, SMPP and CMPP door ports). Each has a METRICS_PORT of its
 *    own: /readyz says when it is up;
 * 3. for DURATION seconds (180) at once: the console send path over HTTP (each of SEND_ACCOUNTS
 *    logs in like the console and sends CONSOLE_BATCH fresh numbers as often as the 3 s submit lock
 *    lets it), a door customer over SMPP (bench/lib/smpp-door-load.ts: DOOR_RATE submits/s, window
 *    DOOR_WINDOW, binds again after a drop) and LIST_CONNECTIONS loops over the send-record and
 *    task lists' first page;
 * 4. at KILL_AT (1/3) of the run: SIGKILL to one API process, one dispatch worker and the door
 *    process together, each started again at once; the "restart" phase lasts until all three
 *    answer /readyz;
 * 5. after the run: waits until every message of the run is final and every receipt applied
 *    (stored receipts of unconfirmed messages matched by number after DISPATCH_MATCH_UNCONFIRMED_MS),
 *    stops everything, then checks (bench/lib/settle-checks.ts, shared with crash.ts): every
 *    message in exactly one final state (3, 4, 6, or 1 UNCONFIRMED), unconfirmed ≤ the killed
 *    worker's window × connections, none delivered without reaching the simulator, none received
 *    twice by the simulator, task counters = a recount, sum(ledger) = balance, sum(pool_movements)
 *    = remaining; no HTTP answer 5xx, connection errors only around the kill; every door submit
 *    answered or dropped with its connection by the kill, and the door's and the console's
 *    accepted messages all in the database. Exit code 1 on any violation.
 *
 * Prints the rates by phase (before the kill, during the restart, after): console numbers accepted
 * per second (and sends), door submits accepted, list requests answered, messages completed.
 *
 *   TEST_DATABASE_URL=postgres://sms:sms@127.0.0.1:5432/postgres npx tsx bench/scale-out.ts
 *   DURATION=120 CONSOLE_BATCH=300 DOOR_RATE=150 LIST_CONNECTIONS=2 npx tsx bench/scale-out.ts
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { openDatabase } from '../server/db';
import { seed } from '../server/db/seed';
import { LedgerService } from '../server/modules/ledger/service';
import { NeedReport, OperationMode } from '../common/generated/schemas';
import { approveSign } from './lib/approved-sign';
import { loginCookies } from './lib/login';
import { scratchDatabase } from './lib/pg-admin';
import {
  balanceViolations,
  messageCounts,
  nextTaskId,
  receiptsUnapplied,
  recountTasks,
  runMessages,
  stateSummary,
} from './lib/settle-checks';
import { startStandaloneSim } from './lib/sim-standalone';
import { startDoorLoad } from './lib/smpp-door-load';

const baseUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || '';
if (!baseUrl) {
  console.log('scale-out: skipped (set TEST_DATABASE_URL or DATABASE_URL to a PostgreSQL server)');
  process.exit(0);
}
const DURATION = Number(process.env.DURATION ?? 180);
const KILL_AT = Number(process.env.KILL_AT ?? 1 / 3);
const CONSOLE_BATCH = Number(process.env.CONSOLE_BATCH ?? 200);
const SEND_ACCOUNTS = (process.env.SEND_ACCOUNTS ?? 'client1,client0').split(',').filter(Boolean);
const DOOR_RATE = Number(process.env.DOOR_RATE ?? 100);
const DOOR_WINDOW = Number(process.env.DOOR_WINDOW ?? 50);
const LIST_CONNECTIONS = Number(process.env.LIST_CONNECTIONS ?? 2);
/** how long to wait for everything to settle after the run (s) */
const SETTLE = Number(process.env.SETTLE ?? 180);
/** the dispatch link of each worker: window × connections is what a killed worker may leave unconfirmed */
const WINDOW = 1000;
const CONNECTIONS = 1;
const LEASE_MS = 10_000;
const MATCH_MS = 15_000;
/** connection errors of HTTP clients are allowed from the kill until this long after every process is ready again */
const GRACE_MS = 5_000;

const root = path.resolve(import.meta.dirname, '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scale-out-'));
const violations: string[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** a free TCP port on the loopback */
async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

/**
 * whether net's listen takes `reusePort` (SO_REUSEPORT: Node ≥ 22.12 / 23.1 on Linux); older
 * versions ignore the option and a second process gets EADDRINUSE (a probe within one process
 * cannot tell: its listeners of one address share a handle)
 */
function reusePortWorks(): boolean {
  const [major, minor] = process.versions.node.split('.').map(Number);
  return process.platform === 'linux' && (major > 23 || (major === 23 && minor >= 1) || (major === 22 && minor >= 12));
}

type Kind = 'api' | 'worker' | 'door';
interface Proc {
  kind: Kind;
  name: string;
  child: ChildProcess;
  metricsPort: number;
}

const apiPort = await freePort();
const smppPort = await freePort();
const cmppPort = await freePort();
if (!reusePortWorks()) {
  console.log(
    `scale-out: Node ${process.versions.node} has no reusePort (Node ≥ 22.12 on Linux; \`npx tsx\` runs the project's node package)`,
  );
  process.exit(1);
}
const base = `http://127.0.0.1:${apiPort}`;

const scratch = await scratchDatabase(baseUrl, 'scaleout');
const dbUrl = scratch.url;
const handle = await openDatabase({ databaseUrl: dbUrl, poolSize: 4 });
const db = handle.db;
const sim = await startStandaloneSim({
  SMSC_SIM_SEED: '2026',
  SMSC_SIM_DELIVERED: '0.9',
  SMSC_SIM_FAILED: '0.1',
  SMSC_SIM_NO_RECEIPT: '0',
  SMSC_SIM_LATENCY_MS: '50-500',
  SMSC_SIM_MO_RATIO: '0',
  // ref → times received: "sent twice" and "never sent"
  SMSC_SIM_COUNTS_REFS: '1',
});

const common = {
  DATABASE_URL: dbUrl,
  DATA_DIR: dataDir,
  CSRF_SECRET: `scale-out-${process.pid}-0123456789abcdef0123456789abcdef`,
  LOG_LEVEL: 'warn',
  NODE_ENV: 'production',
  SMPP_URL: `${sim.url}?ref_tlv=0x1401&window=${WINDOW}&connections=${CONNECTIONS}&timeout_ms=10000`,
  DISPATCH_LEASE_MS: String(LEASE_MS),
  DISPATCH_MATCH_UNCONFIRMED_MS: String(MATCH_MS),
  SMPP_SERVER_PORT: '0',
  CMPP_SERVER_PORT: '0',
  SMGP_SERVER_PORT: '0',
  SGIP_SERVER_PORT: '0',
};
const started = new Map<Kind, number>();

async function start(kind: Kind): Promise<Proc> {
  const n = (started.get(kind) ?? 0) + 1;
  started.set(kind, n);
  const metricsPort = await freePort();
  const env: Record<string, string> = { ...common, METRICS_PORT: String(metricsPort) };
  let child: ChildProcess;
  if (kind === 'api') {
    Object.assign(env, { PORT: String(apiPort), HOST: '127.0.0.1', DISPATCH: '0', HTTP_REUSE_PORT: '1' });
    child = spawnTs('server/main.ts', env);
  } else if (kind === 'worker') {
    env.WORKER_ID = `scale-worker-${n}`;
    child = spawnTs('server/worker.ts', env);
  } else {
    Object.assign(env, {
      SMPP_SERVER_PORT: String(smppPort),
      SMPP_SERVER_HOST: '127.0.0.1',
      CMPP_SERVER_PORT: String(cmppPort),
      CMPP_SERVER_HOST: '127.0.0.1',
    });
    child = spawnTs('server/smpp-server.ts', env);
  }
  const p = { kind, name: `${kind} ${n}`, child, metricsPort };
  console.log(`${p.name} started (pid ${child.pid}, metrics ${metricsPort})`);
  // a process that ends without being told to (a port taken, a crash) is a violation
  child.once('exit', (code, signal) => {
    if (!stopped.has(child)) violations.push(`${p.name} exited by itself (${code ?? signal})`);
  });
  return p;
}

function spawnTs(file: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(root, file)], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** until the process answers 200 on its /readyz */
async function ready(p: Proc, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (p.child.exitCode !== null || p.child.signalCode !== null)
      throw new Error(`${p.name} exited (${p.child.exitCode ?? p.child.signalCode})`);
    try {
      if ((await fetch(`http://127.0.0.1:${p.metricsPort}/readyz`)).status === 200) return;
    } catch {
      /* starting */
    }
    if (Date.now() > until) throw new Error(`${p.name} not ready after ${timeoutMs} ms`);
    await sleep(100);
  }
}

/** the processes the bench killed or stopped: their exit is expected */
const stopped = new Set<ChildProcess>();

async function kill(p: Proc, signal: NodeJS.Signals) {
  stopped.add(p.child);
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  const exited = new Promise((r) => p.child.once('exit', r));
  p.child.kill(signal);
  await exited;
}

/** HTTP outcomes of the load, with their times (performance.now()) */
const http = {
  sends: 0,
  sendOk: 0,
  /** numbers of the sends answered code 0, with the time */
  accepted: [] as { at: number; n: number }[],
  sendRefused: {} as Record<string, number>,
  /** numbers of the sends that got no answer (connection error): they may or may not be in */
  unanswered: 0,
  listOk: [] as number[],
  listOther: {} as Record<string, number>,
  status5xx: [] as { at: number; path: string; status: number }[],
  connErrors: [] as { at: number; path: string; message: string }[],
};

async function post(
  headers: Record<string, string>,
  p: string,
  body: unknown,
): Promise<{ status: number; json: { code?: number; msg?: string } } | null> {
  try {
    const r = await fetch(`${base}${p}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await r.text();
    if (r.status >= 500) http.status5xx.push({ at: performance.now(), path: p, status: r.status });
    let json: { code?: number; msg?: string } = {};
    try {
      json = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: r.status, json };
  } catch (e) {
    http.connErrors.push({
      at: performance.now(),
      path: p,
      message: String((e as Error & { cause?: unknown }).cause ?? e),
    });
    return null;
  }
}

async function session(user: string): Promise<Record<string, string>> {
  const cookie = await loginCookies(base, user, 'Demo1234');
  const xsrf = /(?:^|; )XSRF-TOKEN=([^;]*)/.exec(cookie)?.[1] ?? '';
  return { cookie, 'x-xsrf-token': decodeURIComponent(xsrf), 'content-type': 'application/json' };
}

const procs: Proc[] = [];
let door: ReturnType<typeof startDoorLoad> | null = null;
const CONSOLE_PHONES = 13_500_000_000;
const DOOR_PHONES = 13_700_000_000;

try {
  await seed(db);
  const fromTaskId = await nextTaskId(db);
  const ledger = new LedgerService({ db, now: () => new Date() });
  for (const clientid of new Set([...SEND_ACCOUNTS, 'client1'])) {
    const a = await db
      .updateTable('accounts')
      .set({
        needreport: NeedReport.PassThrough,
        access_speed: 1_000_000,
        operation_mode: OperationMode.DirectCharge,
        // the template's SMS type (通知); a direct account sends its configured one only
        smstype: 0,
        needaudit: 0,
        nodenum: '',
      })
      .where('clientid', '=', clientid)
      .returning('id')
      .executeTakeFirstOrThrow();
    await ledger.credit(a.id, '1000000');
    await approveSign(db, clientid, '好易购');
  }
  const content = '您的账户余额已不足，为避免影响正常使用，请及时充值。';
  const tpl = await db.selectFrom('templates').select('id').where('content', '=', content).executeTakeFirstOrThrow();

  // the first API process alone (it finds the schema and the demo data), then the others
  procs.push(await start('api'));
  await ready(procs[0]);
  procs.push(await start('api'), await start('worker'), await start('worker'), await start('door'));
  await Promise.all(procs.map((p) => ready(p)));
  console.log(
    `all up: API on ${base} (2 processes, HTTP_REUSE_PORT), doors SMPP ${smppPort} CMPP ${cmppPort}, database ${scratch.name}`,
  );
  const sessions = new Map<string, Record<string, string>>();
  for (const user of new Set([...SEND_ACCOUNTS, 'client1'])) sessions.set(user, await session(user));

  // ---- the load
  const t0 = performance.now();
  const tEnd = t0 + DURATION * 1000;
  let running = true;
  const loops: Promise<void>[] = [];
  SEND_ACCOUNTS.forEach((user, a) => {
    loops.push(
      (async () => {
        let seq = 0;
        while (running && performance.now() < tEnd) {
          const began = performance.now();
          const first = CONSOLE_PHONES + a * 10_000_000 + seq;
          seq += CONSOLE_BATCH;
          const mobile = Array.from({ length: CONSOLE_BATCH }, (_, i) => String(first + i)).join(',');
          http.sends++;
          const r = await post(sessions.get(user)!, '/api/send/sending', {
            clientId: user,
            sign: '好易购',
            smstype: 0,
            templateId: tpl.id,
            content,
            mobile,
          });
          if (!r) http.unanswered += CONSOLE_BATCH;
          else if (r.status === 200 && r.json.code === 0) {
            http.sendOk++;
            http.accepted.push({ at: performance.now(), n: CONSOLE_BATCH });
          } else {
            const k = `${r.status} ${r.json.code ?? ''} ${r.json.msg ?? ''}`;
            http.sendRefused[k] = (http.sendRefused[k] ?? 0) + 1;
          }
          // the submit lock: one accepted send per account every 3 s (from its transaction: some margin)
          await sleep(Math.max(0, 3500 - (performance.now() - began)));
        }
      })(),
    );
  });
  for (let c = 0; c < LIST_CONNECTIONS; c++) {
    loops.push(
      (async () => {
        const headers = sessions.get('client1')!;
        for (let i = c; running && performance.now() < tEnd; i++) {
          const p = i % 2 ? '/api/send/sendTask' : '/api/send/getrecords';
          const r = await post(headers, p, { page: 1, rows: 10 });
          if (r?.status === 200 && r.json.code === 0) http.listOk.push(performance.now());
          else if (r) {
            const k = `${r.status} ${r.json.code ?? ''}`;
            http.listOther[k] = (http.listOther[k] ?? 0) + 1;
          } else await sleep(100);
        }
      })(),
    );
  }
  door = startDoorLoad({
    port: smppPort,
    systemId: 'client1',
    password: 'Demo2468',
    rate: DOOR_RATE,
    window: DOOR_WINDOW,
    text: '【好易购】您的订单已发货，请注意查收，验证码 123456',
    phoneBase: DOOR_PHONES,
  });
  const progress = setInterval(async () => {
    const m = await messageCounts(db, fromTaskId).catch(() => null);
    console.log(
      `  ${((performance.now() - t0) / 1000).toFixed(0)} s: console sends ${http.sendOk}/${http.sends}, door ${door!.stats.ok}/${door!.stats.sent} (${door!.stats.dropped} dropped), lists ${http.listOk.length}, messages ${m?.final}/${m?.total} final`,
    );
  }, 15_000);

  // ---- the kill
  await sleep(DURATION * 1000 * KILL_AT);
  const atKill = await messageCounts(db, fromTaskId);
  const victims = [procs[0], procs[2], procs[4]];
  const tKill = performance.now();
  await Promise.all(victims.map((p) => kill(p, 'SIGKILL')));
  console.log(
    `kill -9 at ${((tKill - t0) / 1000).toFixed(1)} s: ${victims.map((p) => `${p.name} (pid ${p.child.pid})`).join(', ')}; messages: ${await stateSummary(db, fromTaskId)}`,
  );
  const fresh = await Promise.all(victims.map((p) => start(p.kind)));
  procs.splice(0, 1, fresh[0]);
  procs.splice(2, 1, fresh[1]);
  procs.splice(4, 1, fresh[2]);
  const readyAfter = await Promise.all(
    fresh.map((p) => ready(p).then(() => `${p.name} ${((performance.now() - tKill) / 1000).toFixed(1)} s`)),
  );
  const tReady = performance.now();
  const atReady = await messageCounts(db, fromTaskId);
  console.log(`ready again after the kill: ${readyAfter.join(', ')}`);

  await sleep(Math.max(0, tEnd - performance.now()));
  running = false;
  const atEnd = await messageCounts(db, fromTaskId);
  const tStop = performance.now();
  await Promise.all(loops);
  await door.stop(15_000);
  clearInterval(progress);

  // ---- settle: every message final, every receipt applied (those of unconfirmed messages after MATCH_MS)
  const settleUntil = Date.now() + SETTLE * 1000;
  for (;;) {
    const m = await messageCounts(db, fromTaskId);
    const c = await sim.counts();
    if (m.final === m.total && c.receiptsPending === 0 && (await receiptsUnapplied(db)) === 0) break;
    if (Date.now() > settleUntil) {
      violations.push(`not settled after ${SETTLE} s: ${await stateSummary(db, fromTaskId)}`);
      break;
    }
    await sleep(1000);
  }
  for (let last = -1, since = Date.now(); Date.now() - since < MATCH_MS + 15_000 && Date.now() < settleUntil;) {
    const n = (await sql<{ n: number }>`select count(*)::int n from sms_receipts`.execute(db)).rows[0].n;
    if (n === 0) break;
    if (n !== last) [last, since] = [n, Date.now()];
    await sleep(500);
  }
  const tSettled = performance.now();
  // the door's receipts to the customer: a few seconds more
  await sleep(2000);
  door.close();
  await Promise.all(procs.map((p) => kill(p, 'SIGTERM')));

  // ---- figures by phase
  const phases = [
    { name: 'before the kill', from: t0, to: tKill, done: [0, atKill.final] },
    { name: 'during the restart', from: tKill, to: tReady, done: [atKill.final, atReady.final] },
    { name: 'after', from: tReady, to: tStop, done: [atReady.final, atEnd.final] },
  ];
  const within = (t: number, f: number, to: number) => t >= f && t < to;
  console.log(
    `\nrates by phase (the run ${DURATION} s; ${SEND_ACCOUNTS.length} console accounts × ${CONSOLE_BATCH} numbers a send, door ${DOOR_RATE} submits/s offered, ${LIST_CONNECTIONS} list loops):`,
  );
  for (const ph of phases) {
    const s = (ph.to - ph.from) / 1000;
    const numbers = http.accepted.filter((e) => within(e.at, ph.from, ph.to));
    console.log(
      `  ${ph.name.padEnd(19)} ${s.toFixed(1).padStart(6)} s: console ${(numbers.reduce((a, e) => a + e.n, 0) / s).toFixed(0)} numbers/s (${numbers.length} sends), ` +
        `door ${(door.stats.okTimes.filter((t) => within(t, ph.from, ph.to)).length / s).toFixed(0)} submits/s, ` +
        `lists ${(http.listOk.filter((t) => within(t, ph.from, ph.to)).length / s).toFixed(0)} req/s, ` +
        `messages completed ${((ph.done[1] - ph.done[0]) / s).toFixed(0)}/s`,
    );
  }
  const end = await messageCounts(db, fromTaskId);
  console.log(
    `  then settled in ${((tSettled - tStop) / 1000).toFixed(1)} s: ${end.total - atEnd.final} more messages completed`,
  );

  // ---- checks
  console.log(`\nmessages: ${await stateSummary(db, fromTaskId)}`);
  if (end.total !== end.final)
    violations.push(`${end.total - end.final} messages not in exactly one final state (or still leased / queued)`);
  const c = await sim.counts();
  const refs = (c as typeof c & { refs?: Record<string, number> }).refs ?? {};
  console.log(
    `simulator: ${c.received} submit_sm received, ${c.distinctRefs} distinct refs, ${c.duplicates.length} refs received twice or more, ${c.receiptsSent} receipts sent, ${c.binds} binds`,
  );
  if (c.duplicates.length)
    violations.push(
      `sent twice: ${c.duplicates
        .slice(0, 10)
        .map(([r, n]) => `${r}×${n}`)
        .join(', ')}`,
    );
  const messages = await runMessages(db, fromTaskId);
  const unconfirmed = messages.filter((m) => m.unconfirmed);
  // a delivery outcome (3, 6) is the carrier's: such a message must have reached the simulator
  const neverSent = messages.filter((m) => !m.unconfirmed && (m.state === 3 || m.state === 6) && !refs[String(m.id)]);
  const lostInCrash = unconfirmed.filter((m) => !refs[String(m.id)]).length;
  console.log(
    `unconfirmed ${unconfirmed.length} (≤ window × connections of the killed worker = ${WINDOW * CONNECTIONS}; ${lostInCrash} of them never reached the simulator), ` +
      `final by the carrier but never at the simulator ${neverSent.length} (target 0)`,
  );
  if (unconfirmed.length > WINDOW * CONNECTIONS)
    violations.push(
      `${unconfirmed.length} unconfirmed messages, more than window × connections (${WINDOW * CONNECTIONS})`,
    );
  if (neverSent.length) violations.push(`${neverSent.length} messages final without reaching the carrier`);

  const tasks = await recountTasks(db, fromTaskId);
  const differ = tasks.filter((t) => !t.same);
  const open = tasks.filter((t) => t.status !== 3 || !t.finished);
  console.log(
    `tasks: ${tasks.length}, ${differ.length} with counters ≠ the recount of their records, ${open.length} not completed`,
  );
  for (const t of differ.slice(0, 5))
    console.log(`  task ${t.id}: counters ${JSON.stringify(t.counters)} recount ${JSON.stringify(t.records)}`);
  if (differ.length)
    violations.push(`task counters differ from the records: tasks ${differ.map((t) => t.id).join(', ')}`);
  if (open.length)
    violations.push(`tasks not completed: ${open.map((t) => `${t.id} (status ${t.status})`).join(', ')}`);
  violations.push(...(await balanceViolations(db)));

  // HTTP
  const killWindow = (t: number) => t >= tKill && t < tReady + GRACE_MS;
  const strayErrors = http.connErrors.filter((e) => !killWindow(e.at));
  console.log(
    `HTTP: console sends ${http.sendOk} accepted of ${http.sends} (${JSON.stringify(http.sendRefused)} refused, ${http.unanswered / CONSOLE_BATCH} unanswered), ` +
      `list requests ${http.listOk.length} answered (${JSON.stringify(http.listOther)} other), 5xx ${http.status5xx.length}, ` +
      `connection errors ${http.connErrors.length} (${http.connErrors.length - strayErrors.length} around the kill of the API process)`,
  );
  for (const e of http.connErrors.slice(0, 5))
    console.log(`  connection error at ${((e.at - t0) / 1000).toFixed(1)} s on ${e.path}: ${e.message}`);
  if (http.status5xx.length)
    violations.push(
      `HTTP 5xx: ${http.status5xx
        .slice(0, 5)
        .map((e) => `${e.status} ${e.path} at ${((e.at - t0) / 1000).toFixed(1)} s`)
        .join(', ')}`,
    );
  if (strayErrors.length) violations.push(`${strayErrors.length} HTTP connection errors away from the kill`);
  const consoleRows = messages.filter((m) => Number(m.phone) >= CONSOLE_PHONES && Number(m.phone) < DOOR_PHONES).length;
  const consoleAccepted = http.accepted.reduce((a, e) => a + e.n, 0);
  if (consoleRows < consoleAccepted || consoleRows > consoleAccepted + http.unanswered)
    violations.push(
      `console: ${consoleRows} messages in the database for ${consoleAccepted} numbers accepted (+ ${http.unanswered} unanswered)`,
    );

  // the door customer
  const d = door.stats;
  const strayDrops = d.drops.filter((x) => x.unanswered > 0 && !killWindow(x.at));
  const doorRows = messages.filter((m) => Number(m.phone) >= DOOR_PHONES).length;
  console.log(
    `door customer: ${d.sent} submits, ${d.ok} accepted, ${d.answered - d.ok} refused ${JSON.stringify(d.statuses)}, ${d.dropped} dropped with their connection ` +
      `(${d.drops.length} drops), ${d.sent - d.answered - d.dropped} unanswered; ${d.binds} binds, ${d.bindFailures} refused; ${d.receipts} receipts (the account's console sends' too), ${d.receiptsMatched} of the accepted submits' (${d.receiptsRepeated} repeated); ${doorRows} messages in the database`,
  );
  if (d.sent - d.answered - d.dropped)
    violations.push(`${d.sent - d.answered - d.dropped} door submits never answered`);
  if (strayDrops.length) violations.push(`door connection dropped away from the kill: ${strayDrops.length} times`);
  if (doorRows < d.ok || doorRows > d.ok + d.dropped)
    violations.push(`door: ${doorRows} messages in the database for ${d.ok} accepted (+ ${d.dropped} dropped)`);
} catch (e) {
  violations.push(`run failed: ${(e as Error).stack ?? e}`);
} finally {
  door?.close();
  await Promise.all(procs.map((p) => kill(p, 'SIGKILL')));
  await sim.close();
  await handle.close();
  if (process.env.KEEP !== '1') await scratch.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

console.log(
  violations.length ? `\nVIOLATIONS:\n- ${violations.join('\n- ')}` : '\nscale-out rehearsal passed: no violation',
);
process.exit(violations.length ? 1 : 0);

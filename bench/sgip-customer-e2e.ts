/**
 * A customer connected over SGIP end to end (issue 38): the customer's system is the independent
 * implementation ../shared/interop/bin/sgip-peer in its `sp` role (go_sgip; its own process: one
 * SGIP session, `-window` submits in flight, a listener the platform binds back to, every report
 * matched by its submit's sequence number) → the platform's SGIP door (this process, with the
 * dispatcher, as `npm start` embeds them) → an sgip:// link to China Unicom's SMG played by
 * sgip-peer `smg` (its own process; reports after -report-ms, handed over its bind-back to the
 * link's callback listener) → the reports back to the customer by the door's bind-back
 * (SGIP_REPORT, needreport 2).
 *
 * Prints the same figures as bench/cmpp-customer-e2e.ts: messages/s end to end and submit-accept,
 * CPU per message of each process (platform, PostgreSQL backends, the SMG, the customer); then,
 * unless CONSOLE=0, the console path on the same machine, database, link and SMG, and the ratio.
 *
 *   TEST_DATABASE_URL=postgres://sms:sms@127.0.0.1:5432/postgres COUNT=5000 npx tsx bench/sgip-customer-e2e.ts
 *   WINDOW=100 (the customer's submits in flight), CONSOLE=0, PORTS=19200 (four ports from there:
 *   the SMG, its bind-back to the link, the customer's listener; the door takes a free one)
 * Target (issue 38): the SGIP door costs the platform at most 1.3× the CPU per message of the
 * console path (platform process + PostgreSQL backends), every submit accepted and every report matched.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { pgAdmin } from './lib/pg-admin';
import { buildApp } from '../server/app';
import { openDatabase } from '../server/db';
import { seed } from '../server/db/seed';
import { Dispatcher } from '../server/modules/dispatch/dispatcher';
import { pushHooks } from '../server/modules/dispatch/pipeline';
import { loadConfig } from '../server/config';
import { spawn as spawnChild, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { createSmscLink } from '../server/modules/smsc/link';
import { parseSmppUrl } from '../server/modules/smsc/config';
import { LedgerService } from '../server/modules/ledger';
import { startCpuProfile } from './lib/cpu-profile';
import { approveSign } from './lib/approved-sign';
import { SGIP_SERVER_DEFAULTS } from '../server/modules/smpp-server';
import { NeedReport, OperationMode } from '../common/generated/schemas';
import { busyPercent, machineTicks, procCpuMs } from './lib/proc-cpu';

const COUNT = Number(process.env.COUNT ?? 100_000);
/** the customer's submits in flight (sgip-peer -window); default the door's own session window */
const WINDOW = Number(process.env.WINDOW ?? SGIP_SERVER_DEFAULTS.window);
const BASE_PORT = Number(process.env.PORTS ?? 19200);
const SMG_PORT = BASE_PORT + 1;
const LINK_CALLBACK_PORT = BASE_PORT + 2;
const CUSTOMER_PORT = BASE_PORT + 3;
const CONSOLE = process.env.CONSOLE !== '0';
const TARGET_RATIO = 1.3;
const PEER = path.resolve(import.meta.dirname, '../../shared/interop/bin/sgip-peer');
const pgUrl = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || '';
if (!pgUrl) {
  console.log('set TEST_DATABASE_URL or DATABASE_URL (PostgreSQL)');
  process.exit(1);
}
if (!fs.existsSync(PEER)) {
  console.log(`sgip-peer not found at ${PEER} (../shared/interop/bin/sgip-peer from the repository root)`);
  process.exit(1);
}

interface PeerSummary {
  accepted: number;
  refused: Record<string, number>;
  reports: number;
  matched: number;
  unmatched: number;
  duplicates: number;
  states: Record<string, number>;
  submitSeconds: number;
  totalSeconds: number;
  submitsPerSecond: number;
  error?: string;
}

/**
 * sgip-peer sp under a shell that, once the peer has exited and been waited for, prints its own
 * children's CPU time (cutime + cstime of /proc/<shell>/stat, in clock ticks): the peer's whole CPU
 * time, which /proc/<peer> no longer shows after it exits.
 */
function runPeer(args: string[]): Promise<{ summary: PeerSummary; cpuMs: number; wallMs: number }> {
  const script = '"$0" "$@"; rc=$?; echo "peer-cpu-ticks $(cut -d" " -f16,17 /proc/$$/stat)"; exit $rc';
  const t0 = performance.now();
  const child = spawn('sh', ['-c', script, PEER, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let summary: PeerSummary | null = null;
  let ticks = 0;
  let wallMs = 0;
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.startsWith('peer-cpu-ticks ')) {
      ticks = line
        .slice(15)
        .trim()
        .split(/\s+/)
        .map(Number)
        .reduce((a, b) => a + b, 0);
      return;
    }
    try {
      const j = JSON.parse(line) as PeerSummary;
      if (j && typeof j === 'object' && 'accepted' in j) {
        summary = j;
        wallMs = performance.now() - t0;
      }
    } catch {
      console.log(`  sgip-peer: ${line}`);
    }
  });
  return new Promise((resolve, reject) => {
    const timeout = setTimeout(() => {
      child.kill();
      reject(new Error('sgip-peer not finished after 10 minutes'));
    }, 600_000);
    child.once('exit', (code) => {
      clearTimeout(timeout);
      if (!summary) return reject(new Error(`sgip-peer printed no summary (exit ${code})`));
      resolve({ summary, cpuMs: (ticks * 1000) / 100, wallMs });
    });
  });
}

const dbName = `bench_sgipc_${process.pid}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-sgipc-'));

/** sgip-peer smg: China Unicom's SMG, binding back to the link's callback listener */
async function startSmg(): Promise<{ child: ChildProcess; close(): Promise<void> }> {
  const child = spawnChild(
    PEER,
    [
      'smg',
      '-listen',
      `127.0.0.1:${SMG_PORT}`,
      '-user',
      'sp1',
      '-password',
      'secret',
      '-callback',
      `127.0.0.1:${LINK_CALLBACK_PORT}`,
      '-callback-user',
      'smg',
      '-callback-password',
      'secret2',
      '-report-ms',
      '10',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  for (let i = 0; ; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(SMG_PORT, '127.0.0.1');
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (up) break;
    if (i > 200 || child.exitCode !== null) throw new Error('sgip-peer smg did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    child,
    close: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

await pgAdmin(pgUrl, `create database ${dbName}`);
const u = new URL(pgUrl);
u.pathname = `/${dbName}`;
const handle = await openDatabase({ databaseUrl: u.toString(), poolSize: 10 });
const sim = await startSmg();
try {
  await seed(handle.db);
  // the customer's listener: a public name for the host check (lib/safe-url), reached on loopback (the door's dial)
  const app = await buildApp({
    db: handle.db,
    dataDir,
    purgeEveryMs: 0,
    resolveHost: async () => ['93.184.215.14'],
    config: { smppServerPort: 0, cmppServerPort: 0, sgipServerPort: -1, sgipServerHost: '127.0.0.1' },
  });
  await app.ready();
  const door = app.services.sgipServer!;
  // the door's window of submits being accepted and of unanswered reports, at least the customer's
  Object.assign(door.opts, {
    window: Math.max(door.opts.window, WINDOW),
    deliverWindow: Math.max(door.opts.deliverWindow, WINDOW),
    dial: (_a: string, p: number) => ({ host: '127.0.0.1', port: p }),
  });
  // client1: pass-through reports, no speed limit in the way, money enough for both runs
  const account = await handle.db
    .updateTable('accounts')
    .set({
      needreport: NeedReport.PassThrough,
      access_speed: 1_000_000,
      operation_mode: OperationMode.DirectCharge,
      needaudit: 0,
      nodenum: '',
      sgip_callback_host: 'sp.bench.example',
      sgip_callback_port: CUSTOMER_PORT,
      sgip_callback_user: 'plat',
      sgip_callback_password: 'cbpass',
    })
    .where('clientid', '=', 'client1')
    .returning('id')
    .executeTakeFirstOrThrow();
  await new LedgerService(app.ctx).credit(account.id, String(COUNT * 2));
  await approveSign(handle.db, 'client1', '好易购');
  const link = createSmscLink(
    parseSmppUrl(
      `sgip://sp1:secret@127.0.0.1:${SMG_PORT}?corp_id=12345&sp_number=106900&prefix=106900&callback_port=${LINK_CALLBACK_PORT}&callback_host=127.0.0.1&callback_user=smg&callback_password=secret2&window=1000`,
    ),
  );
  await link.waitReady(10_000);
  const dispatcher = new Dispatcher(app.ctx, link, { ...loadConfig().dispatch.options, hooks: pushHooks() }).start();

  const pgPids = async () => (await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database()`.execute(handle.db)).rows.map((r) => r.pid);
  const simPid = sim.child.pid!;
  const per = (ms: number) => `${((ms * 1000) / COUNT).toFixed(0)} µs`;
  const load = () =>
    os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ');

  // 1. the SGIP door
  const pgBefore = procCpuMs(await pgPids());
  const simBefore = procCpuMs([simPid]);
  const profile = await startCpuProfile(process.env.BENCH_CPU_PROFILE ? `${process.env.BENCH_CPU_PROFILE}.cpuprofile` : '');
  const selfBefore = process.cpuUsage();
  const machine0 = machineTicks();
  const progress = setInterval(() => console.log(`  ${JSON.stringify(dispatcher.stats)}`), 5000);
  // the index fills the destination to 11 digits: 13800 + 6 digits, distinct up to 1,000,000 messages
  const peerArgs = ['sp', '-addr', `127.0.0.1:${door.port}`, '-user', 'cli001', '-password', 'Demo2468', '-n', String(COUNT), '-listen', `127.0.0.1:${CUSTOMER_PORT}`];
  const peer = await runPeer([
    ...peerArgs,
    '-callback-user',
    'plat',
    '-callback-password',
    'cbpass',
    '-window',
    String(WINDOW),
    '-wait',
    '120',
    '-sign',
    '好易购',
    '-src',
    '10690001',
    '-dest',
    '8613800',
  ]).finally(() => clearInterval(progress));
  const busy = busyPercent(machine0, machineTicks());
  const self = process.cpuUsage(selfBefore);
  await profile.stop();
  const selfMs = (self.user + self.system) / 1000;
  const simMs = procCpuMs([simPid]) - simBefore;
  const pgMs = procCpuMs(await pgPids()) - pgBefore;
  const s = peer.summary;
  const perSecond = Math.round(COUNT / s.totalSeconds);
  console.log(`  sgip-peer: ${JSON.stringify(s)}`);
  console.log(`  the door's refusals by result and reason: ${JSON.stringify(door.stats.refused)}`);
  console.log(
    `PostgreSQL, ${COUNT} messages, SGIP 1.2, window ${WINDOW}: submit accepted ${Math.round(s.submitsPerSecond)} messages/s (${s.submitSeconds.toFixed(2)} s, ${s.accepted} accepted), ` +
      `end to end (last report at the customer) ${perSecond} messages/s (${s.totalSeconds.toFixed(2)} s), reports ${s.reports}, matched ${s.matched} (the peer's wall ${(peer.wallMs / 1000).toFixed(2)} s)`,
  );
  const doorCost = selfMs + pgMs;
  console.log(
    `  CPU per message: platform process ${per(selfMs)}, PostgreSQL backends ${per(pgMs)} (together ${per(doorCost)}), SMG (sgip-peer) ${per(simMs)}, customer ${per(peer.cpuMs)}; ` +
      `the machine was ${busy.toFixed(0)} % busy during the run (${os.cpus().length} cores), load ${load()}`,
  );
  let ok = s.accepted === COUNT && s.matched === COUNT && !s.error;

  // 2. the console path on the same database, link and SMG
  if (CONSOLE) {
    // the door's last reports recorded before the clocks start again
    await new Promise((r) => setTimeout(r, 1000));
    const me = await handle.db.selectFrom('accounts').selectAll().where('id', '=', account.id).executeTakeFirstOrThrow();
    const content = '您的账户余额已不足，为避免影响正常使用，请及时充值。';
    const tpl = await handle.db.selectFrom('templates').select('id').where('content', '=', content).executeTakeFirstOrThrow();
    const mobile = Array.from({ length: COUNT }, (_, i) => String(13_900_000_000 + i)).join(',');
    const pg0 = procCpuMs(await pgPids());
    const sim0 = procCpuMs([simPid]);
    const self0 = process.cpuUsage();
    const machine1 = machineTicks();
    const t0 = performance.now();
    const res = await app.services.send.send(me, { clientId: 'client1', sign: '好易购', smstype: 0, templateId: tpl.id, content, mobile });
    const t1 = performance.now();
    let last = t0;
    for (;;) {
      const t = await handle.db.selectFrom('sms_tasks').select(['success_num', 'fail_num', 'submitted_num']).where('uid', '=', res.taskId).executeTakeFirstOrThrow();
      if (t.success_num + t.fail_num >= COUNT) break;
      if (performance.now() - last > 5000) {
        last = performance.now();
        console.log(`  console: ${((last - t0) / 1000).toFixed(1)} s submitted ${t.submitted_num}, final ${t.success_num + t.fail_num}`);
      }
      if (performance.now() - t0 > 600_000) throw new Error('console path not finished after 10 minutes');
      await new Promise((r) => setTimeout(r, 100));
    }
    const t2 = performance.now();
    const cBusy = busyPercent(machine1, machineTicks());
    const cSelf = process.cpuUsage(self0);
    const cSelfMs = (cSelf.user + cSelf.system) / 1000;
    const cPgMs = procCpuMs(await pgPids()) - pg0;
    const cSimMs = procCpuMs([simPid]) - sim0;
    const consoleCost = cSelfMs + cPgMs;
    console.log(
      `console path, ${COUNT} messages (send service: accepted and charged in ${((t1 - t0) / 1000).toFixed(2)} s), every report recorded after ${((t2 - t0) / 1000).toFixed(2)} s → ${Math.round(COUNT / ((t2 - t0) / 1000))} messages/s`,
    );
    console.log(
      `  CPU per message: platform process ${per(cSelfMs)}, PostgreSQL backends ${per(cPgMs)} (together ${per(consoleCost)}), SMG (sgip-peer) ${per(cSimMs)}; ` +
        `the machine was ${cBusy.toFixed(0)} % busy during the run, load ${load()}`,
    );
    const ratio = doorCost / consoleCost;
    const met = ratio <= TARGET_RATIO;
    console.log(`SGIP door ÷ console path, platform process + PostgreSQL CPU per message: ${ratio.toFixed(2)}×`);
    console.log(`target ≤ ${TARGET_RATIO}× the console path's CPU per message, every submit accepted and every report matched: ${met && ok ? 'met' : 'MISSED'}`);
    ok &&= met;
  } else {
    console.log(`every submit accepted and every report matched: ${ok ? 'yes' : 'NO'} (CONSOLE=0: no comparison with the console path)`);
  }
  process.exitCode = ok ? 0 : 1;
  await dispatcher.stop();
  await link.close();
  await app.close();
} finally {
  await sim.close();
  await handle.close();
  await pgAdmin(pgUrl, `drop database if exists ${dbName}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

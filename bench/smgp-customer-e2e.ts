/**
 * A customer connected over SMGP end to end (issue 38), modelled on bench/cmpp-customer-e2e.ts: the
 * customer's system is the independent implementation ../shared/interop/bin/smgp-peer in its `sp`
 * role (go_smgp; its own process: one SMGP 3.0 session in transmit mode, `-window` submits in
 * flight, answers every SMGP_DELIVER and matches each report's MsgID with its submit responses) →
 * the platform's SMGP door (this process, with the dispatcher, as `npm start` embeds them) → an
 * smgp:// link to the SMGP gateway simulator (its own process, `npm run smsc-sim` with
 * SMSC_SIM_PROTOCOL=smgp via bench/lib/sim-standalone.ts: everything delivered, reports after
 * 0-20 ms) → the reports back to the customer as SMGP_DELIVER IsReport 1 (needreport 2).
 *
 * Prints the same figures as the CMPP bench: messages/s end to end (the first submit to the last
 * report at the customer), the submit-accept rate and the CPU per message of each process (the
 * platform, the PostgreSQL backends, the carrier simulator, the customer); then, unless CONSOLE=0,
 * the console path on the same machine, database, link and carrier, and the ratio of the issue's
 * target.
 *
 *   TEST_DATABASE_URL=postgres://sms:sms@127.0.0.1:5432/postgres npx tsx bench/smgp-customer-e2e.ts   # COUNT=100000
 *   COUNT=20000 WINDOW=1000 npx tsx bench/smgp-customer-e2e.ts
 *   CONSOLE=0                                 # the door only, no console comparison
 *   BENCH_CPU_PROFILE=/tmp/smgpc              # CPU profile of the platform process during the door run
 * Target (issue 38, as issue 36's): the SMGP door costs the platform at most 1.3× the CPU per
 * message of the console path (platform process + PostgreSQL backends), every submit accepted and
 * every report matched.
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
import { createSmscLink } from '../server/modules/smsc/link';
import { parseSmppUrl } from '../server/modules/smsc/config';
import { LedgerService } from '../server/modules/ledger';
import { startStandaloneSim } from './lib/sim-standalone';
import { startCpuProfile } from './lib/cpu-profile';
import { approveSign } from './lib/approved-sign';
import { SMGP_SERVER_DEFAULTS } from '../server/modules/smpp-server';
import { NeedReport, OperationMode } from '../common/generated/schemas';
import { busyPercent, machineTicks, procCpuMs } from './lib/proc-cpu';

const COUNT = Number(process.env.COUNT ?? 100_000);
/**
 * the customer's submits in flight (smgp-peer -window); default the door's own session window
 * (SMGP_SERVER_DEFAULTS.window, 100), which is raised to a larger WINDOW
 */
const WINDOW = Number(process.env.WINDOW ?? SMGP_SERVER_DEFAULTS.window);
const CONSOLE = process.env.CONSOLE !== '0';
const TARGET_RATIO = 1.3;
const PEER = path.resolve(import.meta.dirname, '../../shared/interop/bin/smgp-peer');
const pgUrl = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || '';
if (!pgUrl) {
  console.log('set TEST_DATABASE_URL or DATABASE_URL (PostgreSQL)');
  process.exit(1);
}
if (!fs.existsSync(PEER)) {
  console.log(`smgp-peer not found at ${PEER} (../shared/interop/bin/smgp-peer from the repository root)`);
  process.exit(1);
}

interface PeerSummary {
  accepted: number;
  refused: Record<string, number>;
  reports: number;
  matched: number;
  unmatched: number;
  duplicates: number;
  stats: Record<string, number>;
  submitSeconds: number;
  totalSeconds: number;
  submitsPerSecond: number;
  error?: string;
}

/**
 * smgp-peer sp under a shell that, once the peer has exited and been waited for, prints its own
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
      console.log(`  smgp-peer: ${line}`);
    }
  });
  return new Promise((resolve, reject) => {
    const timeout = setTimeout(() => {
      child.kill();
      reject(new Error('smgp-peer not finished after 10 minutes'));
    }, 600_000);
    child.once('exit', (code) => {
      clearTimeout(timeout);
      if (!summary) return reject(new Error(`smgp-peer printed no summary (exit ${code})`));
      resolve({ summary, cpuMs: (ticks * 1000) / 100, wallMs });
    });
  });
}

const dbName = `bench_smgpc_${process.pid}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-smgpc-'));
await pgAdmin(pgUrl, `create database ${dbName}`);
const u = new URL(pgUrl);
u.pathname = `/${dbName}`;
const handle = await openDatabase({ databaseUrl: u.toString(), poolSize: 10 });
const sim = await startStandaloneSim({
  SMSC_SIM_PROTOCOL: 'smgp',
  SMSC_SIM_SEED: '42',
  SMSC_SIM_DELIVERED: '1',
  SMSC_SIM_FAILED: '0',
  SMSC_SIM_NO_RECEIPT: '0',
  SMSC_SIM_LATENCY_MS: '0-20',
  SMSC_SIM_MO_RATIO: '0',
});
try {
  await seed(handle.db);
  const app = await buildApp({ db: handle.db, dataDir, purgeEveryMs: 0, config: { smppServerPort: 0, cmppServerPort: 0, smgpServerPort: -1, smgpServerHost: '127.0.0.1' } });
  await app.ready();
  const door = app.services.smgpServer!;
  // the door's window of submits being accepted and of unanswered reports, at least the customer's
  Object.assign(door.opts, { window: Math.max(door.opts.window, WINDOW), deliverWindow: Math.max(door.opts.deliverWindow, WINDOW) });
  // client1: pass-through reports, no speed limit in the way, money enough for both runs
  const account = await handle.db
    .updateTable('accounts')
    .set({ needreport: NeedReport.PassThrough, access_speed: 1_000_000, operation_mode: OperationMode.DirectCharge, needaudit: 0, nodenum: '' })
    .where('clientid', '=', 'client1')
    .returning('id')
    .executeTakeFirstOrThrow();
  await new LedgerService(app.ctx).credit(account.id, String(COUNT * 2));
  await approveSign(handle.db, 'client1', '好易购');
  const link = createSmscLink(parseSmppUrl(`${sim.url}?src=106900&window=1000`), undefined, { sourcePrefix: '106900' });
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

  // 1. the SMGP door
  const pgBefore = procCpuMs(await pgPids());
  const simBefore = procCpuMs([simPid]);
  const profile = await startCpuProfile(process.env.BENCH_CPU_PROFILE ? `${process.env.BENCH_CPU_PROFILE}.cpuprofile` : '');
  const selfBefore = process.cpuUsage();
  const machine0 = machineTicks();
  const progress = setInterval(() => console.log(`  ${JSON.stringify(dispatcher.stats)}`), 5000);
  // the index fills the destination to 11 digits: 18900 + 6 digits, distinct up to 1,000,000 messages
  const peerArgs = ['sp', '-addr', `127.0.0.1:${door.port}`, '-user', 'cli001', '-password', 'Demo2468', '-n', String(COUNT), '-src', '106900'];
  const peer = await runPeer([...peerArgs, '-window', String(WINDOW), '-wait', '120', '-sign', '好易购', '-dest', '18900']).finally(() => clearInterval(progress));
  const busy = busyPercent(machine0, machineTicks());
  const self = process.cpuUsage(selfBefore);
  await profile.stop();
  const selfMs = (self.user + self.system) / 1000;
  const simMs = procCpuMs([simPid]) - simBefore;
  const pgMs = procCpuMs(await pgPids()) - pgBefore;
  const s = peer.summary;
  const perSecond = Math.round(COUNT / s.totalSeconds);
  console.log(`  smgp-peer: ${JSON.stringify(s)}`);
  console.log(`  the door's refusals by result and reason: ${JSON.stringify(door.stats.refused)}`);
  console.log(
    `PostgreSQL, ${COUNT} messages, SMGP 3.0, window ${WINDOW}: submit accepted ${Math.round(s.submitsPerSecond)} messages/s (${s.submitSeconds.toFixed(2)} s, ${s.accepted} accepted), ` +
      `end to end (last report at the customer) ${perSecond} messages/s (${s.totalSeconds.toFixed(2)} s), reports ${s.reports}, matched ${s.matched} (the peer's wall ${(peer.wallMs / 1000).toFixed(2)} s)`,
  );
  const doorCost = selfMs + pgMs;
  console.log(
    `  CPU per message: platform process ${per(selfMs)}, PostgreSQL backends ${per(pgMs)} (together ${per(doorCost)}), carrier simulator ${per(simMs)}, customer ${per(peer.cpuMs)}; ` +
      `the machine was ${busy.toFixed(0)} % busy during the run (${os.cpus().length} cores), load ${load()}`,
  );
  let ok = s.accepted === COUNT && s.matched === COUNT && !s.error;

  // 2. the console path on the same database, link and carrier
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
      `  CPU per message: platform process ${per(cSelfMs)}, PostgreSQL backends ${per(cPgMs)} (together ${per(consoleCost)}), carrier simulator ${per(cSimMs)}; ` +
        `the machine was ${cBusy.toFixed(0)} % busy during the run, load ${load()}`,
    );
    const ratio = doorCost / consoleCost;
    const met = ratio <= TARGET_RATIO;
    console.log(`SMGP door ÷ console path, platform process + PostgreSQL CPU per message: ${ratio.toFixed(2)}×`);
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

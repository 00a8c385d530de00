/**
 * What the customer benchmarks of the framed doors share (bench/cmpp-customer-e2e.ts,
 * bench/smgp-customer-e2e.ts, bench/sgip-customer-e2e.ts): the interop peer in its customer (`sp`)
 * role run with its own CPU time counted, the benchmark's own PostgreSQL database, the CPU
 * accounting of a run (this process: the platform; the PostgreSQL backends of the database; the
 * carrier's process; the machine), the door run's figures, and the console path on the same
 * machine, database, link and carrier with the ratio the issues' target names.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { performance } from 'node:perf_hooks';
import { sql, type Kysely } from 'kysely';
import { pgAdmin } from './pg-admin';
import { startCpuProfile } from './cpu-profile';
import { printStatements, statementWindow } from './pg-statements';
import { busyPercent, machineTicks, procCpuMs } from './proc-cpu';
import { approveSign } from './approved-sign';
import { startStandaloneSim } from './sim-standalone';
import { LedgerService } from '../../server/modules/ledger';
import { NeedReport, OperationMode } from '../../common/generated/schemas';
import { MAX_NUMBERS } from '../../common/sms/numbers';
import { openDatabase } from '../../server/db';
import type { Database } from '../../server/db/types';
import type { buildApp } from '../../server/app';

type App = Awaited<ReturnType<typeof buildApp>>;

/** the platform + PostgreSQL CPU per message of the door may be at most this many times the console path's (issues 36 and 38) */
export const TARGET_RATIO = 1.3;

/** the JSON summary line the peers print (cmpp-peer, smgp-peer: `stats` by Stat; sgip-peer: `states` by SGIP State) */
export interface PeerSummary {
  accepted: number;
  refused: Record<string, number>;
  reports: number;
  matched: number;
  unmatched: number;
  duplicates: number;
  stats?: Record<string, number>;
  states?: Record<string, number>;
  submitSeconds: number;
  totalSeconds: number;
  submitsPerSecond: number;
  error?: string;
}

/** ../shared/interop/bin/<name> and the PostgreSQL URL (DATABASE_URL or TEST_DATABASE_URL); the process ends with a line saying which is missing */
export function benchEnv(name: string): { peer: string; pgUrl: string } {
  const peer = path.resolve(import.meta.dirname, `../../../shared/interop/bin/${name}`);
  const pgUrl = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || '';
  if (!pgUrl) {
    console.log('set TEST_DATABASE_URL or DATABASE_URL (PostgreSQL)');
    process.exit(1);
  }
  if (!fs.existsSync(peer)) {
    console.log(`${name} not found at ${peer} (../shared/interop/bin/${name} from the repository root)`);
    process.exit(1);
  }
  return { peer, pgUrl };
}

/**
 * The peer under a shell that, once the peer has exited and been waited for, prints its own
 * children's CPU time (cutime + cstime of /proc/<shell>/stat, in clock ticks): the peer's whole CPU
 * time, which /proc/<peer> no longer shows after it exits.
 */
export function runPeer(
  peer: string,
  args: string[],
): Promise<{ summary: PeerSummary; cpuMs: number; wallMs: number }> {
  const name = path.basename(peer);
  const script = '"$0" "$@"; rc=$?; echo "peer-cpu-ticks $(cut -d" " -f16,17 /proc/$$/stat)"; exit $rc';
  const t0 = performance.now();
  const child = spawn('sh', ['-c', script, peer, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
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
      console.log(`  ${name}: ${line}`);
    }
  });
  return new Promise((resolve, reject) => {
    const timeout = setTimeout(() => {
      child.kill();
      reject(new Error(`${name} not finished after 10 minutes`));
    }, 600_000);
    child.once('exit', (code) => {
      clearTimeout(timeout);
      if (!summary) return reject(new Error(`${name} printed no summary (exit ${code})`));
      resolve({ summary, cpuMs: (ticks * 1000) / 100, wallMs });
    });
  });
}

/** a database of its own for the benchmark (bench_<tag>_<pid>) and a data directory; drop() removes both */
export async function benchDatabase(pgUrl: string, tag: string) {
  const dbName = `bench_${tag}_${process.pid}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-${tag}-`));
  await pgAdmin(pgUrl, `create database ${dbName}`);
  const u = new URL(pgUrl);
  u.pathname = `/${dbName}`;
  const handle = await openDatabase({ databaseUrl: u.toString(), poolSize: 10 });
  return {
    handle,
    dataDir,
    async drop() {
      await handle.close();
      await pgAdmin(pgUrl, `drop database if exists ${dbName}`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** the carrier: the standalone gateway simulator of this protocol in its own process (`npm run smsc-sim`): everything delivered, reports after 0-20 ms, no uplinks */
export function benchCarrier(protocol: 'cmpp' | 'smgp') {
  return startStandaloneSim({
    SMSC_SIM_PROTOCOL: protocol,
    SMSC_SIM_SEED: '42',
    SMSC_SIM_DELIVERED: '1',
    SMSC_SIM_FAILED: '0',
    SMSC_SIM_NO_RECEIPT: '0',
    SMSC_SIM_LATENCY_MS: '0-20',
    SMSC_SIM_MO_RATIO: '0',
  });
}

/** client1 as the customer: pass-through reports, no speed limit in the way, money enough for both runs, the sign 好易购 approved (and `extra`); its id */
export async function benchAccount(
  app: App,
  db: Kysely<Database>,
  count: number,
  extra: {
    sgip_callback_host?: string;
    sgip_callback_port?: number;
    sgip_callback_user?: string;
    sgip_callback_password?: string;
  } = {},
): Promise<number> {
  const account = await db
    .updateTable('accounts')
    .set({
      needreport: NeedReport.PassThrough,
      access_speed: 1_000_000,
      operation_mode: OperationMode.DirectCharge,
      needaudit: 0,
      nodenum: '',
      ...extra,
    })
    .where('clientid', '=', 'client1')
    .returning('id')
    .executeTakeFirstOrThrow();
  await new LedgerService(app.ctx).credit(account.id, String(count * 2));
  await approveSign(db, 'client1', '好易购');
  return account.id;
}

/** the CPU a window of the benchmark cost, in ms, and how busy the machine was (%) */
export interface CpuSpent {
  selfMs: number;
  pgMs: number;
  simMs: number;
  busy: number;
}

/** CPU time of this process (the platform), the database's PostgreSQL backends and the carrier's process from now on */
export async function cpuWindow(db: Kysely<Database>, carrierPid: number): Promise<{ stop(): Promise<CpuSpent> }> {
  const pgPids = async () =>
    (
      await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database()`.execute(db)
    ).rows.map((r) => r.pid);
  const pg0 = procCpuMs(await pgPids());
  const sim0 = procCpuMs([carrierPid]);
  const self0 = process.cpuUsage();
  const machine0 = machineTicks();
  return {
    async stop() {
      const busy = busyPercent(machine0, machineTicks());
      const self = process.cpuUsage(self0);
      const simMs = procCpuMs([carrierPid]) - sim0;
      const pgMs = procCpuMs(await pgPids()) - pg0;
      return { selfMs: (self.user + self.system) / 1000, pgMs, simMs, busy };
    },
  };
}

/** a duration in ms as µs per message */
export const perMessage = (count: number) => (ms: number) => `${((ms * 1000) / count).toFixed(0)} µs`;
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

/**
 * The door's run: the peer (`run`) with the CPU of every process counted, the dispatcher's stats
 * every 5 s, a CPU profile of this process with BENCH_CPU_PROFILE; prints the peer's summary, the
 * door's refusals, the rates and the CPU per message. Returns the platform + PostgreSQL CPU and
 * whether every submit was accepted and every report matched.
 */
export async function doorRun(o: {
  db: Kysely<Database>;
  carrierPid: number;
  /** 'CMPP 3.0', 'SMGP 3.0', 'SGIP 1.2' */
  protocol: string;
  count: number;
  window: number;
  /** the carrier's process as the figures name it */
  carrier: string;
  door: { stats: { refused: unknown } };
  dispatcher: { stats: unknown };
  run: () => Promise<{ summary: PeerSummary; cpuMs: number; wallMs: number }>;
  peerName: string;
}): Promise<{ doorCost: number; ok: boolean }> {
  const per = perMessage(o.count);
  const profile = await startCpuProfile(
    process.env.BENCH_CPU_PROFILE ? `${process.env.BENCH_CPU_PROFILE}.cpuprofile` : '',
  );
  const statements = process.env.BENCH_PG_STATEMENTS ? await statementWindow(o.db) : null;
  const cpu = await cpuWindow(o.db, o.carrierPid);
  const progress = setInterval(() => console.log(`  ${JSON.stringify(o.dispatcher.stats)}`), 5000);
  const peer = await o.run().finally(() => clearInterval(progress));
  const { selfMs, pgMs, simMs, busy } = await cpu.stop();
  await profile.stop();
  const s = peer.summary;
  const perSecond = Math.round(o.count / s.totalSeconds);
  console.log(`  ${o.peerName}: ${JSON.stringify(s)}`);
  console.log(`  the door's refusals by result and reason: ${JSON.stringify(o.door.stats.refused)}`);
  console.log(
    `PostgreSQL, ${o.count} messages, ${o.protocol}, window ${o.window}: submit accepted ${Math.round(s.submitsPerSecond)} messages/s (${s.submitSeconds.toFixed(2)} s, ${s.accepted} accepted), ` +
      `end to end (last report at the customer) ${perSecond} messages/s (${s.totalSeconds.toFixed(2)} s), reports ${s.reports}, matched ${s.matched} (the peer's wall ${(peer.wallMs / 1000).toFixed(2)} s)`,
  );
  const doorCost = selfMs + pgMs;
  console.log(
    `  CPU per message: platform process ${per(selfMs)}, PostgreSQL backends ${per(pgMs)} (together ${per(doorCost)}), ${o.carrier} ${per(simMs)}, customer ${per(peer.cpuMs)}; ` +
      `the machine was ${busy.toFixed(0)} % busy during the run (${os.cpus().length} cores), load ${load()}`,
  );
  if (statements) printStatements("the door run's statements", await statements.stop(), o.count);
  return { doorCost, ok: s.accepted === o.count && s.matched === o.count && !s.error };
}

/**
 * Unless CONSOLE=0, the console path on the same database, link and carrier: one send of `count`
 * numbers (at most MAX_NUMBERS, 60,000: one send's limit, 号码不能大于60000个; the CPU is compared
 * per message) through the send service (checks, task, charge) → dispatch → the carrier → every report
 * recorded, with its platform + PostgreSQL CPU per message, and the door's cost against it (the
 * target). Prints the figures and the verdict; returns whether everything held.
 */
export async function consoleComparison(o: {
  app: App;
  db: Kysely<Database>;
  accountId: number;
  carrierPid: number;
  carrier: string;
  /** 'CMPP', 'SMGP', 'SGIP' */
  doorName: string;
  count: number;
  doorCost: number;
  ok: boolean;
}): Promise<boolean> {
  if (process.env.CONSOLE === '0') {
    console.log(
      `every submit accepted and every report matched: ${o.ok ? 'yes' : 'NO'} (CONSOLE=0: no comparison with the console path)`,
    );
    return o.ok;
  }
  const count = Math.min(o.count, MAX_NUMBERS);
  const per = perMessage(count);
  // the door's last reports recorded before the clocks start again
  await new Promise((r) => setTimeout(r, 1000));
  const me = await o.db.selectFrom('accounts').selectAll().where('id', '=', o.accountId).executeTakeFirstOrThrow();
  const content = '您的账户余额已不足，为避免影响正常使用，请及时充值。';
  const tpl = await o.db.selectFrom('templates').select('id').where('content', '=', content).executeTakeFirstOrThrow();
  const mobile = Array.from({ length: count }, (_, i) => String(13_900_000_000 + i)).join(',');
  const statements = process.env.BENCH_PG_STATEMENTS ? await statementWindow(o.db) : null;
  const cpu = await cpuWindow(o.db, o.carrierPid);
  const t0 = performance.now();
  const res = await o.app.services.send.send(me, {
    clientId: 'client1',
    sign: '好易购',
    smstype: 0,
    templateId: tpl.id,
    content,
    mobile,
  });
  const t1 = performance.now();
  let last = t0;
  for (;;) {
    const t = await o.db
      .selectFrom('sms_tasks')
      .select(['success_num', 'fail_num', 'submitted_num'])
      .where('uid', '=', res.taskId)
      .executeTakeFirstOrThrow();
    if (t.success_num + t.fail_num >= count) break;
    if (performance.now() - last > 5000) {
      last = performance.now();
      console.log(
        `  console: ${((last - t0) / 1000).toFixed(1)} s submitted ${t.submitted_num}, final ${t.success_num + t.fail_num}`,
      );
    }
    if (performance.now() - t0 > 600_000) throw new Error('console path not finished after 10 minutes');
    await new Promise((r) => setTimeout(r, 100));
  }
  const t2 = performance.now();
  const { selfMs, pgMs, simMs, busy } = await cpu.stop();
  const consoleCost = selfMs + pgMs;
  console.log(
    `console path, ${count} messages (send service: accepted and charged in ${((t1 - t0) / 1000).toFixed(2)} s), every report recorded after ${((t2 - t0) / 1000).toFixed(2)} s → ${Math.round(count / ((t2 - t0) / 1000))} messages/s`,
  );
  console.log(
    `  CPU per message: platform process ${per(selfMs)}, PostgreSQL backends ${per(pgMs)} (together ${per(consoleCost)}), ${o.carrier} ${per(simMs)}; ` +
      `the machine was ${busy.toFixed(0)} % busy during the run, load ${load()}`,
  );
  if (statements) printStatements("the console path's statements", await statements.stop(), count);
  const ratio = o.doorCost / o.count / (consoleCost / count);
  const met = ratio <= TARGET_RATIO;
  console.log(`${o.doorName} door ÷ console path, platform process + PostgreSQL CPU per message: ${ratio.toFixed(2)}×`);
  console.log(
    `target ≤ ${TARGET_RATIO}× the console path's CPU per message, every submit accepted and every report matched: ${met && o.ok ? 'met' : 'MISSED'}`,
  );
  return o.ok && met;
}

/**
 * A customer bound over SMPP end to end (issue 24): the customer's gateway (its own process,
 * bench/lib/smpp-customer.ts, the `smpp` package, one transceiver session with a window of
 * unanswered submit_sm) submits COUNT messages → the platform's SMPP server (this process, with
 * the dispatcher, as `npm start` embeds them) → the carrier simulator (its own process,
 * bench/lib/sim-process.ts: everything delivered, receipts after 0-20 ms) → the receipts back to
 * the customer as deliver_sm (needreport 2, pass-through).
 *
 * Prints messages/s end to end (the first submit to the last receipt at the customer), the
 * submit-accept rate (to the last submit_sm_resp) and the CPU per message of each process (the
 * platform, the simulator, the customer, the PostgreSQL backends).
 *
 *   npx tsx bench/smpp-customer-e2e.ts                 # COUNT=100000 on PostgreSQL (TEST_DATABASE_URL / DATABASE_URL)
 *   COUNT=20000 WINDOW=500 npx tsx bench/smpp-customer-e2e.ts
 *   BENCH_CPU_PROFILE=/tmp/smppc                        # CPU profile of the platform process (/tmp/smppc.cpuprofile)
 * Target: ≥ 5,000 messages/s end to end on PostgreSQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { pgAdmin } from './lib/pg-admin';
import { buildApp } from '../server/app';
import { openDatabase } from '../server/db';
import { seed } from '../server/db/seed';
import { Dispatcher } from '../server/modules/dispatch/dispatcher';
import { pushHooks } from '../server/modules/dispatch/pipeline';
import { loadConfig } from '../server/config';
import { createSmscLink } from '../server/modules/smsc/client';
import { parseSmppUrl } from '../server/modules/smsc/config';
import { LedgerService } from '../server/modules/ledger';
import { startSimProcess } from './lib/sim-process';
import { startCpuProfile } from './lib/cpu-profile';
import { NeedReport, OperationMode } from '../common/generated/schemas';
import { procCpuMs } from './lib/proc-cpu';

const COUNT = Number(process.env.COUNT ?? 100_000);
const WINDOW = Number(process.env.WINDOW ?? 1000);
const TARGET = 5000;
const pgUrl = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || '';
if (!pgUrl) {
  console.log('set TEST_DATABASE_URL or DATABASE_URL (PostgreSQL)');
  process.exit(1);
}

// BENCH_QUERIES=1: the statements this process sent, counted by their text (which query a message
// costs), with the wall time from sending each to its answer (round trip, lock waits included)
const queries = new Map<string, { n: number; ms: number }>();
if (process.env.BENCH_QUERIES) {
  const pg = (await import('pg')).default;
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    const q = args[0] as string | { text?: string };
    const text = (typeof q === 'string' ? q : (q?.text ?? ''))
      .replace(/\s+/g, ' ')
      .replace(/\$\d+(, \$\d+)*/g, '$…')
      .slice(0, 140);
    const e = queries.get(text) ?? { n: 0, ms: 0 };
    queries.set(text, e);
    e.n++;
    const t = performance.now();
    const r = query.apply(this, args);
    if (r && typeof (r as Promise<unknown>).then === 'function') {
      void (r as Promise<unknown>).then(
        () => (e.ms += performance.now() - t),
        () => (e.ms += performance.now() - t),
      );
    }
    return r;
  } as typeof pg.Client.prototype.query;
}

const dbName = `bench_smppc_${process.pid}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-smppc-'));
await pgAdmin(pgUrl, `create database ${dbName}`);
const u = new URL(pgUrl);
u.pathname = `/${dbName}`;
const handle = await openDatabase({ databaseUrl: u.toString(), poolSize: 10 });
const sim = await startSimProcess({
  seed: 42,
  delivered: 1,
  failed: 0,
  noReceipt: 0,
  latencyMinMs: 0,
  latencyMaxMs: 20,
  moRatio: 0,
  keepRecent: 0,
});
try {
  await seed(handle.db);
  const app = await buildApp({
    db: handle.db,
    dataDir,
    purgeEveryMs: 0,
    config: { smppServerPort: -1, smppServerHost: '127.0.0.1' },
  });
  await app.ready();
  const smppServer = app.services.smppServer!;
  // the session's window of unanswered submit_sm and of unanswered receipts (deliver_sm) as the customer's
  Object.assign(smppServer.opts, { window: WINDOW, deliverWindow: WINDOW });
  // client1: pass-through receipts, no speed limit in the way, money enough for the run
  const account = await handle.db
    .updateTable('accounts')
    .set({
      needreport: NeedReport.PassThrough,
      access_speed: 1_000_000,
      operation_mode: OperationMode.DirectCharge,
      needaudit: 0,
      nodenum: '',
    })
    .where('clientid', '=', 'client1')
    .returning('id')
    .executeTakeFirstOrThrow();
  await new LedgerService(app.ctx).credit(account.id, String(COUNT));
  const link = createSmscLink(parseSmppUrl(`${sim.url}?ref_tlv=0x1401&window=1000`));
  await link.waitReady(10_000);
  const dispatcher = new Dispatcher(app.ctx, link, { ...loadConfig().dispatch.options, hooks: pushHooks() }).start();

  const customer = fork(
    path.join(import.meta.dirname, 'lib/smpp-customer.ts'),
    [
      JSON.stringify({
        port: smppServer.port,
        systemId: 'client1',
        password: 'Demo2468',
        n: COUNT,
        window: WINDOW,
        text: '【好易购】您的订单已发货，请注意查收，验证码 123456',
      }),
    ],
    { execArgv: ['--import', 'tsx'] },
  );
  const pgPids = async () =>
    (
      await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database()`.execute(handle.db)
    ).rows.map((r) => r.pid);
  const pgBefore = procCpuMs(await pgPids());
  const simBefore = (await sim.counts()).cpuMs;
  const profile = await startCpuProfile(
    process.env.BENCH_CPU_PROFILE ? `${process.env.BENCH_CPU_PROFILE}.cpuprofile` : '',
  );
  const selfBefore = process.cpuUsage();
  const t0 = performance.now();
  let accepted: { ms: number; ok: number; statuses: Record<string, number>; cpuMs: number } | null = null;
  const done = await new Promise<{ ms: number; receipts: number; cpuMs: number }>((resolve, reject) => {
    const progress = setInterval(
      () => console.log(`  ${((performance.now() - t0) / 1000).toFixed(1)} s ${JSON.stringify(dispatcher.stats)}`),
      5000,
    );
    const timeout = setTimeout(() => reject(new Error('not finished after 10 minutes')), 600_000);
    customer.on('message', (m: { type: string; [k: string]: unknown }) => {
      if (m.type === 'error') reject(new Error(String(m.message)));
      if (m.type === 'accepted') {
        accepted = m as never;
        console.log(
          `  all ${COUNT} submits answered after ${(Number(m.ms) / 1000).toFixed(2)} s: ${String(m.ok)} accepted, ${String(m.throttled)} answers 0x58 (throttled, sent again), refused ${JSON.stringify(m.statuses)}`,
        );
        console.log(`  the listener's refusals by status and reason: ${JSON.stringify(smppServer.stats.refused)}`);
      }
      if (m.type === 'done') {
        clearInterval(progress);
        clearTimeout(timeout);
        resolve(m as never);
      }
    });
  });
  const t2 = performance.now();
  const self = process.cpuUsage(selfBefore);
  await profile.stop();
  const selfMs = (self.user + self.system) / 1000;
  const simMs = (await sim.counts()).cpuMs - simBefore;
  const pgMs = procCpuMs(await pgPids()) - pgBefore;
  const per = (ms: number) => `${((ms * 1000) / COUNT).toFixed(0)} µs`;
  const a = accepted as unknown as { ms: number; ok: number; cpuMs: number };
  const perSecond = Math.round(COUNT / (done.ms / 1000));
  console.log(
    `PostgreSQL, ${COUNT} messages, window ${WINDOW}: submit accepted ${Math.round(COUNT / (a.ms / 1000))} messages/s (${(a.ms / 1000).toFixed(2)} s), ` +
      `end to end (last receipt at the customer) ${perSecond} messages/s (${(done.ms / 1000).toFixed(2)} s), receipts ${done.receipts} (wall ${((t2 - t0) / 1000).toFixed(2)} s)`,
  );
  console.log(
    `  CPU per message: platform process ${per(selfMs)}, PostgreSQL backends ${per(pgMs)}, simulator ${per(simMs)}, customer ${per(done.cpuMs)}; load ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  if (queries.size) {
    const total = [...queries.values()].reduce((a, b) => a + b.n, 0);
    console.log(
      `  statements of this process: ${total} (${(total / COUNT).toFixed(2)} per message); the most frequent, with their summed wall time to the answer:`,
    );
    for (const [text, e] of [...queries].sort((a, b) => b[1].n - a[1].n).slice(0, 25))
      console.log(`    ${String(e.n).padStart(7)} ${(e.ms / 1000).toFixed(1).padStart(6)} s  ${text}`);
    console.log('  the longest in summed wall time:');
    for (const [text, e] of [...queries].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12))
      console.log(`    ${String(e.n).padStart(7)} ${(e.ms / 1000).toFixed(1).padStart(6)} s  ${text}`);
  }
  const ok = perSecond >= TARGET && a.ok === COUNT && done.receipts === COUNT;
  console.log(`target ≥ ${TARGET} messages/s end to end on PostgreSQL: ${ok ? 'met' : 'MISSED'}`);
  process.exitCode = ok ? 0 : 1;
  customer.send({ type: 'close' });
  await dispatcher.stop();
  await link.close();
  await app.close();
} finally {
  await sim.close();
  await handle.close();
  await pgAdmin(pgUrl, `drop database if exists ${dbName}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

/**
 * Crash test (kill -9 during a large task) on PostgreSQL:
 * 1. a fresh database (`crash_<pid>` on the server of TEST_DATABASE_URL / DATABASE_URL; dropped
 *    afterwards unless KEEP=1), migrated and seeded;
 * 2. the SMPP simulator in its own process (`npm run smsc-sim`'s server/modules/smsc/sim-main.ts,
 *    via bench/lib/sim-standalone.ts; 90 % delivered, 10 % failed, receipts after 50-500 ms, a few
 *    uplinks), counting every ref it receives (read with SIGUSR2);
 * 3. a task of COUNT (100,000) messages for client1 at 0.04 a piece, inserted directly
 *    (bench/lib/dispatch-fixture.ts: 10,000 rows and 9 chunks that the workers write as rows,
 *    as the acceptance does; no charge at acceptance);
 * 4. `npm run worker` (server/worker.ts) as a child process with DATABASE_URL + SMPP_URL and a
 *    short lease (DISPATCH_LEASE_MS=10000), killed with SIGKILL once a third of the task is
 *    submitted, then started again, until the task is completed and every receipt the simulator
 *    sent is applied;
 * 5. checks, printed: every message in exactly one final state (3, 6, 4, or 1 only when
 *    UNCONFIRMED: the messages the killed worker had handed to its link and not seen answered),
 *    the crash guarantees — unconfirmed ≤ window × connections, none of them never sent (the
 *    simulator's refs), none sent twice —, no lease left, no ref received twice
 *    by the simulator, task counters = a recount of the records, sum(ledger) = balance for every
 *    account, sum(pool_movements) = remaining for every pool. Exit code 1 on any violation.
 *
 *   TEST_DATABASE_URL=postgres://sms:sms@127.0.0.1:5432/postgres npx tsx bench/crash.ts   # COUNT=100000
 *
 * CARRIER=cmpp: the same over a cmpp:// link to the CMPP gateway simulator (SMSC_SIM_PROTOCOL=cmpp);
 * CMPP carries no ref of ours, so "never sent" / "sent twice" count by destination number (every
 * message of the fixture has its own).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { openDatabase } from '../server/db';
import { seed } from '../server/db/seed';
import { insertFixtureTask } from './lib/dispatch-fixture';
import { scratchDatabase } from './lib/pg-admin';
import {
  balanceViolations,
  messageCounts,
  receiptsUnapplied,
  recountTasks,
  runMessages,
  stateSummary,
} from './lib/settle-checks';
import { startStandaloneSim } from './lib/sim-standalone';

const baseUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || '';
if (!baseUrl) {
  console.log('crash test: skipped (set TEST_DATABASE_URL or DATABASE_URL to a PostgreSQL server)');
  process.exit(0);
}
const COUNT = Number(process.env.COUNT ?? 100_000);
const CMPP = process.env.CARRIER === 'cmpp';
const KILL_AT = Number(process.env.KILL_AT ?? 1 / 3);
const root = path.resolve(import.meta.dirname, '..');

const scratch = await scratchDatabase(baseUrl, 'crash');
const dbUrl = scratch.url;
const handle = await openDatabase({ databaseUrl: dbUrl, poolSize: 4 });
const db = handle.db;
const sim = await startStandaloneSim({
  SMSC_SIM_SEED: '2026',
  SMSC_SIM_DELIVERED: '0.9',
  SMSC_SIM_FAILED: '0.1',
  SMSC_SIM_NO_RECEIPT: '0',
  SMSC_SIM_LATENCY_MS: '50-500',
  SMSC_SIM_MO_RATIO: '0.001',
  SMSC_SIM_MO_DELAY_MS: '200',
  // ref → times received: the never-sent check
  SMSC_SIM_COUNTS_REFS: '1',
  ...(CMPP ? { SMSC_SIM_PROTOCOL: 'cmpp' } : {}),
});
/** the worker's link: window × connections is what a crash may leave unconfirmed at most */
const WINDOW = 1000;
const CONNECTIONS = 1;
/** a stored receipt is matched to an unconfirmed message after this long (DISPATCH_MATCH_UNCONFIRMED_MS; the link's timeout_ms is shorter) */
const MATCH_MS = 15_000;
const violations: string[] = [];
let worker: ChildProcess | null = null;

function startWorker(n: number): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/worker.ts')], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: dbUrl,
      SMPP_URL: CMPP
        ? `${sim.url}?version=3&src_id=106900&window=${WINDOW}&connections=${CONNECTIONS}&timeout_ms=10000`
        : `${sim.url}?ref_tlv=0x1401&window=${WINDOW}&connections=${CONNECTIONS}&timeout_ms=10000`,
      DISPATCH_LEASE_MS: '10000',
      DISPATCH_MATCH_UNCONFIRMED_MS: String(MATCH_MS),
      LOG_LEVEL: 'warn',
      WORKER_ID: `crash-worker-${n}`,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  console.log(`worker ${n} started (pid ${child.pid})`);
  return child;
}

async function taskRow(id: number) {
  return db.selectFrom('sms_tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** the fixture is the run's only task: the checks take the tasks from its id on */
const byState = (taskId: number) => stateSummary(db, taskId);

try {
  await seed(db);
  const account = await db
    .selectFrom('accounts')
    .select('id')
    .where('clientid', '=', 'client1')
    .executeTakeFirstOrThrow();
  const t0 = performance.now();
  const task = await insertFixtureTask(db, { accountId: account.id, count: COUNT, price: '0.0400' });
  console.log(
    `task ${task.uid}: ${COUNT} messages inserted in ${(performance.now() - t0).toFixed(0)} ms (database ${scratch.name})`,
  );

  worker = startWorker(1);
  const killAt = Math.floor(COUNT * KILL_AT);
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    const t = await taskRow(task.id);
    if (t.submitted_num >= killAt) break;
    if (Date.now() > deadline || worker.exitCode !== null)
      throw new Error(`worker 1 did not reach ${killAt} submitted (exit ${worker.exitCode})`);
    await new Promise((r) => setTimeout(r, 20));
  }
  // at a random moment after the threshold (the counters move when a slice is recorded: a kill right then finds nothing in flight)
  await new Promise((r) => setTimeout(r, 50 + Math.random() * 400));
  worker.kill('SIGKILL');
  await new Promise((r) => worker!.once('exit', r));
  const atKill = await taskRow(task.id);
  console.log(
    `kill -9 at ${atKill.submitted_num} submitted (${atKill.success_num + atKill.fail_num} final); messages: ${await byState(task.id)}`,
  );

  worker = startWorker(2);
  for (;;) {
    const t = await taskRow(task.id);
    const { unconfirmed } = await messageCounts(db, task.id);
    const c = await sim.counts();
    if (t.status === 3 && t.unknown_num === unconfirmed && c.receiptsPending === 0) break;
    if (Date.now() > deadline || worker.exitCode !== null)
      throw new Error(
        `not finished: ${JSON.stringify({ status: t.status, unknown: t.unknown_num, pending: c.receiptsPending })} (worker exit ${worker.exitCode})`,
      );
    await new Promise((r) => setTimeout(r, 500));
  }
  // receipts the simulator sent have been acknowledged = stored; let the applier finish them
  for (let i = 0; i < 50; i++) {
    if ((await receiptsUnapplied(db)) === 0) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  // receipts for the unconfirmed messages: matched by number + channel once MATCH_MS has passed
  const unconfirmedBefore = (await messageCounts(db, task.id)).unconfirmed;
  for (let last = -1, since = Date.now(); Date.now() - since < MATCH_MS + 15_000;) {
    const n = (await sql<{ n: number }>`select count(*)::int n from sms_receipts`.execute(db)).rows[0].n;
    if (n === 0) break;
    if (n !== last) [last, since] = [n, Date.now()];
    await new Promise((r) => setTimeout(r, 500));
  }
  const elapsed = (performance.now() - t0) / 1000;
  worker.kill('SIGTERM');
  await new Promise((r) => worker!.once('exit', r));
  worker = null;

  // ---- checks
  const t = await taskRow(task.id);
  console.log(`\ndone after ${elapsed.toFixed(1)} s (kill and restart included); messages: ${await byState(task.id)}`);
  const counted = await messageCounts(db, task.id);
  if (counted.total - counted.final)
    violations.push(
      `${counted.total - counted.final} messages not in exactly one final state (or still leased / queued)`,
    );
  if (counted.total !== COUNT) violations.push(`${counted.total} message rows instead of ${COUNT}`);

  const c = await sim.counts();
  console.log(
    `simulator: ${c.received} submit_sm received, ${c.distinctRefs} distinct refs, ${c.duplicates.length} refs received twice or more, ${c.receiptsSent} receipts sent, ${c.moSent} uplinks`,
  );
  if (c.duplicates.length)
    violations.push(
      `refs submitted twice: ${c.duplicates
        .slice(0, 10)
        .map(([r, n]) => `${r}×${n}`)
        .join(', ')}`,
    );
  if (c.distinctRefs > COUNT) violations.push(`the simulator saw ${c.distinctRefs} refs for ${COUNT} messages`);

  // the crash guarantees (docs/api-dispatch.md "Crash guarantees")
  const refs = (c as typeof c & { refs?: Record<string, number> }).refs ?? {};
  const messages = await runMessages(db, task.id);
  const unconf = { rows: messages.filter((m) => m.unconfirmed) };
  /** what the simulator counted a message under: our ref (SMPP), its number (CMPP) */
  const key = (m: { id: number; phone: string }) => (CMPP ? m.phone : String(m.id));
  // unconfirmed messages the simulator never got: in flight at the kill (marked, written or about to be) and lost with the
  // process or its connection (a socket closed by the kernel with unread data is reset: what the peer had not read yet is gone)
  const lostInCrash = unconf.rows.filter((m) => !refs[key(m)]).length;
  // messages that are not unconfirmed and never reached the simulator: claimed and never sent (the guarantee: 0)
  const neverSent = messages.filter((m) => !m.unconfirmed && !refs[key(m)]).length;
  const limit = WINDOW * CONNECTIONS;
  console.log(
    `\ncrash guarantees: unconfirmed after the restart ${unconfirmedBefore}, of which ${unconfirmedBefore - unconf.rows.length} got their receipt by number + channel; ` +
      `unconfirmed ${unconf.rows.length} (target ≤ window × connections = ${limit}; of them ${lostInCrash} never reached the simulator: in flight, lost with the killed process's connection), ` +
      `never sent ${neverSent} (target 0), sent twice ${c.duplicates.length} (target 0)`,
  );
  if (unconf.rows.length > limit)
    violations.push(`${unconf.rows.length} unconfirmed messages, more than window × connections (${limit})`);
  if (neverSent) violations.push(`${neverSent} messages were never sent`);

  const [{ counters, records, same }] = await recountTasks(db, task.id);
  console.log(
    `task counters: ${JSON.stringify(counters)}\nrecount:       ${JSON.stringify(records)}\ntask status ${t.status}, finished_at ${t.finished_at?.toISOString()}`,
  );
  if (!same) violations.push('task counters differ from the records');
  if (t.status !== 3 || !t.finished_at) violations.push('task not completed');

  violations.push(...(await balanceViolations(db)));
  const orphans = await sql<{ n: number }>`select count(*)::int n from sms_receipts`.execute(db);
  const mo = await sql<{ n: number }>`select count(*)::int n from sms_mo`.execute(db);
  console.log(
    `receipts waiting (for unconfirmed messages, purged after 3 days): ${orphans.rows[0].n}; uplinks stored: ${mo.rows[0].n}`,
  );
} catch (e) {
  violations.push(`run failed: ${(e as Error).message}`);
} finally {
  if (worker && worker.exitCode === null) worker.kill('SIGKILL');
  await sim.close();
  await handle.close();
  if (process.env.KEEP !== '1') await scratch.drop();
}

console.log(violations.length ? `\nVIOLATIONS:\n- ${violations.join('\n- ')}` : '\ncrash test passed: no violation');
process.exitCode = violations.length ? 1 : 0;

/**
 * A customer connected over CMPP end to end (issue 36): the customer's system is the independent
 * implementation ../shared/interop/bin/cmpp-peer in its `sp` role (gocmpp; its own process: one
 * CMPP 3.0 session, `-window` submits in flight, answers every CMPP_DELIVER and matches each
 * report's Msg_Id with its submit responses) → the platform's CMPP door (this process, with the
 * dispatcher, as `npm start` embeds them) → a cmpp:// link to the CMPP gateway simulator (its own
 * process, `npm run smsc-sim` with SMSC_SIM_PROTOCOL=cmpp via bench/lib/sim-standalone.ts, as
 * bench/crash.ts CARRIER=cmpp: everything delivered, reports after 0-20 ms) → the reports back to
 * the customer as CMPP_DELIVER (needreport 2, pass-through).
 *
 * Prints messages/s end to end (the first submit to the last report at the customer), the
 * submit-accept rate (to the last CMPP_SUBMIT_RESP) and the CPU per message of each process (the
 * platform, the PostgreSQL backends, the carrier simulator, the customer). Then, unless
 * CONSOLE=0, the console path on the same machine, database, link and carrier: one send of COUNT
 * numbers through the send service (checks, task, charge) → dispatch → CMPP submit → report
 * recorded, with its platform + PostgreSQL CPU per message, and the ratio the target names.
 *
 *   TEST_DATABASE_URL=postgres://sms:sms@127.0.0.1:5432/postgres npx tsx bench/cmpp-customer-e2e.ts   # COUNT=100000
 *   COUNT=20000 WINDOW=1000 npx tsx bench/cmpp-customer-e2e.ts
 *                                             # WINDOW: the customer's submits in flight (default 100, the door's default window;
 *                                             # the door accepts what is in flight together: the CPU per message falls as it grows)
 *   VERSION=2                                 # the customer's CMPP version (default 3)
 *   CONSOLE=0                                 # the door only, no console comparison
 *   BENCH_CPU_PROFILE=/tmp/cmppc              # CPU profile of the platform process during the door run (/tmp/cmppc.cpuprofile)
 *   BENCH_PG_STATEMENTS=1                     # the costliest PostgreSQL statements of each run (pg_stat_statements, when loaded)
 * Target (issue 36): the CMPP door costs the platform at most 1.3× the CPU per message of the
 * console path (platform process + PostgreSQL backends), every submit accepted and every report matched.
 * The peer's run, the CPU accounting and the console path are bench/lib/customer-e2e.ts, shared with
 * the SMGP and SGIP customer benchmarks.
 */
import { buildApp } from '../server/app';
import { seed } from '../server/db/seed';
import { Dispatcher } from '../server/modules/dispatch/dispatcher';
import { pushHooks } from '../server/modules/dispatch/pipeline';
import { loadConfig } from '../server/config';
import { createSmscLink } from '../server/modules/smsc/link';
import { parseSmppUrl } from '../server/modules/smsc/config';
import {
  benchAccount,
  benchCarrier,
  benchDatabase,
  benchEnv,
  consoleComparison,
  doorRun,
  runPeer,
} from './lib/customer-e2e';
import { CMPP_SERVER_DEFAULTS } from '../server/modules/smpp-server';

const COUNT = Number(process.env.COUNT ?? 100_000);
/**
 * the customer's submits in flight (cmpp-peer -window); default the door's own session window
 * (CMPP_SERVER_DEFAULTS.window, 100), which is raised to a larger WINDOW
 */
const WINDOW = Number(process.env.WINDOW ?? CMPP_SERVER_DEFAULTS.window);
const VERSION = process.env.VERSION === '2' ? 2 : 3;
const { peer: PEER, pgUrl } = benchEnv('cmpp-peer');

const bench = await benchDatabase(pgUrl, 'cmppc');
const { handle, dataDir } = bench;
const sim = await benchCarrier('cmpp');
try {
  await seed(handle.db);
  const app = await buildApp({
    db: handle.db,
    dataDir,
    purgeEveryMs: 0,
    config: { smppServerPort: 0, cmppServerPort: -1, cmppServerHost: '127.0.0.1' },
  });
  await app.ready();
  const door = app.services.cmppServer!;
  // the door's window of submits being accepted and of unanswered reports, at least the customer's
  Object.assign(door.opts, {
    window: Math.max(door.opts.window, WINDOW),
    deliverWindow: Math.max(door.opts.deliverWindow, WINDOW),
  });
  const accountId = await benchAccount(app, handle.db, COUNT);
  const link = createSmscLink(parseSmppUrl(`${sim.url}?version=3&src_id=106900&window=1000`));
  await link.waitReady(10_000);
  const dispatcher = new Dispatcher(app.ctx, link, { ...loadConfig().dispatch.options, hooks: pushHooks() }).start();
  const carrier = { db: handle.db, carrierPid: sim.child.pid!, carrier: 'carrier simulator', count: COUNT };

  // 1. the CMPP door
  // the index fills the destination to 11 digits: 13800 + 6 digits, distinct up to 1,000,000 messages
  const peerArgs = [
    'sp',
    '-addr',
    `127.0.0.1:${door.port}`,
    '-v',
    String(VERSION),
    '-user',
    'cli001',
    '-password',
    'Demo2468',
    '-n',
    String(COUNT),
  ];
  const { doorCost, ok } = await doorRun({
    ...carrier,
    protocol: `CMPP ${VERSION === 3 ? '3.0' : '2.0'}`,
    window: WINDOW,
    door,
    dispatcher,
    peerName: 'cmpp-peer',
    run: () =>
      runPeer(PEER, [...peerArgs, '-window', String(WINDOW), '-wait', '120', '-sign', '好易购', '-dest', '13800']),
  });

  // 2. the console path on the same database, link and carrier
  process.exitCode = (await consoleComparison({ ...carrier, app, accountId, doorName: 'CMPP', doorCost, ok })) ? 0 : 1;
  await dispatcher.stop();
  await link.close();
  await app.close();
} finally {
  await sim.close();
  await bench.drop();
}

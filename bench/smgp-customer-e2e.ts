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
 * every report matched. The peer's run, the CPU accounting and the console path are
 * bench/lib/customer-e2e.ts.
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
import { SMGP_SERVER_DEFAULTS } from '../server/modules/smpp-server';

const COUNT = Number(process.env.COUNT ?? 100_000);
/**
 * the customer's submits in flight (smgp-peer -window); default the door's own session window
 * (SMGP_SERVER_DEFAULTS.window, 100), which is raised to a larger WINDOW
 */
const WINDOW = Number(process.env.WINDOW ?? SMGP_SERVER_DEFAULTS.window);
const { peer: PEER, pgUrl } = benchEnv('smgp-peer');

const bench = await benchDatabase(pgUrl, 'smgpc');
const { handle, dataDir } = bench;
const sim = await benchCarrier('smgp');
try {
  await seed(handle.db);
  const app = await buildApp({
    db: handle.db,
    dataDir,
    purgeEveryMs: 0,
    config: { smppServerPort: 0, cmppServerPort: 0, smgpServerPort: -1, smgpServerHost: '127.0.0.1' },
  });
  await app.ready();
  const door = app.services.smgpServer!;
  // the door's window of submits being accepted and of unanswered reports, at least the customer's
  Object.assign(door.opts, {
    window: Math.max(door.opts.window, WINDOW),
    deliverWindow: Math.max(door.opts.deliverWindow, WINDOW),
  });
  const accountId = await benchAccount(app, handle.db, COUNT);
  const link = createSmscLink(parseSmppUrl(`${sim.url}?src=106900&window=1000`), undefined, { sourcePrefix: '106900' });
  await link.waitReady(10_000);
  const dispatcher = new Dispatcher(app.ctx, link, { ...loadConfig().dispatch.options, hooks: pushHooks() }).start();
  const carrier = { db: handle.db, carrierPid: sim.child.pid!, carrier: 'carrier simulator', count: COUNT };

  // 1. the SMGP door
  // the index fills the destination to 11 digits: 18900 + 6 digits, distinct up to 1,000,000 messages
  const peerArgs = [
    'sp',
    '-addr',
    `127.0.0.1:${door.port}`,
    '-user',
    'cli001',
    '-password',
    'Demo2468',
    '-n',
    String(COUNT),
    '-src',
    '106900',
  ];
  const { doorCost, ok } = await doorRun({
    ...carrier,
    protocol: 'SMGP 3.0',
    window: WINDOW,
    door,
    dispatcher,
    peerName: 'smgp-peer',
    run: () =>
      runPeer(PEER, [...peerArgs, '-window', String(WINDOW), '-wait', '120', '-sign', '好易购', '-dest', '18900']),
  });

  // 2. the console path on the same database, link and carrier
  process.exitCode = (await consoleComparison({ ...carrier, app, accountId, doorName: 'SMGP', doorCost, ok })) ? 0 : 1;
  await dispatcher.stop();
  await link.close();
  await app.close();
} finally {
  await sim.close();
  await bench.drop();
}

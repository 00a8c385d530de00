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
 * The peer's run, the CPU accounting and the console path are bench/lib/customer-e2e.ts.
 */
import { spawn as spawnChild, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { buildApp } from '../server/app';
import { seed } from '../server/db/seed';
import { Dispatcher } from '../server/modules/dispatch/dispatcher';
import { pushHooks } from '../server/modules/dispatch/pipeline';
import { loadConfig } from '../server/config';
import { createSmscLink } from '../server/modules/smsc/link';
import { parseSmppUrl } from '../server/modules/smsc/config';
import { benchAccount, benchDatabase, benchEnv, consoleComparison, doorRun, runPeer } from './lib/customer-e2e';
import { SGIP_SERVER_DEFAULTS } from '../server/modules/smpp-server';

const COUNT = Number(process.env.COUNT ?? 100_000);
/** the customer's submits in flight (sgip-peer -window); default the door's own session window */
const WINDOW = Number(process.env.WINDOW ?? SGIP_SERVER_DEFAULTS.window);
const BASE_PORT = Number(process.env.PORTS ?? 19200);
const SMG_PORT = BASE_PORT + 1;
const LINK_CALLBACK_PORT = BASE_PORT + 2;
const CUSTOMER_PORT = BASE_PORT + 3;
const { peer: PEER, pgUrl } = benchEnv('sgip-peer');

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

const bench = await benchDatabase(pgUrl, 'sgipc');
const { handle, dataDir } = bench;
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
  // client1, with its listener for the bind-back
  const accountId = await benchAccount(app, handle.db, COUNT, {
    sgip_callback_host: 'sp.bench.example',
    sgip_callback_port: CUSTOMER_PORT,
    sgip_callback_user: 'plat',
    sgip_callback_password: 'cbpass',
  });
  const link = createSmscLink(
    parseSmppUrl(
      `sgip://sp1:secret@127.0.0.1:${SMG_PORT}?corp_id=12345&sp_number=106900&prefix=106900&callback_port=${LINK_CALLBACK_PORT}&callback_host=127.0.0.1&callback_user=smg&callback_password=secret2&window=1000`,
    ),
  );
  await link.waitReady(10_000);
  const dispatcher = new Dispatcher(app.ctx, link, { ...loadConfig().dispatch.options, hooks: pushHooks() }).start();

  const carrier = { db: handle.db, carrierPid: sim.child.pid!, carrier: 'SMG (sgip-peer)', count: COUNT };

  // 1. the SGIP door
  // the index fills the destination to 11 digits: 13800 + 6 digits, distinct up to 1,000,000 messages
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
    '-listen',
    `127.0.0.1:${CUSTOMER_PORT}`,
  ];
  const { doorCost, ok } = await doorRun({
    ...carrier,
    protocol: 'SGIP 1.2',
    window: WINDOW,
    door,
    dispatcher,
    peerName: 'sgip-peer',
    run: () =>
      runPeer(PEER, [
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
      ]),
  });

  // 2. the console path on the same database, link and SMG
  process.exitCode = (await consoleComparison({ ...carrier, app, accountId, doorName: 'SGIP', doorCost, ok })) ? 0 : 1;
  await dispatcher.stop();
  await link.close();
  await app.close();
} finally {
  await sim.close();
  await bench.drop();
}

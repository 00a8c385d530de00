/**
 * Routing among several channels (issue 25; docs/api-dispatch.md "Channels", "Carrier back-off"),
 * against several instances of the project's simulator and once against an SMSC the project did
 * not write (Debian's libnet-smpp-perl, tests/fixtures/smpp-smsc-throttle.pl):
 * - priority: the first healthy channel serving a message takes it; failover when it is down for
 *   failover_ms, failback when it is bound again;
 * - weight: one priority's channels share by weight (bound checked);
 * - max_per_second: submits per second counted on the simulator's side;
 * - throttling (0x58): a back-off of the channel, never a failure of the message; lasting throttling
 *   hands the traffic to the next channel until the throttling one accepts again;
 * - ESME_RSYSERR: the channel out of routing (its messages to the other), back when it accepts;
 * - the channel rows (CLI) picked up by two running workers on one database without a restart.
 */
import path from 'node:path';
import readline from 'node:readline';
import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { Dispatcher, type ChannelRoute, type DispatcherOptions } from '../../server/modules/dispatch/dispatcher';
import { startPipeline } from '../../server/modules/dispatch/pipeline';
import { createSmscLink, type SmscLinkHandle } from '../../server/modules/smsc/client';
import { parseSmppUrl } from '../../server/modules/smsc/config';
import { startSimulator, type Simulator, type SimulatorSettings } from '../../server/modules/smsc/simulator';
import { runCommand } from '../../server/cli/operator-channel';
import { LedgerService } from '../../server/modules/ledger/service';
import { insertFixtureTask } from '../../bench/lib/dispatch-fixture';
import { backends, useServer, type TestServer } from './harness';

async function accountId(server: TestServer) {
  return (
    await server.handle.db
      .selectFrom('accounts')
      .select('id')
      .where('clientid', '=', 'client1')
      .executeTakeFirstOrThrow()
  ).id;
}

const taskRow = (server: TestServer, id: number) =>
  server.handle.db.selectFrom('sms_tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const messages = (server: TestServer, id: number) =>
  server.handle.db.selectFrom('sms_messages').selectAll().where('task_id', '=', id).orderBy('id').execute();

async function waitFor(what: string, cond: () => Promise<boolean> | boolean, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** every message delivered (receipts applied), the task completed */
async function waitDelivered(server: TestServer, id: number, ms = 60_000) {
  await waitFor(
    `task ${id} delivered`,
    async () => {
      const tr = await taskRow(server, id);
      return tr.status === 3 && tr.success_num === tr.submit_total;
    },
    ms,
  );
}

async function expectMoneyExact(server: TestServer, taskId: number) {
  const t = await taskRow(server, taskId);
  const r = await sql<{ success: number; fail: number; unknown: number; submitted: number }>`
    select count(*) filter (where state in (3, 16))::int success, count(*) filter (where state in (4, 6, 8, 9, 14))::int fail,
      count(*) filter (where state in (1, 15))::int unknown, count(*) filter (where state not in (0, 7))::int submitted
    from sms_messages where task_id = ${taskId}`.execute(server.handle.db);
  expect({ success: t.success_num, fail: t.fail_num, unknown: t.unknown_num, submitted: t.submitted_num }).toEqual(
    r.rows[0],
  );
  expect(await new LedgerService({ db: server.handle.db, now: () => new Date() }).violations()).toEqual([]);
}

const DELIVER_ALL: Partial<SimulatorSettings> = {
  delivered: 1,
  failed: 0,
  noReceipt: 0,
  latencyMinMs: 5,
  latencyMaxMs: 20,
  moRatio: 0,
  keepRecent: 5000,
};
const FAST =
  'ref_tlv=0x1401&reconnect_min_ms=50&reconnect_max_ms=100&receipt_batch_ms=5&queue_wait_ms=300&timeout_ms=3000';
const linkTo = (sim: Simulator | string, extra = '') =>
  createSmscLink(parseSmppUrl(`${typeof sim === 'string' ? sim : sim.url}?${FAST}${extra}`));
const OPTS: DispatcherOptions = {
  batchSize: 40,
  lanes: 2,
  idleMs: 20,
  maintenanceMs: 100,
  markSubmittedMs: 0,
  channelStatsMs: 0,
  matchUnconfirmedMs: 0,
};

/** how many times each message's ref reached each simulator */
function sentOn(sims: Record<string, Simulator>, ids: number[]) {
  const out: Record<string, number> = {};
  for (const id of ids) {
    const on = Object.entries(sims).filter(([, s]) => s.refs.has(String(id)));
    for (const [, s] of on) expect(s.refs.get(String(id))).toBe(1);
    expect(on.length).toBeLessThanOrEqual(1);
    const name = on[0]?.[0] ?? '-';
    out[name] = (out[name] ?? 0) + 1;
  }
  return out;
}

describe.each(backends)('routing among channels (%s)', (backend) => {
  const t = useServer(backend, { build: { now: () => new Date() } });

  it('priority: the first healthy channel takes everything; down for failover_ms → the next; bound again → back (failback)', async () => {
    const { server } = t;
    const db = server.handle.db;
    let a = await startSimulator({ ...DELIVER_ALL, seed: 1 });
    const b = await startSimulator({ ...DELIVER_ALL, seed: 2 });
    const port = a.port;
    const la = linkTo(a);
    const lb = linkTo(b);
    const d = new Dispatcher(
      server.app.ctx,
      [
        { name: 'a', link: la, priority: 0 },
        { name: 'b', link: lb, priority: 1 },
      ],
      { ...OPTS, failoverMs: 400 },
    );
    const account = await accountId(server);
    try {
      await Promise.all([la.waitReady(5000), lb.waitReady(5000)]);
      d.start();
      const t1 = await insertFixtureTask(db, {
        accountId: account,
        count: 60,
        nextAt: new Date(),
        phoneBase: 13900000000,
      });
      await waitDelivered(server, t1.id);
      expect(
        sentOn(
          { a, b },
          (await messages(server, t1.id)).map((m) => m.id),
        ),
      ).toEqual({ a: 60 });

      // a goes away: after failover_ms its traffic goes to b (what a's link could not write comes back as retry)
      await a.close();
      await waitFor('a unbound', () => !la.ready);
      const t2 = await insertFixtureTask(db, {
        accountId: account,
        count: 60,
        nextAt: new Date(),
        phoneBase: 13910000000,
      });
      await waitDelivered(server, t2.id);
      const m2 = await messages(server, t2.id);
      expect(m2.every((m) => m.channel === 'b' && m.state === 3)).toBe(true);
      expect(
        sentOn(
          { a, b },
          m2.map((m) => m.id),
        ),
      ).toEqual({ b: 60 });

      // a comes back on its port: once bound, priority 0 takes the traffic again
      a = await startSimulator({ ...DELIVER_ALL, seed: 3, port });
      await la.waitReady(10_000);
      const t3 = await insertFixtureTask(db, {
        accountId: account,
        count: 60,
        nextAt: new Date(),
        phoneBase: 13920000000,
      });
      await waitDelivered(server, t3.id);
      const m3 = await messages(server, t3.id);
      expect(m3.every((m) => m.channel === 'a')).toBe(true);
      expect(
        sentOn(
          { a, b },
          m3.map((m) => m.id),
        ),
      ).toEqual({ a: 60 });
      for (const id of [t1.id, t2.id, t3.id]) await expectMoneyExact(server, id);
    } finally {
      await d.stop();
      await Promise.all([la.close(), lb.close()]);
      await Promise.all([a.close(), b.close()]);
    }
  }, 120_000);

  it("weight: one priority's channels share the traffic by weight (3 : 1, within 5 points)", async () => {
    const { server } = t;
    const db = server.handle.db;
    const a = await startSimulator({ ...DELIVER_ALL, seed: 4 });
    const b = await startSimulator({ ...DELIVER_ALL, seed: 5 });
    const la = linkTo(a);
    const lb = linkTo(b);
    const d = new Dispatcher(
      server.app.ctx,
      [
        { name: 'a', link: la, weight: 3 },
        { name: 'b', link: lb, weight: 1 },
      ],
      OPTS,
    );
    const N = 400;
    const { id } = await insertFixtureTask(db, {
      accountId: await accountId(server),
      count: N,
      nextAt: new Date(),
      phoneBase: 13930000000,
    });
    try {
      await Promise.all([la.waitReady(5000), lb.waitReady(5000)]);
      d.start();
      await waitDelivered(server, id);
    } finally {
      await d.stop();
      await Promise.all([la.close(), lb.close(), a.close(), b.close()]);
    }
    const ms = await messages(server, id);
    const on = sentOn(
      { a, b },
      ms.map((m) => m.id),
    );
    expect(on.a + on.b).toBe(N);
    expect(Math.abs(on.a / N - 0.75)).toBeLessThanOrEqual(0.05);
    // the channel recorded is the one that got it
    for (const m of ms) expect(m.channel).toBe(a.refs.has(String(m.id)) ? 'a' : 'b');
    await expectMoneyExact(server, id);
  }, 90_000);

  it("max_per_second: the simulator never counts more submits in a second than the channel's limit (+ a tenth), and the rest waits", async () => {
    const { server } = t;
    const db = server.handle.db;
    const a = await startSimulator({ ...DELIVER_ALL, seed: 6 });
    const la = linkTo(a);
    const LIMIT = 40;
    const N = 140;
    const d = new Dispatcher(server.app.ctx, [{ name: 'a', link: la, maxPerSecond: LIMIT }], OPTS);
    const { id } = await insertFixtureTask(db, {
      accountId: await accountId(server),
      count: N,
      nextAt: new Date(),
      phoneBase: 13940000000,
    });
    const T0 = Date.now();
    try {
      await la.waitReady(5000);
      d.start();
      await waitDelivered(server, id);
    } finally {
      await d.stop();
      await la.close();
      await a.close();
    }
    const at = a.recent.map((r) => r.at).sort((x, y) => x - y);
    expect(at).toHaveLength(N);
    const perSecond = new Map<number, number>();
    for (const x of at) perSecond.set(Math.floor(x / 1000), (perSecond.get(Math.floor(x / 1000)) ?? 0) + 1);
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(Math.ceil(LIMIT * 1.1));
    // 140 at 40 a second: at least 3 seconds
    expect(at[at.length - 1] - T0).toBeGreaterThanOrEqual(2000);
    expect(
      sentOn(
        { a },
        (await messages(server, id)).map((m) => m.id),
      ),
    ).toEqual({ a: N });
    await expectMoneyExact(server, id);
  }, 90_000);

  it('throttling (0x58) slows the channel and retries its messages, never fails them; ESME_RSYSERR takes it out of routing until it accepts again', async () => {
    const { server } = t;
    const db = server.handle.db;
    // the carrier takes 15 a second (low enough to be reached on a loaded machine); our channel has no limit of its own
    const a = await startSimulator({ ...DELIVER_ALL, seed: 7, maxPerSecond: 15 });
    const b = await startSimulator({ ...DELIVER_ALL, seed: 8 });
    const la = linkTo(a, '&window=40&throttle_ms=100');
    const lb = linkTo(b);
    const routes: ChannelRoute[] = [
      { name: 'a', link: la, priority: 0 },
      { name: 'b', link: lb, priority: 1 },
    ];
    const d = new Dispatcher(server.app.ctx, routes, { ...OPTS, throttleFailoverMs: 60_000 });
    const account = await accountId(server);
    try {
      await Promise.all([la.waitReady(5000), lb.waitReady(5000)]);
      d.start();
      const t1 = await insertFixtureTask(db, {
        accountId: account,
        count: 90,
        nextAt: new Date(),
        phoneBase: 13950000000,
      });
      await waitDelivered(server, t1.id);
      const m1 = await messages(server, t1.id);
      // throttled, retried on it: everything on a, delivered, nothing twice
      expect(a.counts().throttled).toBeGreaterThan(0);
      expect(
        sentOn(
          { a, b },
          m1.map((m) => m.id),
        ),
      ).toEqual({ a: 90 });
      expect(m1.every((m) => m.state === 3)).toBe(true);
      expect(m1.some((m) => m.attempts > 1)).toBe(true);
      // the back-off: the budget halves down to 1 and the link pauses throttle_ms after each throttled
      // answer, so the 6 s the carrier needs for 90 at 15/s cost about 10 throttled answers a second
      // per dispatch lane (3 lanes: up to ~180; measured 60–180 on idle and loaded machines); without
      // it the window of 40 every pause would draw thousands
      expect(a.counts().throttled).toBeLessThan(4 * 90);
      await expectMoneyExact(server, t1.id);

      // a answers ESME_RSYSERR: out of routing, its traffic to b; a probe a second; back once it accepts
      a.update({ maxPerSecond: 0, rejectRatio: 1, rejectCode: 0x08 });
      const T2 = Date.now();
      const t2 = await insertFixtureTask(db, {
        accountId: account,
        count: 100,
        nextAt: new Date(),
        phoneBase: 13960000000,
      });
      await waitDelivered(server, t2.id);
      const m2 = await messages(server, t2.id);
      expect(m2.every((m) => m.state === 3 && m.channel === 'b')).toBe(true);
      // a saw what the lanes had routed to it before its first answer, then one probe a second
      expect(a.counts().rejected).toBeLessThanOrEqual(2 * OPTS.batchSize! + Math.ceil((Date.now() - T2) / 1000) + 1);
      a.update({ rejectRatio: 0 });
      await new Promise((r) => setTimeout(r, 1200));
      const t3 = await insertFixtureTask(db, {
        accountId: account,
        count: 200,
        nextAt: new Date(),
        phoneBase: 13970000000,
      });
      await waitDelivered(server, t3.id);
      const m3 = await messages(server, t3.id);
      // the probe was accepted: a is back and takes the rest (what the first claims routed before its answer went to b)
      expect(m3.filter((m) => m.channel === 'a').length).toBeGreaterThanOrEqual(100);
      expect(m3[m3.length - 1].channel).toBe('a');
      await expectMoneyExact(server, t2.id);
      await expectMoneyExact(server, t3.id);
    } finally {
      await d.stop();
      await Promise.all([la.close(), lb.close(), a.close(), b.close()]);
    }
  }, 120_000);

  it('channel rows added, changed and removed with the CLI are routed by in two running workers within seconds, without a restart', async () => {
    const { server } = t;
    const db = server.handle.db;
    const a = await startSimulator({ ...DELIVER_ALL, seed: 9 });
    const b = await startSimulator({ ...DELIVER_ALL, seed: 10 });
    const cli = (...argv: string[]) => runCommand({ db, now: () => new Date() }, argv);
    const start = (worker: string) =>
      startPipeline(server.app.ctx, {
        smppUrl: `${a.url}?${FAST}`,
        push: false,
        reloadMs: 200,
        channelsFile: '',
        dispatcher: { ...OPTS, workerId: worker },
      });
    const w1 = await start('w1');
    const w2 = await start('w2');
    const account = await accountId(server);
    try {
      expect([w1.dispatcher.channelNames(), w2.dispatcher.channelNames()]).toEqual([[''], ['']]);
      expect((await cli('channel-add', 'bb', `${b.url}?${FAST}`)).code).toBe(0);
      await waitFor(
        'both workers route by the row',
        () => w1.dispatcher.channelNames().join() === 'bb' && w2.dispatcher.channelNames().join() === 'bb',
        5000,
      );
      const t1 = await insertFixtureTask(db, {
        accountId: account,
        count: 80,
        nextAt: new Date(),
        phoneBase: 13980000000,
      });
      await waitDelivered(server, t1.id);
      const m1 = await messages(server, t1.id);
      expect(
        sentOn(
          { a, b },
          m1.map((m) => m.id),
        ),
      ).toEqual({ b: 80 });
      expect(m1.every((m) => m.channel === 'bb')).toBe(true);

      // bb moved to priority 5, then a second row at a better priority: both workers move to it.
      // Each command is a change of its own, routed by from the workers' next reload (every 200 ms)
      // however briefly it lasts. In this order every table that has aa has bb at 5, so "both rows"
      // below is the final table; aa added first, a reload between the two commands (likely when
      // the machine is loaded and a command takes 100s of ms) routes by aa 0 + bb 0, which share
      // t2 by weight until the next reload.
      expect((await cli('channel-add', 'bb', `${b.url}?${FAST}`, 'priority=5')).code).toBe(0);
      expect((await cli('channel-add', 'aa', `${a.url}?${FAST}`, 'priority=0')).code).toBe(0);
      await waitFor(
        'both workers have both rows',
        () => [w1, w2].every((w) => w.dispatcher.channelNames().sort().join() === 'aa,bb'),
        5000,
      );
      await waitFor(
        'aa bound in both',
        () => [w1, w2].every((w) => w.links.find((l) => l.name === 'aa')?.link.ready === true),
        5000,
      );
      const t2 = await insertFixtureTask(db, {
        accountId: account,
        count: 80,
        nextAt: new Date(),
        phoneBase: 13990000000,
      });
      await waitDelivered(server, t2.id);
      const m2 = await messages(server, t2.id);
      // counted by channel: a failure shows how many went where
      expect(m2.reduce<Record<string, number>>((n, m) => ({ ...n, [m.channel]: (n[m.channel] ?? 0) + 1 }), {})).toEqual(
        { aa: 80 },
      );

      // both rows removed: back to SMPP_URL
      expect((await cli('channel-remove', 'aa')).code).toBe(0);
      expect((await cli('channel-remove', 'bb')).code).toBe(0);
      await waitFor(
        'both workers back on SMPP_URL',
        () => [w1, w2].every((w) => w.dispatcher.channelNames().join() === ''),
        5000,
      );
      const t3 = await insertFixtureTask(db, {
        accountId: account,
        count: 40,
        nextAt: new Date(),
        phoneBase: 13600000000,
      });
      await waitDelivered(server, t3.id);
      expect((await messages(server, t3.id)).every((m) => m.channel === '')).toBe(true);
      for (const id of [t1.id, t2.id, t3.id]) {
        expect(
          sentOn(
            { a, b },
            (await messages(server, id)).map((m) => m.id),
          )['-'],
        ).toBeUndefined();
        await expectMoneyExact(server, id);
      }
    } finally {
      await Promise.all([w1.stop(), w2.stop()]);
      await Promise.all([a.close(), b.close()]);
    }
  }, 120_000);
});

/** Debian's libnet-smpp-perl (apt-get install libnet-smpp-perl) */
const perlSmpp = spawnSync('perl', ['-MNet::SMPP', '-e', '1']).status === 0;

/** the Perl SMSC answering 0x58 to its first `throttle` submits */
async function perlSmsc(throttle: number) {
  const child = spawn('perl', [path.join(__dirname, '../fixtures/smpp-smsc-throttle.pl'), String(throttle)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  readline.createInterface({ input: child.stdout }).on('line', (l) => lines.push(l));
  const exited = new Promise((r) => child.once('exit', r));
  await waitFor('perl SMSC listening', () => lines.some((l) => l.startsWith('port ')), 10_000);
  return { child, lines, exited, port: Number(lines.find((l) => l.startsWith('port '))!.slice(5)) };
}

describe.each(backends)('throttling by an SMSC we did not write (Perl Net::SMPP, %s)', (backend) => {
  const t = useServer(backend, { build: { now: () => new Date() } });

  it.skipIf(!perlSmpp)(
    '0x58 for its first 24 submits: the messages are retried on it, each accepted once, none failed [skipped without perl Net::SMPP]',
    async () => {
      const { server } = t;
      const db = server.handle.db;
      const perl = await perlSmsc(24);
      // a configured SMSC: no ref TLV
      const lp: SmscLinkHandle = createSmscLink(
        parseSmppUrl(
          `smpp://esme:pw@127.0.0.1:${perl.port}?window=10&throttle_ms=50&receipt_batch_ms=5&queue_wait_ms=2000`,
        ),
      );
      const d = new Dispatcher(server.app.ctx, [{ name: 'p', link: lp }], OPTS);
      const N = 80;
      const { id } = await insertFixtureTask(db, {
        accountId: await accountId(server),
        count: N,
        nextAt: new Date(),
        phoneBase: 13500000000,
      });
      try {
        await lp.waitReady(5000);
        d.start();
        await waitDelivered(server, id);
      } finally {
        await d.stop();
        await lp.close();
        await perl.exited;
        perl.child.kill();
      }
      const ms = await messages(server, id);
      const throttled = perl.lines.filter((l) => l.startsWith('throttled ')).map((l) => l.split(' ')[2]);
      const accepted = perl.lines.filter((l) => l.startsWith('submit ')).map((l) => l.split(' ')[2]);
      expect(throttled).toHaveLength(24);
      // every message accepted exactly once, delivered; the throttled ones were tried again
      expect(accepted.sort()).toEqual(ms.map((m) => m.phone).sort());
      expect(ms.every((m) => m.state === 3 && m.channel === 'p')).toBe(true);
      for (const phone of new Set(throttled)) expect(ms.find((m) => m.phone === phone)!.attempts).toBeGreaterThan(1);
      await expectMoneyExact(server, id);
    },
    90_000,
  );

  it.skipIf(!perlSmpp)(
    'throttling that lasts (0x58 to everything): after throttle_failover_ms its traffic goes to the next channel, nothing fails or is sent twice [skipped without perl Net::SMPP]',
    async () => {
      const { server } = t;
      const db = server.handle.db;
      const perl = await perlSmsc(1_000_000);
      const b = await startSimulator({ ...DELIVER_ALL, seed: 11 });
      const lp: SmscLinkHandle = createSmscLink(
        parseSmppUrl(
          `smpp://esme:pw@127.0.0.1:${perl.port}?window=10&throttle_ms=50&receipt_batch_ms=5&queue_wait_ms=2000`,
        ),
      );
      const lb = linkTo(b);
      const d = new Dispatcher(
        server.app.ctx,
        [
          { name: 'p', link: lp, priority: 0 },
          { name: 'b', link: lb, priority: 1 },
        ],
        { ...OPTS, throttleFailoverMs: 300 },
      );
      const N = 100;
      const { id } = await insertFixtureTask(db, {
        accountId: await accountId(server),
        count: N,
        nextAt: new Date(),
        phoneBase: 13510000000,
      });
      const T0 = Date.now();
      try {
        await Promise.all([lp.waitReady(5000), lb.waitReady(5000)]);
        d.start();
        await waitDelivered(server, id);
      } finally {
        await d.stop();
        await Promise.all([lp.close(), lb.close()]);
        await b.close();
        await perl.exited;
        perl.child.kill();
      }
      const ms = await messages(server, id);
      const throttled = perl.lines.filter((l) => l.startsWith('throttled '));
      expect(perl.lines.filter((l) => l.startsWith('submit '))).toEqual([]);
      expect(
        sentOn(
          { b },
          ms.map((m) => m.id),
        ),
      ).toEqual({ b: N });
      expect(ms.every((m) => m.state === 3 && m.channel === 'b')).toBe(true);
      // p got what the lanes routed to it before it was out of routing, then one probe a second
      expect(throttled.length).toBeGreaterThan(0);
      expect(throttled.length).toBeLessThan(N);
      expect(throttled.length).toBeLessThanOrEqual(2 * OPTS.batchSize! + 40 + Math.ceil((Date.now() - T0) / 1000));
      await expectMoneyExact(server, id);
    },
    90_000,
  );
});

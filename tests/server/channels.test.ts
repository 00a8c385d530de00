/**
 * Carrier channels and routing (issue 25; docs/api-dispatch.md "Channels"): the channel table
 * (SMPP_CHANNELS file format, the CLI rows), routing by carrier, failover when a channel's SMSC
 * stops mid-task (two simulators as two channels: nothing sent twice, money exact), the
 * per-channel counters, and receipts for unconfirmed messages matched by number + channel.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { Dispatcher } from '../../server/modules/dispatch/dispatcher';
import {
  applyUnconfirmedReceipts,
  claimBatch,
  markWritten,
  recoverLeases,
  storeReceipts,
  UNCONFIRMED,
} from '../../server/modules/dispatch/sql';
import { loadChannels } from '../../server/modules/dispatch/pipeline';
import { createSmscLink } from '../../server/modules/smsc/client';
import { channelServes, parseChannelTable, parseSmppUrl } from '../../server/modules/smsc/config';
import { startSimulator, type Simulator } from '../../server/modules/smsc/simulator';
import { runCommand } from '../../server/cli/operator-channel';
import { LedgerService } from '../../server/modules/ledger/service';
import { insertFixtureTask } from '../../bench/lib/dispatch-fixture';
import { Carrier, SmsType } from '../../common/generated/schemas';
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

/** the task's counters = a recount of its records; every account's ledger balances */
async function expectMoneyExact(server: TestServer, taskId: number) {
  const t = await taskRow(server, taskId);
  const r = await sql<{
    success: number;
    fail: number;
    unknown: number;
    submitted: number;
    pieces: number;
    cost: string;
  }>`
    select count(*) filter (where state in (3, 16))::int success, count(*) filter (where state in (4, 6, 8, 9, 14))::int fail,
      count(*) filter (where state in (1, 15))::int unknown, count(*) filter (where state not in (0, 7))::int submitted,
      coalesce(sum(pieces) filter (where state in (4, 6, 8, 9, 11, 12, 13, 14)), 0)::int pieces,
      coalesce(sum(pieces * price) filter (where state in (4, 6, 8, 9, 11, 12, 13, 14)), 0)::text cost
    from sms_messages where task_id = ${taskId}`.execute(server.handle.db);
  const c = r.rows[0];
  expect({
    success: t.success_num,
    fail: t.fail_num,
    unknown: t.unknown_num,
    submitted: t.submitted_num,
    pieces: t.refundable_pieces,
    cost: Number(t.refundable_cost),
  }).toEqual({
    ...c,
    cost: Number(c.cost),
  });
  expect(await new LedgerService({ db: server.handle.db, now: () => new Date() }).violations()).toEqual([]);
}

async function waitFor(what: string, cond: () => Promise<boolean>, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the channel table (SMPP_CHANNELS)', () => {
  it('parses channels with the carriers by enum title or code, defaults, and refuses bad tables clearly', () => {
    const t = parseChannelTable(
      JSON.stringify({
        failover_ms: 5000,
        channels: [
          {
            name: 'cm',
            url: 'smpp://a:b@127.0.0.1:2775?window=100',
            carriers: ['移动'],
            sms_types: ['验证码', 0],
            priority: 0,
            weight: 3,
            max_per_second: 200,
          },
          { name: 'cu', url: 'smpp://a:b@127.0.0.1:2776', carriers: [Carrier.Unicom, 'Telecom'] },
          { name: 'intl', url: 'smpp://a:b@127.0.0.1:2777', international: true },
        ],
      }),
    );
    expect(t.failoverMs).toBe(5000);
    expect(
      t.channels.map((c) => [c.name, c.carriers, c.smsTypes, c.priority, c.weight, c.maxPerSecond, c.cfg.window]),
    ).toEqual([
      ['cm', [Carrier.Mobile], [SmsType.VerificationCode, SmsType.Notification], 0, 3, 200, 100],
      ['cu', [Carrier.Unicom, Carrier.Telecom], [], 0, 1, 0, 200],
      ['intl', [], [], 0, 1, 0, 200],
    ]);
    const [cm, cu, intl] = t.channels;
    expect(channelServes(cm, Carrier.Mobile, SmsType.VerificationCode)).toBe(true);
    expect(channelServes(cm, Carrier.Mobile, SmsType.Marketing)).toBe(false);
    expect(channelServes(cm, Carrier.Unicom, SmsType.Notification)).toBe(false);
    expect(channelServes(cu, Carrier.Telecom, SmsType.Marketing)).toBe(true);
    expect(channelServes(cu, Carrier.International, SmsType.Notification)).toBe(false);
    expect(channelServes(intl, Carrier.International, SmsType.Notification)).toBe(true);
    expect(channelServes(intl, Carrier.Mobile, SmsType.Notification)).toBe(false);
    // a bare list is a table too
    expect(parseChannelTable(JSON.stringify([{ name: 'x', url: 'smpp://a:b@h:1' }])).failoverMs).toBe(30_000);

    const bad: [unknown, RegExp][] = [
      ['{', /not JSON/],
      [{ channels: {} }, /expected/],
      [[{ name: 'a b', url: 'smpp://a:b@h:1' }], /name must be/],
      [[{ name: 'a', url: 'http://h' }], /a: SMPP_URL: scheme/],
      [[{ name: 'a', url: 'smpp://a:b@h:1', carriers: ['国际'] }], /unknown carrier/],
      [[{ name: 'a', url: 'smpp://a:b@h:1', carriers: ['火星'] }], /unknown carrier/],
      [[{ name: 'a', url: 'smpp://a:b@h:1', sms_types: [99] }], /unknown SMS type/],
      [[{ name: 'a', url: 'smpp://a:b@h:1', weight: 0 }], /weight must be/],
      [[{ name: 'a', url: 'smpp://a:b@h:1', speed: 1 }], /unknown channel field "speed"/],
      [
        [
          { name: 'a', url: 'smpp://a:b@h:1' },
          { name: 'a', url: 'smpp://a:b@h:2' },
        ],
        /channel "a" twice/,
      ],
      [{ channels: [], failover_ms: -1 }, /failover_ms/],
    ];
    for (const [text, message] of bad)
      expect(() => parseChannelTable(typeof text === 'string' ? text : JSON.stringify(text))).toThrow(message);
  });
});

describe.each(backends)('channels (%s)', (backend) => {
  // real time: the simulators' answers and receipts
  const t = useServer(backend, { build: { now: () => new Date() } });

  it('routes by carrier: 移动 to channel a, 联通 to channel b, a carrier no channel serves is refused (NO_CHANNEL)', async () => {
    const { server } = t;
    const db = server.handle.db;
    const a = await startSimulator({
      seed: 1,
      delivered: 1,
      failed: 0,
      noReceipt: 0,
      latencyMinMs: 5,
      latencyMaxMs: 20,
      moRatio: 0,
    });
    const b = await startSimulator({
      seed: 2,
      delivered: 1,
      failed: 0,
      noReceipt: 0,
      latencyMinMs: 5,
      latencyMaxMs: 20,
      moRatio: 0,
    });
    const la = createSmscLink(parseUrl(a));
    const lb = createSmscLink(parseUrl(b));
    const d = new Dispatcher(
      server.app.ctx,
      [
        { name: 'a', link: la, carriers: [Carrier.Mobile] },
        { name: 'b', link: lb, carriers: [Carrier.Unicom] },
      ],
      { batchSize: 50, idleMs: 20, maintenanceMs: 100, markSubmittedMs: 0, channelStatsMs: 0 },
    );
    const { id } = await insertFixtureTask(db, {
      accountId: await accountId(server),
      count: 30,
      nextAt: new Date(),
      phoneBase: 13900000000,
    });
    await db
      .updateTable('sms_messages')
      .set({ carrier: Carrier.Unicom })
      .where('task_id', '=', id)
      .where(sql<boolean>`id % 3 = 1`)
      .execute();
    await db
      .updateTable('sms_messages')
      .set({ carrier: Carrier.Telecom })
      .where('task_id', '=', id)
      .where(sql<boolean>`id % 3 = 2`)
      .execute();
    try {
      await la.waitReady(5000);
      await lb.waitReady(5000);
      d.start();
      await waitFor('task completed with its receipts', async () => {
        const tr = await taskRow(server, id);
        return tr.status === 3 && tr.unknown_num === 0;
      });
    } finally {
      await d.stop();
      await Promise.all([la.close(), lb.close()]);
      await Promise.all([a.close(), b.close()]);
    }
    const ms = await messages(server, id);
    for (const m of ms) {
      const ref = String(m.id);
      if (m.carrier === Carrier.Mobile)
        expect([m.channel, m.state, a.refs.get(ref), b.refs.get(ref), m.msg_id?.startsWith('a:')]).toEqual([
          'a',
          3,
          1,
          undefined,
          true,
        ]);
      else if (m.carrier === Carrier.Unicom)
        expect([m.channel, m.state, a.refs.get(ref), b.refs.get(ref), m.msg_id?.startsWith('b:')]).toEqual([
          'b',
          3,
          undefined,
          1,
          true,
        ]);
      else
        expect([m.channel, m.state, m.error_code, a.refs.get(ref), b.refs.get(ref)]).toEqual([
          '',
          4,
          'NO_CHANNEL',
          undefined,
          undefined,
        ]);
    }
    expect(ms.filter((m) => m.carrier === Carrier.Telecom)).toHaveLength(10);
    await expectMoneyExact(server, id);
    // the counters: per channel, in the log and the database (channel-stats adds the processes up)
    expect(
      d.channelCounters().map((c) => [c.name, c.counters.submitted, c.counters.accepted, c.counters.receipts]),
    ).toEqual([
      ['a', 10, 10, 10],
      ['b', 10, 10, 10],
    ]);
    await d.flushChannelStats();
    const out = await runCommand({ db, now: () => new Date() }, ['channel-stats']);
    expect(out.code).toBe(0);
    expect(out.lines.join('\n')).toMatch(/\na +1 +0 +10 +10 +0 +0 +0 +10 /);
  }, 90_000);

  it('a channel whose SMSC stops halfway hands its traffic to the other: the task completes, nothing is sent twice, the money is exact', async () => {
    const { server } = t;
    const db = server.handle.db;
    const a = await startSimulator({
      seed: 3,
      delivered: 0.8,
      failed: 0.2,
      noReceipt: 0,
      latencyMinMs: 5,
      latencyMaxMs: 30,
      moRatio: 0,
    });
    const b = await startSimulator({
      seed: 4,
      delivered: 0.8,
      failed: 0.2,
      noReceipt: 0,
      latencyMinMs: 5,
      latencyMaxMs: 30,
      moRatio: 0,
    });
    const opts = '&window=20&reconnect_min_ms=50&reconnect_max_ms=100&queue_wait_ms=300&timeout_ms=2000';
    const la = createSmscLink(parseUrl(a, opts));
    const lb = createSmscLink(parseUrl(b, opts));
    const d = new Dispatcher(
      server.app.ctx,
      [
        { name: 'a', link: la, weight: 1 },
        { name: 'b', link: lb, weight: 1 },
      ],
      {
        batchSize: 40,
        lanes: 2,
        idleMs: 20,
        maintenanceMs: 100,
        markSubmittedMs: 0,
        failoverMs: 300,
        channelStatsMs: 0,
        matchUnconfirmedMs: 0,
      },
    );
    const N = 600;
    const { id } = await insertFixtureTask(db, {
      accountId: await accountId(server),
      count: N,
      nextAt: new Date(),
      phoneBase: 13800000000,
      price: '0.0400',
    });
    let aStopped = false;
    let receiptsLost: number | undefined;
    try {
      await la.waitReady(5000);
      await lb.waitReady(5000);
      d.start();
      await waitFor('half the task submitted', async () => (await taskRow(server, id)).submitted_num >= N / 2);
      // receipts a scheduled and never sent: their messages stay 提交成功 (more of them the slower the machine)
      receiptsLost = a.counts().receiptsPending;
      await a.close();
      aStopped = true;
      await waitFor('task completed', async () => {
        const tr = await taskRow(server, id);
        const unconfirmed = await db
          .selectFrom('sms_messages')
          .select('id')
          .where('task_id', '=', id)
          .where('error_code', '=', UNCONFIRMED)
          .execute();
        const waiting = await db
          .selectFrom('sms_messages')
          .select('id')
          .where('task_id', '=', id)
          .where('channel', '=', 'b')
          .where('state', '=', 1)
          .execute();
        return tr.status === 3 && waiting.length === 0 && tr.unknown_num >= unconfirmed.length;
      });
    } finally {
      await d.stop();
      await Promise.all([la.close(), lb.close()]);
      if (!aStopped) await a.close();
      await b.close();
    }
    const ms = await messages(server, id);
    // every message went to exactly one SMSC at most once, on the channel recorded
    for (const m of ms) {
      const ref = String(m.id);
      const times = (a.refs.get(ref) ?? 0) + (b.refs.get(ref) ?? 0);
      expect(times).toBeLessThanOrEqual(1);
      if (times) expect(m.channel).toBe(a.refs.has(ref) ? 'a' : 'b');
      if (m.state !== 1) expect(times).toBe(1);
    }
    expect(ms.every((m) => [1, 3, 6].includes(m.state))).toBe(true);
    // after the stop, b took the rest: most of the task went to b; a's messages left 提交成功 are those
    // whose receipt a never sent and its unanswered submits (at most its window, 20), give or take the
    // submits of the moment it stopped
    expect(ms.filter((m) => m.channel === 'b').length).toBeGreaterThan(N / 2 - 20);
    expect(ms.filter((m) => m.channel === 'a' && m.state === 1).length).toBeLessThanOrEqual(
      (receiptsLost ?? 0) + 20 + 20,
    );
    expect(await db.selectFrom('dispatch_leases').select('id').execute()).toEqual([]);
    await expectMoneyExact(server, id);
  }, 120_000);

  it('a receipt for an unconfirmed message is applied by number + channel when unambiguous; never to one of two candidates', async () => {
    const { server } = t;
    const db = server.handle.db;
    const { id } = await insertFixtureTask(db, {
      accountId: await accountId(server),
      count: 4,
      nextAt: new Date(),
      phoneBase: 13700000000,
      price: '0.0400',
    });
    // the same number twice (ids 2 and 3 share it): ambiguous
    const ms0 = await messages(server, id);
    await db.updateTable('sms_messages').set({ phone: ms0[2].phone }).where('id', '=', ms0[3].id).execute();
    // a worker claims, marks every message written, dies
    const now = new Date();
    const claimed = await claimBatch(db, 'dead', now, new Date(now.getTime() - 1), 10);
    expect(
      await markWritten(
        db,
        'dead',
        claimed[0].lease,
        claimed.map((c) => c.id),
        new Date(now.getTime() - 10),
        now,
      ),
    ).toBe(true);
    await recoverLeases(db, server.app.ctx);
    let ms = await messages(server, id);
    expect(ms.every((m) => m.state === 1 && m.error_code === UNCONFIRMED)).toBe(true);
    // their receipts came (stored: no message in flight had their ids); one for a number of another channel
    const old = new Date(Date.now() - 120_000);
    await storeReceipts(
      db,
      [
        { msgId: 'x1', phone: ms[0].phone, channel: '', state: 3, errorCode: '', report: 'DELIVRD', doneAt: old },
        { msgId: 'x2', phone: ms[1].phone, channel: '', state: 6, errorCode: '013', report: 'UNDELIV', doneAt: old },
        { msgId: 'x3', phone: ms[2].phone, channel: '', state: 3, errorCode: '', report: 'DELIVRD', doneAt: old },
        {
          msgId: 'x4',
          phone: ms[0].phone,
          channel: 'other',
          state: 6,
          errorCode: '013',
          report: 'UNDELIV',
          doneAt: old,
        },
      ],
      new Date(Date.now() - 90_000),
    );
    // too recent for the settle time: nothing yet
    expect(await applyUnconfirmedReceipts(db, server.app.ctx, 100_000, 600_000)).toBe(0);
    expect(await applyUnconfirmedReceipts(db, server.app.ctx, 60_000, 600_000)).toBe(2);
    ms = await messages(server, id);
    expect(ms.map((m) => [m.state, m.error_code])).toEqual([
      [3, ''],
      [6, '013'],
      [1, UNCONFIRMED],
      [1, UNCONFIRMED],
    ]);
    expect(
      (await db.selectFrom('sms_receipts').select('msg_id').orderBy('msg_id').execute()).map((r) => r.msg_id),
    ).toEqual(['x3', 'x4']);
    await expectMoneyExact(server, id);
  });

  it('channel-add / channels / channel-remove manage the rows a worker loads beside SMPP_CHANNELS', async () => {
    const { server } = t;
    const db = server.handle.db;
    const cli = (...argv: string[]) => runCommand({ db, now: () => new Date() }, argv);
    let r = await cli(
      'channel-add',
      'cm',
      'smpp://u:secret@10.0.0.1:2775?window=50',
      'carriers=移动',
      'priority=1',
      'weight=2',
      'max_per_second=300',
    );
    expect(r).toMatchObject({ code: 0 });
    expect(r.lines.join()).not.toContain('secret');
    r = await cli('channel-add', 'bad', 'smpp://u:p@h:1', 'carriers=火星');
    expect(r.code).toBe(1);
    expect(r.lines.join()).toMatch(/unknown carrier/);
    expect((await cli('channel-add', 'x', 'smpp://u:p@h:1', 'speed=1')).code).toBe(2);
    r = await cli('channels');
    expect(r.lines.join('\n')).toMatch(/cm +smpp:\/\/u@10\.0\.0\.1:2775 +移动 +否 +全部 +1 +2 +300/);
    expect(r.lines.join('\n')).not.toContain('secret');
    const table = await loadChannels({ db, log: server.app.log }, undefined);
    expect(table.channels.map((c) => [c.name, c.carriers, c.priority, c.weight, c.maxPerSecond, c.cfg.window])).toEqual(
      [['cm', [Carrier.Mobile], 1, 2, 300, 50]],
    );
    expect(await cli('channel-remove', 'cm')).toMatchObject({ code: 0 });
    expect(await cli('channel-remove', 'cm')).toMatchObject({ code: 1 });
    expect((await loadChannels({ db, log: server.app.log }, undefined)).channels).toEqual([]);
  });
});

function parseUrl(sim: Simulator, extra = '') {
  // a configured SMSC's link, with our ref TLV so the simulator counts submits per message
  return parseSmppUrl(`${sim.url}?ref_tlv=0x1401&reconnect_min_ms=50&receipt_batch_ms=5${extra}`);
}

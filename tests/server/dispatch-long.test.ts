/**
 * Long messages in the dispatch pipeline (issue 25 "Long messages", docs/api-dispatch.md): a
 * message sent as several submits is final when every part is — delivered when all were, failed
 * with the first failed part's error, 1 (unknown) while a part never answers — with the counters,
 * refunds and part rows (migration 0030) kept right; then end to end against the simulator in
 * each `long` mode and with the carrier habits (payload refused, a part failing, parts answering
 * in reverse order). Both databases.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { Dispatcher } from '../../server/modules/dispatch/dispatcher';
import {
  applyOrStoreReceipts,
  applyReceipts,
  carrierSlot,
  claimBatch,
  markSubmitted,
  purgeStale,
  recordOutcomes,
  storeReceipts,
  type Outcome,
} from '../../server/modules/dispatch/sql';
import { createSmscLink } from '../../server/modules/smsc/client';
import { parseSmppUrl } from '../../server/modules/smsc/config';
import { startSimulator, type SimulatorSettings } from '../../server/modules/smsc/simulator';
import { insertFixtureTask } from '../../bench/lib/dispatch-fixture';
import { SendRecordStatus } from '../../common/generated/schemas';
import { backends, useServer, type TestServer } from './harness';

const CHINESE_150 = '尊敬的客户您好，您本月的账单已出，请及时查看并缴费。'.repeat(6).slice(0, 150);

async function accountId(server: TestServer) {
  return (
    await server.handle.db
      .selectFrom('accounts')
      .select('id')
      .where('clientid', '=', 'client1')
      .executeTakeFirstOrThrow()
  ).id;
}

async function messages(server: TestServer, taskId: number) {
  return server.handle.db.selectFrom('sms_messages').selectAll().where('task_id', '=', taskId).orderBy('id').execute();
}

async function taskRow(server: TestServer, id: number) {
  return server.handle.db.selectFrom('sms_tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** counters and refundable pieces equal a recount of the records */
async function expectCountersMatch(server: TestServer, taskId: number) {
  const t = await taskRow(server, taskId);
  const r = await sql<{ success: number; fail: number; unknown: number; submitted: number }>`
    select count(*) filter (where state in (3, 16))::int success, count(*) filter (where state in (4, 6, 8, 9, 14))::int fail,
      count(*) filter (where state in (1, 15))::int unknown, count(*) filter (where state not in (0, 7))::int submitted
    from sms_messages where task_id = ${taskId}`.execute(server.handle.db);
  expect({ success: t.success_num, fail: t.fail_num, unknown: t.unknown_num, submitted: t.submitted_num }).toEqual(
    r.rows[0],
  );
  const byCarrier = [0, 0, 0, 0, 0];
  const rc = await sql<{ carrier: number; pieces: number }>`
    select carrier, sum(pieces)::int as pieces from sms_messages where task_id = ${taskId} and state in (4, 6, 8, 9, 11, 12, 13, 14) group by carrier`.execute(
    server.handle.db,
  );
  for (const x of rc.rows) byCarrier[carrierSlot(x.carrier)] += x.pieces;
  expect(t.refundable_pieces_by_carrier).toEqual(byCarrier);
}

const receipt = (msgId: string, ok: boolean, now: Date) => ({
  msgId,
  state: ok ? SendRecordStatus.Delivered : SendRecordStatus.DeliveryFailed,
  errorCode: ok ? '' : '001',
  report: ok ? 'DELIVRD' : 'UNDELIV',
  doneAt: now,
});

describe.each(backends)('long messages: part tracking (%s)', (backend) => {
  const t = useServer(backend);

  /** a task of `n` 3-piece messages claimed and recorded as accepted in parts (`parts[i]` ids of message i; [] = sent whole) */
  async function recorded(server: TestServer, parts: string[][], deferSubmitted = false) {
    const { id } = await insertFixtureTask(server.handle.db, {
      accountId: await accountId(server),
      count: parts.length,
      nextAt: server.clock.now(),
      content: CHINESE_150,
      pieces: 3,
      price: '0.05',
    });
    const now = server.clock.now();
    const batch = await claimBatch(server.handle.db, 'w-long', now, new Date(now.getTime() + 60_000), 100);
    expect(batch.map((m) => m.task_id)).toEqual(parts.map(() => id));
    const outcomes: Outcome[] = batch.map((m, i) => ({
      id: m.id,
      taskId: id,
      state: SendRecordStatus.Submitted,
      msgId: parts[i].length ? parts[i][0] : `w-${id}-${i}`,
      code: '',
      report: '',
      delayMs: 0,
      ...(parts[i].length ? { parts: parts[i] } : {}),
    }));
    expect(await recordOutcomes(server.handle.db, server.app.ctx, 'w-long', outcomes, undefined, deferSubmitted)).toBe(
      parts.length,
    );
    return { id, ids: batch.map((m) => m.id) };
  }

  const apply = (server: TestServer, rs: ReturnType<typeof receipt>[]) =>
    applyOrStoreReceipts(server.handle.db, server.app.ctx, rs);

  it("a message is delivered when every part is, in any order; failed with the first failed part's error; counters and refunds per message", async () => {
    const { server } = t;
    const p = (k: string, n: number) => Array.from({ length: n }, (_, i) => `${k}${i + 1}-${Date.now()}`);
    const A = p('a', 3);
    const B = p('b', 2);
    const { id, ids } = await recorded(server, [A, B, []]);
    const now = server.clock.now();
    // one in-flight row per part, part rows waiting
    const inflight = await server.handle.db
      .selectFrom('sms_inflight')
      .select(['msg_id', 'part'])
      .where('task_id', '=', id)
      .orderBy('msg_id')
      .execute();
    expect(
      inflight
        .filter((x) => x.part > 0)
        .map((x) => x.msg_id)
        .sort(),
    ).toEqual([...A, ...B].sort());
    expect(inflight.filter((x) => x.part === 0)).toHaveLength(1);
    // parts 3 and 1 of A, part 2 (failed) of B: nothing final yet, all matched (none stored)
    expect(
      await apply(server, [receipt(A[2], true, now), receipt(A[0], true, now), receipt(B[1], false, now)]),
    ).toEqual({ applied: 0, stored: 0 });
    let ms = await messages(server, id);
    expect(ms.map((m) => m.state)).toEqual([1, 1, 1]);
    expect(
      await server.handle.db
        .selectFrom('sms_message_parts')
        .select(['message_id', 'part', 'state'])
        .where('message_id', 'in', ids)
        .orderBy('message_id')
        .orderBy('part')
        .execute(),
    ).toEqual([
      { message_id: ids[0], part: 1, state: 3 },
      { message_id: ids[0], part: 2, state: null },
      { message_id: ids[0], part: 3, state: 3 },
      { message_id: ids[1], part: 1, state: null },
      { message_id: ids[1], part: 2, state: 6 },
    ]);
    expect(await apply(server, [receipt(A[1], true, now), receipt(B[0], true, now)])).toEqual({
      applied: 2,
      stored: 0,
    });
    ms = await messages(server, id);
    expect(ms[0]).toMatchObject({ state: 3, msg_id: A[0], report: 'DELIVRD', error_code: '' });
    expect(ms[1]).toMatchObject({ state: 6, msg_id: B[0], report: 'UNDELIV', error_code: '001' });
    expect(ms[2].state).toBe(1);
    // part rows go with the final message; a repeated part receipt is stored (and purged later), never applied twice
    expect(
      await server.handle.db
        .selectFrom('sms_message_parts')
        .select('message_id')
        .where('message_id', 'in', ids)
        .execute(),
    ).toEqual([]);
    expect(await apply(server, [receipt(A[1], false, now)])).toEqual({ applied: 0, stored: 1 });
    expect((await messages(server, id))[0].state).toBe(3);
    const tr = await taskRow(server, id);
    // billing per piece as before: the failed 3-piece message refunds 3 pieces
    expect(tr).toMatchObject({ submitted_num: 3, success_num: 1, fail_num: 1, unknown_num: 1, refundable_pieces: 3 });
    expect(Number(tr.refundable_cost)).toBeCloseTo(0.15);
    await expectCountersMatch(server, id);
  });

  it("a part that never answers leaves the message 1 (unknown) — also once the stale rows are purged; a part's receipt before its record is applied by the applier", async () => {
    const { server } = t;
    const now = server.clock.now();
    const C = [`c1-${Date.now()}`, `c2-${Date.now()}`];
    const D = [`d1-${Date.now()}`, `d2-${Date.now()}`];
    // C's part 2 receipt came before the submits were recorded
    await storeReceipts(server.handle.db, [receipt(C[1], true, now)], now);
    const { id, ids } = await recorded(server, [C, D], true);
    // deferred: records still 0 until final or marked
    expect((await messages(server, id)).map((m) => m.state)).toEqual([0, 0]);
    expect(await applyReceipts(server.handle.db, server.app.ctx, 100)).toBe(0); // part 2 settled, part 1 still waiting
    expect(await apply(server, [receipt(C[0], true, now), receipt(D[0], true, now)])).toEqual({
      applied: 1,
      stored: 0,
    });
    let ms = await messages(server, id);
    expect(ms[0]).toMatchObject({ state: 3, msg_id: C[0], attempts: 1 });
    expect(ms[0].submitted_at).not.toBeNull();
    expect(ms[1].state).toBe(0);
    // D's part 2 never answers: housekeeping writes 1, the purge forgets the parts; the message stays unknown
    expect(await markSubmitted(server.handle.db, server.app.ctx, new Date(now.getTime() + 1000))).toBe(1);
    await purgeStale(server.handle.db, new Date(now.getTime() + 1000));
    ms = await messages(server, id);
    expect(ms[1]).toMatchObject({ state: 1 });
    expect([D[0], D[1]]).toContain(ms[1].msg_id);
    expect(
      await server.handle.db
        .selectFrom('sms_message_parts')
        .select('message_id')
        .where('message_id', 'in', ids)
        .execute(),
    ).toEqual([]);
    expect(await taskRow(server, id)).toMatchObject({ submitted_num: 2, success_num: 1, unknown_num: 1, fail_num: 0 });
    await expectCountersMatch(server, id);
  });

  it("two parts' receipts applied at the same time in two transactions: the message becomes final once", async () => {
    const { server } = t;
    const now = server.clock.now();
    const parts = Array.from({ length: 6 }, (_, i) => [`x${i}a-${Date.now()}`, `x${i}b-${Date.now()}`]);
    const { id } = await recorded(server, parts);
    await Promise.all([
      apply(
        server,
        parts.map((p) => receipt(p[0], true, now)),
      ),
      apply(
        server,
        parts.map((p) => receipt(p[1], true, now)),
      ),
    ]);
    expect((await messages(server, id)).map((m) => m.state)).toEqual(parts.map(() => 3));
    expect(await taskRow(server, id)).toMatchObject({ success_num: 6, unknown_num: 0 });
    await expectCountersMatch(server, id);
  });

  it('a long message whose part id the SMSC gave twice is recorded unconfirmed, none of its parts tracked', async () => {
    const { server } = t;
    const dup = `dup-${Date.now()}`;
    const { id, ids } = await recorded(server, [
      [`e1-${Date.now()}`, dup],
      [dup, `f2-${Date.now()}`],
    ]);
    const ms = await messages(server, id);
    expect(ms[0]).toMatchObject({ state: 1, error_code: '' });
    expect(ms[1]).toMatchObject({ state: 1, error_code: 'UNCONFIRMED', msg_id: null });
    expect(
      await server.handle.db.selectFrom('sms_inflight').select('message_id').where('message_id', '=', ids[1]).execute(),
    ).toEqual([]);
    expect(
      await server.handle.db
        .selectFrom('sms_message_parts')
        .select('message_id')
        .where('message_id', '=', ids[1])
        .execute(),
    ).toEqual([]);
  });
});

describe.each(backends)('long messages over SMPP with the simulator (%s)', (backend) => {
  const t = useServer(backend, { build: { now: () => new Date() } });

  async function run(
    server: TestServer,
    query: string,
    sim: Partial<SimulatorSettings>,
    done: (states: number[]) => boolean,
    N = 20,
  ) {
    const s = await startSimulator({
      seed: 3,
      delivered: 1,
      failed: 0,
      noReceipt: 0,
      latencyMinMs: 5,
      latencyMaxMs: 60,
      moRatio: 0,
      ...sim,
    });
    const link = createSmscLink(
      parseSmppUrl(`${s.url}?ref_tlv=0x1401&reconnect_min_ms=50&receipt_batch_ms=5${query ? `&${query}` : ''}`),
    );
    const d = new Dispatcher(server.app.ctx, link, { batchSize: 50, idleMs: 20, maintenanceMs: 100 });
    const { id } = await insertFixtureTask(server.handle.db, {
      accountId: await accountId(server),
      count: N,
      nextAt: new Date(),
      content: CHINESE_150,
      pieces: 3,
      price: '0.05',
    });
    try {
      await link.waitReady(5000);
      d.start();
      const deadline = Date.now() + 30_000;
      for (;;) {
        const states = (await messages(server, id)).map((m) => m.state);
        if (done(states) && (await taskRow(server, id)).status === 3) break;
        if (Date.now() > deadline) throw new Error(`not done: ${JSON.stringify(states)} ${JSON.stringify(s.counts())}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await d.stop();
      await link.close();
      await s.close();
    }
    expect(s.counts().duplicates).toEqual([]);
    await expectCountersMatch(server, id);
    return { id, sim: s, ms: await messages(server, id) };
  }

  const all = (state: number) => (states: number[]) => states.every((x) => x === state);

  it.each(['udh', 'sar', 'payload'])('long=%s: every message delivered, each part submitted once', async (mode) => {
    const { sim, ms } = await run(t.server, `long=${mode}`, {}, all(3));
    const c = sim.counts();
    expect(c.distinctRefs).toBe(ms.length);
    expect(c.accepted).toBe(mode === 'payload' ? ms.length : ms.length * 3);
    expect(sim.partRefs.size).toBe(mode === 'payload' ? 0 : ms.length * 2);
    expect(
      await t.server.handle.db
        .selectFrom('sms_message_parts')
        .select('message_id')
        .where(
          'message_id',
          'in',
          ms.map((m) => m.id),
        )
        .execute(),
    ).toEqual([]);
  });

  it.each(['udh', 'sar'])('a carrier refusing message_payload: long=%s delivers', async (mode) => {
    const { sim } = await run(t.server, `long=${mode}`, { refuseTlvs: [0x0424] }, all(3));
    expect(sim.counts().rejected).toBe(0);
  });

  it("a carrier refusing message_payload refuses every long message of long=payload (today's behaviour): 4 with 0xC1, refunded", async () => {
    const { ms, id } = await run(t.server, 'long=payload', { refuseTlvs: [0x0424] }, all(4), 5);
    expect(ms.every((m) => m.error_code === '0x000000C1')).toBe(true);
    expect(await taskRow(t.server, id)).toMatchObject({ fail_num: 5, refundable_pieces: 15 });
  });

  it("one part failing: the message fails with that part's error, its pieces refunded", async () => {
    const { ms, id } = await run(t.server, 'long=udh', { failPart: 2 }, all(6), 10);
    expect(ms.every((m) => m.error_code === '001' && m.report === 'UNDELIV')).toBe(true);
    expect(await taskRow(t.server, id)).toMatchObject({
      fail_num: 10,
      success_num: 0,
      unknown_num: 0,
      refundable_pieces: 30,
    });
  });

  it("parts answering in reverse order (the last part's receipt first): delivered", async () => {
    const { ms } = await run(t.server, 'long=sar', { reverseParts: true, latencyMinMs: 20 }, all(3), 10);
    expect(ms.every((m) => m.done_at && m.msg_id)).toBe(true);
  });
});

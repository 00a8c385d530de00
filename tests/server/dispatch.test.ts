/**
 * The dispatch pipeline (server/modules/dispatch) on both databases, against an in-memory SMSC
 * link: states, counters, task status and progress, at-most-once submits, throttling and drops,
 * the receipt-before-response race, lease recovery, two dispatchers sharing one queue, uplinks.
 * Tasks are inserted straight into the tables (bench/lib/dispatch-fixture.ts).
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { Dispatcher, type DispatcherOptions } from '../../server/modules/dispatch/dispatcher';
import { insertFixtureTask, type FixtureTask } from '../../bench/lib/dispatch-fixture';
import { pushHooks } from '../../server/modules/dispatch/pipeline';
import {
  carrierSlot,
  claimBatch,
  markWritten,
  purgeStale,
  recordOutcomes,
  storeReceipts,
  taskSchedule,
  UNCONFIRMED,
} from '../../server/modules/dispatch/sql';
import { createSmscLink } from '../../server/modules/smsc/client';
import { parseSmppUrl } from '../../server/modules/smsc/config';
import { startSimulator } from '../../server/modules/smsc/simulator';
import { FakeLink } from '../fixtures/fake-smsc';
import { reviewTask } from '../../server/modules/send/review';
import { backends, useServer, type TestServer } from './harness';

async function accountId(server: TestServer, clientid = 'client1') {
  const r = await server.handle.db
    .selectFrom('accounts')
    .select('id')
    .where('clientid', '=', clientid)
    .executeTakeFirstOrThrow();
  return r.id;
}

async function task(server: TestServer, t: Partial<FixtureTask> & { count: number }) {
  return insertFixtureTask(server.handle.db, { accountId: await accountId(server), nextAt: server.clock.now(), ...t });
}

async function taskRow(server: TestServer, id: number) {
  return server.handle.db.selectFrom('sms_tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function messages(server: TestServer, taskId: number) {
  return server.handle.db.selectFrom('sms_messages').selectAll().where('task_id', '=', taskId).orderBy('id').execute();
}

function dispatcher(server: TestServer, link: FakeLink, opts: DispatcherOptions = {}) {
  // 1 提交成功 written with the submit's record (the deferral has its own test)
  return new Dispatcher(server.app.ctx, link, { maintenanceMs: 0, batchSize: 4, markSubmittedMs: 0, ...opts });
}

/** claimed batches not recorded yet */
async function leases(server: TestServer) {
  return server.handle.db.selectFrom('dispatch_leases').select(['owner', 'message_ids']).orderBy('id').execute();
}

async function drain(d: Dispatcher) {
  while ((await d.dispatchOnce()) > 0);
}

/** counters equal a recount of the records */
async function expectCountersMatch(server: TestServer, taskId: number) {
  const t = await taskRow(server, taskId);
  const r = await sql<{ success: number; fail: number; unknown: number; submitted: number }>`
    select count(*) filter (where state in (3, 16))::int success, count(*) filter (where state in (4, 6, 8, 9, 14))::int fail,
      count(*) filter (where state in (1, 15))::int unknown, count(*) filter (where state not in (0, 7))::int submitted
    from sms_messages where task_id = ${taskId}`.execute(server.handle.db);
  const c = r.rows[0];
  expect({ success: t.success_num, fail: t.fail_num, unknown: t.unknown_num, submitted: t.submitted_num }).toEqual(c);
  // the refundable pieces per carrier (migration 0024) = a recount
  const byCarrier = [0, 0, 0, 0, 0];
  const rc = await sql<{ carrier: number; pieces: number }>`
    select carrier, sum(pieces)::int as pieces from sms_messages where task_id = ${taskId} and state in (4, 6, 8, 9, 11, 12, 13, 14) group by carrier`.execute(
    server.handle.db,
  );
  for (const x of rc.rows) byCarrier[carrierSlot(x.carrier)] += x.pieces;
  expect(t.refundable_pieces_by_carrier).toEqual(byCarrier);
  expect(byCarrier.reduce((a, b) => a + b, 0)).toBe(t.refundable_pieces);
}

describe.each(backends)('dispatch (%s)', (backend) => {
  const t = useServer(backend);

  it('submits, records submit outcomes and receipts: states, counters, refundable pieces, task status and progress', async () => {
    const { server } = t;
    const { id } = await task(server, { count: 10, price: '0.0500' });
    const link = new FakeLink((req) => (req.to.endsWith('3') ? 'reject' : 'accept'));
    link.delivered = (ref) => ref % 4 !== 0;
    const d = dispatcher(server, link);

    expect((await taskRow(server, id)).status).toBe(0);
    expect(await d.dispatchOnce()).toBe(4);
    let tr = await taskRow(server, id);
    expect(tr.status).toBe(2);
    expect(tr.finished_at).toBeNull();
    await drain(d);

    const ms = await messages(server, id);
    expect(link.duplicates()).toEqual([]);
    expect(link.written.size).toBe(10);
    // source address: prefix + the account's id; text: the task's content
    expect(link.requests[0].from).toBe(`106900${await accountId(server)}`);
    expect(link.requests[0].text).toBe('【云讯通】您的验证码是1234，5分钟内有效。');
    const rejected = ms.filter((m) => m.phone.endsWith('3'));
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toMatchObject({ state: 4, error_code: '0x0000000B', msg_id: null });
    expect(rejected[0].done_at).not.toBeNull();
    for (const m of ms.filter((x) => !x.phone.endsWith('3'))) {
      expect(m).toMatchObject({ state: 1, error_code: '', attempts: 1 });
      expect(m.msg_id).toMatch(/^m\d+-\d+$/);
      expect(m.submitted_at).not.toBeNull();
    }
    tr = await taskRow(server, id);
    expect(tr).toMatchObject({
      status: 3,
      submitted_num: 10,
      unknown_num: 9,
      fail_num: 1,
      success_num: 0,
      refundable_pieces: 1,
    });
    expect(Number(tr.refundable_cost)).toBeCloseTo(0.05);
    expect(tr.finished_at).not.toBeNull();
    expect(taskSchedule(tr)).toBe(100);
    await expectCountersMatch(server, id);

    // receipts (each delivered twice, as an SMSC may): applied once
    expect(await link.flushReceipts(true)).toBe(9);
    await d.applyOnce();
    const after = await messages(server, id);
    const failedRefs = after.filter((m) => m.state === 1 && m.id % 4 === 0);
    expect(failedRefs).toEqual([]);
    for (const m of after) {
      if (m.phone.endsWith('3')) continue;
      if (m.id % 4 === 0) expect(m).toMatchObject({ state: 6, error_code: '013', report: 'UNDELIV' });
      else expect(m).toMatchObject({ state: 3, error_code: '', report: 'DELIVRD' });
      expect(m.done_at).not.toBeNull();
    }
    const fails = after.filter((m) => m.state !== 3).length;
    tr = await taskRow(server, id);
    expect(tr).toMatchObject({ unknown_num: 0, success_num: 10 - fails, fail_num: fails, refundable_pieces: fails });
    expect(Number(tr.refundable_cost)).toBeCloseTo(0.05 * fails);
    await expectCountersMatch(server, id);
    // the second copies match no message in flight: kept aside (applied by nobody), purged after 3 days
    const left = await server.handle.db.selectFrom('sms_receipts').select('msg_id').execute();
    expect(left.map((r) => r.msg_id).sort()).toEqual(
      after
        .filter((m) => m.msg_id)
        .map((m) => m.msg_id)
        .sort(),
    );
    expect(await d.applyOnce()).toBe(0);
    expect(
      await server.handle.db.selectFrom('sms_inflight').select('msg_id').where('task_id', '=', id).execute(),
    ).toEqual([]);
    await purgeStale(server.handle.db, new Date(server.clock.now().getTime() + 1000));
    expect(await server.handle.db.selectFrom('sms_receipts').select('msg_id').execute()).toEqual([]);
    await expectCountersMatch(server, id);
  });

  it('task progress from counters', () => {
    expect(taskSchedule({ submit_total: 10, success_num: 2, fail_num: 1, unknown_num: 2, intercept_num: 0 })).toBe(50);
    expect(taskSchedule({ submit_total: 3, success_num: 1, fail_num: 0, unknown_num: 0, intercept_num: 0 })).toBe(33);
    expect(taskSchedule({ submit_total: 0, success_num: 0, fail_num: 0, unknown_num: 0, intercept_num: 0 })).toBe(100);
  });

  it('throttling and a dropped link lose nothing and never submit twice', async () => {
    const { server } = t;
    const { id } = await task(server, { count: 12 });
    // every message throttled twice; a few written without an answer (link dropped)
    const link = new FakeLink((req, attempt) =>
      attempt <= 2 ? 'retry' : Number(req.to) % 5 === 0 ? 'unconfirmed' : 'accept',
    );
    const d = dispatcher(server, link, { batchSize: 5 });
    await drain(d);
    // all back in the queue, later
    let ms = await messages(server, id);
    expect(ms.every((m) => m.state === 0 && m.attempts === 1 && m.error_code === '0x00000058')).toBe(true);
    expect(await leases(server)).toEqual([]);
    const requeued = await server.handle.db
      .selectFrom('sms_requeue')
      .selectAll()
      .where('task_id', '=', id)
      .orderBy('message_id')
      .execute();
    expect(requeued.map((r) => r.message_id)).toEqual(ms.map((m) => m.id));
    expect(requeued.every((r) => new Date(r.next_at).getTime() === server.clock.now().getTime() + 1000)).toBe(true);
    expect(await d.dispatchOnce()).toBe(0);
    expect((await taskRow(server, id)).status).toBe(2);
    for (let i = 0; i < 2; i++) {
      server.clock.advance(1000);
      await drain(d);
    }
    ms = await messages(server, id);
    expect(link.duplicates()).toEqual([]);
    expect(link.written.size).toBe(12);
    expect(ms.every((m) => m.state === 1 && m.attempts === 3)).toBe(true);
    const unconfirmed = ms.filter((m) => m.error_code === UNCONFIRMED);
    expect(unconfirmed.length).toBe(ms.filter((m) => Number(m.phone) % 5 === 0).length);
    expect(unconfirmed.every((m) => m.msg_id === null && m.report === 'TIMEOUT')).toBe(true);
    const tr = await taskRow(server, id);
    expect(tr).toMatchObject({ status: 3, unknown_num: 12, submitted_num: 12 });
    await expectCountersMatch(server, id);

    // not bound: the lanes do not claim at all
    const { id: id2 } = await task(server, { count: 3 });
    link.ready = false;
    d.start();
    await new Promise((r) => setTimeout(r, 150));
    await d.stop();
    expect((await messages(server, id2)).every((m) => m.state === 0)).toBe(true);
    expect(await leases(server)).toEqual([]);
    link.ready = true;
    link.decide = () => 'accept';
    await drain(d);
    expect((await taskRow(server, id2)).status).toBe(3);
  });

  it('a receipt that arrives before its submit response is recorded waits, then gives the message its final state at once', async () => {
    const { server } = t;
    const { id } = await task(server, { count: 3 });
    const link = new FakeLink(() => 'accept-receipt-first');
    link.delivered = () => false;
    const d = dispatcher(server, link);
    const appliedEarly: number[] = [];
    const stored: number[] = [];
    link.afterEarlyReceipt = async () => {
      appliedEarly.push(await d.applyOnce());
      stored.push((await server.handle.db.selectFrom('sms_receipts').select('msg_id').execute()).length);
    };
    await drain(d);
    expect(appliedEarly).toEqual([0, 0, 0]);
    expect(stored).toEqual([1, 2, 3]);
    // the record found them: 6 at once, never 1 in between, nothing in flight, nothing left waiting
    expect(await server.handle.db.selectFrom('sms_receipts').select('msg_id').execute()).toEqual([]);
    expect(
      await server.handle.db.selectFrom('sms_inflight').select('msg_id').where('task_id', '=', id).execute(),
    ).toEqual([]);
    expect(await d.applyOnce()).toBe(0);
    const ms = await messages(server, id);
    expect(ms.every((m) => m.state === 6 && m.error_code === '013' && m.msg_id && m.submitted_at && m.done_at)).toBe(
      true,
    );
    expect(await taskRow(server, id)).toMatchObject({
      status: 3,
      fail_num: 3,
      unknown_num: 0,
      submitted_num: 3,
      refundable_pieces: 3,
    });
    await expectCountersMatch(server, id);
  });

  it('a receipt stored while its submit was being recorded (neither transaction saw the other) is applied by the applier', async () => {
    const { server } = t;
    const { id } = await task(server, { count: 2 });
    const link = new FakeLink();
    const d = dispatcher(server, link);
    await drain(d);
    const inflight = await server.handle.db
      .selectFrom('sms_inflight')
      .selectAll()
      .where('task_id', '=', id)
      .orderBy('message_id')
      .execute();
    expect(inflight).toHaveLength(2);
    // what the receipt transaction wrote when it could not see the in-flight row yet
    await storeReceipts(
      server.handle.db,
      [{ msgId: inflight[0].msg_id, state: 3, errorCode: '', report: 'DELIVRD', doneAt: server.clock.now() }],
      server.clock.now(),
    );
    expect(await d.applyOnce()).toBe(1);
    const ms = await messages(server, id);
    expect(ms.map((m) => m.state)).toEqual([3, 1]);
    expect(await server.handle.db.selectFrom('sms_receipts').select('msg_id').execute()).toEqual([]);
    expect(await taskRow(server, id)).toMatchObject({ success_num: 1, unknown_num: 1 });
    await expectCountersMatch(server, id);
  });

  it('a receipt naming its id in another reading (decimal for a hex id), stored before its submit was recorded, is applied under that reading', async () => {
    const { server } = t;
    const { id } = await task(server, { count: 1 });
    const link = new FakeLink();
    const d = dispatcher(server, link);
    await drain(d);
    const [inflight] = await server.handle.db
      .selectFrom('sms_inflight')
      .selectAll()
      .where('task_id', '=', id)
      .execute();
    // the carrier's receipt says the id in decimal, the other readings go with it (pdu.ts idReadings)
    await storeReceipts(
      server.handle.db,
      [
        {
          msgId: 'DEC-READING',
          readings: ['x-other', inflight.msg_id],
          state: 3,
          errorCode: '',
          report: 'DELIVRD',
          doneAt: server.clock.now(),
        },
      ],
      server.clock.now(),
    );
    expect(await d.applyOnce()).toBe(1);
    expect((await messages(server, id)).map((m) => [m.state, m.msg_id])).toEqual([[3, inflight.msg_id]]);
    await expectCountersMatch(server, id);
  });

  it("messages approved in review after their task's cursor passed them are queued one by one, and submitted once", async () => {
    const { server } = t;
    const db = server.handle.db;
    const { id, uid } = await task(server, { count: 6 });
    const all = await messages(server, id);
    // two of the task's rows held for review (keyword review of a variable send)
    const held = [all[1].id, all[4].id];
    await db.updateTable('sms_messages').set({ state: 7 }).where('id', 'in', held).execute();
    await db.updateTable('sms_tasks').set({ audit_num: 2 }).where('id', '=', id).execute();
    const link = new FakeLink();
    const d = dispatcher(server, link);
    await drain(d);
    expect([...link.written.keys()].sort((a, b) => a - b)).toEqual(
      all.map((m) => m.id).filter((x) => !held.includes(x)),
    );
    expect((await taskRow(server, id)).status).toBe(2);
    await reviewTask(server.app.ctx, uid, 'approve');
    expect(
      (
        await server.handle.db
          .selectFrom('sms_requeue')
          .select('message_id')
          .where('task_id', '=', id)
          .orderBy('message_id')
          .execute()
      ).map((r) => r.message_id),
    ).toEqual(held);
    await drain(d);
    expect(link.duplicates()).toEqual([]);
    expect(link.written.size).toBe(6);
    expect(await taskRow(server, id)).toMatchObject({ status: 3, submitted_num: 6, unknown_num: 6 });
    await expectCountersMatch(server, id);
  });

  it('deferred 提交成功: a receipt within markSubmittedMs writes the record once, straight to its final state; a late one after housekeeping wrote 1', async () => {
    const { server } = t;
    const db = server.handle.db;
    const { id } = await task(server, { count: 4 });
    const link = new FakeLink();
    link.delivered = (ref) => ref % 2 === 0;
    const d = dispatcher(server, link, { markSubmittedMs: 2000 });
    await drain(d);
    // submitted: counted at once, the records untouched, all four in flight unmarked
    let ms = await messages(server, id);
    expect(ms.every((m) => m.state === 0 && m.msg_id === null && m.attempts === 0)).toBe(true);
    expect(await taskRow(server, id)).toMatchObject({ status: 2, submitted_num: 4, unknown_num: 4 });
    expect(
      (await db.selectFrom('sms_inflight').select('marked').where('task_id', '=', id).execute()).map((r) => r.marked),
    ).toEqual([false, false, false, false]);
    const receipts = link.pendingReceipts.splice(0);
    // two receipts come at once: final state, message id, submit time and attempt in one write
    link.pendingReceipts.push(...receipts.slice(0, 2));
    await link.flushReceipts();
    ms = await messages(server, id);
    for (const m of ms.slice(0, 2)) {
      expect([3, 6]).toContain(m.state);
      expect(m).toMatchObject({ attempts: 1, msg_id: receipts.find((r) => r.msgId.startsWith(`m${m.id}-`))!.msgId });
      expect(m.submitted_at).not.toBeNull();
    }
    // the other two are late: housekeeping writes 1 提交成功 once markSubmittedMs has passed, not before
    await d.maintain();
    expect((await messages(server, id)).slice(2).map((m) => m.state)).toEqual([0, 0]);
    server.clock.advance(2001);
    await d.maintain();
    expect(d.stats.marked).toBe(2);
    ms = await messages(server, id);
    expect(ms.slice(2).every((m) => m.state === 1 && m.attempts === 1 && m.msg_id && m.submitted_at)).toBe(true);
    expect(await taskRow(server, id)).toMatchObject({ status: 3 });
    await expectCountersMatch(server, id);
    // their receipts then: final, attempts unchanged
    link.pendingReceipts.push(...receipts.slice(2));
    await link.flushReceipts();
    ms = await messages(server, id);
    expect(ms.every((m) => [3, 6].includes(m.state) && m.attempts === 1)).toBe(true);
    expect(await taskRow(server, id)).toMatchObject({ unknown_num: 0, submitted_num: 4 });
    await expectCountersMatch(server, id);
    expect(await db.selectFrom('sms_inflight').select('msg_id').where('task_id', '=', id).execute()).toEqual([]);
  });

  it('expired leases (dead worker): the messages marked written become unconfirmed, never resubmitted; the others are sent once; the late worker records nothing', async () => {
    const { server } = t;
    const { id } = await task(server, { count: 6 });
    const db = server.handle.db;
    const now = server.clock.now();
    const claimed = await claimBatch(db, 'dead-worker', now, new Date(now.getTime() + 1000), 4);
    expect(claimed).toHaveLength(4);
    expect((await taskRow(server, id)).status).toBe(2);
    // the dead worker had handed two of them to its link (marked first), the other two never left it
    const written = claimed.slice(0, 2).map((c) => c.id);
    expect(await markWritten(db, 'dead-worker', claimed[0].lease, written, now, new Date(now.getTime() + 1000))).toBe(
      true,
    );

    const link = new FakeLink();
    const d = dispatcher(server, link);
    await drain(d);
    expect(link.written.size).toBe(2);
    await d.maintain();
    expect((await leases(server)).filter((l) => l.owner === 'dead-worker').flatMap((l) => l.message_ids)).toEqual(
      claimed.map((c) => c.id),
    );
    expect((await messages(server, id)).filter((m) => m.state === 0).map((m) => m.id)).toEqual(
      claimed.map((c) => c.id),
    );

    server.clock.advance(1001);
    await d.maintain();
    expect(d.stats.recovered).toBe(4);
    // a mark after the lease expired is refused: the worker must not write them
    expect(
      await markWritten(
        db,
        'dead-worker',
        claimed[0].lease,
        claimed.slice(2).map((c) => c.id),
        server.clock.now(),
        new Date(server.clock.now().getTime() + 1000),
      ),
    ).toBe(false);
    let ms = await messages(server, id);
    expect(ms.filter((m) => written.includes(m.id)).every((m) => m.state === 1 && m.error_code === UNCONFIRMED)).toBe(
      true,
    );
    expect(ms.filter((m) => claimed.slice(2).some((c) => c.id === m.id)).every((m) => m.state === 0)).toBe(true);
    expect(await leases(server)).toEqual([]);
    await drain(d);
    ms = await messages(server, id);
    expect(ms.every((m) => m.state === 1)).toBe(true);
    expect(claimed.slice(2).map((c) => link.written.get(c.id))).toEqual([1, 1]);
    expect(written.map((w) => link.written.get(w))).toEqual([undefined, undefined]);
    expect([...link.written.values()].every((n) => n === 1)).toBe(true);
    expect(link.written.size).toBe(4);
    expect(await taskRow(server, id)).toMatchObject({ status: 3, unknown_num: 6, submitted_num: 6 });
    await expectCountersMatch(server, id);

    // the dead worker wakes up with answers: its lease is gone, nothing changes
    const n = await recordOutcomes(
      db,
      server.app.ctx,
      'dead-worker',
      claimed.map((c) => ({ id: c.id, state: 1, msgId: `late${c.id}`, code: '', report: '', delayMs: 0 })),
    );
    expect(n).toBe(0);
    // the same with the leases named, as the dispatcher's outcomes name them (the leases are read by id)
    const named = await recordOutcomes(
      db,
      server.app.ctx,
      'dead-worker',
      claimed.map((c) => ({
        id: c.id,
        state: 1,
        msgId: `late${c.id}`,
        code: '',
        report: '',
        delayMs: 0,
        lease: c.lease,
      })),
    );
    expect(named).toBe(0);
    expect(await taskRow(server, id)).toMatchObject({ unknown_num: 6, submitted_num: 6 });
    await drain(d);
    expect(link.written.size).toBe(4);
  });

  it('a batch goes to the link in slices of at most its window × connections, each marked written before', async () => {
    const { server } = t;
    const { id } = await task(server, { count: 10 });
    const link = new FakeLink();
    const marks: number[][] = [];
    const sizes: number[] = [];
    Object.defineProperty(link, 'capacity', { value: 4 });
    const submit = link.submit.bind(link);
    link.submit = async (batch) => {
      const l = await server.handle.db.selectFrom('dispatch_leases').select('written').execute();
      marks.push(batch.map((r) => r.ref).filter((ref) => !l.some((x) => (x.written ?? []).includes(ref))));
      sizes.push(batch.length);
      return submit(batch);
    };
    const d = dispatcher(server, link, { batchSize: 10 });
    expect(await d.dispatchOnce()).toBe(10);
    // every request was marked before the link got it; never more than 4 at once
    expect(marks.every((m) => m.length === 0)).toBe(true);
    expect(link.requests.length).toBe(10);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(4);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(10);
    expect((await messages(server, id)).every((m) => m.state === 1)).toBe(true);
    expect(await leases(server)).toEqual([]);
  });

  it('an SMSC answering the same message id twice: the later ones are recorded without it, as unconfirmed', async () => {
    const { server } = t;
    const { id } = await task(server, { count: 3 });
    const link = new FakeLink();
    link.msgIdOf = () => 'dup-1';
    const d = dispatcher(server, link, { batchSize: 3 });
    d.start();
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && (await taskRow(server, id)).status !== 3)
      await new Promise((r) => setTimeout(r, 30));
    await d.stop();
    const ms = await messages(server, id);
    expect(ms.filter((m) => m.msg_id === 'dup-1')).toHaveLength(1);
    expect(
      ms.filter((m) => m.state === 1 && m.error_code === UNCONFIRMED && m.report === 'duplicate message id'),
    ).toHaveLength(2);
    expect(link.duplicates()).toEqual([]);
    await expectCountersMatch(server, id);
  });

  it('queues delivery reports (receipts and refused submits) and uplinks for push, for the accounts that want them', async () => {
    const { server } = t;
    const db = server.handle.db;
    const agent0 = await accountId(server, 'agent0');
    await db
      .updateTable('accounts')
      .set({
        needreport: 1,
        deliveryurl: 'https://push.example.com/report',
        needmo: 1,
        mourl: 'https://push.example.com/mo',
      })
      .where('id', '=', agent0)
      .execute();
    const { id, uid } = await insertFixtureTask(db, {
      accountId: agent0,
      count: 4,
      nextAt: server.clock.now(),
      phoneBase: 13500000000,
    });
    await db
      .updateTable('accounts')
      .set({ needreport: 0, needmo: 0 })
      .where('id', '=', await accountId(server))
      .execute();
    const other = await task(server, { count: 2 });
    const link = new FakeLink((req) => (req.to.endsWith('1') ? 'reject' : 'accept'));
    link.delivered = (ref) => ref % 2 === 0;
    let woken = 0;
    const d = dispatcher(server, link, { batchSize: 10, hooks: pushHooks(() => woken++) });
    await drain(d);
    await link.flushReceipts();
    await link.mo([
      {
        from: '13500000002',
        to: `106900${agent0}`,
        text: '收到',
        smscRef: 'push-mo-1',
        receivedAt: new Date('2026-05-01T08:00:00Z'),
      },
    ]);
    const rows = await db
      .selectFrom('push_outbox')
      .selectAll()
      .where('account_id', '=', agent0)
      .orderBy('id')
      .execute();
    const reports = rows
      .filter((r) => r.kind === 1)
      .flatMap(
        (r) =>
          (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as {
            id: number;
            taskId: string;
            state: number;
          }[],
      );
    const ms = await messages(server, id);
    expect(reports.map((r) => r.id).sort((a, b) => a - b)).toEqual(ms.map((m) => m.id));
    expect(reports.every((r) => r.taskId === uid)).toBe(true);
    expect(reports.find((r) => r.id === ms.find((m) => m.phone.endsWith('1'))!.id)!.state).toBe(4);
    expect(rows.every((r) => r.kind === 2 || r.url === 'https://push.example.com/report')).toBe(true);
    const mo = rows.filter((r) => r.kind === 2);
    expect(mo).toHaveLength(1);
    expect(mo[0].url).toBe('https://push.example.com/mo');
    expect(woken).toBeGreaterThan(0);
    // client1 (needreport 0) gets nothing
    expect(
      await db
        .selectFrom('push_outbox')
        .select('id')
        .where('account_id', '=', (await taskRow(server, other.id)).account_id)
        .execute(),
    ).toEqual([]);
  });

  it('two dispatchers on one database share the work without duplicates', async () => {
    const { server } = t;
    const { id } = await task(server, { count: 1500 });
    const link = new FakeLink();
    link.delayMs = 5;
    const a = dispatcher(server, link, { workerId: 'A', batchSize: 100, lanes: 2, idleMs: 20 });
    const b = dispatcher(server, link, { workerId: 'B', batchSize: 100, lanes: 2, idleMs: 20 });
    a.start();
    b.start();
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && (await taskRow(server, id)).status !== 3)
      await new Promise((r) => setTimeout(r, 50));
    await link.flushReceipts();
    await new Promise((r) => setTimeout(r, 100));
    await Promise.all([a.stop(), b.stop()]);
    await a.applyOnce();
    expect(link.duplicates()).toEqual([]);
    expect(link.written.size).toBe(1500);
    expect(a.stats.claimed).toBeGreaterThan(0);
    expect(b.stats.claimed).toBeGreaterThan(0);
    expect(a.stats.claimed + b.stats.claimed).toBe(1500);
    expect(await taskRow(server, id)).toMatchObject({
      status: 3,
      success_num: 1500,
      unknown_num: 0,
      submitted_num: 1500,
    });
    await expectCountersMatch(server, id);
  });

  it('stores uplinks routed by extension, else by the last sender to the phone; duplicates once; unroutable dropped', async () => {
    const { server } = t;
    const client1 = await accountId(server);
    const agent1 = await accountId(server, 'agent1');
    await task(server, { count: 1, phoneBase: 13912345678 });
    const link = new FakeLink();
    const d = dispatcher(server, link);
    const at = new Date('2026-05-01T08:00:00Z');
    await link.mo([
      { from: '8613700000001', to: `106900${agent1}`, text: '回复TD', smscRef: 'mo-1', receivedAt: at },
      { from: '13912345678', to: '106900', text: '好的', smscRef: 'mo-2', receivedAt: at },
      { from: '13600000000', to: '10690099999999', text: '谁', smscRef: 'mo-3', receivedAt: at },
      { from: '8613700000001', to: `106900${agent1}`, text: '回复TD', smscRef: 'mo-1', receivedAt: at },
    ]);
    const rows = await server.handle.db
      .selectFrom('sms_mo')
      .selectAll()
      .where('smsc_ref', 'in', ['mo-1', 'mo-2', 'mo-3'])
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.account_id, r.phone, r.content, r.smsc_ref])).toEqual([
      [agent1, '13700000001', '回复TD', 'mo-1'],
      [client1, '13912345678', '好的', 'mo-2'],
    ]);
    await link.mo([{ from: '8613700000001', to: `106900${agent1}`, text: '回复TD', smscRef: 'mo-1', receivedAt: at }]);
    expect(
      await server.handle.db
        .selectFrom('sms_mo')
        .select('id')
        .where('smsc_ref', 'in', ['mo-1', 'mo-2', 'mo-3'])
        .execute(),
    ).toHaveLength(2);
    expect(d.stats.mo).toBe(2);
  });
});

describe.each(backends)('dispatch over SMPP with the simulator (%s)', (backend) => {
  // real time: throttling pauses and receipt latencies are the simulator's
  const t = useServer(backend, { build: { now: () => new Date() } });

  it('throttling and a dropped connection lose nothing; no ref reaches the SMSC twice; receipts and counters agree', async () => {
    const { server } = t;
    const sim = await startSimulator({
      seed: 7,
      delivered: 0.8,
      failed: 0.2,
      noReceipt: 0,
      latencyMinMs: 5,
      latencyMaxMs: 40,
      maxPerSecond: 300,
      moRatio: 0,
      redeliverMs: 200,
    });
    const link = createSmscLink(
      parseSmppUrl(`${sim.url}?ref_tlv=0x1401&window=50&reconnect_min_ms=50&reconnect_max_ms=200&timeout_ms=2000`),
    );
    const d = new Dispatcher(server.app.ctx, link, { batchSize: 200, lanes: 2, idleMs: 20, maintenanceMs: 200 });
    const N = 1500;
    const { id } = await insertFixtureTask(server.handle.db, {
      accountId: await accountId(server),
      count: N,
      nextAt: new Date(),
    });
    try {
      await link.waitReady(5000);
      d.start();
      // drop every session once, mid-run
      const dropAt = Date.now() + 10_000;
      while (Date.now() < dropAt && sim.counts().accepted < N / 3) await new Promise((r) => setTimeout(r, 5));
      sim.dropConnections();
      const deadline = Date.now() + 60_000;
      for (;;) {
        const tr = await taskRow(server, id);
        const unconfirmed = await server.handle.db
          .selectFrom('sms_messages')
          .select('id')
          .where('task_id', '=', id)
          .where('error_code', '=', UNCONFIRMED)
          .execute();
        if (tr.status === 3 && tr.unknown_num === unconfirmed.length) break;
        if (Date.now() > deadline) throw new Error(`not done: ${JSON.stringify(tr)} ${JSON.stringify(sim.counts())}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await d.stop();
      await link.close();
      await sim.close();
    }
    const counts = sim.counts();
    expect(counts.duplicates).toEqual([]);
    expect(counts.throttled).toBeGreaterThan(0);
    const ms = await messages(server, id);
    expect(ms.every((m) => [1, 3, 6].includes(m.state))).toBe(true);
    expect(await leases(server)).toEqual([]);
    for (const m of ms) {
      if (m.msg_id) expect(sim.refs.get(String(m.id))).toBe(1);
      if (m.state !== 1) expect(m.error_code === UNCONFIRMED).toBe(false);
    }
    expect(ms.filter((m) => m.state === 3).length + ms.filter((m) => m.state === 6).length).toBeGreaterThan(N * 0.9);
    await expectCountersMatch(server, id);
  }, 90_000);

  it.each([
    ['auto', 3],
    ['exact', 1],
  ] as const)(
    'a carrier naming message ids in decimal in its receipts (hex in submit_sm_resp, no receipted_message_id): receipt_id=%s',
    async (mode, state) => {
      const { server } = t;
      const sim = await startSimulator({
        seed: 9,
        delivered: 1,
        failed: 0,
        noReceipt: 0,
        latencyMinMs: 5,
        latencyMaxMs: 40,
        moRatio: 0,
        receiptIds: 'decimal',
        receiptTlv: false,
        refuseTlvs: [0x1401],
      });
      // a configured SMSC: no ref TLV (this one would refuse it)
      const link = createSmscLink(parseSmppUrl(`${sim.url}?receipt_id=${mode}&reconnect_min_ms=50&receipt_batch_ms=5`));
      const d = new Dispatcher(server.app.ctx, link, {
        batchSize: 100,
        idleMs: 20,
        maintenanceMs: 100,
        markSubmittedMs: 0,
      });
      const N = 60;
      const { id } = await insertFixtureTask(server.handle.db, {
        accountId: await accountId(server),
        count: N,
        nextAt: new Date(),
      });
      try {
        await link.waitReady(5000);
        d.start();
        const deadline = Date.now() + 30_000;
        for (;;) {
          const ms = await messages(server, id);
          if (ms.every((m) => m.state === state) && sim.counts().receiptsSent >= N) break;
          if (Date.now() > deadline)
            throw new Error(`not done: ${JSON.stringify(ms.map((m) => m.state))} ${JSON.stringify(sim.counts())}`);
          await new Promise((r) => setTimeout(r, 50));
        }
      } finally {
        await d.stop();
        await link.close();
        await sim.close();
      }
      const ms = await messages(server, id);
      // every message carries the submit_sm_resp's (hex) id
      expect(ms.every((m) => /^[0-9A-F]+$/.test(m.msg_id ?? ''))).toBe(true);
      expect(sim.counts().rejected).toBe(0);
      if (mode === 'auto') await expectCountersMatch(server, id);
    },
    60_000,
  );
});

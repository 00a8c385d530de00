/**
 * Large tasks (docs/api-send.md "Large tasks"): beyond the first 10,000 numbers, a task queued for
 * dispatch is accepted as compressed chunks (sms_task_chunks) that the workers write as message
 * rows afterwards. On both databases: what the acceptance writes, rows from chunks equal to rows
 * written at once (order, carrier, region, price, pieces, own text), the dispatch queue reopened by
 * an expansion, no task completed while chunks remain, every message submitted exactly once, one
 * chunk of a task at a time, readers that need every number (number export, number list), timed
 * tasks written at once, a damaged chunk refused with nothing written.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { Dispatcher } from '../../server/modules/dispatch/dispatcher';
import { completeTasks } from '../../server/modules/dispatch/sql';
import { fireDueTimedTasks } from '../../server/modules/send/timer';
import { LedgerService } from '../../server/modules/ledger/service';
import { CHUNK_ROWS, expandNextChunk, INLINE_ROWS, insertMessages } from '../../server/modules/send/messages';
import { encodeChunk } from '../../server/modules/send/chunks';
import { insertFixtureTask } from '../../bench/lib/dispatch-fixture';
import { regionOf } from '../../common/sms/segments';
import { FakeLink } from '../fixtures/fake-smsc';
import { backends, useServer, type TestServer } from './harness';
import { approveSign, as, ledgerViolations, shanghai } from './send-helpers';

const CONTENT = '您的账户余额已不足，为避免影响正常使用，请及时充值。';
const N = INLINE_ROWS + CHUNK_ROWS + 1234;

/** N distinct numbers over the three carriers and many regions, from `base` */
function numbers(n: number, base: number): string[] {
  const prefixes = ['138', '139', '186', '130', '189', '133', '150', '177', '158', '181'];
  return Array.from(
    { length: n },
    (_, i) => `${prefixes[i % prefixes.length]}${String(((base + i) * 7919) % 100_000_000).padStart(8, '0')}`,
  );
}

async function agent0(server: TestServer) {
  const db = server.handle.db;
  const a = await db.selectFrom('accounts').selectAll().where('clientid', '=', 'agent0').executeTakeFirstOrThrow();
  await new LedgerService({ db, now: () => new Date() }).credit(a.id, '10000.00', { remark: 'large task test' });
  await approveSign(server, 'agent0', '云讯通');
  return db.selectFrom('accounts').selectAll().where('id', '=', a.id).executeTakeFirstOrThrow();
}

async function sendLarge(server: TestServer, phones: string[], timed = false) {
  const db = server.handle.db;
  const me = await agent0(server);
  const tpl = await db.selectFrom('templates').select('id').where('content', '=', CONTENT).executeTakeFirstOrThrow();
  server.clock.advance(3100);
  const body = {
    clientId: 'agent0',
    sign: '云讯通',
    smstype: 0,
    templateId: tpl.id,
    content: CONTENT,
    mobile: phones.join(','),
  };
  const send = server.app.services.send;
  const res = timed
    ? await send.sendTimed(me, {
        jsmsAccessTimerSms: {
          ...body,
          clientid: 'agent0',
          mobilelist: body.mobile,
          sendtime: shanghai(new Date(server.clock.t + 3_600_000)),
        },
      })
    : await send.send(me, body as never);
  const task = await db.selectFrom('sms_tasks').selectAll().where('uid', '=', res.taskId).executeTakeFirstOrThrow();
  return { res, task };
}

const rowsOf = (server: TestServer, taskId: number) =>
  server.handle.db
    .selectFrom('sms_messages')
    .select(['id', 'phone', 'carrier', 'province_id', 'city_id', 'pieces', 'price', 'state', 'content', 'created_at'])
    .where('task_id', '=', taskId)
    .orderBy('id')
    .execute();

const chunksOf = (server: TestServer, taskId: number) =>
  server.handle.db
    .selectFrom('sms_task_chunks')
    .select(['seq', 'rows'])
    .where('task_id', '=', taskId)
    .orderBy('seq')
    .execute();

describe.each(backends)('large tasks (%s)', (backend) => {
  const t = useServer(backend);

  it('accepts the numbers beyond the first 10,000 as chunks; the workers write rows equal to those written at once, in order', async () => {
    const { server } = t;
    const phones = numbers(N, 1);
    const { res, task } = await sendLarge(server, phones);
    expect(res.submitTotal).toBe(N);
    // the charge covers every number at once
    expect(res.chargeNum).toBe(N);
    expect((await rowsOf(server, task.id)).length).toBe(INLINE_ROWS);
    expect(await chunksOf(server, task.id)).toEqual([
      { seq: 0, rows: CHUNK_ROWS },
      { seq: 1, rows: 1234 },
    ]);
    expect(await ledgerViolations(server)).toEqual([]);

    // two workers at once: a task's chunks are still written one at a time, in order
    for (;;) {
      const n = await Promise.all([expandNextChunk(server.handle.db), expandNextChunk(server.handle.db)]);
      if (n[0] + n[1] === 0) break;
    }
    expect(await chunksOf(server, task.id)).toEqual([]);
    const rows = await rowsOf(server, task.id);
    expect(rows.map((r) => r.phone)).toEqual(phones);
    const inline = rows.slice(0, INLINE_ROWS);
    const priceOf = new Map(inline.map((r) => [r.carrier, r.price]));
    expect(priceOf.size).toBe(3);
    for (const r of rows) {
      const g = regionOf(r.phone);
      expect([r.province_id, r.city_id]).toEqual(g ? [g.province.provinceId, g.city.cityId] : [0, 0]);
      expect(r.price).toBe(priceOf.get(r.carrier));
      expect([r.pieces, r.state, r.content]).toEqual([1, 0, null]);
      expect(r.created_at.getTime()).toBe(inline[0].created_at.getTime());
    }
    // the report rows count every message once
    const rep = await sql<{
      n: number;
    }>`select coalesce(sum(send_num), 0)::int as n from report_rows r join accounts a on a.id = r.account_id where a.clientid = 'agent0'`.execute(
      server.handle.db,
    );
    expect(rep.rows[0].n).toBe(N);
  });

  it('dispatches every message exactly once; the task completes only when no chunk is left', async () => {
    const { server } = t;
    // the other tests' tasks are not dispatched here
    await server.handle.db.updateTable('dispatch_queue').set({ queued: false }).execute();
    const { task } = await sendLarge(server, numbers(N, 50_000));
    const link = new FakeLink();
    const d = new Dispatcher(server.app.ctx, link, { maintenanceMs: 0, batchSize: 5000, markSubmittedMs: 0 });
    const drain = async () => {
      while ((await d.dispatchOnce()) > 0);
      await link.flushReceipts();
      await d.applyOnce();
    };
    await drain();
    expect(link.requests.length).toBe(INLINE_ROWS);
    await completeTasks(server.handle.db, null, server.clock.now());
    // every row final, but chunks remain: not completed
    expect(
      (
        await server.handle.db
          .selectFrom('sms_tasks')
          .select('status')
          .where('id', '=', task.id)
          .executeTakeFirstOrThrow()
      ).status,
    ).not.toBe(3);
    expect(
      (
        await server.handle.db
          .selectFrom('dispatch_queue')
          .select('queued')
          .where('task_id', '=', task.id)
          .executeTakeFirstOrThrow()
      ).queued,
    ).toBe(false);

    expect(await d.expandOnce()).toBe(CHUNK_ROWS);
    // the expansion opened the task's queue again
    expect(
      (
        await server.handle.db
          .selectFrom('dispatch_queue')
          .select('queued')
          .where('task_id', '=', task.id)
          .executeTakeFirstOrThrow()
      ).queued,
    ).toBe(true);
    await drain();
    expect(await d.expandOnce()).toBe(1234);
    await drain();
    expect(await d.expandOnce()).toBe(0);
    expect(link.requests.length).toBe(N);
    expect(link.duplicates()).toEqual([]);
    expect(d.stats.expanded).toBe(CHUNK_ROWS + 1234);
    const tr = await server.handle.db
      .selectFrom('sms_tasks')
      .selectAll()
      .where('id', '=', task.id)
      .executeTakeFirstOrThrow();
    expect(tr).toMatchObject({ status: 3, success_num: N, submitted_num: N });
  });

  it("the number export and the number list write a task's chunks first: every number is in them", async () => {
    const { server } = t;
    const phones = numbers(N, 90_000);
    const { task } = await sendLarge(server, phones);
    const c = await as(server, 'agent0');
    const r = await c.post('/api/send/exportTaskInfoPhones', { id: task.uid, sendTypes: '5' });
    expect(r.status).toBe(200);
    const lines = String(r.body).trim().split('\n');
    expect(lines).toEqual(phones);
    expect(await chunksOf(server, task.id)).toEqual([]);
    const list = await c.post('/api/send/getAllPhone/list', { uid: task.uid, page: 3, rows: 15 });
    expect(list.body.data.totalCount).toBe(N);
    expect(list.body.data.list.map((x: { phone: string }) => x.phone)).toEqual(phones.slice(30, 45));
  });

  it('timed: a large task fires only once its chunks are rows; re-edit sees every number; cancel deletes the chunks', async () => {
    const { server } = t;
    const db = server.handle.db;
    const phones = numbers(INLINE_ROWS + 500, 200_000);
    const { task } = await sendLarge(server, phones, true);
    expect(task.send_type).toBe(1);
    expect(await chunksOf(server, task.id)).toEqual([{ seq: 0, rows: 500 }]);
    // not queued before its time: the expansion opens no queue
    expect(await expandNextChunk(db, task.id)).toBe(500);
    expect(
      await db.selectFrom('dispatch_queue').select('task_id').where('task_id', '=', task.id).executeTakeFirst(),
    ).toBeUndefined();
    expect((await rowsOf(server, task.id)).map((r) => r.phone)).toEqual(phones);

    // a second one, its chunk not written when its time comes: it waits for it
    const second = await sendLarge(server, numbers(INLINE_ROWS + 700, 400_000), true);
    const me = await as(server, 'agent0');
    const e = await me.post('/api/send/edit', { taskID: second.task.uid });
    expect(e.body.data.mobile.split(',').length).toBe(INLINE_ROWS + 700);
    expect(await chunksOf(server, second.task.id)).toEqual([]);
    const third = await sendLarge(server, numbers(INLINE_ROWS + 900, 600_000), true);
    server.clock.advance(2 * 3_600_000);
    const fired = await fireDueTimedTasks({ db, now: server.clock.now }, 10);
    expect(fired).toBe(2);
    const status = async (id: number) =>
      (await db.selectFrom('sms_tasks').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
    expect([await status(task.id), await status(second.task.id), await status(third.task.id)]).toEqual([0, 0, 1]);
    expect(await expandNextChunk(db, third.task.id)).toBe(900);
    expect(await fireDueTimedTasks({ db, now: server.clock.now }, 10)).toBe(1);
    expect(await status(third.task.id)).toBe(0);

    // cancel before the time: rows and chunks deleted, everything refunded
    const fourth = await sendLarge(server, numbers(INLINE_ROWS + 300, 800_000), true);
    expect((await chunksOf(server, fourth.task.id)).length).toBe(1);
    // (a new session: two hours have passed)
    const u = await (await as(server, 'agent0')).post('/api/send/undoSend', { uid: fourth.task.uid });
    expect(u.body.code).toBe(0);
    expect(await chunksOf(server, fourth.task.id)).toEqual([]);
    expect((await rowsOf(server, fourth.task.id)).length).toBe(0);
    const f = await db.selectFrom('sms_tasks').selectAll().where('id', '=', fourth.task.id).executeTakeFirstOrThrow();
    expect(f.status).toBe(4);
    expect(f.refunded_amount).toBe(f.amount);
    expect(await ledgerViolations(server)).toEqual([]);
  });

  it("keeps each message's own text, pieces and price through a chunk", async () => {
    const { server } = t;
    const db = server.handle.db;
    const accountId = (
      await db.selectFrom('accounts').select('id').where('clientid', '=', 'client1').executeTakeFirstOrThrow()
    ).id;
    const fx = await insertFixtureTask(db, { accountId, count: 0, nextAt: null });
    const n = INLINE_ROWS + 300;
    const phones = numbers(n, 300_000);
    const texts = phones.map((p, i) => (i % 7 === 0 ? null : `尊敬的会员${p}，\t您好\\n${i}`));
    const pieces = Uint16Array.from(phones, (_, i) => 1 + (i % 3));
    const prices = phones.map((_, i) => (0.03 + (i % 5) / 1000).toFixed(4));
    const now = server.clock.now();
    await db.transaction().execute((trx) =>
      insertMessages(trx, {
        taskId: fx.id,
        accountId,
        phones,
        carriers: Uint8Array.from(phones, (_, i) => 1 + (i % 3)),
        pieces: 1,
        prices: { 1: '0', 2: '0', 3: '0' },
        state: 0,
        nextAt: now,
        createdAt: now,
        doneAt: null,
        each: { texts, pieces, prices },
      }),
    );
    expect(await chunksOf(server, fx.id)).toEqual([{ seq: 0, rows: 300 }]);
    expect(await expandNextChunk(db, fx.id)).toBe(300);
    const rows = await rowsOf(server, fx.id);
    expect(rows.map((r) => [r.phone, r.content, r.pieces, Number(r.price).toFixed(4)])).toEqual(
      phones.map((p, i) => [p, texts[i], pieces[i], prices[i]]),
    );
  });

  it('refuses a damaged chunk: nothing written, the chunk kept and tried again later; other tasks go on', async () => {
    const { server } = t;
    const db = server.handle.db;
    await db.deleteFrom('sms_task_chunks').execute();
    const accountId = (
      await db.selectFrom('accounts').select('id').where('clientid', '=', 'client1').executeTakeFirstOrThrow()
    ).id;
    const fx = await insertFixtureTask(db, { accountId, count: 0, nextAt: null });
    const now = server.clock.now();
    const bad = await encodeChunk({
      accountId,
      createdAt: new Date().toISOString(),
      phones: ['13800138000', '13800138001'],
      carriers: [1],
      province: [0, 0],
      city: [0, 0],
      pieces: 1,
      prices: {},
    });
    await db.insertInto('sms_task_chunks').values({ task_id: fx.id, seq: 0, rows: 2, payload: bad }).execute();
    await db
      .insertInto('sms_task_chunks')
      .values({ task_id: fx.id, seq: 1, rows: 1, payload: Buffer.from('not gzip') })
      .execute();
    // a later task with a good chunk
    const ok = await insertFixtureTask(db, { accountId, count: 0, nextAt: null });
    const good = await encodeChunk({
      accountId,
      createdAt: new Date().toISOString(),
      phones: ['13900139000'],
      carriers: [1],
      province: [0],
      city: [0],
      pieces: 1,
      prices: { 1: '0.04' },
    });
    await db.insertInto('sms_task_chunks').values({ task_id: ok.id, seq: 0, rows: 1, payload: good }).execute();

    await expect(expandNextChunk(db, undefined, now)).rejects.toThrow(/malformed/);
    const after = await db
      .selectFrom('sms_task_chunks')
      .selectAll()
      .where('task_id', '=', fx.id)
      .orderBy('seq')
      .execute();
    expect(after.map((c) => [c.seq, c.attempts])).toEqual([
      [0, 1],
      [1, 0],
    ]);
    expect(after[0].error).toMatch(/malformed/);
    expect(after[0].next_at?.getTime()).toBe(now.getTime() + 1000);
    // the damaged chunk waits and holds back only its own task's later chunk
    expect(await expandNextChunk(db, undefined, now)).toBe(1);
    expect(await expandNextChunk(db, undefined, now)).toBe(0);
    expect((await rowsOf(server, ok.id)).map((r) => r.phone)).toEqual(['13900139000']);
    // a second failure waits twice as long
    const later = new Date(now.getTime() + 1000);
    await expect(expandNextChunk(db, undefined, later)).rejects.toThrow(/malformed/);
    const again = await db
      .selectFrom('sms_task_chunks')
      .selectAll()
      .where('task_id', '=', fx.id)
      .where('seq', '=', 0)
      .executeTakeFirstOrThrow();
    expect([again.attempts, again.next_at?.getTime()]).toEqual([2, later.getTime() + 2000]);
    // a reader needing every number goes on with the rows there are
    const c = await as(server, 'client1');
    const r = await c.post('/api/send/exportTaskInfoPhones', { id: fx.uid, sendTypes: '5' });
    expect([r.status, r.body]).toEqual([200, '']);
    // but a re-edit, whose resubmission replaces the task, is refused rather than given part of its numbers
    await db
      .updateTable('sms_tasks')
      .set({ status: 1, send_type: 1, send_time: new Date(server.clock.t + 3_600_000) })
      .where('id', '=', fx.id)
      .execute();
    const e = await c.post('/api/send/edit', { taskID: fx.uid });
    expect(e.body.msg).toBe('任务号码正在处理，请稍后重试');
    expect((await rowsOf(server, fx.id)).length).toBe(0);
    expect((await chunksOf(server, fx.id)).length).toBe(2);
    await db.deleteFrom('sms_task_chunks').where('task_id', '=', fx.id).execute();
  });
});

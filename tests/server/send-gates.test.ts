/**
 * Issue 23 item 2 — "an account with no money writes unlimited rows", as the attacks, on both
 * databases:
 * - an account whose certification has not passed sends nothing on any path (console, variable,
 *   international, timed, charge previews), nothing written;
 * - an intercepted large send writes its first 10,000 numbers as rows and keeps the rest as held
 *   chunks the workers never expand; the reports count every number; the task's number list
 *   writes them when someone asks, and the reports do not count them twice;
 * - uncharged timed work (isCheckAvailableCredit 0) is bounded per account (DEFERRED_TIMED_MAX);
 * - a large accept's chunks are staged before its transaction, and a refused accept leaves none;
 * - a large task awaiting review is reviewed whole (its chunks written first).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { expandNextChunk, INLINE_ROWS } from '../../server/modules/send/messages';
import { reviewTask } from '../../server/modules/send/review';
import { purgeExpired } from '../../server/db/maintenance';
import { backends, useServer, type TestServer } from './harness';
import { approveSign, as, db, shanghai, task } from './send-helpers';

const NOT_CERTIFIED = '账户未通过资质认证，认证通过后才能发送短信';
const CONTENT = '您的账户余额已不足，为避免影响正常使用，请及时充值。';

/** n distinct valid US numbers (international) */
const usNumbers = (n: number) => Array.from({ length: n }, (_, i) => `1212${String(2_000_000 + i)}`);
/** n distinct domestic numbers over the three carriers */
const cnNumbers = (n: number, base = 0) =>
  Array.from(
    { length: n },
    (_, i) => `${['138', '186', '189'][i % 3]}${String(10_000_000 + base + i).padStart(8, '0')}`,
  );

const tasks = async (s: TestServer) =>
  Number((await sql<{ n: string }>`select count(*)::text as n from sms_tasks`.execute(db(s))).rows[0].n);
const reportOf = async (s: TestServer, clientid: string) =>
  (
    await sql<{ send: number; intercept: number }>`
      select coalesce(sum(r.send_num), 0)::int as send, coalesce(sum(r.intercept_num), 0)::int as intercept
      from report_rows r join accounts a on a.id = r.account_id where a.clientid = ${clientid}`.execute(db(s))
  ).rows[0];

describe.each(backends)('who may send, held chunks, bounded deferred work (%s)', (backend) => {
  const t = useServer(backend, { config: { deferredTimedMax: 30 } });
  const later = () => t.server.clock.advance(3100);
  // agent0 sends as itself with 云讯通: one of its approved signs (every send path checks)
  beforeAll(() => approveSign(t.server, 'agent0', '云讯通'));

  it('an account whose certification has not passed is refused on every send path, nothing written', async () => {
    const s = t.server;
    const tpl = (
      await db(s).selectFrom('templates').select('id').where('content', '=', CONTENT).executeTakeFirstOrThrow()
    ).id;
    for (const state of [1, 2, 4]) {
      await db(s)
        .updateTable('accounts')
        .set({ oauth_status: state, phone_inout_type: 2 })
        .where('clientid', '=', 'client1')
        .execute();
      const client1 = await as(s, 'client1');
      const before = await tasks(s);
      const at = shanghai(new Date(s.clock.now().getTime() + 30 * 60_000));
      const domestic = {
        clientId: 'client1',
        smstype: 0,
        templateId: tpl,
        sign: '好易购',
        content: CONTENT,
        mobile: '13800138000',
      };
      const answers = [
        await client1.post('/api/send/chargeInfo', domestic),
        await client1.post('/api/send/sending', domestic),
        await client1.post(
          '/api/send/sendTim',
          { jsmsAccessTimerSms: { ...domestic, mobilelist: domestic.mobile, sendtime: at }, isCheckAvailableCredit: 0 },
          { json: true },
        ),
        await client1.post('/api/send/chargeInfoVariable', { ...domestic, fileType: 0 }),
        await client1.post('/api/send/sendingVariable', { ...domestic, fileType: 0 }),
        await client1.post('/api/send/chargeInfoInternational', {
          content: 'Your code is 1234',
          smstype: 0,
          mobile: '12122000001',
        }),
        await client1.post('/api/send/sendingInternational', {
          content: 'Your code is 1234',
          smstype: 0,
          mobile: '12122000001',
        }),
        await client1.post(
          '/api/send/send_time_sms',
          { sendKind: 2, content: 'Your code is 1234', smstype: 0, mobilelist: '12122000001', sendtime: at },
          { json: true },
        ),
        await client1.post(
          '/api/send/send_time_sms',
          { sendKind: 1, ...domestic, mobilelist: domestic.mobile, sendtime: at, isCheckAvailableCredit: 0 },
          { json: true },
        ),
      ];
      for (const r of answers) {
        expect(r.status).toBe(200);
        expect(r.body.msg).toBe(NOT_CERTIFIED);
      }
      expect(await tasks(s)).toBe(before);
    }
    // an agent sending for its sub-account whose certification is pending (client3, demo data)
    const agent1 = await as(s, 'agent1');
    expect(
      (
        await agent1.post('/api/send/sending', {
          clientId: 'client3',
          smstype: 0,
          templateId: tpl,
          sign: '云讯通',
          content: CONTENT,
          mobile: '13800138000',
        })
      ).body.msg,
    ).toBe(NOT_CERTIFIED);
    // certified again: the same send goes through
    await db(s).updateTable('accounts').set({ oauth_status: 3 }).where('clientid', '=', 'client1').execute();
    await later();
    const ok = await (
      await as(s, 'client1')
    ).post('/api/send/sendingInternational', { content: 'Your code is 1234', smstype: 0, mobile: '12122000001' });
    expect(ok.body.code).toBe(0);
  });

  it('an intercepted large send keeps the numbers past the first 10,000 as held chunks, counted by the reports, written only when read', async () => {
    const s = t.server;
    await db(s).updateTable('accounts').set({ phone_inout_type: 2 }).where('clientid', '=', 'agent0').execute();
    const agent0 = await as(s, 'agent0');
    const n = INLINE_ROWS + 12_345;
    const before = await reportOf(s, 'agent0');
    await later();
    const r = await agent0.post('/api/send/sendingInternational', {
      clientId: 'agent0',
      content: '网络赌博 bonus',
      smstype: 0,
      mobile: usNumbers(n).join(','),
    });
    expect(r.body).toMatchObject({
      code: 0,
      msg: '短信内容包含敏感词，已拦截',
      data: { submitTotal: n, chargeNum: 0, amount: '0.00' },
    });
    const tk = await task(s, r.body.data.taskId);
    expect(tk).toMatchObject({ status: 3, intercept_num: n, charge_num_total: 0 });
    const rows = async () =>
      Number(
        (await sql<{ n: string }>`select count(*)::text as n from sms_messages where task_id = ${tk.id}`.execute(db(s)))
          .rows[0].n,
      );
    expect(await rows()).toBe(INLINE_ROWS);
    const chunks = await db(s)
      .selectFrom('sms_task_chunks')
      .select(['hold', 'state', 'rows'])
      .where('task_id', '=', tk.id)
      .execute();
    expect(chunks.length).toBe(2);
    expect(chunks.every((c) => c.hold && c.state === 11)).toBe(true);
    // the workers never write them
    while ((await expandNextChunk(db(s))) > 0);
    expect(await rows()).toBe(INLINE_ROWS);
    // the reports count every number already
    const mid = await reportOf(s, 'agent0');
    expect([mid.send - before.send, mid.intercept - before.intercept]).toEqual([n, n]);
    // someone reads the task's numbers: they are written, counted once
    const list = await agent0.post('/api/send/getAllPhone/list', { uid: tk.uid, page: 1, rows: 10 });
    expect(list.body.code).toBe(0);
    expect(await rows()).toBe(n);
    expect(await db(s).selectFrom('sms_task_chunks').select('seq').where('task_id', '=', tk.id).execute()).toEqual([]);
    const after = await reportOf(s, 'agent0');
    expect([after.send - before.send, after.intercept - before.intercept]).toEqual([n, n]);
    const states = await sql<{
      state: number;
      done: boolean;
      n: string;
    }>`select state, done_at is not null as done, count(*)::text as n from sms_messages where task_id = ${tk.id} group by 1, 2`.execute(
      db(s),
    );
    expect(states.rows).toEqual([{ state: 11, done: true, n: String(n) }]);
  });

  it('uncharged timed work is bounded per account (DEFERRED_TIMED_MAX); a cancel makes room again', async () => {
    const s = t.server;
    const agent0 = await as(s, 'agent0');
    const tpl = (
      await db(s).selectFrom('templates').select('id').where('content', '=', CONTENT).executeTakeFirstOrThrow()
    ).id;
    const timed = (mobiles: string[]) =>
      agent0.post(
        '/api/send/sendTim',
        {
          jsmsAccessTimerSms: {
            clientid: 'agent0',
            smstype: 0,
            templateId: tpl,
            sign: '云讯通',
            content: CONTENT,
            mobilelist: mobiles.join(','),
            sendtime: shanghai(new Date(s.clock.now().getTime() + 3_600_000)),
          },
          isCheckAvailableCredit: 0,
        },
        { json: true },
      );
    await later();
    const first = await timed(cnNumbers(20));
    expect(first.body.code).toBe(0);
    expect((await task(s, first.body.data.taskId)).charge_state).toBe(0);
    await later();
    const second = await timed(cnNumbers(20, 100));
    expect(second.body).toMatchObject({ code: 403, msg: '未扣费的定时短信已达上限，请充值后选择校验余额再提交' });
    await later();
    expect((await timed(cnNumbers(10, 200))).body.code).toBe(0);
    // a charged timed send is not bounded by it
    await later();
    const charged = await agent0.post(
      '/api/send/sendTim',
      {
        jsmsAccessTimerSms: {
          clientid: 'agent0',
          smstype: 0,
          templateId: tpl,
          sign: '云讯通',
          content: CONTENT,
          mobilelist: cnNumbers(20, 300).join(','),
          sendtime: shanghai(new Date(s.clock.now().getTime() + 3_600_000)),
        },
      },
      { json: true },
    );
    expect(charged.body.code).toBe(0);
    // the first one cancelled: room for 20 again
    expect((await agent0.post('/api/send/undoSend', { uid: first.body.data.taskId })).body.code).toBe(0);
    await later();
    expect((await timed(cnNumbers(20, 400))).body.code).toBe(0);
  });

  it('a large accept stages its chunks before its transaction; a refused one leaves none, a dead one is purged', async () => {
    const s = t.server;
    const agent0 = await as(s, 'agent0');
    const tpl = (
      await db(s).selectFrom('templates').select('id').where('content', '=', CONTENT).executeTakeFirstOrThrow()
    ).id;
    const body = {
      clientId: 'agent0',
      smstype: 0,
      templateId: tpl,
      sign: '云讯通',
      content: CONTENT,
      mobile: cnNumbers(INLINE_ROWS + 5_000, 1_000).join(','),
    };
    await later();
    const ok = await agent0.post('/api/send/sending', body);
    expect(ok.body.code).toBe(0);
    const tk = await task(s, ok.body.data.taskId);
    expect(
      await db(s)
        .selectFrom('sms_task_chunks')
        .select(['hold', 'state', 'rows'])
        .where('task_id', '=', tk.id)
        .execute(),
    ).toEqual([{ hold: false, state: 0, rows: 5_000 }]);
    // within the 3 s submit lock: staged, then refused inside the transaction
    const refused = await agent0.post('/api/send/sending', body);
    expect(refused.body.msg).toBe('3秒内不可重复提交');
    expect(await db(s).selectFrom('sms_chunk_staging').select('token').execute()).toEqual([]);
    // a process that died between staging and its transaction: purged after a day
    await db(s)
      .insertInto('sms_chunk_staging')
      .values({
        token: 'dead',
        seq: 0,
        rows: 1,
        pieces_total: 1,
        payload: Buffer.from('x'),
        created_at: new Date(s.clock.now().getTime() - 3 * 86_400_000),
      })
      .execute();
    await purgeExpired(db(s), s.clock.now());
    expect(await db(s).selectFrom('sms_chunk_staging').select('token').execute()).toEqual([]);
  });

  it('a large task awaiting review is approved whole: its chunks are written first', async () => {
    const s = t.server;
    await db(s).updateTable('accounts').set({ needaudit: 2 }).where('clientid', '=', 'agent0').execute();
    try {
      const agent0 = await as(s, 'agent0');
      const tpl = (
        await db(s).selectFrom('templates').select('id').where('content', '=', CONTENT).executeTakeFirstOrThrow()
      ).id;
      const n = INLINE_ROWS + 3_000;
      await later();
      const r = await agent0.post('/api/send/sending', {
        clientId: 'agent0',
        smstype: 0,
        templateId: tpl,
        sign: '云讯通',
        content: CONTENT,
        mobile: cnNumbers(n, 50_000).join(','),
      });
      expect(r.body).toMatchObject({ code: 0, msg: '提交成功，等待审核' });
      const tk = await task(s, r.body.data.taskId);
      expect(
        await db(s).selectFrom('sms_task_chunks').select(['hold', 'state']).where('task_id', '=', tk.id).execute(),
      ).toEqual([{ hold: false, state: 7 }]);
      const res = await reviewTask({ db: db(s), now: () => s.clock.now() }, tk.uid, 'approve');
      expect(res.messages).toBe(n);
      const left = await sql<{
        n: string;
      }>`select count(*)::text as n from sms_messages where task_id = ${tk.id} and state = 7`.execute(db(s));
      expect(left.rows[0].n).toBe('0');
    } finally {
      await db(s).updateTable('accounts').set({ needaudit: 0 }).where('clientid', '=', 'agent0').execute();
    }
  });
});

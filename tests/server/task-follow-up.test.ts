/**
 * Task follow-up and delivery analytics (issue 27 item 10, item 11, "Task follow-up", "Delivery
 * analytics"; docs/api-records.md, docs/api-reports.md): resending a task's failed numbers goes
 * through the ordinary acceptance (a new task, charged from the pools, refusals as a send's); a
 * number's history and the task-number filter of the records stay within the caller's accounts;
 * reports reach today (live from the aggregates) with totals over every row and a success rate,
 * the agent's own sending included; the delivery analytics by day, carrier, province and reason.
 */
import { describe, expect, it } from 'vitest';
import { Dispatcher } from '../../server/modules/dispatch/dispatcher';
import { businessDay } from '../../server/modules/reports';
import { FakeLink } from '../fixtures/fake-smsc';
import { insertTask } from '../fixtures/sending';
import { backends, useServer, type Client } from './harness';
import { as, db, ledgerViolations, poolViolations, remaining, task, templateId } from './send-helpers';

const codeContent = (code = '123456') => `您的好易购登录验证码为${code}，5分钟内有效，请勿告诉他人。`;
const PHONES = [
  '13800138000',
  '13800138001',
  '13800138002',
  '13800138003',
  '18600186000',
  '18600186001',
  '18600186003',
  '18900189000',
  '18900189002',
  '18900189003',
];

describe.each(backends)('task follow-up (%s)', (backend) => {
  const t = useServer(backend);
  let client1: Client;
  let client3: Client;
  let agent1: Client;
  let agent0: Client;
  let codeTpl: number;
  let first = '';
  const send = async (c: Client, payload: Record<string, unknown>) => {
    t.server.clock.advance(3100);
    return c.post('/api/send/sending', payload);
  };
  const today = () => businessDay(t.server.clock.now());

  it('a task with failures: numbers ending in 3 refused by the carrier', async () => {
    t.server.clock.toNextBusinessMorning();
    [client1, client3, agent1, agent0] = await Promise.all(
      ['client1', 'client3', 'agent1', 'agent0'].map((w) => as(t.server, w)),
    );
    codeTpl = await templateId(t.server, '您的好易购登录验证码为');
    const a = await send(client1, {
      sign: '好易购',
      smstype: 4,
      templateId: codeTpl,
      content: codeContent(),
      mobile: PHONES.join(','),
    });
    expect(a.body.code).toBe(0);
    first = a.body.data.taskId;
    const link = new FakeLink((req) => (req.to.endsWith('3') ? 'reject' : 'accept'));
    const d = new Dispatcher(t.server.app.ctx, link, { maintenanceMs: 0, batchSize: 7 });
    while ((await d.dispatchOnce()) > 0);
    await link.flushReceipts();
    await d.applyOnce();
    expect((await task(t.server, first)).fail_num).toBe(3);
  });

  it('resends the failed numbers as a new task, through the ordinary acceptance and charge', async () => {
    const before = await remaining(t.server, 'client1');
    const tasksBefore = (await db(t.server).selectFrom('sms_tasks').select('id').execute()).length;
    t.server.clock.advance(3100);
    const r = await client1.post('/api/send/resendFailed', { id: first });
    expect(r.body).toMatchObject({ code: 0, msg: '提交成功', data: { submitTotal: 3, chargeNum: 3, smsNum: 1 } });
    const again = await task(t.server, r.body.data.taskId);
    expect(again.uid).not.toBe(first);
    expect(again).toMatchObject({
      content: (await task(t.server, first)).content,
      sign: '好易购',
      smstype: 4,
      submit_total: 3,
      charge_num_total: 3,
      charge_state: 1,
    });
    const phones = (
      await db(t.server)
        .selectFrom('sms_messages')
        .select('phone')
        .where('task_id', '=', again.id)
        .orderBy('phone')
        .execute()
    ).map((m) => m.phone);
    expect(phones).toEqual(PHONES.filter((p) => p.endsWith('3')).sort());
    // charged from the pools like any send, the ledger and pools consistent
    expect(await remaining(t.server, 'client1')).toBe(before - 3);
    expect(await poolViolations(t.server)).toEqual([]);
    expect(await ledgerViolations(t.server)).toEqual([]);
    expect((await db(t.server).selectFrom('sms_tasks').select('id').execute()).length).toBe(tasksBefore + 1);
    // the agent may resend its sub-account's task (it may send for it)
    t.server.clock.advance(3100);
    expect((await agent1.post('/api/send/resendFailed', { id: first })).body.code).toBe(0);
  });

  it("refuses another account's task, a task without failures, and malformed numbers", async () => {
    const tasksBefore = (await db(t.server).selectFrom('sms_tasks').select('id').execute()).length;
    expect((await client3.post('/api/send/resendFailed', { id: first })).body).toMatchObject({
      code: 404,
      msg: '任务不存在',
    });
    expect((await agent0.post('/api/send/resendFailed', { id: first })).body).toMatchObject({
      code: 404,
      msg: '任务不存在',
    });
    t.server.clock.advance(3100);
    const ok = await send(client1, {
      sign: '好易购',
      smstype: 4,
      templateId: codeTpl,
      content: codeContent('222222'),
      mobile: '13800138000',
    });
    t.server.clock.advance(3100);
    expect((await client1.post('/api/send/resendFailed', { id: ok.body.data.taskId })).body.msg).toBe(
      '该任务没有失败的号码',
    );
    expect((await client1.post('/api/send/resendFailed', { id: 'x y' })).body.code).toBe(400);
    expect((await client1.post('/api/send/resendFailed', {})).body.code).toBe(400);
    // nothing but the one send above was accepted
    expect((await db(t.server).selectFrom('sms_tasks').select('id').execute()).length).toBe(tasksBefore + 1);
  });

  it('a refused charge refuses the resend (no bypass): an empty pool answers the send refusal', async () => {
    const c1 = (
      await db(t.server).selectFrom('accounts').select('id').where('clientid', '=', 'client1').executeTakeFirstOrThrow()
    ).id;
    const saved = await db(t.server)
      .selectFrom('product_pools')
      .select(['id', 'remaining'])
      .where('account_id', '=', c1)
      .execute();
    // emptied for this test only (no movement: restored exactly after)
    await db(t.server).updateTable('product_pools').set({ remaining: 0 }).where('account_id', '=', c1).execute();
    try {
      t.server.clock.advance(3100);
      const r = await client1.post('/api/send/resendFailed', { id: first });
      expect(r.body.code).not.toBe(0);
      expect(r.body.msg).toContain('不足');
    } finally {
      for (const p of saved)
        await db(t.server)
          .updateTable('product_pools')
          .set({ remaining: p.remaining })
          .where('id', '=', p.id)
          .execute();
    }
  });

  it("a number's history: its records across tasks, within the caller's accounts only; the task-number filter", async () => {
    const phone = '13800138003';
    const mine = await client1.post('/api/send/getrecords', { phone });
    expect(mine.body.code).toBe(0);
    const tasks = new Set(mine.body.data.list.map((r: { taskId: string }) => r.taskId));
    expect(tasks.size).toBeGreaterThanOrEqual(2);
    expect(tasks.has(first)).toBe(true);
    expect(
      mine.body.data.list.every(
        (r: { phone: string; clientid: string }) => r.phone === phone && r.clientid === 'client1',
      ),
    ).toBe(true);
    // another sub-account sees none of client1's; the other agent none either
    expect(
      (await client3.post('/api/send/getrecords', { phone })).body.data.list.filter(
        (r: { clientid: string }) => r.clientid === 'client1',
      ),
    ).toEqual([]);
    expect((await agent0.post('/api/send/getrecords', { phone })).body.data.list).toEqual([]);
    // the agent sees its sub-account's
    expect((await agent1.post('/api/send/getrecords', { phone })).body.data.list.length).toBe(
      mine.body.data.list.length,
    );

    const byTask = await client1.post('/api/send/getrecords', { taskId: first });
    expect(byTask.body.data.totalCount).toBe(10);
    expect(byTask.body.data.list.every((r: { taskId: string }) => r.taskId === first)).toBe(true);
    const failed = await client1.post('/api/send/getrecords', { taskId: first, stateList: '4,6' });
    expect(failed.body.data.totalCount).toBe(3);
    // another account's task number matches nothing (never its records)
    expect((await client3.post('/api/send/getrecords', { taskId: first })).body.data).toMatchObject({
      totalCount: 0,
      list: [],
    });
    expect((await client1.post('/api/send/getrecords', { taskId: 'bad task' })).body).toMatchObject({
      code: 400,
      msg: '任务编号格式不正确',
    });
    expect((await client1.post('/api/send/getrecords', { phone: '12a' })).body).toMatchObject({
      code: 400,
      msg: '手机号码格式不正确',
    });
  });

  it('reports reach today (live), with a totals row over every row and the success rate; the agent sees its own sending', async () => {
    const r = await client1.post('/api/client/report/consume/pretotal', {
      start_time_day: today(),
      end_time_day: today(),
      currentPage: 1,
      pageRowCount: 1,
    });
    expect(r.body.code).toBe(0);
    const totals = r.body.data.totals;
    // 10 + 3 + 3 + 1 messages accepted today
    expect(totals.send_num).toBe(17);
    expect(
      totals.success_num + totals.fail_num + totals.not_known_num + totals.wait_send_num + totals.intercept_num,
    ).toBe(17);
    expect(totals.fail_num).toBe(3);
    expect(totals.success_rate).toBe(Math.round((10_000 * totals.success_num) / 17) / 100);
    const rows = r.body.data.list;
    expect(rows[0].success_rate).toBe(
      rows[0].send_num ? Math.round((10_000 * rows[0].success_num) / rows[0].send_num) / 100 : 0,
    );
    // the default range ends today
    expect((await client1.post('/api/client/report/consume/pretotal', {})).body.data.end_time_day).toBe(today());
    const tomorrow = businessDay(new Date(t.server.clock.t + 86_400_000));
    expect((await client1.post('/api/client/report/consume/pretotal', { end_time_day: tomorrow })).body.msg).toBe(
      '报表只能查询到今天的数据',
    );

    // the agent's own send is in its report (and its clientid may be picked)
    await insertTask(db(t.server), {
      account: 'agent1',
      createdAt: t.server.clock.now(),
      messages: [
        { phone: '13800138000', state: 3 },
        { phone: '13800138001', state: 6, errorCode: 'UNDELIV' },
      ],
    });
    const all = await agent1.post('/api/client/report/consume/pretotal', {
      start_time_day: today(),
      end_time_day: today(),
    });
    expect(all.body.data.list.some((x: { clientid: string }) => x.clientid === 'agent1')).toBe(true);
    expect(all.body.data.totals.send_num).toBe(
      all.body.data.list.reduce((s: number, x: { send_num: number }) => s + x.send_num, 0),
    );
    const self = await agent1.post('/api/client/report/consume/pretotal', {
      start_time_day: today(),
      end_time_day: today(),
      customerInfo: 'agent1',
    });
    expect(self.body.data.list.map((x: { clientid: string }) => x.clientid)).toEqual(['agent1']);
    expect((await agent1.get('/api/client/consume/user')).body.data[0].clientid).toBe('agent1');
  });

  it('delivery analytics: per day, carrier, province and failure reason, scoped', async () => {
    const r = await client1.get('/api/client/report/delivery?days=7');
    expect(r.body.code, JSON.stringify(r.body)).toBe(0);
    const d = r.body.data;
    expect(d).toMatchObject({ days: 7, end: today() });
    expect(d.byDay).toHaveLength(7);
    expect(d.byDay[6].day).toBe(today());
    expect(d.byDay[6].submit).toBe(17);
    expect(d.total.submit).toBe(d.byDay.reduce((s: number, x: { submit: number }) => s + x.submit, 0));
    // carriers and provinces add up to what was accepted in the window (the demo's rows included)
    const sum = (xs: { submit: number }[]) => xs.reduce((s, x) => s + x.submit, 0);
    expect(sum(d.byCarrier)).toBe(sum(d.byProvince));
    const mobile = d.byCarrier.find((c: { carrier: number }) => c.carrier === 1);
    expect(mobile.submit).toBeGreaterThanOrEqual(8);
    expect(mobile.successRate).toBe(Math.round((10_000 * mobile.success) / mobile.submit) / 100);
    expect(d.reasons.reduce((s: number, x: { count: number }) => s + x.count, 0)).toBe(
      d.byCarrier.reduce((s: number, x: { fail: number }) => s + x.fail, 0),
    );
    expect(d.reasons.length).toBeGreaterThan(0);
    expect((await client1.get('/api/client/report/delivery?days=30')).body.data.byDay).toHaveLength(30);
    expect((await client1.get('/api/client/report/delivery?days=9')).body.code).toBe(400);
    // the agent: its own and its sub-accounts'; another agent's sub-account is refused
    const ag = (await agent1.get('/api/client/report/delivery')).body.data;
    expect(ag.byDay[6].submit).toBeGreaterThanOrEqual(19);
    expect((await agent0.get('/api/client/report/delivery?clientid=client1')).body.code).toBe(403);
    expect((await client3.get('/api/client/report/delivery')).body.data.byDay[6].submit).toBe(0);
  });
});

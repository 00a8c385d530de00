/**
 * Timed sends (time rules, the 403 credit flow, firing on time, cancel, re-edit), sensitive-word
 * intercept and review (CLI approve / reject), on both databases.
 */
import { describe, expect, it } from 'vitest';
import { backends, useServer, type Client } from './harness';
import {
  accountId,
  as,
  balance,
  cli,
  db,
  ledgerViolations,
  messages,
  poolViolations,
  remaining,
  shanghai,
  task,
  templateId,
} from './send-helpers';
import { fireDueTimedTasks } from '../../server/modules/send/timer';

const codeContent = (code = '123456') => `您的好易购登录验证码为${code}，5分钟内有效，请勿告诉他人。`;
const shipContent = (goods: string) => `您在好易购购买的${goods}已发货，快递单号SF001，请留意查收。`;
const MARKETING_FIXED = '双十一狂欢节，全场商品满300减50，活动仅限3天，回T退订。';
const MIN = 60_000;

describe.each(backends)('timed sends, intercept and review (%s)', (backend) => {
  const t = useServer(backend);
  let client1: Client;
  let agent1: Client;
  let client0: Client;
  let agent0: Client;
  let codeTpl: number;
  let shipTpl: number;
  let mktTpl: number;
  const at = (ms: number) => shanghai(new Date(t.server.clock.t + ms));
  const fire = () => fireDueTimedTasks({ db: t.server.handle.db, now: t.server.clock.now }, 10);

  const timed = async (c: Client, sms: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    t.server.clock.advance(3100);
    return c.post(
      '/api/send/sendTim',
      {
        jsmsAccessTimerSms: {
          sign: '好易购',
          smstype: 4,
          templateId: codeTpl,
          content: codeContent(),
          mobilelist: '13800138000,18600186000,18900189000',
          sendtime: at(30 * MIN),
          ...sms,
        },
        ...extra,
      },
      { json: true },
    );
  };
  const send = async (c: Client, payload: Record<string, unknown>) => {
    t.server.clock.advance(3100);
    return c.post('/api/send/sending', payload);
  };

  it('logs in', async () => {
    client1 = await as(t.server, 'client1');
    agent1 = await as(t.server, 'agent1');
    client0 = await as(t.server, 'client0');
    agent0 = await as(t.server, 'agent0');
    codeTpl = await templateId(t.server, '您的好易购登录验证码为');
    shipTpl = await templateId(t.server, '您在好易购购买的');
    mktTpl = await templateId(t.server, MARKETING_FIXED);
  });

  it('checks the time: at least 5 minutes ahead, at most the end of next year', async () => {
    expect((await client1.post('/api/send/checkSubmitTime', { submitTime: at(4 * MIN) })).body.msg).toBe(
      '定时发送时间必须在当前时间5分钟之后',
    );
    expect((await client1.post('/api/send/checkSubmitTime', { submitTime: at(6 * MIN) })).body.code).toBe(0);
    const year = Number(shanghai(new Date(t.server.clock.t)).slice(0, 4));
    expect(
      (await client1.post('/api/send/checkSubmitTime', { submitTime: `${year + 1}-12-31 23:59:59` })).body.code,
    ).toBe(0);
    expect(
      (await client1.post('/api/send/checkSubmitTime', { submitTime: `${year + 2}-01-01 00:00:00` })).body.msg,
    ).toBe('定时发送时间不能超过明年年底');
    expect((await client1.post('/api/send/checkSubmitTime', { submitTime: '2026-02-30 10:00:00' })).body.msg).toBe(
      '发送时间格式不正确',
    );
    expect((await client1.post('/api/send/checkSubmitTime', { submitTime: 'tomorrow' })).body.msg).toBe(
      '发送时间格式不正确',
    );
    expect((await timed(client1, { sendtime: at(MIN) })).body.msg).toBe('定时发送时间必须在当前时间5分钟之后');
    expect((await timed(client1, { sendtime: `${year + 2}-01-01 00:00:00` })).body.msg).toBe(
      '定时发送时间不能超过明年年底',
    );
    expect((await timed(client1, { sendtime: undefined })).body.msg).toBe('发送时间格式不正确');
    expect((await timed(client1, { sign: 'x' })).body.msg).toBe('签名长度为2-12之间');
    expect((await timed(client1, { sign: '易购优选' })).body.msg).toBe('签名未报备或未审核通过');
    expect(
      (await client1.post('/api/send/sendTim', { jsmsAccessTimerSms: 'nope' }, { json: true })).body.code,
    ).not.toBe(0);
  });

  it('a timed send is charged at once, waits unclaimable, fires at its time', async () => {
    const pools = await remaining(t.server, 'client1', 3);
    const r = await timed(client1, {});
    expect(r.body).toMatchObject({ code: 0, msg: '提交成功', data: { chargeNum: 3 } });
    const uid = r.body.data.taskId;
    expect(await task(t.server, uid)).toMatchObject({ status: 1, send_type: 1, charge_state: 1, charge_num_total: 3 });
    expect(await remaining(t.server, 'client1', 3)).toBe(pools - 3);
    expect((await messages(t.server, uid)).every((m) => m.state === 0 && m.next_at === null)).toBe(true);
    const before = await db(t.server)
      .selectFrom('sms_tasks')
      .select('id')
      .where('status', '=', 1)
      .where('send_time', '<=', t.server.clock.now())
      .execute();
    expect(before).toEqual([]);
    expect(await fire()).toBe(0);
    t.server.clock.advance(31 * MIN);
    expect(await fire()).toBeGreaterThanOrEqual(1);
    expect((await task(t.server, uid)).status).toBe(0);
    expect((await messages(t.server, uid)).every((m) => m.next_at!.getTime() === t.server.clock.t)).toBe(true);
    expect(await fire()).toBe(0);
  });

  it('timers running together fire each due task exactly once', async () => {
    const uids: string[] = [];
    for (const who of [client1, agent1, client1])
      uids.push((await timed(who, who === agent1 ? { clientid: 'client1' } : {})).body.data.taskId);
    t.server.clock.advance(31 * MIN);
    const fired = await Promise.all([fire(), fire(), fire()]);
    expect(fired.reduce((a, b) => a + b, 0)).toBe(3);
    for (const uid of uids) expect((await task(t.server, uid)).status).toBe(0);
  });

  it('credit check fails: code 403 and msg; resent with isCheckAvailableCredit 0 it is accepted uncharged; billing fails when it fires (14)', async () => {
    await db(t.server)
      .updateTable('accounts')
      .set({ unified_price: '500.0000' })
      .where('clientid', '=', 'client0')
      .execute();
    const bal = await balance(t.server, 'client0');
    const sms = {
      sign: '云讯通',
      smstype: 5,
      templateId: mktTpl,
      content: MARKETING_FIXED,
      mobilelist: '13800138000,18600186000',
    };
    const r = await timed(client0, sms);
    expect(r.body).toMatchObject({ code: 403, msg: `账户余额不足，无法发送（本次需 1000.00 元，当前余额 ${bal} 元）` });
    const ok = await timed(client0, sms, { isCheckAvailableCredit: 0 });
    expect(ok.body.code).toBe(0);
    const uid = ok.body.data.taskId;
    expect(await task(t.server, uid)).toMatchObject({
      status: 1,
      charge_state: 0,
      amount: '0.00',
      charge_num_total: 2,
    });
    expect(await balance(t.server, 'client0')).toBe(bal);
    t.server.clock.advance(31 * MIN);
    await fire();
    expect(await task(t.server, uid)).toMatchObject({
      status: 3,
      charge_state: 2,
      fail_num: 2,
      amount: '0.00',
      refunded_amount: '0.00',
    });
    expect((await messages(t.server, uid)).map((m) => m.state)).toEqual([14, 14]);
    expect(await balance(t.server, 'client0')).toBe(bal);
    // with enough money, a deferred task is charged when it fires
    await db(t.server)
      .updateTable('accounts')
      .set({ unified_price: '0.0450' })
      .where('clientid', '=', 'client0')
      .execute();
    const d = await timed(client0, sms, { isCheckAvailableCredit: 0 });
    t.server.clock.advance(31 * MIN);
    await fire();
    expect(await task(t.server, d.body.data.taskId)).toMatchObject({
      status: 0,
      charge_state: 1,
      amount: '0.09',
      cost: '0.0900',
    });
    expect(Number(await balance(t.server, 'client0'))).toBeCloseTo(Number(bal) - 0.09, 6);
    expect(await ledgerViolations(t.server)).toEqual([]);
  });

  it('undoSend before the time cancels, deletes the rows and refunds everything; after the time it is refused', async () => {
    const pools = await remaining(t.server, 'client1');
    const r = await timed(client1, {});
    const uid = r.body.data.taskId;
    expect(await remaining(t.server, 'client1')).toBe(pools - 3);
    // another agent cannot reach it (a fresh session: the clock has moved past the idle limit)
    agent0 = await as(t.server, 'agent0');
    expect((await agent0.post('/api/send/undoSend', { uid })).body.msg).toBe('任务不存在');
    const u = await agent1.post('/api/send/undoSend', { uid, submitTime: at(30 * MIN) });
    expect(u.body).toMatchObject({ code: 0, msg: '取消成功，已退还费用' });
    expect(await task(t.server, uid)).toMatchObject({ status: 4, refunded_pieces: 3 });
    expect(await messages(t.server, uid)).toEqual([]);
    expect(await remaining(t.server, 'client1')).toBe(pools);
    expect((await client1.post('/api/send/undoSend', { uid })).body.msg).toBe('任务已开始发送或已取消，无法操作');
    // money: client0 gets all of it back
    const bal = await balance(t.server, 'client0');
    const m = await timed(client0, {
      sign: '云讯通',
      smstype: 5,
      templateId: mktTpl,
      content: MARKETING_FIXED,
      mobilelist: '13800138000,18600186000,18900189000',
    });
    expect(m.body.data.amount).toBe('0.14');
    await client0.post('/api/send/undoSend', { uid: m.body.data.taskId });
    expect(await balance(t.server, 'client0')).toBe(bal);
    // at its time (before the timer ran) it can no longer be cancelled
    const late = await timed(client1, {});
    t.server.clock.advance(31 * MIN);
    expect((await client1.post('/api/send/undoSend', { uid: late.body.data.taskId })).body.msg).toBe(
      '已到发送时间，无法取消',
    );
    await fire();
    expect(await poolViolations(t.server)).toEqual([]);
    expect(await ledgerViolations(t.server)).toEqual([]);
  });

  it('re-edit: /send/edit returns the task, sendTim with taskId replaces it in one step', async () => {
    const pools = await remaining(t.server, 'client1');
    const r = await timed(agent1, { clientid: 'client1', mobilelist: '13800138000,18600186000' });
    const uid = r.body.data.taskId;
    const e = await agent1.post('/api/send/edit', { taskID: uid });
    expect(e.body.data).toMatchObject({
      clientId: 'client1',
      content: codeContent(),
      sign: '好易购',
      smstype: 4,
      templateId: codeTpl,
      mobile: '13800138000,18600186000',
      taskId: uid,
    });
    agent0 = await as(t.server, 'agent0');
    expect((await agent0.post('/api/send/edit', { taskID: uid })).body.msg).toBe('任务不存在');
    const n = await timed(
      agent1,
      { clientid: 'client1', mobilelist: e.body.data.mobile + ',18900189000', sendtime: at(60 * MIN) },
      { taskId: uid },
    );
    expect(n.body.code).toBe(0);
    expect((await task(t.server, uid)).status).toBe(4);
    expect(await task(t.server, n.body.data.taskId)).toMatchObject({ status: 1, submit_total: 3 });
    expect(await remaining(t.server, 'client1')).toBe(pools - 3);
    // the replaced task is gone: replacing it again is refused and writes nothing
    const again = await timed(agent1, { clientid: 'client1' }, { taskId: uid });
    expect(again.body.msg).toBe('任务已开始发送或已取消，无法操作');
    expect(await remaining(t.server, 'client1')).toBe(pools - 3);
    expect((await agent1.post('/api/send/edit', { taskID: uid })).body.msg).toBe('任务已开始发送或已取消，无法操作');
  });

  it('sensitive words: accepted as intercepted (11), counted, never charged', async () => {
    const pools = await remaining(t.server, 'client1');
    const r = await send(client1, {
      sign: '好易购',
      smstype: 0,
      templateId: shipTpl,
      content: shipContent('刷单返利卡'),
      mobile: '13800138000,18600186000',
    });
    expect(r.body).toMatchObject({
      code: 0,
      msg: '短信内容包含敏感词，已拦截',
      data: { chargeNum: 0, amount: '0.00' },
    });
    expect(await task(t.server, r.body.data.taskId)).toMatchObject({
      status: 3,
      intercept_num: 2,
      charge_num_total: 0,
    });
    expect((await messages(t.server, r.body.data.taskId)).map((m) => [m.state, m.next_at])).toEqual([
      [11, null],
      [11, null],
    ]);
    expect(await remaining(t.server, 'client1')).toBe(pools);
  });

  it('review: needaudit holds messages (7), the CLI approves (queued) or rejects (9, refunded)', async () => {
    const c1 = await accountId(t.server, 'client1');
    await db(t.server).updateTable('accounts').set({ needaudit: 2 }).where('id', '=', c1).execute();
    try {
      const pools = await remaining(t.server, 'client1');
      const a = await send(client1, {
        sign: '好易购',
        smstype: 4,
        templateId: codeTpl,
        content: codeContent(),
        mobile: '13800138000,18600186000',
      });
      expect(a.body).toMatchObject({ code: 0, msg: '提交成功，等待审核' });
      const ua = a.body.data.taskId;
      expect(await task(t.server, ua)).toMatchObject({ status: 0, audit_num: 2 });
      expect((await messages(t.server, ua)).map((m) => [m.state, m.next_at])).toEqual([
        [7, null],
        [7, null],
      ]);
      expect((await cli(t.server, 'send', 'pending')).lines.join('\n')).toContain(ua);
      const ok = await cli(t.server, 'send', 'approve', ua);
      expect(ok).toMatchObject({ code: 0, lines: [`任务 ${ua} 审核通过：2 条短信进入发送队列`] });
      expect(
        (await messages(t.server, ua)).every((m) => m.state === 0 && m.next_at!.getTime() === t.server.clock.t),
      ).toBe(true);
      expect((await task(t.server, ua)).audit_num).toBe(0);
      expect((await cli(t.server, 'send', 'approve', ua)).code).toBe(1);

      const b = await send(client1, {
        sign: '好易购',
        smstype: 4,
        templateId: codeTpl,
        content: codeContent(),
        mobile: '13800138000,18600186000,18900189000',
      });
      const ub = b.body.data.taskId;
      expect(await remaining(t.server, 'client1')).toBe(pools - 5);
      const no = await cli(t.server, 'send', 'reject', ub, '内容', '不合规');
      expect(no.code).toBe(0);
      expect(await task(t.server, ub)).toMatchObject({
        status: 3,
        fail_num: 3,
        audit_num: 0,
        refundable_pieces: 3,
        refunded_pieces: 3,
      });
      expect((await messages(t.server, ub)).map((m) => m.state)).toEqual([9, 9, 9]);
      expect(await remaining(t.server, 'client1')).toBe(pools - 2);
      expect((await cli(t.server, 'send', 'reject', 'T0000')).lines).toContain('任务 T0000 不存在');
      expect((await cli(t.server, 'send', 'bogus')).code).toBe(2);

      // a timed task approved before its time stays unclaimable until it fires
      const c = await timed(client1, {});
      await cli(t.server, 'send', 'approve', c.body.data.taskId);
      expect((await messages(t.server, c.body.data.taskId)).every((m) => m.state === 0 && m.next_at === null)).toBe(
        true,
      );

      // needaudit 1: marketing only; 3: a sensitive word goes to review instead of being intercepted
      await db(t.server).updateTable('accounts').set({ needaudit: 1 }).where('id', '=', c1).execute();
      expect(
        (
          await send(client1, {
            sign: '好易购',
            smstype: 4,
            templateId: codeTpl,
            content: codeContent(),
            mobile: '13800138000',
          })
        ).body.msg,
      ).toBe('提交成功');
      expect(
        (
          await send(client1, {
            sign: '好易购商城',
            smstype: 5,
            templateId: mktTpl,
            content: MARKETING_FIXED,
            mobile: '13800138000',
          })
        ).body.msg,
      ).toBe('提交成功，等待审核');
      await db(t.server).updateTable('accounts').set({ needaudit: 3 }).where('id', '=', c1).execute();
      expect(
        (
          await send(client1, {
            sign: '好易购',
            smstype: 0,
            templateId: shipTpl,
            content: shipContent('耳机'),
            mobile: '13800138000',
          })
        ).body.msg,
      ).toBe('提交成功');
      expect(
        (
          await send(client1, {
            sign: '好易购',
            smstype: 0,
            templateId: shipTpl,
            content: shipContent('刷单卡'),
            mobile: '13800138000',
          })
        ).body.msg,
      ).toBe('提交成功，等待审核');
    } finally {
      await db(t.server).updateTable('accounts').set({ needaudit: 0 }).where('id', '=', c1).execute();
    }
    expect(await poolViolations(t.server)).toEqual([]);
    expect(await ledgerViolations(t.server)).toEqual([]);
  });
});

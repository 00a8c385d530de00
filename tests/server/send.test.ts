/**
 * Ordinary send: who may send for whom, every validation message, the charge (pools and money),
 * refunds and their rounding, the submit lock, the refusal that writes nothing. Timed sends,
 * review and intercept: send-timed.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { backends, useServer, type Client } from './harness';
import {
  accountId,
  approveSign,
  as,
  balance,
  counts,
  db,
  ledgerViolations,
  messages,
  numbers,
  poolViolations,
  remaining,
  task,
  templateId,
  upload,
} from './send-helpers';
import { allocatePools, settleRefunds } from '../../server/modules/billing';
import { fillsTemplate } from '../../server/modules/send/service';
import ExcelJS from 'exceljs';
import type { ProductType } from '../../common/generated/schemas';

const CODE_TPL = '您的好易购登录验证码为';
const codeContent = (code = '123456') => `您的好易购登录验证码为${code}，5分钟内有效，请勿告诉他人。`;
const SHIP_TPL = '您在好易购购买的';
const MARKETING_FIXED = '双十一狂欢节，全场商品满300减50，活动仅限3天，回T退订。';

describe('fillsTemplate', () => {
  it('matches variables with at least one character, linear in the content', () => {
    expect(fillsTemplate('验证码{code}，有效', '验证码123，有效')).toBe(true);
    expect(fillsTemplate('验证码{code}，有效', '验证码，有效')).toBe(false);
    expect(fillsTemplate('{a}和{b}', 'x和y')).toBe(true);
    expect(fillsTemplate('{a}和{b}', '和y')).toBe(false);
    expect(fillsTemplate('{a}和{b}', 'x和')).toBe(false);
    expect(fillsTemplate('A{x}B{y}C', 'A1B2B3C')).toBe(true);
    expect(fillsTemplate('固定内容', '固定内容')).toBe(true);
    expect(fillsTemplate('固定内容', '固定内容!')).toBe(false);
  });
});

describe('allocatePools', () => {
  const day = (n: number) => new Date(Date.UTC(2027, 0, n));
  const pool = (id: number, product_type: ProductType, operator_code: number, remaining: number, due: number) => ({
    id,
    product_type,
    operator_code,
    remaining,
    due_time: day(due),
  });

  it('takes the carrier’s own pools first, then 全网; preferred product type, then earliest due', () => {
    const pools = [
      pool(1, 0, 0, 100, 1),
      pool(2, 3, 0, 5, 20),
      pool(3, 3, 1, 3, 30),
      pool(4, 3, 2, 10, 2),
      pool(5, 1, 0, 999, 1),
    ];
    // 验证码: type 3 before 0; 移动 needs 6: its own pool 3 (3), then 全网 type 3 (pool 2: 3)
    const a = allocatePools(pools, 4, { 1: 6, 2: 4, 3: 4 })!;
    expect(a.get(1)).toEqual([
      [3, 3],
      [2, 3],
    ]);
    expect(a.get(2)).toEqual([[4, 4]]);
    // 电信: what is left of pool 2 (2), then the 行业 全网 pool
    expect(a.get(3)).toEqual([
      [2, 2],
      [1, 2],
    ]);
    // 营销 only from type 1
    expect(allocatePools(pools, 5, { 1: 1, 2: 0, 3: 0 })!.get(1)).toEqual([[5, 1]]);
    expect(allocatePools(pools, 0, { 1: 101, 2: 0, 3: 0 })).toBeNull();
  });
});

describe.each(backends)('send (%s)', (backend) => {
  const t = useServer(backend);
  let client1: Client;
  let agent1: Client;
  let client0: Client;
  let agent0: Client;
  let codeTpl: number;
  let shipTpl: number;
  let mktTpl: number;

  /** posts a send after the submit lock of the previous one has passed */
  const send = async (c: Client, payload: Record<string, unknown>) => {
    t.server.clock.advance(3100);
    return c.post('/api/send/sending', payload);
  };
  const codeSend = (extra: Record<string, unknown> = {}) => ({
    sign: '好易购',
    smstype: 4,
    templateId: codeTpl,
    content: codeContent(),
    mobile: '13800138000,18600186000,18900189000',
    ...extra,
  });

  it('logs in and finds the seeded templates', async () => {
    client1 = await as(t.server, 'client1');
    agent1 = await as(t.server, 'agent1');
    client0 = await as(t.server, 'client0');
    agent0 = await as(t.server, 'agent0');
    codeTpl = await templateId(t.server, CODE_TPL);
    shipTpl = await templateId(t.server, SHIP_TPL);
    mktTpl = await templateId(t.server, MARKETING_FIXED);
  });

  it('seeds pools and a demo history that balances and covers every record state', async () => {
    expect(await poolViolations(t.server)).toEqual([]);
    expect(await ledgerViolations(t.server)).toEqual([]);
    const c1 = await accountId(t.server, 'client1');
    const states = await db(t.server)
      .selectFrom('sms_messages')
      .select('state')
      .distinct()
      .where('account_id', '=', c1)
      .execute();
    expect(states.map((s) => s.state).sort((a, b) => a - b)).toEqual([0, 1, 3, 4, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16]);
    const tasks = await db(t.server)
      .selectFrom('sms_tasks')
      .select(['status', 'refundable_pieces', 'refunded_pieces', 'charge_num_total'])
      .where('account_id', '=', c1)
      .execute();
    expect(new Set(tasks.map((x) => x.status))).toEqual(new Set([0, 1, 3]));
    for (const x of tasks) expect(x.refunded_pieces).toBe(x.refundable_pieces);
    const mo = await db(t.server).selectFrom('sms_mo').select('id').where('account_id', '=', c1).execute();
    expect(mo.length).toBeGreaterThanOrEqual(3);
    const soon = await db(t.server)
      .selectFrom('product_pools')
      .select('due_time')
      .where('account_id', '=', c1)
      .where('product_type', '=', 0)
      .where('gift', '=', 0)
      .executeTakeFirstOrThrow();
    expect(soon.due_time.getTime() - Date.now()).toBeLessThan(7 * 86_400_000);
  });

  it('lists the SMS types of an account', async () => {
    const r = await client1.post('/api/send/getsmstypes', {});
    expect(r.body.data.map((x: any) => [x.value, x.label])).toEqual([
      [0, '通知'],
      [4, '验证码'],
      [5, '营销'],
    ]);
    expect((await client0.post('/api/send/getsmstypes', {})).body.data.map((x: any) => x.value)).toEqual([5]);
    expect((await agent1.post('/api/send/getsmstypes', { clientid: 'client0' })).body.msg).toBe(
      '子账户不存在或不属于当前账户',
    );
  });

  it('previews the charge: pieces, total, remaining pieces or amount and balance', async () => {
    const r = await client1.post('/api/send/chargeInfo', {
      content: `【好易购】${codeContent()}`,
      sign: '好易购',
      mobile: '13800138000,13800138000,18600186000,123',
      smstype: 4,
    });
    expect(r.body.data).toMatchObject({
      smsNum: 1,
      chargeNum: 2,
      submitTotal: 2,
      chargeMode: 1,
      remainPieces: (await remaining(t.server, 'client1', 3)) + (await remaining(t.server, 'client1', 0)),
    });
    const m = await client0.post('/api/send/chargeInfo', {
      content: MARKETING_FIXED,
      sign: '云讯通',
      mobile: '13800138000,18600186000,18900189000',
    });
    expect(m.body.data).toMatchObject({ smsNum: 1, chargeNum: 3, chargeMode: 0, amount: '0.14', balance: '800.00' });
  });

  it('a sub-account sends: one message per distinct valid number, charged from its pools', async () => {
    const before = { code: await remaining(t.server, 'client1', 3), any: await remaining(t.server, 'client1') };
    const r = await send(
      client1,
      codeSend({
        content: `【好易购】${codeContent()}`,
        mobile: '13800138000,13800138000；18600186000 18900189000,1234,19212345678',
      }),
    );
    expect(r.body).toMatchObject({ code: 0, msg: '提交成功', data: { smsNum: 1, chargeNum: 4, submitTotal: 4 } });
    const tk = await task(t.server, r.body.data.taskId);
    expect(tk).toMatchObject({
      submit_total: 4,
      err_num: 1,
      repeat_num: 1,
      status: 0,
      send_type: 0,
      charge_mode: 1,
      charge_num_total: 4,
      content: `【好易购】${codeContent()}`,
      sign: '好易购',
      creator_name: 'client1',
    });
    const msgs = await messages(t.server, r.body.data.taskId);
    expect(msgs.map((m) => [m.phone, m.carrier, m.state])).toEqual([
      ['13800138000', 1, 0],
      ['18600186000', 2, 0],
      ['18900189000', 3, 0],
      ['19212345678', 1, 0],
    ]);
    expect(msgs.every((m) => m.next_at!.getTime() === t.server.clock.t)).toBe(true);
    expect(msgs[0].province_id).toBeGreaterThan(0);
    // 验证码 draws from the 验证码 pool (product type 3) first
    expect(await remaining(t.server, 'client1', 3)).toBe(before.code - 4);
    expect(await remaining(t.server, 'client1')).toBe(before.any - 4);
    expect(await poolViolations(t.server)).toEqual([]);
    const moves = await db(t.server)
      .selectFrom('pool_movements')
      .select(['kind', 'carrier', 'pieces'])
      .where('task_id', '=', tk.id)
      .orderBy('carrier')
      .execute();
    expect(moves).toEqual([
      { kind: 1, carrier: 1, pieces: -2 },
      { kind: 1, carrier: 2, pieces: -1 },
      { kind: 1, carrier: 3, pieces: -1 },
    ]);
  });

  it('an agent sends for its own sub-account; never for another agent’s; a sub-account always as itself', async () => {
    const r = await send(agent1, codeSend({ clientId: 'client1' }));
    expect(r.body.code).toBe(0);
    const tk = await task(t.server, r.body.data.taskId);
    expect(tk.account_id).toBe(await accountId(t.server, 'client1'));
    expect(tk.creator_id).toBe(await accountId(t.server, 'agent1'));
    expect((await send(agent1, codeSend({ clientId: 'client0' }))).body).toMatchObject({
      code: 400,
      msg: '子账户不存在或不属于当前账户',
    });
    expect((await send(agent1, codeSend({ clientId: '' }))).body.msg).toBe('请选择子账号');
    expect((await send(agent1, codeSend({}))).body.msg).toBe('请选择子账号');
    const own = await send(client1, codeSend({ clientId: 'client0' }));
    expect((await task(t.server, own.body.data.taskId)).account_id).toBe(await accountId(t.server, 'client1'));
    // client0's template is not client1's: agent0 cannot send with client1's template
    expect((await send(agent0, { ...codeSend(), clientId: 'client0', smstype: 5 })).body.msg).toBe(
      '模板不存在或未审核通过',
    );
  });

  it('answers every validation message', async () => {
    const before = await counts(t.server);
    const cases: [Record<string, unknown>, string][] = [
      [{ sign: undefined }, '签名长度为2-12之间'],
      [{ sign: '好' }, '签名长度为2-12之间'],
      [{ sign: '好易购好易购好易购好易购好' }, '签名长度为2-12之间'],
      [{ content: '' }, '短信内容不能为空'],
      [{ content: '   ' }, '短信内容不能为空'],
      [{ content: '【好易购】' }, '短信内容不能为空'],
      [{ mobile: '' }, '号码池不能为空'],
      [{ mobile: '123,456' }, '号码池不能为空'],
      [{ mobile: numbers(60001).join(',') }, '号码不能大于60000个'],
      [{ smstype: undefined }, '短信类型不能为空'],
      [{ smstype: 99 }, '参数错误'],
      [{ templateId: undefined }, '请选择模板'],
      [{ templateId: 'x' }, '请选择模板'],
      [{ content: codeContent('').replace('为，', '为，') }, '短信内容与模板不一致，请勿修改模板内容'],
      [{ content: '您的验证码是123456' }, '短信内容与模板不一致，请勿修改模板内容'],
      [{ smstype: 0 }, '短信类型与模板不一致'],
      [{ smstype: 5 }, '短信类型与模板不一致'],
      [{ templateId: 999999 }, '模板不存在或未审核通过'],
      [{ content: codeContent('1'.repeat(470)) }, '短信内容不能超过500个字符'],
      // only the account's approved signs: rejected (易购优选), awaiting review (苏州好易购), another account's (云讯通 is client0's), unknown
      [{ sign: '易购优选' }, '签名未报备或未审核通过'],
      [{ sign: '苏州好易购' }, '签名未报备或未审核通过'],
      [{ sign: '云讯通' }, '签名未报备或未审核通过'],
      [{ sign: '不存在的签名' }, '签名未报备或未审核通过'],
    ];
    for (const [patch, msg] of cases) {
      const r = await send(client1, codeSend(patch));
      expect([JSON.stringify(patch).slice(0, 60), r.body.msg]).toEqual([JSON.stringify(patch).slice(0, 60), msg]);
      expect(r.body.code).not.toBe(0);
    }
    // a template of client1 still awaiting review
    const pending = (
      await db(t.server)
        .selectFrom('templates')
        .select('id')
        .where('state', '=', 0)
        .where('owner_id', '=', await accountId(t.server, 'client1'))
        .executeTakeFirstOrThrow()
    ).id;
    expect((await send(client1, codeSend({ templateId: pending }))).body.msg).toBe('模板不存在或未审核通过');
    // a fixed template must not be changed
    expect(
      (
        await send(client0, {
          sign: '云讯通',
          smstype: 5,
          templateId: mktTpl,
          content: `${MARKETING_FIXED}!`,
          mobile: '13800138000',
        })
      ).body.msg,
    ).toBe('短信内容与模板不一致，请勿修改模板内容');
    // phone_inout_type 1: international only
    await db(t.server).updateTable('accounts').set({ phone_inout_type: 1 }).where('clientid', '=', 'client0').execute();
    expect(
      (
        await send(client0, {
          sign: '云讯通',
          smstype: 5,
          templateId: mktTpl,
          content: MARKETING_FIXED,
          mobile: '13800138000',
        })
      ).body.msg,
    ).toBe('该账户未开通国内短信发送');
    await db(t.server).updateTable('accounts').set({ phone_inout_type: 0 }).where('clientid', '=', 'client0').execute();
    // a frozen sub-account
    expect((await send(agent1, codeSend({ clientId: 'client2' }))).body.msg).toBe('账户状态异常，无法发送');
    expect(await counts(t.server)).toEqual(before);
  });

  it('charges by amount: the cent-ceiling of the exact cost; refunds keep the net at the ceiling of what was kept', async () => {
    const before = await balance(t.server, 'client0');
    const r = await send(client0, {
      sign: '云讯通',
      smstype: 5,
      templateId: mktTpl,
      content: MARKETING_FIXED,
      mobile: '13800138000,18600186000,18900189000',
    });
    expect(r.body).toMatchObject({ code: 0, data: { amount: '0.14', chargeNum: 3 } });
    const tk = await task(t.server, r.body.data.taskId);
    expect(tk).toMatchObject({ amount: '0.14', cost: '0.1350', charge_mode: 0 });
    expect(Number(await balance(t.server, 'client0'))).toBeCloseTo(Number(before) - 0.14, 6);
    const c0 = await accountId(t.server, 'client0');
    const led = await db(t.server)
      .selectFrom('ledger')
      .select(['kind', 'amount'])
      .where('account_id', '=', c0)
      .orderBy('id', 'desc')
      .limit(1)
      .execute();
    expect(led).toEqual([{ kind: 15, amount: '-0.14' }]);
    // dispatch fails one message: adds its cost, then settleRefunds
    const fail = async (n: number) => {
      await db(t.server)
        .transaction()
        .execute(async (trx) => {
          const ids = (
            await trx
              .selectFrom('sms_messages')
              .select('id')
              .where('task_id', '=', tk.id)
              .where('state', '=', 0)
              .orderBy('id')
              .limit(n)
              .execute()
          ).map((x) => x.id);
          await trx.updateTable('sms_messages').set({ state: 6 }).where('id', 'in', ids).execute();
          await trx
            .updateTable('sms_tasks')
            .set({
              refundable_cost: sql`refundable_cost + ${(0.045 * n).toFixed(4)}::numeric`,
              refundable_pieces: sql`refundable_pieces + ${n}`,
              fail_num: sql`fail_num + ${n}`,
            })
            .where('id', '=', tk.id)
            .execute();
          await settleRefunds(trx, { now: t.server.clock.now }, [tk.id]);
        });
    };
    await fail(1);
    // kept 2 × 0.045 = 0.09: net 0.09, returned 0.05
    expect((await task(t.server, tk.uid)).refunded_amount).toBe('0.05');
    await db(t.server)
      .transaction()
      .execute((trx) => settleRefunds(trx, { now: t.server.clock.now }, [tk.id, tk.id]));
    expect((await task(t.server, tk.uid)).refunded_amount).toBe('0.05');
    await fail(2);
    expect((await task(t.server, tk.uid)).refunded_amount).toBe('0.14');
    expect(await balance(t.server, 'client0')).toBe(before);
    const rows = await db(t.server)
      .selectFrom('ledger')
      .select(['kind', 'amount'])
      .where('account_id', '=', c0)
      .orderBy('id', 'desc')
      .limit(2)
      .execute();
    expect(rows).toEqual([
      { kind: 14, amount: '0.09' },
      { kind: 14, amount: '0.05' },
    ]);
    expect(await ledgerViolations(t.server)).toEqual([]);
  });

  it('an agent sends as itself from its own balance (15)', async () => {
    const content = '您的账户余额已不足，为避免影响正常使用，请及时充值。';
    const tpl = await templateId(t.server, content);
    const before = await balance(t.server, 'agent0');
    // an agent sends as itself with one of its own approved signs
    expect(
      (
        await send(agent0, {
          clientId: 'agent0',
          sign: '云讯通',
          smstype: 0,
          templateId: tpl,
          content,
          mobile: '13800138000',
        })
      ).body.msg,
    ).toBe('签名未报备或未审核通过');
    await approveSign(t.server, 'agent0', '云讯通');
    const r = await send(agent0, {
      clientId: 'agent0',
      sign: '云讯通',
      smstype: 0,
      templateId: tpl,
      content,
      mobile: '13800138000,18600186000',
    });
    expect(r.body).toMatchObject({ code: 0, data: { amount: '0.09', chargeNum: 2 } });
    const tk = await task(t.server, r.body.data.taskId);
    const a0 = await accountId(t.server, 'agent0');
    expect(tk).toMatchObject({ account_id: a0, payer_id: a0, agent_id: null });
    expect(Number(await balance(t.server, 'agent0'))).toBeCloseTo(Number(before) - 0.09, 6);
    expect(
      await db(t.server)
        .selectFrom('ledger')
        .select(['kind', 'amount'])
        .where('account_id', '=', a0)
        .orderBy('id', 'desc')
        .limit(1)
        .execute(),
    ).toEqual([{ kind: 15, amount: '-0.09' }]);
  });

  it('a postpaid sub-account is paid by its agent (6 / 8)', async () => {
    await db(t.server).updateTable('accounts').set({ paytype: 1 }).where('clientid', '=', 'client0').execute();
    try {
      const agentBefore = await balance(t.server, 'agent0');
      const subBefore = await balance(t.server, 'client0');
      const r = await send(agent0, {
        clientId: 'client0',
        sign: '云讯通',
        smstype: 5,
        templateId: mktTpl,
        content: MARKETING_FIXED,
        mobile: '13800138000',
      });
      expect(r.body).toMatchObject({ code: 0, data: { amount: '0.05' } });
      expect(await balance(t.server, 'client0')).toBe(subBefore);
      expect(Number(await balance(t.server, 'agent0'))).toBeCloseTo(Number(agentBefore) - 0.05, 6);
      const tk = await task(t.server, r.body.data.taskId);
      const a0 = await accountId(t.server, 'agent0');
      expect(tk.payer_id).toBe(a0);
      await db(t.server)
        .transaction()
        .execute(async (trx) => {
          await trx.updateTable('sms_messages').set({ state: 4 }).where('task_id', '=', tk.id).execute();
          await trx
            .updateTable('sms_tasks')
            .set({ refundable_cost: tk.cost, refundable_pieces: 1, fail_num: 1 })
            .where('id', '=', tk.id)
            .execute();
          await settleRefunds(trx, { now: t.server.clock.now }, [tk.id]);
        });
      const rows = await db(t.server)
        .selectFrom('ledger')
        .select(['kind', 'amount', 'counterpart_id'])
        .where('account_id', '=', a0)
        .orderBy('id', 'desc')
        .limit(2)
        .execute();
      expect(rows).toEqual([
        { kind: 8, amount: '0.05', counterpart_id: await accountId(t.server, 'client0') },
        { kind: 6, amount: '-0.05', counterpart_id: await accountId(t.server, 'client0') },
      ]);
      expect(await balance(t.server, 'agent0')).toBe(agentBefore);
    } finally {
      await db(t.server).updateTable('accounts').set({ paytype: 3 }).where('clientid', '=', 'client0').execute();
    }
  });

  it('not enough money or pieces: a clear refusal with the figures, nothing written', async () => {
    const before = await counts(t.server);
    await db(t.server)
      .updateTable('accounts')
      .set({ unified_price: '500.0000' })
      .where('clientid', '=', 'client0')
      .execute();
    const bal = await balance(t.server, 'client0');
    const r = await send(client0, {
      sign: '云讯通',
      smstype: 5,
      templateId: mktTpl,
      content: MARKETING_FIXED,
      mobile: '13800138000,18600186000',
    });
    expect(r.body.code).toBe(500);
    expect(r.body.msg).toBe(`账户余额不足，无法发送（本次需 1000.00 元，当前余额 ${bal} 元）`);
    await db(t.server)
      .updateTable('accounts')
      .set({ unified_price: '0.0450' })
      .where('clientid', '=', 'client0')
      .execute();
    const mkt = await remaining(t.server, 'client1', 1);
    const p = await send(client1, {
      sign: '好易购商城',
      smstype: 5,
      templateId: mktTpl,
      content: MARKETING_FIXED,
      mobile: numbers(mkt + 1).join(','),
    });
    expect(p.body.msg).toBe(`短信余量不足，无法发送（本次需 ${mkt + 1} 条，剩余 ${mkt} 条）`);
    expect(await counts(t.server)).toEqual(before);
    expect(await remaining(t.server, 'client1', 1)).toBe(mkt);
  });

  it('refuses a second submit of the same account within 3 s, across requests running together', async () => {
    t.server.clock.advance(3100);
    const [a, b] = await Promise.all([
      client1.post('/api/send/sending', codeSend()),
      client1.post('/api/send/sending', codeSend()),
    ]);
    expect([a.body.code, b.body.code].sort()).toEqual([0, 500]);
    expect([a.body.msg, b.body.msg]).toContain('3秒内不可重复提交');
    t.server.clock.advance(2000);
    expect((await client1.post('/api/send/sending', codeSend())).body.msg).toBe('3秒内不可重复提交');
    // another account is not locked
    expect((await agent1.post('/api/send/sending', codeSend({ clientId: 'agent1' }))).body.msg).not.toBe(
      '3秒内不可重复提交',
    );
    t.server.clock.advance(1100);
    expect((await client1.post('/api/send/sending', codeSend())).body.code).toBe(0);
  });

  it('imports numbers from txt, csv and xlsx; refuses other files and more than 60000', async () => {
    const txt = await upload(
      t.server,
      client1,
      '/api/send/importMobiles',
      'n.txt',
      Buffer.from('13800138000\n13800138000\r\n18600186000;abc\n123\n18900189000'),
    );
    expect(txt).toMatchObject({
      code: 0,
      data: {
        fileName: 'n.txt',
        submitTotal: 5,
        errNum: 1,
        repeatNum: 1,
        mobiles: '13800138000,18600186000,18900189000',
        mobileNum: 1,
        unicomNum: 1,
        telecomNum: 1,
      },
    });
    const csv = await upload(
      t.server,
      client1,
      '/api/send/importMobiles',
      'n.csv',
      Buffer.from('\ufeff手机号码\r\n13800138000\r\n18600186000\r\n'),
    );
    expect(csv.data).toMatchObject({ submitTotal: 2, errNum: 0, mobiles: '13800138000,18600186000' });
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('号码');
    ws.addRow(['手机号码']);
    for (const n of numbers(100)) ws.addRow([n]);
    const xlsx = await upload(
      t.server,
      client1,
      '/api/send/importMobiles',
      'n.xlsx',
      Buffer.from(await wb.xlsx.writeBuffer()),
    );
    expect(xlsx.data).toMatchObject({ submitTotal: 100, errNum: 0, mobileNum: 100 });
    const big = await upload(
      t.server,
      client1,
      '/api/send/importMobiles',
      'big.txt',
      Buffer.from(numbers(60001).join('\n')),
    );
    expect(big).toMatchObject({ code: 400, msg: '号码不能大于60000个' });
    expect((await upload(t.server, client1, '/api/send/importMobiles', 'n.doc', Buffer.from('1'))).msg).toBe(
      '请上传txt,csv,xlxs格式文件',
    );
    expect((await upload(t.server, client1, '/api/send/importMobiles', 'n.xlsx', Buffer.from('not a zip'))).msg).toBe(
      '文件解析失败',
    );
    expect((await upload(t.server, client1, '/api/send/importMobiles', 'n.txt', Buffer.from('abc'))).msg).toBe(
      '导入文件的有效号码个数为0',
    );
    const full = await upload(
      t.server,
      client1,
      '/api/send/importMobiles',
      'full.txt',
      Buffer.from(numbers(60000).join('\n')),
    );
    expect(full.data.submitTotal).toBe(60000);
  });

  it('serves the three number templates', async () => {
    const x = await client1.get('/api/send/downloadtemplate');
    expect(x.status).toBe(200);
    expect(String(x.headers['content-type'])).toContain('spreadsheetml');
    expect((await client1.get('/api/send/downloadtemplateCSV')).raw.body).toContain('手机号码');
    expect((await client1.get('/api/send/downloadtemplateTXT')).raw.body).toMatch(/^1\d{10}\r\n/);
  });

  it('keeps every ledger and pool exact after all of the above', async () => {
    expect(await ledgerViolations(t.server)).toEqual([]);
    expect(await poolViolations(t.server)).toEqual([]);
    void shipTpl;
  });
});

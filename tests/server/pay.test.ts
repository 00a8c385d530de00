/**
 * Online recharge (docs/api-pay.md): orders, the sandbox scan page and its signed notification,
 * exactly-once credit under repeats and races, forged and wrong-amount notifications, expiry,
 * cancel, the list with its filters.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { backends, useServer, type Client, type TestServer } from './harness';
import { DEFAULT_PAY_CONFIG } from '../../server/modules/pay/config';
import { loadConfig } from '../../server/config';

/** the sandbox provider on (PAY_SANDBOX=1): what the embedded demo has */
const SANDBOX_ON = { pay: { ...DEFAULT_PAY_CONFIG, sandbox: true } };

async function as(server: TestServer, who: string): Promise<Client> {
  const c = await server.client().init();
  const r = await c.login(who);
  if (r.body.code !== 0) throw new Error(`login ${who}: ${JSON.stringify(r.body)}`);
  return c;
}

const balanceOf = async (server: TestServer, clientid: string) =>
  (
    await server.handle.db
      .selectFrom('accounts')
      .select('balance')
      .where('clientid', '=', clientid)
      .executeTakeFirstOrThrow()
  ).balance;

async function violations(server: TestServer) {
  const r = await sql<{ clientid: string }>`
    select a.clientid from accounts a left join (select account_id, sum(amount) s from ledger group by account_id) l on l.account_id = a.id
    where a.balance <> coalesce(l.s, 0) or a.balance < 0`.execute(server.handle.db);
  return r.rows;
}

const ledgerRowsOf = async (server: TestServer, paymentId: string) =>
  server.handle.db
    .selectFrom('ledger')
    .select(['amount', 'kind', 'request_id'])
    .where('request_id', '=', paymentId)
    .execute();

/** the scan page's path + query from an order's QR payload */
const scanPath = (qrCode: string) => {
  const u = new URL(qrCode);
  return {
    path: u.pathname + u.search,
    paymentId: u.searchParams.get('paymentId')!,
    token: u.searchParams.get('token')!,
  };
};

describe.each(backends)('online payment (%s)', (backend) => {
  const t = useServer(backend, { config: SANDBOX_ON });

  it('offers online recharge to agents only (isOpenPay)', async () => {
    const agent = await as(t.server, 'agent1');
    expect((await agent.get('/api/onlinePay/config')).body.data).toMatchObject({
      isOpenPay: 1,
      orderTtlSeconds: 900,
      sandbox: { 0: true, 1: true },
    });
    const sub = await as(t.server, 'client1');
    expect((await sub.get('/api/onlinePay/config')).body.data.isOpenPay).toBe(0);
    const refused = await sub.post('/api/onlinePay/createPay', { amount: '10', paymentMode: 0 });
    expect(refused.body).toMatchObject({ code: 500, msg: '未开通在线充值' });
    const anon = await t.server.client().init();
    expect((await anon.post('/api/onlinePay/createPay', { amount: '10', paymentMode: 0 })).body.code).toBe(401);
  });

  it('checks the amount with the form’s messages', async () => {
    const c = await as(t.server, 'agent1');
    const msg = async (amount: unknown, paymentMode: unknown = 0) =>
      (await c.post('/api/onlinePay/createPay', { amount, paymentMode })).body.msg;
    expect(await msg(undefined)).toBe('请输入充值金额');
    expect(await msg('abc')).toBe('充值金额必须为数字,最多保留两位小数');
    expect(await msg('1.234')).toBe('充值金额必须为数字,最多保留两位小数');
    expect(await msg('0.99')).toBe('充值金额为1元至100万元');
    expect(await msg('1000000.01')).toBe('充值金额为1元至100万元');
    expect(await msg('10', 7)).toBe('参数错误');
    expect(await msg('10', '')).toMatch(/请选择支付方式|参数错误/);
    const okBig = await c.post('/api/onlinePay/createPay', { amount: '1000000', paymentMode: 1 });
    expect(okBig.body.data).toMatchObject({
      paymentAmountStr: '1000000.00',
      paymentMode: 1,
      paymentModeStr: '微信支付',
      paymentState: 0,
      paymentStateStr: '待支付',
      countDownStr: '900',
    });
    await c.post('/api/onlinePay/cancelPay', { paymentId: okBig.body.data.paymentId });
  });

  it('pays through the sandbox scan page: credited once, however often confirmed or notified', async () => {
    const c = await as(t.server, 'agent1');
    const before = await balanceOf(t.server, 'agent1');
    const created = await c.post('/api/onlinePay/createPay', { amount: '123.45', paymentMode: 0 });
    expect(created.body.code).toBe(0);
    const order = created.body.data;
    expect(order.paymentId).toMatch(/^P\d{14}\d{8}$/);
    expect(order.qrCode).toMatch(/^http:\/\/localhost:8080\/api\/onlinePay\/sandbox\/scan\?paymentId=/);
    const scan = scanPath(order.qrCode);

    // a wrong token shows nothing of the order
    const wrong = await t.server
      .client()
      .request('GET', `/api/onlinePay/sandbox/scan?paymentId=${scan.paymentId}&token=${'0'.repeat(32)}`);
    expect(wrong.raw.body).toContain('支付订单不存在');

    // the payer's phone opens the page (no session): the order becomes 已提交支付
    const phone = t.server.client();
    const page = await phone.request('GET', scan.path);
    expect(page.status).toBe(200);
    expect(String(page.headers['content-type'])).toContain('text/html');
    expect(page.raw.body).toContain('确认支付');
    expect(page.raw.body).toContain('123.45');
    expect((await c.post('/api/onlinePay/payStatus', { paymentId: order.paymentId })).body.data).toMatchObject({
      paymentState: 1,
      paymentStateStr: '已提交支付',
    });

    const confirm = await phone.request('POST', '/api/onlinePay/sandbox/pay', {
      paymentId: scan.paymentId,
      token: scan.token,
      action: 'confirm',
    });
    expect(confirm.raw.body).toContain('支付成功');
    const status = (await c.post('/api/onlinePay/payStatus', { paymentId: order.paymentId })).body.data;
    expect(status).toMatchObject({ paymentState: 2, paymentStateStr: '支付成功', countDownStr: '', qrCode: '' });
    expect(status.orderId).toMatch(/^SANDBOX/);
    expect(await balanceOf(t.server, 'agent1')).toBe((Number(before) + 123.45).toFixed(2));

    // confirmed again, and the notification replayed: nothing more
    const again = await phone.request('POST', '/api/onlinePay/sandbox/pay', {
      paymentId: scan.paymentId,
      token: scan.token,
      action: 'confirm',
    });
    expect(again.raw.body).toContain('订单已支付');
    const notice = t.server.app.services.pay.providers.sandbox!.sign({
      paymentId: order.paymentId,
      tradeNo: 'T1',
      amount: '123.45',
      status: 'SUCCESS',
    });
    for (let i = 0; i < 3; i++) {
      const r = await t.server.client().request('POST', '/api/onlinePay/notify/sandbox', notice, { json: true });
      expect(r.status).toBe(200);
    }
    expect(await balanceOf(t.server, 'agent1')).toBe((Number(before) + 123.45).toFixed(2));
    expect(await ledgerRowsOf(t.server, order.paymentId)).toEqual([
      { amount: '123.45', kind: 11, request_id: order.paymentId },
    ]);
    // paid orders cannot be cancelled
    expect((await c.post('/api/onlinePay/cancelPay', { paymentId: order.paymentId })).body).toMatchObject({
      code: 500,
      msg: '订单已支付',
    });
    expect(await violations(t.server)).toEqual([]);
  });

  it('credits nothing for a forged signature, a wrong amount, another provider or an unknown order', async () => {
    const c = await as(t.server, 'agent1');
    const before = await balanceOf(t.server, 'agent1');
    const order = (await c.post('/api/onlinePay/createPay', { amount: '50', paymentMode: 1 })).body.data;
    const sandbox = t.server.app.services.pay.providers.sandbox!;
    const good = sandbox.sign({ paymentId: order.paymentId, tradeNo: 'T2', amount: '50.00', status: 'SUCCESS' });
    const post = (body: unknown) =>
      t.server.client().request('POST', '/api/onlinePay/notify/sandbox', body, { json: true });

    const forged = await post({ ...good, sign: good.sign!.replace(/^./, (ch) => (ch === 'a' ? 'b' : 'a')) });
    expect(forged.status).toBe(400);
    expect(forged.body.msg).toBe('签名验证失败');
    expect((await post({ ...good, amount: '5000.00' })).status).toBe(400); // signature no longer holds
    const wrongAmount = sandbox.sign({
      paymentId: order.paymentId,
      tradeNo: 'T2',
      amount: '5000.00',
      status: 'SUCCESS',
    });
    expect((await post(wrongAmount)).body.msg).toBe('金额不符');
    const unknown = sandbox.sign({ paymentId: 'P00000000000000', tradeNo: 'T2', amount: '50.00', status: 'SUCCESS' });
    expect((await post(unknown)).body.msg).toBe('支付订单不存在');
    const notPaid = sandbox.sign({ paymentId: order.paymentId, tradeNo: 'T2', amount: '50.00', status: 'CLOSED' });
    expect((await post(notPaid)).status).toBe(400);
    // a form post without the fields, and the real providers' routes while they are not configured
    expect(
      (await t.server.client().request('POST', '/api/onlinePay/notify/sandbox', { paymentId: order.paymentId })).status,
    ).toBe(400);
    expect(
      (
        await t.server
          .client()
          .request('POST', '/api/onlinePay/notify/alipay', { out_trade_no: order.paymentId, sign: 'x' })
      ).status,
    ).toBe(404);
    expect(
      (await t.server.client().request('POST', '/api/onlinePay/notify/wechat', { id: 'x' }, { json: true })).status,
    ).toBe(404);

    expect(await balanceOf(t.server, 'agent1')).toBe(before);
    expect((await c.post('/api/onlinePay/payStatus', { paymentId: order.paymentId })).body.data.paymentState).toBe(0);
    const logged = await t.server.handle.db
      .selectFrom('pay_notifications')
      .select(['verified', 'credited'])
      .where('payment_id', '=', order.paymentId)
      .execute();
    expect(logged.some((l) => l.credited)).toBe(false);
    // the genuine one still credits
    expect((await post(good)).status).toBe(200);
    expect(await balanceOf(t.server, 'agent1')).toBe((Number(before) + 50).toFixed(2));
  });

  it('credits once when 20 notifications of one order arrive at the same time', async () => {
    const c = await as(t.server, 'agent1');
    const before = await balanceOf(t.server, 'agent1');
    const order = (await c.post('/api/onlinePay/createPay', { amount: '77.77', paymentMode: 0 })).body.data;
    const sandbox = t.server.app.services.pay.providers.sandbox!;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.server
          .client()
          .request(
            'POST',
            '/api/onlinePay/notify/sandbox',
            sandbox.sign({ paymentId: order.paymentId, tradeNo: `T3-${i}`, amount: '77.77', status: 'SUCCESS' }),
            { json: true },
          ),
      ),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(await balanceOf(t.server, 'agent1')).toBe((Number(before) + 77.77).toFixed(2));
    expect(await ledgerRowsOf(t.server, order.paymentId)).toHaveLength(1);
    const credited = await t.server.handle.db
      .selectFrom('pay_notifications')
      .select('credited')
      .where('payment_id', '=', order.paymentId)
      .where('credited', '=', true)
      .execute();
    expect(credited).toHaveLength(1);
    expect(await violations(t.server)).toEqual([]);
  });

  it('expires unpaid orders after 15 minutes: closed, the scan page refuses, countdown gone', async () => {
    const c = await as(t.server, 'agent1');
    const before = await balanceOf(t.server, 'agent1');
    const order = (await c.post('/api/onlinePay/createPay', { amount: '20', paymentMode: 0 })).body.data;
    t.server.clock.advance(10 * 60_000);
    expect((await c.post('/api/onlinePay/payStatus', { paymentId: order.paymentId })).body.data).toMatchObject({
      paymentState: 0,
      countDownStr: '300',
    });
    t.server.clock.advance(5 * 60_000);
    const closed = (await c.post('/api/onlinePay/payStatus', { paymentId: order.paymentId })).body.data;
    expect(closed).toMatchObject({
      paymentState: 4,
      paymentStateStr: '已取消',
      remark: '超时未支付，订单已关闭',
      countDownStr: '',
    });
    const scan = scanPath(order.qrCode);
    const page = await t.server.client().request('GET', scan.path);
    expect(page.raw.body).toContain('订单已关闭，请重新下单');
    expect(page.raw.body).not.toContain('确认支付');
    const confirm = await t.server.client().request('POST', '/api/onlinePay/sandbox/pay', {
      paymentId: scan.paymentId,
      token: scan.token,
      action: 'confirm',
    });
    expect(confirm.raw.body).toContain('订单已关闭，请重新下单');
    expect((await c.post('/api/onlinePay/cancelPay', { paymentId: order.paymentId })).body.msg).toBe(
      '订单已关闭，请重新下单',
    );
    expect(await balanceOf(t.server, 'agent1')).toBe(before);
  });

  it('cancels an unpaid order (own orders only); the scan page then refuses', async () => {
    const c = await as(t.server, 'agent1');
    const before = await balanceOf(t.server, 'agent1');
    const order = (await c.post('/api/onlinePay/createPay', { amount: '30', paymentMode: 1 })).body.data;
    const other = await as(t.server, 'agent0');
    expect((await other.post('/api/onlinePay/cancelPay', { paymentId: order.paymentId })).body).toMatchObject({
      code: 404,
      msg: '支付订单不存在',
    });
    expect((await other.post('/api/onlinePay/payStatus', { paymentId: order.paymentId })).body.code).toBe(404);
    const r = await c.post('/api/onlinePay/cancelPay', { paymentId: order.paymentId });
    expect(r.body).toMatchObject({ code: 0, msg: '订单已取消' });
    expect((await c.post('/api/onlinePay/payStatus', { paymentId: order.paymentId })).body.data).toMatchObject({
      paymentState: 4,
      remark: '用户取消',
    });
    expect((await c.post('/api/onlinePay/cancelPay', { paymentId: order.paymentId })).body.msg).toBe(
      '订单已关闭，请重新下单',
    );
    const scan = scanPath(order.qrCode);
    const confirm = await t.server.client().request('POST', '/api/onlinePay/sandbox/pay', {
      paymentId: scan.paymentId,
      token: scan.token,
      action: 'confirm',
    });
    expect(confirm.raw.body).toContain('订单已关闭，请重新下单');
    expect(await balanceOf(t.server, 'agent1')).toBe(before);
  });

  it('the scan page’s 取消 marks the order failed without credit', async () => {
    const c = await as(t.server, 'agent1');
    const order = (await c.post('/api/onlinePay/createPay', { amount: '40', paymentMode: 0 })).body.data;
    const scan = scanPath(order.qrCode);
    const r = await t.server.client().request('POST', '/api/onlinePay/sandbox/pay', {
      paymentId: scan.paymentId,
      token: scan.token,
      action: 'cancel',
    });
    expect(r.raw.body).toContain('已取消支付');
    expect((await c.post('/api/onlinePay/payStatus', { paymentId: order.paymentId })).body.data).toMatchObject({
      paymentState: 3,
      paymentStateStr: '支付失败',
    });
  });

  it('lists the account’s orders with filters, page and rows', async () => {
    const c = await as(t.server, 'agent0');
    const a = (await c.post('/api/onlinePay/createPay', { amount: '11', paymentMode: 0 })).body.data;
    t.server.clock.advance(1000);
    const b = (await c.post('/api/onlinePay/createPay', { amount: '12', paymentMode: 1 })).body.data;
    const all = (await c.post('/api/onlinePay/queryPayOrder', { page: 1, rows: 15 })).body.data;
    expect(all).toMatchObject({ totalRecord: 2, page: 1 });
    expect(all.data.map((r: any) => r.paymentId)).toEqual([b.paymentId, a.paymentId]);
    expect(all.data[0]).toMatchObject({
      rowNum: 1,
      paymentAmountStr: '12.00',
      price: '12.00',
      payType: 11,
      paymentModeStr: '微信支付',
      paymentStateStr: '待支付',
    });
    expect(all.data[0].payTimeStr).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(Number(all.data[0].countDownStr)).toBeGreaterThan(0);
    const wx = (await c.post('/api/onlinePay/queryPayOrder', { paymentMode: 1 })).body.data;
    expect(wx.data.map((r: any) => r.paymentId)).toEqual([b.paymentId]);
    const search = (await c.post('/api/onlinePay/queryPayOrder', { searchText: ` ${a.paymentId} ` })).body.data;
    expect(search.data.map((r: any) => r.paymentId)).toEqual([a.paymentId]);
    // pay a, then state 2 and 5 both find it
    const scan = scanPath(a.qrCode);
    await t.server.client().request('POST', '/api/onlinePay/sandbox/pay', {
      paymentId: scan.paymentId,
      token: scan.token,
      action: 'confirm',
    });
    for (const s of [2, 5]) {
      const paid = (await c.post('/api/onlinePay/queryPayOrder', { paymentState: s })).body.data;
      expect(paid.data.map((r: any) => r.paymentId)).toEqual([a.paymentId]);
    }
    const page2 = (await c.post('/api/onlinePay/queryPayOrder', { page: 2, rows: 1 })).body.data;
    expect(page2.data.map((r: any) => [r.rowNum, r.paymentId])).toEqual([[2, a.paymentId]]);
    const none = (
      await c.post('/api/onlinePay/queryPayOrder', {
        startPayTime: '2001-01-01 00:00:00',
        endPayTime: '2001-01-02 00:00:00',
      })
    ).body.data;
    expect(none.totalRecord).toBe(0);
    expect(
      (
        await c.post('/api/onlinePay/queryPayOrder', {
          startPayTime: '2001-01-02 00:00:00',
          endPayTime: '2001-01-01 00:00:00',
        })
      ).body.msg,
    ).toBe('结束日期不能早于开始日期');
    expect((await c.post('/api/onlinePay/queryPayOrder', { startPayTime: '2001-13-02' })).body.code).toBe(400);
    // another account sees none of them
    const other = await as(t.server, 'agent1');
    const theirs = (await other.post('/api/onlinePay/queryPayOrder', { searchText: a.paymentId })).body.data;
    expect(theirs.totalRecord).toBe(0);
  });

  it('limits the unpaid orders an account holds at once', async () => {
    const c = await as(t.server, 'newagent');
    // different amounts: the same amount again would answer the open order (below)
    for (let i = 1; i <= 20; i++)
      expect((await c.post('/api/onlinePay/createPay', { amount: String(i), paymentMode: 0 })).body.code).toBe(0);
    expect((await c.post('/api/onlinePay/createPay', { amount: '21', paymentMode: 0 })).body.msg).toBe(
      '待支付订单过多，请先完成或取消已有订单',
    );
    // at the cap, opening one of the open orders again still answers it
    const again = await c.post('/api/onlinePay/createPay', { amount: '7.00', paymentMode: 0 });
    expect(again.body).toMatchObject({ code: 0, data: { paymentAmountStr: '7.00', paymentState: 0 } });
  });

  it('opening the payment again for the same amount and mode answers the open order, not a new one', async () => {
    const c = await as(t.server, 'agent1');
    const create = async (amount: string, paymentMode: number) => {
      const r = await c.post('/api/onlinePay/createPay', { amount, paymentMode });
      expect(r.body.code, r.body.msg).toBe(0);
      return r.body.data;
    };
    const ordersOf = async (amount: string) =>
      t.server.handle.db
        .selectFrom('pay_orders as p')
        .innerJoin('accounts as a', 'a.id', 'p.account_id')
        .select(['p.payment_id', 'p.state', 'p.payment_mode'])
        .where('a.clientid', '=', 'agent1')
        .where('p.amount', '=', amount)
        .orderBy('p.id')
        .execute();

    const first = await create('66.60', 0);
    // the user closes the dialog, a minute passes, 去支付 again with the same amount (written otherwise)
    t.server.clock.advance(60_000);
    const again = await create('66.6', 0);
    expect(again).toMatchObject({
      paymentId: first.paymentId,
      qrCode: first.qrCode,
      paymentState: 0,
      paymentAmountStr: '66.60',
      countDownStr: '840',
    });
    expect(await ordersOf('66.60')).toHaveLength(1);
    // another mode or another amount is another order
    const wechat = await create('66.60', 1);
    expect(wechat.paymentId).not.toBe(first.paymentId);
    const other = await create('66.61', 0);
    expect(other.paymentId).not.toBe(first.paymentId);
    // opened on the payer's phone (1 已提交支付): still the same order
    await t.server.client().request('GET', scanPath(first.qrCode).path);
    expect(await create('66.60', 0)).toMatchObject({ paymentId: first.paymentId, paymentState: 1 });
    expect(await ordersOf('66.60')).toHaveLength(2);

    // with less than a minute left it would expire while being scanned: a new order
    t.server.clock.advance(13 * 60_000 + 1_000);
    const fresh = await create('66.60', 0);
    expect(fresh.paymentId).not.toBe(first.paymentId);
    expect(fresh.countDownStr).toBe('900');
    expect((await c.post('/api/onlinePay/payStatus', { paymentId: first.paymentId })).body.data).toMatchObject({
      paymentState: 1,
      countDownStr: '59',
    });
    // from now on that one is answered; once paid, the next is new again
    expect((await create('66.60', 0)).paymentId).toBe(fresh.paymentId);
    const scan = scanPath(fresh.qrCode);
    await t.server.client().request('POST', '/api/onlinePay/sandbox/pay', {
      paymentId: scan.paymentId,
      token: scan.token,
      action: 'confirm',
    });
    const afterPaid = await create('66.60', 0);
    expect([first.paymentId, fresh.paymentId]).not.toContain(afterPaid.paymentId);
    // and once cancelled, too
    await c.post('/api/onlinePay/cancelPay', { paymentId: afterPaid.paymentId });
    const afterCancel = await create('66.60', 0);
    expect([first.paymentId, fresh.paymentId, afterPaid.paymentId]).not.toContain(afterCancel.paymentId);
    await c.post('/api/onlinePay/cancelPay', { paymentId: afterCancel.paymentId });
    expect((await ordersOf('66.60')).map((o) => o.payment_id)).toEqual([
      first.paymentId,
      wechat.paymentId,
      fresh.paymentId,
      afterPaid.paymentId,
      afterCancel.paymentId,
    ]);
    // another account's open order of that amount is never answered
    const theirs = await (
      await as(t.server, 'agent0')
    ).post('/api/onlinePay/createPay', { amount: '66.61', paymentMode: 0 });
    expect(theirs.body.data.paymentId).not.toBe(other.paymentId);
    for (const id of [wechat.paymentId, other.paymentId]) await c.post('/api/onlinePay/cancelPay', { paymentId: id });
    await (await as(t.server, 'agent0')).post('/api/onlinePay/cancelPay', { paymentId: theirs.body.data.paymentId });
    expect(await violations(t.server)).toEqual([]);
  });
});

describe('sandbox setting (PAY_SANDBOX)', () => {
  const pay = (env: Record<string, string>) => loadConfig(env).app.pay;

  it('is on by default only in the embedded demo; a DATABASE_URL deployment needs PAY_SANDBOX=1', () => {
    expect(pay({}).sandbox).toBe(true);
    expect(pay({ PAY_SANDBOX: '0' }).sandbox).toBe(false);
    expect(pay({ DATABASE_URL: 'postgres://x@db/sms' }).sandbox).toBe(false);
    expect(pay({ DATABASE_URL: 'postgres://x@db/sms', PAY_SANDBOX: '1' }).sandbox).toBe(true);
    expect(DEFAULT_PAY_CONFIG.sandbox).toBe(false);
  });

  it('links are made from the configured URL: PAY_PUBLIC_URL, else http://localhost:PORT', () => {
    expect(pay({ PORT: '9090' })).toMatchObject({ publicUrl: '', localUrl: 'http://localhost:9090' });
    expect(pay({ PAY_PUBLIC_URL: 'https://sms.example.com/api/' }).publicUrl).toBe('https://sms.example.com/api');
    expect(() => pay({ PAY_PUBLIC_URL: 'javascript:alert(1)' })).toThrow(/PAY_PUBLIC_URL/);
  });

  it("a provider's keys go together: a partial set stops the start instead of leaving the provider off", () => {
    expect(() => pay({ ALIPAY_APP_ID: '2021000000000000' })).toThrow(
      /ALIPAY_PRIVATE_KEY is not set, but ALIPAY_APP_ID is/,
    );
    expect(() => pay({ WECHATPAY_CERTIFICATE: 'x' })).toThrow(/WECHATPAY_APP_ID is not set/);
    expect(pay({}).alipay).toBeNull();
  });
});

describe.each(backends)('online payment without a provider (%s)', (backend) => {
  // the default of a configured deployment: no Alipay / WeChat keys, no PAY_SANDBOX
  const t = useServer(backend);

  it('offers no online recharge and refuses the sandbox routes: no free balance', async () => {
    const agent = await as(t.server, 'agent1');
    const before = await balanceOf(t.server, 'agent1');
    expect((await agent.get('/api/onlinePay/config')).body.data).toMatchObject({
      isOpenPay: 0,
      modes: { 0: false, 1: false },
      sandbox: { 0: false, 1: false },
    });
    for (const paymentMode of [0, 1]) {
      expect((await agent.post('/api/onlinePay/createPay', { amount: '1000000', paymentMode })).body).toMatchObject({
        code: 500,
        msg: '未开通在线充值',
      });
    }
    expect(await t.server.handle.db.selectFrom('pay_orders').select('id').execute()).toEqual([]);
    // a notification signed with any key, the scan page and its confirm: nothing to pay with
    const anon = t.server.client();
    const notify = await anon.request(
      'POST',
      '/api/onlinePay/notify/sandbox',
      {
        paymentId: 'P1',
        tradeNo: 'T',
        amount: '1000000.00',
        status: 'SUCCESS',
        timestamp: '1',
        nonce: 'n',
        sign: 'ab',
      },
      { json: true },
    );
    expect(notify.status).toBe(404);
    expect(
      (await anon.request('GET', `/api/onlinePay/sandbox/scan?paymentId=P1&token=${'0'.repeat(32)}`)).raw.body,
    ).toContain('支付订单不存在');
    expect(
      (
        await anon.request('POST', '/api/onlinePay/sandbox/pay', {
          paymentId: 'P1',
          token: '0'.repeat(32),
          action: 'confirm',
        })
      ).raw.body,
    ).toContain('支付订单不存在');
    expect(await balanceOf(t.server, 'agent1')).toBe(before);
  });
});

describe.each(backends)('online payment with the sandbox and a real provider (%s)', (backend) => {
  it('a mode without a provider is refused with 支付方式未开通 when the sandbox is off', async () => {
    const { startServer } = await import('./harness');
    const server = await startServer(backend, { config: SANDBOX_ON });
    try {
      // the sandbox off, 支付宝 "configured": only mode 0 is offered
      const pay = server.app.services.pay as unknown as { providers: { sandbox: unknown; alipay: unknown } };
      const fake = {
        name: 'alipay',
        create: async () => ({ qrCode: 'https://qr.alipay.com/x' }),
        verify: async () => null,
        query: async () => null,
        close: async () => undefined,
        ack: { contentType: 'text/plain', body: 'success' },
      };
      Object.assign(pay.providers, { sandbox: null, alipay: fake });
      const agent = await as(server, 'agent1');
      expect((await agent.get('/api/onlinePay/config')).body.data).toMatchObject({
        isOpenPay: 1,
        modes: { 0: true, 1: false },
        sandbox: { 0: false, 1: false },
      });
      expect((await agent.post('/api/onlinePay/createPay', { amount: '10', paymentMode: 1 })).body).toMatchObject({
        code: 500,
        msg: '支付方式未开通',
      });
      const ok = await agent.post('/api/onlinePay/createPay', { amount: '10', paymentMode: 0 });
      expect(ok.body.data).toMatchObject({ sandbox: 0, qrCode: 'https://qr.alipay.com/x' });
    } finally {
      await server.close();
    }
  });
});

describe.each(backends)('sandbox money (%s)', (backend) => {
  const t = useServer(backend, { config: SANDBOX_ON });

  it('is marked 沙箱 in the order list, the ledger remark and the bill, and is never invoiceable', async () => {
    const agent = await as(t.server, 'agent1');
    const canBefore = (await agent.post('/api/invoice/getCanInvoiceAmount')).body.data.canAmount as string;
    const order = (await agent.post('/api/onlinePay/createPay', { amount: '1000000', paymentMode: 0 })).body.data;
    expect(order.sandbox).toBe(1);
    // the attack: open the QR link anonymously and confirm
    const scan = scanPath(order.qrCode);
    const phone = t.server.client();
    await phone.request('GET', scan.path);
    expect(
      (
        await phone.request('POST', '/api/onlinePay/sandbox/pay', {
          paymentId: scan.paymentId,
          token: scan.token,
          action: 'confirm',
        })
      ).raw.body,
    ).toContain('支付成功');

    const listed = (await agent.post('/api/onlinePay/queryPayOrder', { searchText: order.paymentId })).body.data.data;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ paymentId: order.paymentId, sandbox: 1, paymentState: 2 });
    const ledger = await t.server.handle.db
      .selectFrom('ledger')
      .select('remark')
      .where('request_id', '=', order.paymentId)
      .executeTakeFirstOrThrow();
    expect(ledger.remark).toContain('沙箱');
    const bill = (await agent.post('/api/finance/bill/self', { order_id: order.paymentId })).body.data;
    expect(bill.list).toHaveLength(1);
    expect(bill.list[0].remark).toContain('沙箱');
    expect(
      await t.server.handle.db
        .selectFrom('pay_orders')
        .select('sandbox')
        .where('payment_id', '=', order.paymentId)
        .executeTakeFirstOrThrow(),
    ).toEqual({ sandbox: true });

    // the invoiceable amount did not move; an invoice of the sandbox money is refused
    expect((await agent.post('/api/invoice/getCanInvoiceAmount')).body.data.canAmount).toBe(canBefore);
    const invoice = {
      invoiceType: 1,
      invoiceAmount: '1000000.00',
      invoiceBody: 2,
      invoiceHead: '上海云讯通信科技有限公司',
      creditCode: '91310115MA1K4ABCD1',
      email: 'fp@demo.local',
      toPhone: '13800138001',
    };
    const refused = await agent.post('/api/invoice/add', invoice, { json: true });
    expect(refused.body.code).not.toBe(0);
    expect(refused.body.msg).toContain(`可开票金额 ${canBefore} 元`);
    expect(
      await t.server.handle.db.selectFrom('invoices').select('id').where('invoice_amount', '=', '1000000.00').execute(),
    ).toEqual([]);
    expect(await violations(t.server)).toEqual([]);
  });

  it('puts the configured URL in the QR link, whatever Host the request names', async () => {
    const agent = await as(t.server, 'agent0');
    for (const host of ['evil.example.com', 'attacker.test:443', 'localhost:8080@evil.example']) {
      const r = await agent.request(
        'POST',
        '/api/onlinePay/createPay',
        { amount: '1', paymentMode: 0 },
        { headers: { host, 'x-forwarded-host': 'evil.example.com', 'x-forwarded-proto': 'https' } },
      );
      if (r.status !== 200) continue; // a Host Fastify itself refuses is fine too
      expect(r.body.data.qrCode).toMatch(/^http:\/\/localhost:8080\/api\/onlinePay\/sandbox\/scan\?paymentId=/);
      expect(r.body.data.qrCode).not.toContain('evil');
      await agent.post('/api/onlinePay/cancelPay', { paymentId: r.body.data.paymentId });
    }
  });
});

describe.each(backends)('sandbox QR link with PAY_PUBLIC_URL (%s)', (backend) => {
  const t = useServer(backend, {
    config: { pay: { ...DEFAULT_PAY_CONFIG, sandbox: true, publicUrl: 'https://sms.example.com/api' } },
  });
  it('uses PAY_PUBLIC_URL', async () => {
    const agent = await as(t.server, 'agent1');
    const r = await agent.request(
      'POST',
      '/api/onlinePay/createPay',
      { amount: '1', paymentMode: 1 },
      { headers: { host: 'evil.example.com' } },
    );
    expect(r.body.data.qrCode).toMatch(/^https:\/\/sms\.example\.com\/api\/onlinePay\/sandbox\/scan\?paymentId=/);
  });
});

describe.each(backends)('open pay-order cap under parallel creates (%s)', (backend) => {
  const t = useServer(backend, { config: SANDBOX_ON });
  it('30 parallel createPay of one account make at most 20 open orders', async () => {
    const c = await as(t.server, 'newagent');
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        c.post('/api/onlinePay/createPay', { amount: String(i + 1), paymentMode: 0 }),
      ),
    );
    const okCount = answers.filter((r) => r.body.code === 0).length;
    expect(answers.every((r) => r.status < 500)).toBe(true);
    expect(okCount).toBe(20);
    expect(answers.filter((r) => r.body.msg === '待支付订单过多，请先完成或取消已有订单')).toHaveLength(10);
    const id = (
      await t.server.handle.db
        .selectFrom('accounts')
        .select('id')
        .where('clientid', '=', 'newagent')
        .executeTakeFirstOrThrow()
    ).id;
    const open = await t.server.handle.db
      .selectFrom('pay_orders')
      .select('id')
      .where('account_id', '=', id)
      .where('state', 'in', [0, 1])
      .execute();
    expect(open).toHaveLength(20);
  });
});

describe.each(backends)('one order per amount under parallel creates (%s)', (backend) => {
  const t = useServer(backend, { config: SANDBOX_ON });
  const openOf = async (clientid: string, amount: string) =>
    t.server.handle.db
      .selectFrom('pay_orders as p')
      .innerJoin('accounts as a', 'a.id', 'p.account_id')
      .select(['p.payment_id', 'p.state', 'p.qr_code'])
      .where('a.clientid', '=', clientid)
      .where('p.amount', '=', amount)
      .orderBy('p.id')
      .execute();

  it('20 parallel createPay of one amount (a double click, several tabs) answer one order, each with its QR code', async () => {
    const c = await as(t.server, 'agent0');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => c.post('/api/onlinePay/createPay', { amount: '55.50', paymentMode: 1 })),
    );
    expect(answers.map((r) => r.body.code)).toEqual(Array(20).fill(0));
    const ids = new Set(answers.map((r) => r.body.data.paymentId));
    expect(ids.size).toBe(1);
    const rows = await openOf('agent0', '55.50');
    expect(rows).toHaveLength(1);
    expect(rows[0].payment_id).toBe([...ids][0]);
    // those that reused it waited for the QR code its creator got from the provider
    expect(
      answers.every(
        (r) => r.body.data.qrCode === rows[0].qr_code && /\/onlinePay\/sandbox\/scan\?/.test(r.body.data.qrCode),
      ),
    ).toBe(true);
  });

  it('a create waiting for an order whose provider call fails makes its own order', async () => {
    const c = await as(t.server, 'agent1');
    const sandbox = t.server.app.services.pay.providers.sandbox!;
    const real = sandbox.create.bind(sandbox);
    let calls = 0;
    // the first call to the provider fails after a while; later ones succeed
    sandbox.create = async (o) => {
      calls += 1;
      if (calls === 1) {
        await new Promise((r) => setTimeout(r, 300));
        throw new Error('provider unreachable');
      }
      return real(o);
    };
    try {
      const answers = await Promise.all(
        [0, 1].map(() => c.post('/api/onlinePay/createPay', { amount: '44.40', paymentMode: 0 })),
      );
      expect(answers.map((r) => r.body.code).sort()).toEqual([0, 500]);
      const good = answers.find((r) => r.body.code === 0)!.body.data;
      expect(good).toMatchObject({ paymentState: 0, paymentAmountStr: '44.40' });
      expect(good.qrCode).toMatch(/\/onlinePay\/sandbox\/scan\?/);
      const rows = await openOf('agent1', '44.40');
      expect(rows.map((r) => r.state)).toEqual([3, 0]);
      expect(rows[1].payment_id).toBe(good.paymentId);
      expect(calls).toBe(2);
    } finally {
      sandbox.create = real;
    }
  });
});

/**
 * Purchase of SMS packages: the catalogue with the account's discounts, every quantity rule, the
 * certification and mode refusals, the charge (ledger + rebate + pools in one transaction),
 * refusals that write nothing, idempotency, 50 concurrent purchases, and the bills and pools that
 * read the orders (each row traceable to its ledger row).
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import ExcelJS from 'exceljs';
import { backends, useServer, type Client } from './harness';
import { accountId, as, balance, db, ledgerViolations, poolViolations, remaining } from './send-helpers';
import { lineAmount } from '../../server/modules/purchase';
import { Money, yuanText } from '../../server/lib/money';
import { MESSAGES } from '../../common/schema/messages';
import { usablePools } from '../../server/modules/billing';

describe('lineAmount', () => {
  it('charges num × unit × discount rounded UP to the cent: a fraction of a cent never goes to the buyer', () => {
    expect(lineAmount(10000, '0.0450', '95').toFixed(2)).toBe('427.50');
    expect(lineAmount(1, '0.0450', '95').toFixed(2)).toBe('0.05'); // 0.04275
    expect(lineAmount(3, '0.0450', '95').toFixed(2)).toBe('0.13'); // 0.12825
    expect(lineAmount(1, '0.0460', '95').toFixed(2)).toBe('0.05'); // 0.0437, was charged 0.04
    expect(lineAmount(100, '0.0460', '95').toFixed(2)).toBe('4.37'); // exact: unchanged
    expect(lineAmount(1000000, '1.0000', '100').toFixed(2)).toBe('1000000.00');
    // never less than the exact value, never a cent more
    for (let num = 1; num <= 200; num++) {
      const exact = new Money(num).times('0.0437');
      const charged = lineAmount(num, '0.0460', '95');
      expect(charged.gte(exact) && charged.minus(exact).lt('0.01')).toBe(true);
    }
  });
});

describe.each(backends)('purchase (%s)', (backend) => {
  const t = useServer(backend);
  let agent1: Client;
  const productId = async (code: string) =>
    (await db(t.server).selectFrom('products').select('id').where('product_code', '=', code).executeTakeFirstOrThrow())
      .id;
  const rowCounts = async () => {
    const n = async (
      table: 'ledger' | 'pool_movements' | 'product_pools' | 'sms_orders' | 'purchase_orders' | 'rebate_ledger',
    ) =>
      Number(
        (
          await db(t.server)
            .selectFrom(table)
            .select(sql<string>`count(*)::text`.as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      ledger: await n('ledger'),
      moves: await n('pool_movements'),
      pools: await n('product_pools'),
      orders: await n('sms_orders'),
      heads: await n('purchase_orders'),
      rebate: await n('rebate_ledger'),
    };
  };

  it('sells a package product (named 1万条, 10万条套餐, 100元) only by whole packages: products.pack_size (0038)', async () => {
    agent1 = await as(t.server, 'agent1');
    const list = (await agent1.post('/api/sms/products', { pageRowCount: 50 })).body.data.list;
    expect(list.find((p: any) => p.product_code === 'HY-QW-10W')).toMatchObject({
      pack_size: 100000,
      packSizeStr: '100,000条',
    });
    expect(list.find((p: any) => p.product_code === 'GJ-QW-100')).toMatchObject({
      pack_size: 100,
      packSizeStr: '100.00元',
    });
    // a product without a count in its name is sold by any count
    expect(list.find((p: any) => p.product_code === 'HY-YD-5W').pack_size).toBeUndefined();
    const before = await rowCounts();
    const bal = await balance(t.server, 'agent1');
    const tenW = await productId('HY-QW-10W');
    // the cheaper 10万条套餐 price is not for one piece
    for (const num of ['1', '99999', '150000']) {
      const r = await agent1.post('/api/sms/order/add', { product_id: tenW, num });
      expect(r.body).toMatchObject({ code: 400, msg: '该产品为 100,000条 的套餐，购买数量须为 100,000条 的整数倍' });
    }
    const mixed = await agent1.post(
      '/api/sms/order/jsmsAdd',
      {
        list: [
          { productId: await productId('HY-YD-5W'), purchaseNum: 7 },
          { productId: await productId('TZ-QW-1W'), purchaseNum: 500 },
        ],
      },
      { json: true },
    );
    expect(mixed.body).toMatchObject({ code: 400, msg: '该产品为 10,000条 的套餐，购买数量须为 10,000条 的整数倍' });
    // the spec's own rules still come first
    expect((await agent1.post('/api/sms/order/add', { product_id: tenW, num: 'abc' })).body).toMatchObject({
      code: 400,
      msg: '购买数量为大于0的整数',
    });
    expect(await rowCounts()).toEqual(before);
    expect(await balance(t.server, 'agent1')).toBe(bal);
    // the arithmetic below buys odd quantities of the 1万条 products: their package sizes are cleared
    // for this suite (the rule itself is the test above)
    await db(t.server).updateTable('products').set({ pack_size: null }).execute();
  });

  it('lists the catalogue with the account’s discounted prices, filters and rebate', async () => {
    const r = await agent1.post('/api/sms/products', {});
    expect(r.body.code).toBe(0);
    expect(r.body.data.totalCount).toBe(10);
    expect(r.body.data.rebate_useable).toBe('50.00');
    expect(r.body.data.hy_sms_discount).toBe('95.00');
    const hy = r.body.data.list.find((p: any) => p.product_code === 'HY-QW-1W');
    expect(hy).toMatchObject({
      productTypeStr: '行业',
      operatorCodeStr: '全网',
      areaCodeStr: '全国',
      unitPriceStr: '0.0450',
      discountPriceStr: '0.0428',
      dueTimeStr: '365天',
    });
    const yx = r.body.data.list.find((p: any) => p.product_code === 'YX-QW-1W');
    expect(yx.discountPriceStr).toBe('0.0495');

    const marketing = await agent1.post('/api/sms/products', { product_type: 1 });
    expect(marketing.body.data.list.map((p: any) => p.product_code)).toEqual(['YX-QW-1W', 'YX-LT-5W']);
    const mobile = await agent1.post('/api/sms/products', { operator_code: 1 });
    expect(mobile.body.data.list.map((p: any) => p.product_code)).toEqual(['HY-YD-5W']);
    const byName = await agent1.post('/api/sms/products', { keyword: '验证码' });
    expect(byName.body.data.totalCount).toBe(2);
    const byCode = await agent1.post('/api/sms/products', { keyword: 'tz-qw' });
    expect(byCode.body.data.totalCount).toBe(2);
    const paged = await agent1.post('/api/sms/products', { currentPage: 2, pageRowCount: 4 });
    expect(paged.body.data.list).toHaveLength(4);
    const bad = await agent1.post('/api/sms/products', { product_type: 9 });
    expect(bad.body.code).toBe(400);
  });

  it('refuses every malformed quantity with the spec’s message, writing nothing', async () => {
    const id = await productId('HY-QW-1W');
    const before = await rowCounts();
    const cases: [unknown, string][] = [
      ['', '购买数量不能为空'],
      ['0', '购买数量为大于0的整数'],
      ['012', '输入的数字格式不正确'],
      ['1.5', '购买数量为大于0的整数'],
      ['-3', '购买数量为大于0的整数'],
      ['abc', '购买数量为大于0的整数'],
      ['1000001', '购买数量不能超过100万'],
      ['9999999', '购买数量不能超过100万'],
    ];
    for (const [num, msg] of cases) {
      const r = await agent1.post('/api/sms/order/add', { product_id: id, num });
      expect([num, r.body.msg]).toEqual([num, msg]);
      const j = await agent1.post(
        '/api/sms/order/jsmsAdd',
        { list: [{ productId: id, purchaseNum: num }] },
        { json: true },
      );
      expect([num, j.body.msg]).toEqual([num, msg]);
    }
    expect((await agent1.post('/api/sms/order/add', { num: '10' })).body.msg).toBe('请选择要购买的短信');
    expect((await agent1.post('/api/sms/order/jsmsAdd', { list: [] }, { json: true })).body.msg).toBe(
      '请选择要购买的短信',
    );
    expect((await agent1.post('/api/sms/order/add', { product_id: 999999, num: '10' })).body.msg).toBe('产品不存在');
    expect(await rowCounts()).toEqual(before);
  });

  it('asks an uncertified account to certify and refuses a direct-charge account, writing nothing', async () => {
    const id = await productId('HY-QW-1W');
    const before = await rowCounts();
    const newagent = await as(t.server, 'newagent');
    const r = await newagent.post('/api/sms/order/add', { product_id: id, num: '100' });
    expect(r.body.msg).toBe('请先认证后再购买短信');
    const agent0 = await as(t.server, 'agent0');
    const r0 = await agent0.post('/api/sms/order/add', { product_id: id, num: '100' });
    expect(r0.body.code).toBe(403);
    expect(await rowCounts()).toEqual(before);
  });

  it('charges the discounted total minus the rebate through the ledger and fills the pools, in one order', async () => {
    const id = await productId('HY-QW-1W');
    const bal0 = new Money(await balance(t.server, 'agent1'));
    const pieces0 = await remaining(t.server, 'agent1', 0);
    const r = await agent1.post('/api/sms/order/add', { product_id: id, num: '10000' });
    expect(r.body).toMatchObject({ code: 0, msg: '购买成功' });
    // 10000 × 0.0450 × 95 % = 427.50; more than 10 → the whole rebate (50.00) pays first
    expect(r.body.data).toMatchObject({ total: '427.50', rebate: '50.00', paid: '377.50', rebateUseable: '0.00' });
    expect(new Money(await balance(t.server, 'agent1')).eq(bal0.minus('377.50'))).toBe(true);
    expect(r.body.data.balance).toBe(bal0.minus('377.50').toFixed(2));
    expect(await remaining(t.server, 'agent1', 0)).toBe(pieces0 + 10000);

    const head = await db(t.server)
      .selectFrom('purchase_orders')
      .selectAll()
      .where('order_id', '=', r.body.data.orderId)
      .executeTakeFirstOrThrow();
    const led = await db(t.server)
      .selectFrom('ledger')
      .selectAll()
      .where('id', '=', head.ledger_id!)
      .executeTakeFirstOrThrow();
    expect(led).toMatchObject({ amount: '-377.50', kind: 3 });
    const reb = await db(t.server)
      .selectFrom('rebate_ledger')
      .selectAll()
      .where('id', '=', head.rebate_ledger_id!)
      .executeTakeFirstOrThrow();
    expect(reb).toMatchObject({ amount: '-50.00', kind: 1, order_id: head.order_id });
    const pool = await db(t.server)
      .selectFrom('product_pools')
      .selectAll()
      .where('order_id', '=', head.order_id)
      .executeTakeFirstOrThrow();
    expect(pool).toMatchObject({
      product_type: 0,
      operator_code: 0,
      total: 10000,
      remaining: 10000,
      unit_price: '0.0428',
    });
    expect(pool.due_time.getTime() - t.server.clock.now().getTime()).toBeGreaterThan(364 * 86_400_000);
    expect(await ledgerViolations(t.server)).toEqual([]);
    expect(await poolViolations(t.server)).toEqual([]);

    // a small order (≤ 10 yuan) uses no rebate; several products at once in one order
    const tz = await productId('TZ-QW-1W');
    const gj = await productId('GJ-QW-100');
    const j = await agent1.post(
      '/api/sms/order/jsmsAdd',
      {
        list: [
          { productId: tz, purchaseNum: '100' },
          { productId: gj, purchaseNum: 5 },
        ],
      },
      { json: true },
    );
    expect(j.body.code).toBe(0);
    // 100 × 0.046 × 95 % = 4.37; 5 × 1.00 × 100 % (国际折扣) = 5.00
    expect(j.body.data).toMatchObject({ total: '9.37', rebate: '0.00', paid: '9.37' });
    expect(j.body.data.lines).toHaveLength(2);
    expect(await remaining(t.server, 'agent1', 4)).toBeGreaterThanOrEqual(100);
  });

  it('charges one piece at 0.0437 (0.046 × 95 %) as 0.05, in the answer, the bill line and the ledger', async () => {
    const id = await productId('TZ-QW-1W');
    const bal0 = new Money(await balance(t.server, 'agent1'));
    const r = await agent1.post('/api/sms/order/add', { product_id: id, num: '1' });
    expect(r.body.code).toBe(0);
    expect(r.body.data).toMatchObject({
      total: '0.05',
      paid: '0.05',
      lines: [{ num: 1, amount: '0.05', unitPrice: '0.0437' }],
    });
    expect(new Money(await balance(t.server, 'agent1')).eq(bal0.minus('0.05'))).toBe(true);
    const line = await db(t.server)
      .selectFrom('sms_orders')
      .select('order_amount')
      .where('order_id', '=', r.body.data.orderId)
      .executeTakeFirstOrThrow();
    expect(line.order_amount).toBe('0.05');
    expect(await ledgerViolations(t.server)).toEqual([]);
  });

  it('refuses a requestId reused with another quantity or product, charging nothing more', async () => {
    const id = await productId('YX-QW-1W');
    const other = await productId('TZ-QW-1W');
    const first = await agent1.post('/api/sms/order/add', { product_id: id, num: '10', requestId: 'req-reuse' });
    expect(first.body.code).toBe(0);
    const bal = await balance(t.server, 'agent1');
    const orders = (await rowCounts()).heads;
    for (const again of [
      { product_id: id, num: '1000000', requestId: 'req-reuse' },
      { product_id: other, num: '10', requestId: 'req-reuse' },
    ]) {
      expect((await agent1.post('/api/sms/order/add', again)).body).toMatchObject({
        code: 409,
        msg: MESSAGES.purchaseRequestReused,
      });
    }
    const list = await agent1.post(
      '/api/sms/order/jsmsAdd',
      {
        list: [
          { productId: id, purchaseNum: 10 },
          { productId: other, purchaseNum: 1 },
        ],
        requestId: 'req-reuse',
      },
      { json: true },
    );
    expect(list.body).toMatchObject({ code: 409, msg: MESSAGES.purchaseRequestReused });
    // the same request again is still answered with the first order
    expect(
      (await agent1.post('/api/sms/order/add', { product_id: id, num: '10', requestId: 'req-reuse' })).body.data,
    ).toEqual(first.body.data);
    expect(await balance(t.server, 'agent1')).toBe(bal);
    expect((await rowCounts()).heads).toBe(orders);
  });

  it('answers a repeated requestId with the first result, charging once', async () => {
    const id = await productId('YX-QW-1W');
    const bal0 = new Money(await balance(t.server, 'agent1'));
    const a = await agent1.post('/api/sms/order/add', { product_id: id, num: '1000', requestId: 'req-1' });
    const b = await agent1.post('/api/sms/order/add', { product_id: id, num: '1000', requestId: 'req-1' });
    expect(a.body.code).toBe(0);
    expect(b.body.data).toEqual(a.body.data);
    // 1000 × 0.055 × 90 % = 49.50, no rebate left
    expect(new Money(await balance(t.server, 'agent1')).eq(bal0.minus('49.50'))).toBe(true);
    expect(
      await db(t.server).selectFrom('sms_orders').select('id').where('order_id', '=', a.body.data.orderId).execute(),
    ).toHaveLength(1);
  });

  it('refuses a purchase beyond the balance, writing nothing', async () => {
    const gj = await productId('GJ-QW-100');
    const before = await rowCounts();
    const bal = await balance(t.server, 'agent1');
    const r = await agent1.post('/api/sms/order/add', { product_id: gj, num: '1000000' });
    expect(r.body.code).toBe(500);
    expect(r.body.msg).toBe(`余额不足，当前余额 ${yuanText(bal)} 元，本次需支付 1,000,000.00 元`);
    expect(await rowCounts()).toEqual(before);
    expect(await balance(t.server, 'agent1')).toBe(bal);
  });

  it('keeps sum(ledger) = balance and the pools exact under 50 concurrent purchases', async () => {
    const id = await productId('YZM-QW-1W');
    const bal0 = new Money(await balance(t.server, 'agent1'));
    const pieces0 = await remaining(t.server, 'agent1', 3);
    const heads0 = (await rowCounts()).heads;
    // 50 purchases of 1..50 × 100 pieces at 0.048 × 95 %
    const rs = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        agent1.post('/api/sms/order/add', { product_id: id, num: String((i + 1) * 100) }),
      ),
    );
    expect(rs.every((r) => r.body.code === 0)).toBe(true);
    const paid = rs.reduce((s, r) => s.plus(r.body.data.paid), new Money(0));
    const expected = Array.from({ length: 50 }, (_, i) => lineAmount((i + 1) * 100, '0.0480', '95')).reduce(
      (s, x) => s.plus(x),
      new Money(0),
    );
    expect(paid.eq(expected)).toBe(true);
    expect(new Money(await balance(t.server, 'agent1')).eq(bal0.minus(expected))).toBe(true);
    expect(await remaining(t.server, 'agent1', 3)).toBe(pieces0 + 127_500);
    expect((await rowCounts()).heads).toBe(heads0 + 50);
    expect(new Set(rs.map((r) => r.body.data.orderId)).size).toBe(50);
    expect(await ledgerViolations(t.server)).toEqual([]);
    expect(await poolViolations(t.server)).toEqual([]);
    // the balance after each order is distinct: they serialised on the account row
    const agentId = await accountId(t.server, 'agent1');
    const rows = await db(t.server)
      .selectFrom('ledger')
      .select(['amount', 'balance_after'])
      .where('account_id', '=', agentId)
      .where('kind', '=', 3)
      .orderBy('id')
      .execute();
    for (let i = 1; i < rows.length; i++)
      expect(new Money(rows[i - 1].balance_after).plus(rows[i].amount).eq(rows[i].balance_after)).toBe(true);
  });

  it('shows every order line in the SMS bill, traceable to its ledger row, and exports it', async () => {
    const r = await agent1.post('/api/finance/bill/sms', {});
    expect(r.body.code).toBe(0);
    const rows = r.body.data.list;
    expect(r.body.data.totalCount).toBe(
      Number(
        (
          await db(t.server)
            .selectFrom('sms_orders')
            .select(sql<string>`count(*)::text`.as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    );
    expect(rows).toHaveLength(15);
    const gj = (await agent1.post('/api/finance/bill/sms', { orderInfo: '国际短信' })).body.data.list[0];
    expect(gj).toMatchObject({
      product_type_str: '国际',
      sms_balance_change_flag: '+',
      sms_balance_change_amount: '5.00元',
      order_type_str: '购买',
      client_id: 'agent1',
      order_amount: '5.00',
    });
    const hy = (await agent1.post('/api/finance/bill/sms', { orderInfo: '行业短信 1万条' })).body.data.list[0];
    // the price charged (0.0450 × 95 %), not the list price; the list price and discount beside it; counts grouped
    expect(hy).toMatchObject({
      product_code: 'HY-QW-1W',
      sms_balance_change_amount: '10,000条',
      unit_price: '0.0428',
      list_price: '0.0450',
      discount: '95.00',
      order_amount: '427.50',
    });
    // traceable: order lines → the order → its ledger row (amount = −(total − rebate))
    const head = await db(t.server)
      .selectFrom('purchase_orders')
      .selectAll()
      .where('order_id', '=', hy.order_id)
      .executeTakeFirstOrThrow();
    const led = await db(t.server)
      .selectFrom('ledger')
      .select('amount')
      .where('id', '=', head.ledger_id!)
      .executeTakeFirstOrThrow();
    expect(new Money(led.amount).neg().plus(head.rebate).eq(head.total)).toBe(true);
    // every order: sum of its lines = total; ledger row = −paid
    const bad = await sql`
      select po.order_id from purchase_orders po
        join (select order_id, sum(order_amount) s from sms_orders group by order_id) l on l.order_id = po.order_id
        left join ledger g on g.id = po.ledger_id
      where l.s <> po.total or po.total - po.rebate <> po.paid or coalesce(-g.amount, 0) <> po.paid`.execute(
      db(t.server),
    );
    expect(bad.rows).toEqual([]);

    expect((await agent1.post('/api/finance/bill/sms', { order_type: 1 })).body.data.totalCount).toBe(0);
    const data = await agent1.get('/api/finance/bill/sms/data');
    expect(data.body.data.rebate_useable).toBe('0.00');

    const x = await agent1.post('/api/finance/bill/sms/export', { orderInfo: '行业短信 1万条' });
    expect(x.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(x.raw.rawPayload as any);
    const ws = wb.worksheets[0];
    expect(ws.getRow(1).getCell(1).value).toBe('订单号');
    expect(ws.getRow(2).getCell(1).value).toBe(hy.order_id);
    const none = await agent1.post('/api/finance/bill/sms/export', { orderInfo: 'no-such-order' });
    expect(none.body.msg).toBe('当前条件没有数据，无法导出');
  });

  it('filters the bills by their filter schemas (x-column / x-op): business days, text, enums; bad values refused with the spec’s message', async () => {
    const all = (await agent1.post('/api/finance/bill/sms', {})).body.data;
    const day = String(all.list[0].create_time).slice(0, 10);
    const dayBefore = new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const count = async (body: object) => (await agent1.post('/api/finance/bill/sms', body)).body.data.totalCount;
    // the orders of today's business day: all of them; the day before: none; the end day included
    expect(await count({ start_time_day: day, end_time_day: day })).toBe(all.totalCount);
    expect(await count({ start_time_day: dayBefore, end_time_day: dayBefore })).toBe(0);
    expect(await count({ end_time_day: dayBefore })).toBe(0);
    expect(await count({ start_time_day: '', end_time_day: '' })).toBe(all.totalCount);
    // a reversed range, an impossible date, an unknown order type: 400 with the message
    const reversed = await agent1.post('/api/finance/bill/sms', { start_time_day: day, end_time_day: dayBefore });
    expect([reversed.body.code, reversed.body.msg]).toEqual([400, '结束日期不能早于开始日期']);
    const badDate = await agent1.post('/api/finance/bill/sms', { start_time_day: '2024-02-30' });
    expect([badDate.body.code, badDate.body.msg]).toEqual([400, '日期格式不正确']);
    const badType = await agent1.post('/api/finance/bill/sms', { order_type: 99 });
    expect([badType.body.code, badType.body.msg]).toEqual([400, MESSAGES.badParam]);
    // orderInfo: the order id, product name or account contains it; LIKE wildcards match themselves
    expect(await count({ orderInfo: all.list[0].order_id.slice(-10) })).toBeGreaterThan(0);
    expect(await count({ orderInfo: 'AGENT1' })).toBe(all.totalCount);
    expect(await count({ orderInfo: '%' })).toBe(0);
    // the rebate bill: the order id contains, the business days
    const rebate = (await agent1.get('/api/finance/bill/rebate')).body.data;
    const withOrder = rebate.list.find((r: any) => r.order_id);
    expect(
      (await agent1.get(`/api/finance/bill/rebate?order_id=${withOrder.order_id.slice(2, 12)}`)).body.data.list.map(
        (r: any) => r.id,
      ),
    ).toContain(withOrder.id);
    expect(
      (await agent1.get(`/api/finance/bill/rebate?start_time_day=${dayBefore}&end_time_day=${dayBefore}`)).body.data
        .totalCount,
    ).toBe(0);
    expect((await agent1.get('/api/finance/bill/rebate?financial_type=7')).body.msg).toBe(MESSAGES.badParam);
    // the purchase record: the account and its name contain the text
    expect((await agent1.post('/api/finance/bill/purchaseHistory', { clientid: 'GENT1' })).body.data.totalCount).toBe(
      all.totalCount,
    );
    expect(
      (await agent1.post('/api/finance/bill/purchaseHistory', { realname: 'no-such-name' })).body.data.totalCount,
    ).toBe(0);
    // products: one product by its id; a malformed id refused
    const one = await agent1.post('/api/sms/products', { product_id: await productId('HY-QW-1W') });
    expect(one.body.data.list.map((p: any) => p.product_code)).toEqual(['HY-QW-1W']);
    const badId = await agent1.post('/api/sms/products', { product_id: 'abc' });
    expect([badId.body.code, badId.body.msg]).toEqual([400, MESSAGES.badParam]);
    // the pools: an unknown carrier refused
    expect((await agent1.post('/api/agent/newpools', { operator_code: 'x' })).body.msg).toBe(MESSAGES.badParam);
    // several products: a list that is not one, too many lines
    const notList = await agent1.post('/api/sms/order/jsmsAdd', { list: 'x' });
    expect([notList.body.code, notList.body.msg]).toEqual([400, MESSAGES.badParam]);
    const tooMany = await agent1.post('/api/sms/order/jsmsAdd', {
      list: Array.from({ length: 51 }, () => ({ productId: 1, purchaseNum: 1 })),
    });
    expect([tooMany.body.code, tooMany.body.msg]).toEqual([400, MESSAGES.badParam]);
  });

  it('shows the rebate bill: usable, accumulated income and pay, rows', async () => {
    const r = await agent1.get('/api/finance/bill/rebate');
    expect(r.body.data).toMatchObject({
      rebate_income: '0.00',
      accumulated_rebate_income: '50.00',
      accumulated_rebate_pay: '50.00',
      totalCount: 2,
    });
    expect(r.body.data.list[0]).toMatchObject({ financial_type_str: '返点扣除', balance: '-50.00' });
    const inc = await agent1.get('/api/finance/bill/rebate?financial_type=0');
    expect(inc.body.data.list).toHaveLength(1);
    const x = await agent1.post('/api/finance/bill/rebate/export', {});
    expect(x.headers['content-type']).toContain('spreadsheetml');
    const client1 = await as(t.server, 'client1');
    expect((await client1.post('/api/finance/bill/rebate/export', {})).body.msg).toBe('当前条件没有数据，无法导出');
  });

  it('lists purchase history in both modes and the pools', async () => {
    const h = await agent1.post('/api/finance/bill/purchaseHistory', { product_type: 2 });
    expect(h.body.data.list[0]).toMatchObject({
      client_id: 'agent1',
      orderTypeStr: '购买',
      productTypeStr: '国际',
      order_number: '5.00元',
      unit_price: '1.0000',
    });
    const hyRecord = (await agent1.post('/api/finance/bill/purchaseHistory', { product_type: 0 })).body.data.list.find(
      (x: any) => x.order_number === '10,000条',
    );
    expect(hyRecord).toMatchObject({ unit_price: '0.0428' });
    expect(h.body.data.list[0].consumer_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const client1 = await as(t.server, 'client1');
    expect((await client1.post('/api/finance/bill/purchaseHistory', {})).body.data.totalCount).toBe(0);

    // mode 0: the ledger rows of agent0's sub-accounts
    const agent0 = await as(t.server, 'agent0');
    const rc = await agent0.post('/api/client/recharge', { clientId: 'client0', amount: '12.34' });
    expect(rc.body.code).toBe(0);
    const d = await agent0.post('/api/finance/bill/direct/purchaseHistory', { payment_type: 12 });
    expect(d.body.data.list[0]).toMatchObject({ clientid: 'client0', payment_type_str: '子账户充值', amount: '12.34' });
    const dx = await agent0.post('/api/finance/bill/direct/purchaseHistory/export', {});
    expect(dx.headers['content-type']).toContain('spreadsheetml');
    const hx = await agent1.post('/api/finance/bill/purchaseHistory/export', {});
    expect(hx.headers['content-type']).toContain('spreadsheetml');
    // agents see the unit price column (spec 02 §3: unit_price, agents only) in the export too
    const hwb = new ExcelJS.Workbook();
    await hwb.xlsx.load(hx.raw.rawPayload as any);
    expect((hwb.worksheets[0].getRow(1).values as unknown[]).includes('单价（元）')).toBe(true);

    // pools: the agent's own and its sub-accounts'; a sub-account's own
    const p = await agent1.post('/api/agent/newpools', { product_type: 3 });
    expect(p.body.code).toBe(0);
    expect(p.body.data.list.some((x: any) => x.client_id === 'agent1' && x.product_type_str === '验证码')).toBe(true);
    // an international pool holds yuan (kept in 分): the 5 元 bought
    const gjPool = await agent1.post('/api/agent/newpools', { product_type: 2 });
    expect(gjPool.body.data.list.find((x: any) => x.client_id === 'agent1')).toMatchObject({
      account_balance: '5.00元',
      remaining: 5,
    });
    const gjUnits = await db(t.server)
      .selectFrom('product_pools as p')
      .innerJoin('accounts as a', 'a.id', 'p.account_id')
      .select(['p.total', 'p.remaining'])
      .where('a.clientid', '=', 'agent1')
      .where('p.product_type', '=', 2)
      .execute();
    expect(gjUnits).toEqual([{ total: 500, remaining: 500 }]);
    const own = await client1.get('/api/client/pools');
    expect(own.body.data.list.length).toBeGreaterThan(0);
    expect(own.body.data.list.every((x: any) => x.client_id === 'client1')).toBe(true);
    expect(own.body.data.list.some((x: any) => x.dead === 0)).toBe(true);
    expect((await client1.post('/api/agent/newpools', {})).body.code).toBe(403);
  });

  it('lets the buyer keep its rebate: useRebate false pays the whole total from the balance', async () => {
    await db(t.server)
      .updateTable('accounts')
      .set({ rebate_useable: '20.00' })
      .where('clientid', '=', 'agent1')
      .execute();
    const id = await productId('HY-YD-5W');
    const bal0 = new Money(await balance(t.server, 'agent1'));
    // 1000 × 0.0400 × 95 % = 38.00 > 10: the rebate could pay, the buyer says no
    const kept = await agent1.post(
      '/api/sms/order/jsmsAdd',
      { list: [{ productId: id, purchaseNum: 1000 }], useRebate: false },
      { json: true },
    );
    expect(kept.body.data).toMatchObject({ total: '38.00', rebate: '0.00', paid: '38.00', rebateUseable: '20.00' });
    expect(new Money(await balance(t.server, 'agent1')).eq(bal0.minus('38.00'))).toBe(true);
    // the form route takes the choice too; by default the rebate pays first
    const used = await agent1.post('/api/sms/order/add', { product_id: id, num: '1000', useRebate: 'true' });
    expect(used.body.data).toMatchObject({ total: '38.00', rebate: '20.00', paid: '18.00', rebateUseable: '0.00' });
    expect(await ledgerViolations(t.server)).toEqual([]);
  });

  it('neither lists nor charges an expired pool', async () => {
    const agentId = await accountId(t.server, 'agent1');
    const pools = await db(t.server)
      .selectFrom('product_pools')
      .select(['id'])
      .where('account_id', '=', agentId)
      .where('product_type', '=', 3)
      .execute();
    const before = await agent1.post('/api/agent/newpools', { product_type: 3 });
    expect(before.body.data.totalCount).toBeGreaterThanOrEqual(pools.length);
    const now = t.server.clock.now();
    expect((await usablePools(db(t.server), agentId, 4, now)).filter((p) => p.product_type === 3)).toHaveLength(
      pools.length,
    );
    // one pool reaches its due time
    await db(t.server)
      .updateTable('product_pools')
      .set({ due_time: new Date(now.getTime() - 1000) })
      .where('id', '=', pools[0].id)
      .execute();
    const after = await agent1.post('/api/agent/newpools', { product_type: 3 });
    expect(after.body.data.totalCount).toBe(before.body.data.totalCount - 1);
    const usable = await usablePools(db(t.server), agentId, 4, now);
    expect(usable.map((p) => p.id)).not.toContain(pools[0].id);
  });
});

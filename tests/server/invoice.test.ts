import { describe, expect, it } from 'vitest';
import { runCommand } from '../../server/cli/operator-channel';
import { hashPassword } from '../../server/lib/crypto';
import { LedgerService } from '../../server/modules/ledger/service';
import { backends, useServer, type Client, type TestServer } from './harness';
import { BillPaymentType } from '../../common/generated/schemas';

let seq = 0;
/** A fresh account (agent, or a sub-account of `agent`) logged in, with `paidIn` recharged through the ledger. */
async function account(
  s: TestServer,
  p: { user_type?: '1' | '2'; agent?: string; paidIn?: string } = {},
): Promise<{ c: Client; clientid: string; id: number }> {
  seq++;
  const user_type = p.user_type ?? '1';
  const clientid = `i${process.pid % 1000}${seq}${Math.floor(Math.random() * 1000)}`.slice(0, 12);
  const agentId = p.agent
    ? (await s.handle.db.selectFrom('accounts').select('id').where('clientid', '=', p.agent).executeTakeFirstOrThrow())
        .id
    : null;
  const r = await s.handle.db
    .insertInto('accounts')
    .values({
      clientid,
      user_type,
      agent_id: agentId,
      name: '发票测试',
      email: `${clientid}@test.local`,
      password_hash: await hashPassword('Demo1234'),
      oauth_status: 3,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (p.paidIn)
    await new LedgerService({ db: s.handle.db, now: s.clock.now }).credit(r.id, p.paidIn, {
      kind: BillPaymentType.Recharge,
      remark: '测试充值',
    });
  const c = await s.client().init();
  const login = await c.login(clientid);
  if (login.body.code !== 0) throw new Error(`login ${clientid}: ${login.body.msg}`);
  return { c, clientid, id: r.id };
}

const ORDINARY = {
  invoiceType: 1,
  invoiceAmount: '100.00',
  invoiceBody: 2,
  invoiceHead: '上海云讯通信科技有限公司',
  creditCode: '91310115MA1K4ABCD1',
  email: 'fp@demo.local',
  toPhone: '13800138001',
};
const VAT = {
  invoiceType: 2,
  invoiceAmount: '200.50',
  invoiceBody: 2,
  invoiceHead: '上海云讯通信科技有限公司',
  creditCode: '91310115MA1K4ABCD1',
  companyRegAddr: '上海市浦东新区碧波路690号',
  telphone: '021-12345678',
  bank: '招商银行上海张江支行',
  bankAccount: '6225880212345678',
  toName: '王建国',
  toPhone: '13800138001',
  toAddr: '上海市/市辖区/浦东新区',
  toAddrDetail: '碧波路690号3号楼',
};

const cli = (s: TestServer, ...argv: string[]) => runCommand({ db: s.handle.db, now: s.clock.now }, argv);
const canAmount = async (c: Client) => (await c.post('/api/invoice/getCanInvoiceAmount')).body.data.canAmount as string;

describe.each(backends)('invoices (%s)', (backend) => {
  const t = useServer(backend);

  it('canAmount = recharges − held invoices; a sub-account counts its agent’s recharges and rollbacks', async () => {
    const a = await account(t.server, { paidIn: '1000.00' });
    expect(await canAmount(a.c)).toBe('1000.00');
    // the agent's recharge of a sub-account is not money the agent paid in
    const sub = await account(t.server, { user_type: '2', agent: a.clientid });
    const agentRow = await t.server.handle.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();
    const ledger = new LedgerService({ db: t.server.handle.db, now: t.server.clock.now });
    await ledger.transfer('recharge', agentRow, { clientId: sub.clientid, amount: '300.00' });
    await ledger.transfer('rollback', agentRow, { clientId: sub.clientid, amount: '50.25' });
    expect(await canAmount(a.c)).toBe('1000.00');
    expect(await canAmount(sub.c)).toBe('249.75');
    // a deduction of credit (kind 10) does not count
    await ledger.credit(a.id, '-100.00');
    expect(await canAmount(a.c)).toBe('1000.00');
    const r = await a.c.post('/api/invoice/add', { ...ORDINARY, invoiceAmount: '333.33' }, { json: true });
    expect(r.body).toMatchObject({
      code: 0,
      msg: '发票申请已提交，请等待审核',
      data: { status: 0, statusStr: '待审核', invoiceAmount: '333.33', invoiceProject: '信息服务费' },
    });
    expect(r.body.data.invoiceId).toMatch(/^FP\d{8}\d{6}$/);
    expect(await canAmount(a.c)).toBe('666.67');
  });

  it('every rule and message of the form (spec §5 Invoice)', async () => {
    const a = await account(t.server, { paidIn: '500.00' });
    const msg = async (p: Record<string, unknown>) => (await a.c.post('/api/invoice/add', p, { json: true })).body;
    const bad = async (p: Record<string, unknown>, m: string, field?: string) => {
      const b = await msg(p);
      expect(b.code, JSON.stringify(b)).toBe(400);
      expect(b.msg).toBe(m);
      if (field) expect(b.data.errors.map((e: { field: string }) => e.field)).toContain(field);
    };
    for (const v of ['abc', '1.234', '-5', '01', '1e3', ''])
      await bad({ ...ORDINARY, invoiceAmount: v }, '发票金额必须为数字,最多保留两位小数', 'invoiceAmount');
    for (const v of ['0', '0.00', '0.0'])
      await bad({ ...ORDINARY, invoiceAmount: v }, '发票金额不能为0', 'invoiceAmount');
    await bad(
      { ...ORDINARY, invoiceAmount: '500.01' },
      '发票金额不能大于可开票金额（可开票金额 500.00 元）',
      'invoiceAmount',
    );
    await bad({ ...ORDINARY, invoiceHead: '' }, '发票抬头不能为空', 'invoiceHead');
    await bad({ ...ORDINARY, invoiceHead: '   ' }, '发票抬头不能为空', 'invoiceHead');
    await bad({ ...ORDINARY, invoiceHead: '抬'.repeat(51) }, '发票抬头不能超过50个字符', 'invoiceHead');
    await bad({ ...ORDINARY, email: '' }, '邮箱不能为空', 'email');
    await bad({ ...ORDINARY, email: 'not-mail' }, '邮箱格式不正确', 'email');
    await bad({ ...ORDINARY, toPhone: '' }, '手机号码不能为空', 'toPhone');
    await bad({ ...ORDINARY, toPhone: '1380013800' }, '手机号码格式不正确', 'toPhone');
    // enterprise ordinary: the tax number is required; personal: not
    await bad({ ...ORDINARY, creditCode: '' }, '纳税人识别号不能为空', 'creditCode');
    await bad({ ...ORDINARY, creditCode: 'abc' }, '纳税人识别号格式不正确', 'creditCode');
    expect(
      (await msg({ ...ORDINARY, invoiceBody: 1, invoiceHead: '张三', creditCode: '', invoiceAmount: '1.5' })).code,
    ).toBe(0);
    await bad({ ...ORDINARY, remark: '备'.repeat(51) }, '备注最大长度不超过50个字符', 'remark');
    // VAT: every field, named
    const vatFields: [string, string][] = [
      ['creditCode', '纳税人识别号不能为空'],
      ['companyRegAddr', '注册地址不能为空'],
      ['telphone', '注册电话不能为空'],
      ['bank', '开户银行不能为空'],
      ['bankAccount', '银行账号不能为空'],
      ['toName', '收件人不能为空'],
      ['toPhone', '收件人电话不能为空'],
      ['toAddr', '所在地区不能为空'],
      ['toAddrDetail', '详细地址不能为空'],
    ];
    for (const [f, m] of vatFields) {
      await bad({ ...VAT, [f]: '' }, m, f);
      const without: Record<string, unknown> = { ...VAT };
      delete without[f];
      await bad(without, m, f);
    }
    await bad({ ...VAT, invoiceBody: 1 }, '增值税专用发票只能开具给企业', 'invoiceBody');
    await bad({ ...VAT, telphone: 'abc' }, '注册电话格式不正确', 'telphone');
    await bad({ ...VAT, bankAccount: '12ab' }, '银行账号格式不正确', 'bankAccount');
    await bad({ ...VAT, toAddr: '火星/市辖区/浦东新区' }, '所在地区不正确', 'toAddr');
    await bad({ ...VAT, invoiceType: 3 }, '参数错误');
    await bad({ ...VAT, invoiceType: undefined }, '请选择发票类型', 'invoiceType');
    // a VAT invoice needs no e-mail; the form post (urlencoded) works like JSON
    const ok = await a.c.post('/api/invoice/add', VAT);
    expect(ok.body).toMatchObject({
      code: 0,
      data: { invoiceType: 2, toAddr: '上海市/市辖区/浦东新区', email: '', invoiceAmount: '200.50' },
    });
    // checkObject: the same rules, nothing saved
    const before = await canAmount(a.c);
    expect(
      (await a.c.post('/api/invoice/checkObject', { ...VAT, invoiceAmount: '10' }, { json: true })).body,
    ).toMatchObject({ code: 0, data: { canAmount: before } });
    expect((await a.c.post('/api/invoice/checkObject', { ...VAT, bank: '' }, { json: true })).body).toMatchObject({
      code: 400,
      msg: '开户银行不能为空',
    });
    expect(await canAmount(a.c)).toBe(before);
  });

  it('a sub-account applies for an ordinary invoice only, whatever it posts; the saved information comes back', async () => {
    const a = await account(t.server, { paidIn: '100.00' });
    const sub = await account(t.server, { user_type: '2', agent: a.clientid });
    const agentRow = await t.server.handle.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();
    await new LedgerService({ db: t.server.handle.db, now: t.server.clock.now }).transfer('recharge', agentRow, {
      clientId: sub.clientid,
      amount: '80.00',
    });
    const r = await sub.c.post(
      '/api/invoice/add',
      { ...VAT, invoiceAmount: '10', email: 'sub@demo.local' },
      { json: true },
    );
    expect(r.body).toMatchObject({ code: 0, data: { invoiceType: 1, bank: '', toAddr: '', email: 'sub@demo.local' } });
    const init = (await sub.c.post('/api/invoice/initInvoice')).body.data;
    expect(init).toMatchObject({
      canAmount: '70.00',
      invoiceProject: '信息服务费',
      canChooseType: false,
      invoiceTypes: [1],
      ordinary: { invoiceHead: VAT.invoiceHead, email: 'sub@demo.local' },
    });
    // the agent's VAT information is saved per type
    await a.c.post('/api/invoice/add', { ...VAT, invoiceAmount: '1' }, { json: true });
    expect((await a.c.post('/api/invoice/getAddedTaxInvoiceConfig')).body.data).toMatchObject({
      invoiceType: 2,
      bank: VAT.bank,
      toAddr: VAT.toAddr,
    });
    expect((await a.c.post('/api/invoice/getOrdinaryInvoiceConfig')).body.data).toMatchObject({
      invoiceType: 1,
      invoiceHead: '',
    });
  });

  it('an agent applies on behalf of its own sub-account: that account’s canAmount, information and list', async () => {
    const a = await account(t.server, { paidIn: '1000.00' });
    const sub = await account(t.server, { user_type: '2', agent: a.clientid });
    const agentRow = await t.server.handle.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();
    await new LedgerService({ db: t.server.handle.db, now: t.server.clock.now }).transfer('recharge', agentRow, {
      clientId: sub.clientid,
      amount: '300.00',
    });
    // the sub-account's invoiceable amount, asked by its agent
    expect(await canAmount(a.c)).toBe('1000.00');
    expect((await a.c.post('/api/invoice/getCanInvoiceAmount', { clientId: sub.clientid })).body.data.canAmount).toBe(
      '300.00',
    );
    expect((await a.c.post('/api/invoice/initInvoice', { clientId: sub.clientid })).body.data).toMatchObject({
      clientId: sub.clientid,
      accountStr: `${sub.clientid}-发票测试`,
      canAmount: '300.00',
      canChooseType: true,
      canChooseAccount: true,
      invoiceTypes: [1, 2],
      ordinary: { invoiceHead: '' },
    });
    expect((await a.c.post('/api/invoice/initInvoice')).body.data).toMatchObject({
      clientId: a.clientid,
      canAmount: '1000.00',
      canChooseAccount: true,
    });
    // its own clientid is itself
    expect((await a.c.post('/api/invoice/getCanInvoiceAmount', { clientId: a.clientid })).body.data.canAmount).toBe(
      '1000.00',
    );

    // limited by the sub-account's amount, not the agent's
    const over = await a.c.post(
      '/api/invoice/add',
      { ...VAT, invoiceAmount: '300.01', clientId: sub.clientid },
      { json: true },
    );
    expect(over.body).toMatchObject({ code: 400, msg: '发票金额不能大于可开票金额（可开票金额 300.00 元）' });
    expect(
      (
        await a.c.post(
          '/api/invoice/checkObject',
          { ...VAT, invoiceAmount: '10', clientId: sub.clientid },
          { json: true },
        )
      ).body,
    ).toMatchObject({
      code: 0,
      data: { canAmount: '300.00' },
    });
    const made = await a.c.post(
      '/api/invoice/add',
      { ...VAT, invoiceAmount: '120', clientId: sub.clientid },
      { json: true },
    );
    expect(made.body).toMatchObject({
      code: 0,
      data: {
        invoiceType: 2,
        invoiceAmount: '120.00',
        clientId: sub.clientid,
        accountStr: `${sub.clientid}-发票测试`,
        applicantStr: `${a.clientid}-发票测试`,
        status: 0,
      },
    });
    const inv = made.body.data;
    expect(await canAmount(sub.c)).toBe('180.00');
    expect(await canAmount(a.c)).toBe('1000.00');
    const row = await t.server.handle.db
      .selectFrom('invoices')
      .select(['account_id', 'applicant_id'])
      .where('id', '=', inv.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ account_id: sub.id, applicant_id: a.id });
    // the information is saved as the sub-account's, not the agent's
    expect((await sub.c.post('/api/invoice/getAddedTaxInvoiceConfig')).body.data).toMatchObject({ bank: VAT.bank });
    expect(
      (await a.c.post('/api/invoice/getAddedTaxInvoiceConfig', { clientId: sub.clientid })).body.data,
    ).toMatchObject({ bank: VAT.bank });
    expect((await a.c.post('/api/invoice/getAddedTaxInvoiceConfig')).body.data).toMatchObject({ bank: '' });
    // both see it; the agent's list also has its own
    await a.c.post('/api/invoice/add', { ...ORDINARY, invoiceAmount: '5' }, { json: true });
    const agentList = (await a.c.post('/api/invoice/invoiceList', {})).body.data.data;
    expect(agentList.map((r: any) => [r.invoiceAmount, r.accountStr])).toEqual([
      ['5.00', `${a.clientid}-发票测试`],
      ['120.00', `${sub.clientid}-发票测试`],
    ]);
    const subList = (await sub.c.post('/api/invoice/invoiceList', {})).body.data.data;
    expect(subList.map((r: any) => r.id)).toEqual([inv.id]);
    expect((await sub.c.post('/api/invoice/invoiceDetailed', { id: inv.id })).body.data).toMatchObject({
      applicantStr: `${a.clientid}-发票测试`,
    });
    // the sub-account chooses nothing: a clientId it sends is ignored
    const own = await sub.c.post(
      '/api/invoice/add',
      { ...ORDINARY, invoiceAmount: '10', clientId: a.clientid },
      { json: true },
    );
    expect(own.body).toMatchObject({
      code: 0,
      data: { clientId: sub.clientid, applicantStr: `${sub.clientid}-发票测试` },
    });
    expect((await sub.c.post('/api/invoice/getCanInvoiceAmount', { clientId: a.clientid })).body.data.canAmount).toBe(
      '170.00',
    );
    // the agent cancels what it applied for; the amount goes back to the sub-account
    t.server.clock.advance(5);
    const cancelled = await a.c.post(
      '/api/invoice/invoiceCancelApply',
      { id: inv.id, invoiceId: inv.invoiceId, status: 0, updateTime: inv.updateTime },
      { json: true },
    );
    expect(cancelled.body).toMatchObject({ code: 0, data: { status: 1 } });
    expect(await canAmount(sub.c)).toBe('290.00');
  });

  it('an agent cannot apply for, nor read the amount of, another agent’s sub-account', async () => {
    const a = await account(t.server, { paidIn: '1000.00' });
    const b = await account(t.server, { paidIn: '1000.00' });
    const theirs = await account(t.server, { user_type: '2', agent: b.clientid });
    const bRow = await t.server.handle.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', b.id)
      .executeTakeFirstOrThrow();
    await new LedgerService({ db: t.server.handle.db, now: t.server.clock.now }).transfer('recharge', bRow, {
      clientId: theirs.clientid,
      amount: '500.00',
    });
    const refused = { code: 403, msg: '无权访问' };
    for (const clientId of [theirs.clientid, b.clientid, 'nosuchclient']) {
      expect((await a.c.post('/api/invoice/getCanInvoiceAmount', { clientId })).body).toMatchObject(refused);
      expect((await a.c.post('/api/invoice/initInvoice', { clientId })).body).toMatchObject(refused);
      expect((await a.c.post('/api/invoice/getOrdinaryInvoiceConfig', { clientId })).body).toMatchObject(refused);
      expect(
        (await a.c.post('/api/invoice/checkObject', { ...ORDINARY, invoiceAmount: '1', clientId }, { json: true }))
          .body,
      ).toMatchObject(refused);
      expect(
        (await a.c.post('/api/invoice/add', { ...ORDINARY, invoiceAmount: '1', clientId }, { json: true })).body,
      ).toMatchObject(refused);
    }
    expect(
      await t.server.handle.db.selectFrom('invoices').select('id').where('applicant_id', '=', a.id).execute(),
    ).toEqual([]);
    // nor its invoices: b's on-behalf invoice stays b's and theirs
    const inv = (
      await b.c.post(
        '/api/invoice/add',
        { ...ORDINARY, invoiceAmount: '50', clientId: theirs.clientid },
        { json: true },
      )
    ).body.data;
    expect((await a.c.post('/api/invoice/invoiceDetailed', { id: inv.id })).body).toMatchObject({ code: 404 });
    expect((await a.c.post('/api/invoice/invoiceList', {})).body.data.totalRecord).toBe(0);
    expect(
      (
        await a.c.post(
          '/api/invoice/invoiceCancelApply',
          { id: inv.id, invoiceId: inv.invoiceId, status: 0, updateTime: inv.updateTime },
          { json: true },
        )
      ).body.code,
    ).toBe(404);
    expect((await theirs.c.post('/api/invoice/invoiceList', {})).body.data.data.map((r: any) => r.id)).toEqual([
      inv.id,
    ]);
  });

  it('the agent’s and the sub-account’s own concurrent applications never pass the sub-account’s canAmount', async () => {
    const a = await account(t.server, { paidIn: '1000.00' });
    const sub = await account(t.server, { user_type: '2', agent: a.clientid });
    const agentRow = await t.server.handle.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();
    await new LedgerService({ db: t.server.handle.db, now: t.server.clock.now }).transfer('recharge', agentRow, {
      clientId: sub.clientid,
      amount: '180.00',
    });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? a.c.post('/api/invoice/add', { ...ORDINARY, invoiceAmount: '50', clientId: sub.clientid }, { json: true })
          : sub.c.post('/api/invoice/add', { ...ORDINARY, invoiceAmount: '50' }, { json: true }),
      ),
    );
    expect(results.filter((r) => r.body.code === 0)).toHaveLength(3);
    expect(results.filter((r) => r.body.code !== 0).every((r) => r.body.code === 400)).toBe(true);
    expect(await canAmount(sub.c)).toBe('30.00');
    expect(await canAmount(a.c)).toBe('1000.00');
  });

  it('canAmount is never exceeded by 50 concurrent applications', async () => {
    const a = await account(t.server, { paidIn: '1000.00' });
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        a.c.post('/api/invoice/add', { ...ORDINARY, invoiceAmount: '99.99' }, { json: true }),
      ),
    );
    const codes = results.map((r) => r.body.code);
    expect(codes.filter((c) => c === 0)).toHaveLength(10);
    expect(codes.filter((c) => c !== 0).every((c) => c === 400)).toBe(true);
    expect(results.find((r) => r.body.code === 400)!.body.msg).toMatch(/^发票金额不能大于可开票金额/);
    const held = await t.server.handle.db
      .selectFrom('invoices')
      .select((eb) => eb.fn.sum<string>('invoice_amount').as('s'))
      .where('account_id', '=', a.id)
      .executeTakeFirstOrThrow();
    expect(Number(held.s).toFixed(2)).toBe('999.90');
    expect(await canAmount(a.c)).toBe('0.10');
    // and the numbers are unique
    const nos = new Set(results.filter((r) => r.body.code === 0).map((r) => r.body.data.invoiceId));
    expect(nos.size).toBe(10);
  });

  it('list with filters and paging, detail, another account sees nothing', async () => {
    const a = await account(t.server, { paidIn: '1000.00' });
    await a.c.post('/api/invoice/add', { ...ORDINARY, invoiceAmount: '1' }, { json: true });
    await a.c.post('/api/invoice/add', { ...VAT, invoiceAmount: '2' }, { json: true });
    await a.c.post('/api/invoice/add', { ...ORDINARY, invoiceAmount: '3' }, { json: true });
    const list = (await a.c.post('/api/invoice/invoiceList', { page: 1, rows: 2 })).body.data;
    expect(list).toMatchObject({ totalRecord: 3, page: 1, rows: 2, totalPage: 2 });
    expect(list.data.map((r: any) => r.invoiceAmount)).toEqual(['3.00', '2.00']);
    expect(list.data[0]).toMatchObject({
      rowNum: 1,
      invoiceAmountStr: '3.00',
      statusStr: '待审核',
      applicantStr: `${a.clientid}-发票测试`,
    });
    expect(typeof list.data[0].updateTime).toBe('number');
    expect(
      (await a.c.post('/api/invoice/invoiceList', { invoiceType: 2 })).body.data.data.map((r: any) => r.invoiceAmount),
    ).toEqual(['2.00']);
    expect((await a.c.post('/api/invoice/invoiceList', { status: 1 })).body.data.totalRecord).toBe(0);
    const today = new Date(t.server.clock.now().getTime() + 8 * 3600_000).toISOString().slice(0, 10);
    expect(
      (await a.c.post('/api/invoice/invoiceList', { startTime: today, endTime: today })).body.data.totalRecord,
    ).toBe(3);
    expect(
      (await a.c.post('/api/invoice/invoiceList', { startTime: '2020-01-01', endTime: '2020-01-02' })).body.data
        .totalRecord,
    ).toBe(0);
    expect((await a.c.post('/api/invoice/invoiceList', { startTime: '2026-02-31' })).body.code).toBe(400);
    expect(
      (await a.c.post('/api/invoice/invoiceList', { startTime: '2020-01-02', endTime: '2020-01-01' })).body,
    ).toMatchObject({ code: 400, msg: '开始时间不能晚于结束时间' });
    expect((await a.c.post('/api/invoice/invoiceList', { invoiceType: 3 })).body.code).toBe(400);
    expect((await a.c.post('/api/invoice/invoiceList', { page: 9 })).body.data).toMatchObject({
      totalRecord: 3,
      data: [],
    });
    const vatId = list.data[1].id;
    expect((await a.c.post('/api/invoice/invoiceDetailed', { id: vatId, invoiceType: 2 })).body).toMatchObject({
      code: 0,
      data: { bank: VAT.bank, toAddrDetail: VAT.toAddrDetail },
    });
    expect((await a.c.post('/api/invoice/invoiceDetailed', { id: vatId, invoiceType: 1 })).body).toMatchObject({
      code: 404,
      msg: '发票不存在',
    });
    const other = await account(t.server);
    expect((await other.c.post('/api/invoice/invoiceDetailed', { id: vatId })).body).toMatchObject({
      code: 404,
      msg: '发票不存在',
    });
    expect((await other.c.post('/api/invoice/invoiceList', {})).body.data.totalRecord).toBe(0);
    expect((await other.c.post('/api/invoice/invoiceDetailed', { id: 'x' })).body.code).toBe(400);
  });

  it('cancel: only at status 0, with the current updateTime; the amount comes back', async () => {
    const a = await account(t.server, { paidIn: '100.00' });
    const inv = (await a.c.post('/api/invoice/add', { ...ORDINARY, invoiceAmount: '60' }, { json: true })).body.data;
    expect(await canAmount(a.c)).toBe('40.00');
    const cancel = (p: Record<string, unknown>) =>
      a.c.post(
        '/api/invoice/invoiceCancelApply',
        { id: inv.id, invoiceId: inv.invoiceId, status: 0, updateTime: inv.updateTime, ...p },
        { json: true },
      );
    expect((await cancel({ updateTime: inv.updateTime - 1 })).body).toMatchObject({
      code: 500,
      msg: '发票状态已变更，请刷新后重试',
    });
    expect((await cancel({ status: 3 })).body).toMatchObject({ code: 500, msg: '只有待审核的发票可以取消' });
    expect((await cancel({ invoiceId: 'FP0' })).body).toMatchObject({ code: 404, msg: '发票不存在' });
    expect((await cancel({ updateTime: 'x' })).body.code).toBe(400);
    const other = await account(t.server);
    expect(
      (
        await other.c.post(
          '/api/invoice/invoiceCancelApply',
          { id: inv.id, invoiceId: inv.invoiceId, status: 0, updateTime: inv.updateTime },
          { json: true },
        )
      ).body.code,
    ).toBe(404);
    t.server.clock.advance(5);
    const ok = await cancel({});
    expect(ok.body).toMatchObject({ code: 0, msg: '发票申请已取消', data: { status: 1, statusStr: '已取消' } });
    expect(await canAmount(a.c)).toBe('100.00');
    // twice: the row changed
    expect((await cancel({ updateTime: ok.body.data.updateTime })).body).toMatchObject({
      code: 500,
      msg: '只有待审核的发票可以取消',
    });
    // an operator's change makes the list's updateTime stale
    const inv2 = (await a.c.post('/api/invoice/add', { ...ORDINARY, invoiceAmount: '10' }, { json: true })).body.data;
    t.server.clock.advance(5);
    expect((await cli(t.server, 'invoice-status', String(inv2.id), '3')).code).toBe(0);
    expect(
      (
        await a.c.post(
          '/api/invoice/invoiceCancelApply',
          { id: inv2.id, invoiceId: inv2.invoiceId, status: 0, updateTime: inv2.updateTime },
          { json: true },
        )
      ).body,
    ).toMatchObject({
      code: 500,
      msg: '只有待审核的发票可以取消',
    });
  });

  it('CLI: the allowed transitions, reasons and express info; rejected and returned give the amount back', async () => {
    const a = await account(t.server, { paidIn: '100.00' });
    const add = async (p: Record<string, unknown>) => (await a.c.post('/api/invoice/add', p, { json: true })).body.data;
    const vat = await add({ ...VAT, invoiceAmount: '30' });
    const ord = await add({ ...ORDINARY, invoiceAmount: '20' });
    expect(await canAmount(a.c)).toBe('50.00');
    const run = (...argv: string[]) => cli(t.server, ...argv);
    expect((await run('invoice-status', String(vat.id), '4')).code).toBe(1); // 0 -> 4 not allowed
    expect((await run('invoice-status', String(vat.id), '4')).lines.join('\n')).toContain(
      '可改为：2 审核不通过、3 开票中',
    );
    expect((await run('invoice-status', String(vat.id), '2')).lines.join('\n')).toContain('--reason');
    expect((await run('invoice-status', String(vat.id), '9')).code).toBe(2);
    expect((await run('invoice-status', 'abc', '3')).code).toBe(2);
    expect((await run('invoice-status', String(vat.id), '3', '--bogus', 'x')).code).toBe(2);
    expect((await run('invoice-status', '999999', '3')).code).toBe(1);
    expect((await run('invoice-status', String(vat.id), '3')).code).toBe(0);
    // a VAT invoice is mailed with its express info
    expect((await run('invoice-status', String(vat.id), '4')).lines.join('\n')).toContain('快递公司和快递单号');
    expect(
      (
        await run(
          'invoice-status',
          String(vat.id),
          '4',
          '--express-company',
          '顺丰速运',
          '--express-no',
          'SF1234567890',
        )
      ).code,
    ).toBe(0);
    const mailed = (await a.c.post('/api/invoice/invoiceDetailed', { id: vat.id })).body.data;
    expect(mailed).toMatchObject({
      status: 4,
      statusStr: '已邮寄',
      expressCompanyStr: '顺丰速运',
      expressOrder: 'SF1234567890',
    });
    expect(await canAmount(a.c)).toBe('50.00');
    expect((await run('invoice-status', String(vat.id), '5', '--reason', '抬头有误')).code).toBe(0);
    expect((await a.c.post('/api/invoice/invoiceDetailed', { id: vat.id })).body.data).toMatchObject({
      status: 5,
      auditFailCause: '抬头有误',
    });
    expect(await canAmount(a.c)).toBe('80.00');
    expect((await run('invoice-status', String(vat.id), '0')).code).toBe(1); // 5 is final
    // reject with a reason
    expect((await run('invoice-status', String(ord.id), '2', '--reason', '纳税人识别号有误')).code).toBe(0);
    expect((await a.c.post('/api/invoice/invoiceDetailed', { id: ord.id })).body.data).toMatchObject({
      status: 2,
      statusStr: '审核不通过',
      auditFailCause: '纳税人识别号有误',
    });
    expect(await canAmount(a.c)).toBe('100.00');
    const listed = await run('invoices', '2');
    expect(listed.code).toBe(0);
    expect(listed.lines.join('\n')).toContain(ord.invoiceId);
    expect(listed.lines.join('\n')).not.toContain(vat.invoiceId);
  });

  it('serves the province/city/district tree at /static/scripts/city.json', async () => {
    const r = await t.server.app.inject({
      method: 'GET',
      url: '/static/scripts/city.json',
      headers: { host: 'localhost:8080' },
    });
    expect(r.statusCode).toBe(200);
    const tree = r.json() as { value: string; label: string; children?: any[] }[];
    expect(tree.length).toBeGreaterThanOrEqual(31);
    const sh = tree.find((p) => p.value === '上海市')!;
    expect(sh.children![0].children!.map((d: { label: string }) => d.label)).toContain('浦东新区');
  });
});

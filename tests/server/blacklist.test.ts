/**
 * Unsubscribe and blacklist (issue 27; docs/api-blacklist.md): an uplink TD / T / 退订 puts its
 * number on the account's blacklist; marketing sends of every path skip the account's and the
 * platform's blacklisted numbers and count them (not sent, not charged); notification sends are
 * not filtered; the console's list / add / delete / export stay within the session's accounts.
 */
import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { backends, useServer, type Client } from './harness';
import { accountId, as, balance, cli, db, ledgerViolations, shanghai, task, templateId } from './send-helpers';
import { storeMo } from '../../server/modules/dispatch/mo';
import { fireDueTimedTasks } from '../../server/modules/send/timer';
import { isUnsubscribe, blacklistedOf, LOOKUP_BATCH } from '../../server/modules/blacklist';
import { acceptInterfaceMessage, InterfaceSend, InterfaceRefusal } from '../../server/modules/send';

const MARKETING_FIXED = '双十一狂欢节，全场商品满300减50，活动仅限3天，回T退订。';
const CODE_TPL = '您的好易购登录验证码为';
const codeContent = '您的好易购登录验证码为123456，5分钟内有效，请勿告诉他人。';
const MIN = 60_000;

describe('unsubscribe words (schemas/enums/blacklist-source.json)', () => {
  it('the whole reply, trimmed, without case', () => {
    for (const w of ['TD', 'td', ' Td ', 'T', 't', '退订', ' 退订\n', '\u3000TD\u3000'])
      expect(isUnsubscribe(w)).toBe(true);
    for (const w of ['TD谢谢', '回复TD', '退订了', 'TT', '', '好的', 'T D']) expect(isUnsubscribe(w)).toBe(false);
  });
});

describe.each(backends)('blacklist (%s)', (backend) => {
  const t = useServer(backend);
  let client0: Client;
  let client1: Client;
  let agent0: Client;
  let agent1: Client;
  let mktTpl: number;
  let codeTpl: number;
  const send = async (c: Client, payload: Record<string, unknown>) => {
    t.server.clock.advance(3100);
    return c.post('/api/send/sending', payload);
  };
  const marketing = (mobile: string, extra: Record<string, unknown> = {}) => ({
    sign: '云讯通',
    smstype: 5,
    templateId: mktTpl,
    content: MARKETING_FIXED,
    mobile,
    ...extra,
  });
  const mo = async (from: string, clientid: string, text: string, ref: string) =>
    storeMo(db(t.server), '106900', [
      {
        from,
        to: `106900${await accountId(t.server, clientid)}`,
        text,
        smscRef: ref,
        receivedAt: t.server.clock.now(),
      },
    ]);
  const onList = async (clientid: string | null) => {
    let q = db(t.server).selectFrom('blacklist').select(['phone', 'source']);
    q =
      clientid === null
        ? q.where('account_id', 'is', null)
        : q.where('account_id', '=', await accountId(t.server, clientid));
    return (await q.orderBy('phone').execute()).map((r) => `${r.phone}:${r.source}`);
  };

  it('logs in', async () => {
    client0 = await as(t.server, 'client0');
    client1 = await as(t.server, 'client1');
    agent0 = await as(t.server, 'agent0');
    agent1 = await as(t.server, 'agent1');
    mktTpl = await templateId(t.server, MARKETING_FIXED);
    codeTpl = await templateId(t.server, CODE_TPL);
  });

  it('an uplink TD / T / 退订 puts its number on the blacklist of the account it belongs to; other replies do not', async () => {
    await mo('8613700000001', 'client0', ' td ', 'bl-mo-1');
    await mo('13700000002', 'client0', '退订', 'bl-mo-2');
    await mo('13700000003', 'client0', '好的，谢谢', 'bl-mo-3');
    await mo('13700000004', 'client1', 'T', 'bl-mo-4');
    // redelivered: stored once, listed once
    await mo('8613700000001', 'client0', 'TD', 'bl-mo-1');
    await mo('13700000001', 'client0', 'T', 'bl-mo-5');
    expect(await onList('client0')).toEqual(['13700000001:1', '13700000002:1']);
    expect(await onList('client1')).toEqual(['13700000004:1']);
  });

  it('a marketing send skips blacklisted numbers (account and platform), counts them, charges only the rest', async () => {
    expect((await cli(t.server, 'blacklist-add', '13900000009,12345', '投诉')).lines.join('\n')).toContain('新增 1 个');
    expect(await onList(null)).toEqual(['13900000009:3']);
    const before = await balance(t.server, 'client0');
    const preview = await client0.post('/api/send/chargeInfo', {
      content: MARKETING_FIXED,
      sign: '云讯通',
      smstype: 5,
      mobile: '13700000001,13900000009,18600186000',
    });
    expect(preview.body.data).toMatchObject({ submitTotal: 1, blacklistNum: 2, chargeNum: 1 });
    const r = await send(client0, marketing('13700000001,13700000002,13900000009,18600186000,18900189000'));
    expect(r.body).toMatchObject({ code: 0, data: { submitTotal: 2, chargeNum: 2, blacklistNum: 3 } });
    expect(r.body.msg).toContain('已跳过黑名单号码 3 个');
    const tk = await task(t.server, r.body.data.taskId);
    expect(tk).toMatchObject({ submit_total: 2, blacklist_num: 3, charge_num_total: 2 });
    const phones = (
      await db(t.server)
        .selectFrom('sms_messages')
        .select('phone')
        .where('task_id', '=', tk.id)
        .orderBy('phone')
        .execute()
    ).map((m) => m.phone);
    expect(phones).toEqual(['18600186000', '18900189000']);
    // two messages of 0.045 → 0.09
    expect(Number(before) - Number(await balance(t.server, 'client0'))).toBeCloseTo(0.09, 6);
    // the task list and detail show the count
    const list = await client0.post('/api/send/sendTask', { uid: tk.uid });
    expect(list.body.data.list[0]).toMatchObject({ uid: tk.uid, blacklistNum: 3, submitTotal: 2 });
    // every number blacklisted: refused, nothing written
    const all = await send(client0, marketing('13700000001,13900000009'));
    expect(all.body).toMatchObject({ code: 500, msg: '号码均在黑名单中：营销短信不发送到黑名单号码' });
    expect(await ledgerViolations(t.server)).toEqual([]);
  });

  it('a timed marketing send skips them too', async () => {
    t.server.clock.advance(3100);
    const r = await client0.post(
      '/api/send/sendTim',
      {
        jsmsAccessTimerSms: {
          sign: '云讯通',
          smstype: 5,
          templateId: mktTpl,
          content: MARKETING_FIXED,
          mobilelist: '13700000002,18600186001',
          sendtime: shanghai(new Date(t.server.clock.t + 30 * MIN)),
        },
      },
      { json: true },
    );
    expect(r.body).toMatchObject({ code: 0, data: { submitTotal: 1, blacklistNum: 1 } });
    expect(await task(t.server, r.body.data.taskId)).toMatchObject({ submit_total: 1, blacklist_num: 1 });
  });

  it('a timed marketing send accepted before a number was blacklisted does not go to it when it fires: counted, its charge returned', async () => {
    const timed = async (mobiles: string, extra: Record<string, unknown> = {}) => {
      t.server.clock.advance(3100);
      const r = await client0.post(
        '/api/send/sendTim',
        {
          jsmsAccessTimerSms: {
            sign: '云讯通',
            smstype: 5,
            templateId: mktTpl,
            content: MARKETING_FIXED,
            mobilelist: mobiles,
            sendtime: shanghai(new Date(t.server.clock.t + 30 * MIN)),
          },
          ...extra,
        },
        { json: true },
      );
      expect(r.body).toMatchObject({ code: 0, data: { blacklistNum: 0 } });
      return task(t.server, r.body.data.taskId);
    };
    const phonesOf = async (taskId: number) =>
      (
        await db(t.server)
          .selectFrom('sms_messages')
          .select('phone')
          .where('task_id', '=', taskId)
          .orderBy('phone')
          .execute()
      ).map((m) => m.phone);
    const before = await balance(t.server, 'client0');
    // charged at acceptance: three messages of 0.045 → 0.14
    const charged = await timed('18600186100,18600186101,18600186102');
    expect(charged).toMatchObject({ submit_total: 3, charge_num_total: 3, amount: '0.14' });
    // accepted uncharged (isCheckAvailableCredit 0): charged when it fires
    const deferred = await timed('18600186103,18600186104', { isCheckAvailableCredit: 0 });
    expect(deferred).toMatchObject({ submit_total: 2, charge_state: 0 });
    // then: one number on client0's own list, one on the platform's
    expect((await client0.post('/api/blacklist/add', { phones: '18600186101,18600186104' })).body.code).toBe(0);
    await cli(t.server, 'blacklist-add', '18600186102');
    t.server.clock.advance(31 * MIN);
    await fireDueTimedTasks(t.server.app.ctx);
    // the charged task: the two skipped, counted as a send counts them, their charge returned (net = ceil₂(0.045))
    expect(await task(t.server, charged.uid)).toMatchObject({
      status: 0,
      submit_total: 1,
      blacklist_num: 2,
      refunded_amount: '0.09',
    });
    expect(await phonesOf(charged.id)).toEqual(['18600186100']);
    // the deferred task: charged for the number left only
    expect(await task(t.server, deferred.uid)).toMatchObject({
      status: 0,
      submit_total: 1,
      blacklist_num: 1,
      charge_state: 1,
      charge_num_total: 1,
      amount: '0.05',
    });
    expect(await phonesOf(deferred.id)).toEqual(['18600186103']);
    expect(Number(before) - Number(await balance(t.server, 'client0'))).toBeCloseTo(0.1, 6);
    // every number blacklisted since: the task ends without sending or charging anything
    await db(t.server).deleteFrom('blacklist').where('phone', '=', '18600186101').execute();
    const gone = await timed('18600186101');
    expect(gone.amount).toBe('0.05');
    const balanceGone = await balance(t.server, 'client0');
    expect((await client0.post('/api/blacklist/add', { phones: '18600186101' })).body.code).toBe(0);
    t.server.clock.advance(31 * MIN);
    await fireDueTimedTasks(t.server.app.ctx);
    expect(await task(t.server, gone.uid)).toMatchObject({
      status: 3,
      submit_total: 0,
      blacklist_num: 1,
      refunded_amount: '0.05',
    });
    expect(Number(await balance(t.server, 'client0')) - Number(balanceGone)).toBeCloseTo(0.05, 6);
    await cli(t.server, 'blacklist-remove', '18600186102');
    expect(await ledgerViolations(t.server)).toEqual([]);
  });

  it('a notification (verification) send is not filtered', async () => {
    await cli(t.server, 'blacklist-add', '18600186000');
    await db(t.server)
      .insertInto('blacklist')
      .values({ account_id: await accountId(t.server, 'client1'), phone: '13800138000', source: 2 })
      .execute();
    const r = await send(client1, {
      sign: '好易购',
      smstype: 4,
      templateId: codeTpl,
      content: codeContent,
      mobile: '13800138000,18600186000,13700000004',
    });
    expect(r.body).toMatchObject({ code: 0, data: { submitTotal: 3, blacklistNum: 0 } });
    expect(r.body.msg).toBe('提交成功');
    await cli(t.server, 'blacklist-remove', '18600186000');
    expect(await onList(null)).toEqual(['13900000009:3']);
  });

  it('interface sends: the HTTP API acceptance skips and lists them; an SMPP submit to one is refused (0x405), nothing charged', async () => {
    const ctx = t.server.app.ctx;
    const account = await db(t.server)
      .selectFrom('accounts')
      .selectAll()
      .where('clientid', '=', 'client0')
      .executeTakeFirstOrThrow();
    // the interface takes only approved signs of the account (client0's 云讯通: demo data)
    const iface = new InterfaceSend(ctx, t.server.app.services.send);
    const r = await iface.accept(account, {
      smstype: 5,
      content: `【云讯通】${MARKETING_FIXED}`,
      mobiles: ['13700000001', '18600186002', '+8613900000009'],
    });
    expect(r).toMatchObject({ submitTotal: 1, blacklistNum: 2 });
    expect(r.blacklistNumbers.sort()).toEqual(['13700000001', '13900000009']);
    expect(r.messages.map((m) => m.mobile)).toEqual(['18600186002']);
    await expect(
      iface.accept(account, { smstype: 5, content: `【云讯通】${MARKETING_FIXED}`, mobiles: ['13700000001'] }),
    ).rejects.toMatchObject({ reason: 'blacklist' });
    // SMPP: the account's own SMS type (marketing) decides; one batch, the blacklisted one refused alone
    await db(t.server).updateTable('accounts').set({ smstype: 5 }).where('id', '=', account.id).execute();
    const marketingAccount = { ...account, smstype: 5 };
    const before = await balance(t.server, 'client0');
    const [bad, good] = await Promise.allSettled([
      acceptInterfaceMessage(ctx, t.server.app.services.send, marketingAccount, {
        phone: '13700000002',
        text: `【云讯通】${MARKETING_FIXED}`,
      }),
      acceptInterfaceMessage(ctx, t.server.app.services.send, marketingAccount, {
        phone: '18600186003',
        text: `【云讯通】${MARKETING_FIXED}`,
      }),
    ]);
    expect(bad.status).toBe('rejected');
    expect((bad as PromiseRejectedResult).reason).toBeInstanceOf(InterfaceRefusal);
    expect((bad as PromiseRejectedResult).reason.reason).toBe('blacklist');
    expect(good.status).toBe('fulfilled');
    // one message at 0.045: the HTTP API's send above paid 0.05 and left 0.005 in the payer's rounding carry, so 0.04 (docs/api-send.md "Billing")
    expect(Number(before) - Number(await balance(t.server, 'client0'))).toBeCloseTo(0.04, 6);
    expect(await ledgerViolations(t.server)).toEqual([]);
  });

  it('the look-up is set-based: more numbers than a batch, every blacklisted one found', async () => {
    const id = await accountId(t.server, 'client0');
    const phones = Array.from({ length: LOOKUP_BATCH + 5 }, (_, i) => `135${String(i).padStart(8, '0')}`);
    await db(t.server)
      .insertInto('blacklist')
      .values([
        { account_id: id, phone: phones[3], source: 2 },
        { account_id: id, phone: phones[LOOKUP_BATCH + 2], source: 2 },
      ])
      .execute();
    const found = await blacklistedOf(db(t.server), id, phones);
    expect([...found].sort()).toEqual([phones[3], phones[LOOKUP_BATCH + 2]].sort());
    // a send smaller than the lists: the send's numbers joined with the lists' index
    expect([...(await blacklistedOf(db(t.server), id, [phones[3]]))]).toEqual([phones[3]]);
    expect([...(await blacklistedOf(db(t.server), id, ['13900000009']))]).toEqual(['13900000009']);
    expect([...(await blacklistedOf(db(t.server), id, [phones[4]]))]).toEqual([]);
    await db(t.server)
      .deleteFrom('blacklist')
      .where('phone', 'in', [phones[3], phones[LOOKUP_BATCH + 2]])
      .execute();
  });

  it('the console: list, add, delete, export; an account sees only its own, an agent its own and its sub-accounts’', async () => {
    const added = await client1.post('/api/blacklist/add', {
      phones: '13600000001\n13600000002，12345, 13700000004',
      remark: '客户要求',
    });
    expect(added.body).toMatchObject({ code: 0, data: { added: 2, existing: 1, invalid: 1 } });
    expect(added.body.msg).toBe('已加入黑名单：新增 2 个，已存在 1 个，无效 1 个');
    expect((await client1.post('/api/blacklist/add', { phones: '12345' })).body).toMatchObject({
      code: 400,
      msg: '没有有效的手机号码',
    });
    const own = await client1.post('/api/blacklist/list', {});
    expect(own.body.data.list.map((r: { phone: string }) => r.phone).sort()).toEqual([
      '13600000001',
      '13600000002',
      '13700000004',
      '13800138000',
    ]);
    expect(own.body.data.list.find((r: { phone: string }) => r.phone === '13600000001')).toMatchObject({
      source: 2,
      remark: '客户要求',
      createdBy: 'client1',
      clientid: 'client1',
    });
    const bySource = await client1.post('/api/blacklist/list', { source: 1 });
    expect(bySource.body.data.list.map((r: { phone: string }) => r.phone)).toEqual(['13700000004']);
    const byPhone = await client1.post('/api/blacklist/list', { phone: '1360000000' });
    expect(byPhone.body.data.totalCount).toBe(2);
    // client0's list: its own numbers only (not client1's, not the platform's)
    const other = await client0.post('/api/blacklist/list', {});
    const otherPhones = other.body.data.list.map((r: { phone: string }) => r.phone);
    expect(otherPhones).toContain('13700000001');
    expect(otherPhones).not.toContain('13600000001');
    expect(otherPhones).not.toContain('13900000009');
    // client0 cannot delete client1's number
    const id = own.body.data.list.find((r: { phone: string }) => r.phone === '13600000002').id;
    expect((await client0.post('/api/blacklist/delete', { id })).body.code).toBe(404);
    // agent1 sees client1's; agent0 does not, and cannot filter on it
    const a1 = await agent1.post('/api/blacklist/list', { clientid: 'client1' });
    expect(a1.body.data.totalCount).toBe(4);
    expect((await agent0.post('/api/blacklist/list', { clientid: 'client1' })).body.code).toBe(403);
    const a0 = await agent0.post('/api/blacklist/list', {});
    expect(a0.body.data.list.map((r: { clientid: string }) => r.clientid)).not.toContain('client1');
    // an agent adds to its sub-account's list; not to another agent's
    expect(
      (await agent1.post('/api/blacklist/add', { clientid: 'client1', phones: '13600000003' })).body.data.added,
    ).toBe(1);
    expect((await agent0.post('/api/blacklist/add', { clientid: 'client1', phones: '13600000004' })).body.code).toBe(
      403,
    );
    // delete
    expect((await client1.post('/api/blacklist/delete', { id })).body).toMatchObject({ code: 0, msg: '删除成功' });
    expect((await client1.post('/api/blacklist/delete', { id })).body.code).toBe(404);
    // export
    const x = await client1.post('/api/blacklist/export', {});
    expect(x.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(x.raw.rawPayload as unknown as ArrayBuffer);
    const rows = wb.worksheets[0].getSheetValues().filter(Boolean) as unknown[][];
    expect(rows[0]).toContain('手机号码');
    expect(rows[0]).toContain('来源');
    expect(rows.length).toBe(1 + 4);
    expect(rows.some((r) => r.includes('退订回复'))).toBe(true);
    expect((await client0.post('/api/blacklist/export', { phone: '199' })).body.msg).toBe('当前条件没有数据，无法导出');
  });
});

/**
 * Issue 35, the one interface acceptance (send/interface.ts: `InterfaceSend.accept`, the SMPP
 * batcher) under attack, on both databases:
 *
 * - item 3: a test account never uses the interfaces (its own interface password reset, an SMPP
 *   submit, an HTTP API send: refused with TEST_MSG.noInterface, nothing written or charged);
 * - item 5: a blocked word with an invisible character inside (private use, unassigned,
 *   noncharacter, format) is intercepted as the plain word is;
 * - item 7: every 【sign】 at the start or the end of a text must be an approved sign of the account;
 * - item 8: one message per submit pays what the same messages cost sent at once (the payer's
 *   rounding carry), and a refund never returns more than the task was charged.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { deriveApiSecret, signRequest, OPENAPI_HEADERS as H } from '../../server/modules/openapi';
import { acceptInterfaceMessage, InterfaceSend } from '../../server/modules/send';
import { edgeSigns, signOf } from '../../server/modules/send/interface';
import { bindOn, call, connect, openSessions } from './smpp-customer';
import { TEST_MSG } from '../../server/modules/clients';
import { hashInterfacePassword } from '../../server/lib/interface-password';
import { backends, type TestServer, useServer } from './harness';
import { as, balance, db, ledgerViolations, remaining } from './send-helpers';
import { settleRefunds } from '../../server/modules/billing';
import { Money } from '../../server/lib/money';

async function openapiSend(server: TestServer, clientid: string, password: string, body: unknown) {
  const raw = JSON.stringify(body);
  const ts = String(Math.floor(server.clock.t / 1000));
  const nonce = randomUUID();
  const signature = signRequest(deriveApiSecret(clientid, password), {
    method: 'POST',
    path: '/openapi/v1/sms/send',
    query: '',
    timestamp: ts,
    nonce,
    body: raw,
  });
  const res = await server.app.inject({
    method: 'POST',
    url: '/openapi/v1/sms/send',
    payload: raw,
    remoteAddress: '127.0.0.1',
    headers: {
      'content-type': 'application/json',
      [H.clientid]: clientid,
      [H.timestamp]: ts,
      [H.nonce]: nonce,
      [H.signature]: signature,
    },
  });
  return {
    status: res.statusCode,
    body: res.json() as { code: number; error?: string; message?: string; data?: { taskId: string } },
  };
}

afterEach(() => {
  for (const s of openSessions.splice(0)) s.socket.destroy();
});

const accountRow = (server: TestServer, clientid: string) =>
  db(server).selectFrom('accounts').selectAll().where('clientid', '=', clientid).executeTakeFirstOrThrow();

describe.each(backends)('interface acceptance: test accounts (%s)', (backend) => {
  const t = useServer(backend, { config: { testAccountsPerAgent: 5, testAccountGift: 20, testGiftDaily: 1000 } });

  it('a test account cannot reset its own interface password, and the acceptance refuses it on every door', async () => {
    const agent = await as(t.server, 'agent1');
    const made = await agent.post('/api/client/account/test/add', { name: '接口测试账户' });
    expect(made.body.code).toBe(0);
    const { clientid, password } = made.body.data as { clientid: string; password: string };
    const me = await t.server.client().init();
    expect((await me.login(clientid, password)).body.code).toBe(0);
    // its own reset: refused as the agent's is (before: a new password, then SMPP and the HTTP API)
    const own = await me.post('/api/client/account/resetInterfacePassword', {});
    expect(own.body).toMatchObject({ msg: TEST_MSG.noInterface });
    expect(own.body.code).not.toBe(0);
    expect((await accountRow(t.server, clientid)).interface_password_hash).toBeFalsy();

    // a test account that holds an interface password anyway (made before this rule): every door refuses it
    const pw = 'Iface2468x';
    await db(t.server)
      .updateTable('accounts')
      .set({ interface_password_hash: await hashInterfacePassword(pw), api_secret: deriveApiSecret(clientid, pw) })
      .where('clientid', '=', clientid)
      .execute();
    const account = await accountRow(t.server, clientid);
    // a sign of its own, so that only the test-account rule can refuse
    await db(t.server)
      .insertInto('signs')
      .values({ account_id: account.id, clientid, sign: '测试签', state: 1 })
      .execute();
    const poolBefore = await remaining(t.server, clientid);
    const iface = new InterfaceSend(t.server.app.ctx, t.server.app.services.send);
    await expect(
      iface.accept(account, { content: '【测试签】您的验证码是1234', mobiles: ['13912345678'] }),
    ).rejects.toMatchObject({
      reason: 'account',
      kind: 'refused',
      message: TEST_MSG.noInterface,
    });
    // the SMPP adapter (one submit_sm)
    await expect(
      acceptInterfaceMessage(t.server.app.ctx, t.server.app.services.send, account, {
        phone: '13912345678',
        text: '【测试签】您的验证码是1234',
      }),
    ).rejects.toMatchObject({
      reason: 'account',
      message: TEST_MSG.noInterface,
    });
    // who may send is answered first, before the text's own rules
    await expect(
      acceptInterfaceMessage(t.server.app.ctx, t.server.app.services.send, account, {
        phone: '13912345678',
        text: '没有签名',
      }),
    ).rejects.toMatchObject({
      reason: 'account',
      message: TEST_MSG.noInterface,
    });
    // the HTTP API
    const r = await openapiSend(t.server, clientid, pw, {
      content: '【测试签】您的验证码是1234',
      mobiles: ['13912345678'],
    });
    expect(r.body.code).not.toBe(0);
    expect(JSON.stringify(r.body)).toContain(TEST_MSG.noInterface);
    expect(
      await db(t.server).selectFrom('sms_tasks').select('id').where('account_id', '=', account.id).execute(),
    ).toEqual([]);
    expect(await remaining(t.server, clientid)).toBe(poolBefore);
  });

  it('assertInterfaceAllowed: active, certified and not a test account', async () => {
    const { assertInterfaceAllowed } = await import('../../server/modules/send');
    expect(() => assertInterfaceAllowed({ status: 1, oauth_status: 3, test_expires_at: null })).not.toThrow();
    expect(() => assertInterfaceAllowed({ status: 1, oauth_status: 3, test_expires_at: new Date() })).toThrow(
      TEST_MSG.noInterface,
    );
    expect(() => assertInterfaceAllowed({ status: 1, oauth_status: 1, test_expires_at: null })).toThrow();
    expect(() => assertInterfaceAllowed({ status: 5, oauth_status: 3, test_expires_at: null })).toThrow();
  });
});

describe('edgeSigns', () => {
  it('reads every 【…】 / [...] at the start and at the end, whitespace and invisible characters around them skipped', () => {
    expect(edgeSigns('【好易购】您的账户异常请点击 t.cn/x【中国银行】')).toEqual(['好易购', '中国银行']);
    expect(edgeSigns('【好易购】【中国银行】正文')).toEqual(['好易购', '中国银行']);
    // an ASCII group is a sign when it holds a letter; a trailing code is text
    expect(edgeSigns('【好易购】您的验证码[123456]')).toEqual(['好易购']);
    expect(edgeSigns('[123]【好易购】验证码')).toEqual([]);
    expect(edgeSigns(' 【好易购】 [中国银行]正文[A]【 B 】 ')).toEqual(['好易购', '中国银行', 'B', 'A']);
    expect(edgeSigns('【好易购】正文【中国银行】\u200b\ue000 ')).toEqual(['好易购', '中国银行']);
    expect(edgeSigns('\ufeff【中国银行】正文【好易购】')).toEqual(['中国银行', '好易购']);
    expect(edgeSigns('【好易购】正文【中国银行】不在末尾')).toEqual(['好易购']);
    expect(edgeSigns('正文')).toEqual([]);
    expect(edgeSigns('【】正文')).toEqual(['']);
    expect(edgeSigns('【未闭合正文')).toEqual([]);
    expect(edgeSigns('【好易购】')).toEqual(['好易购']);
    expect(signOf('【好易购】您的账户异常【中国银行】')).toEqual({
      sign: '好易购',
      content: '您的账户异常【中国银行】',
      signs: ['好易购', '中国银行'],
    });
    // linear: a long text of brackets answers at once
    const t0 = Date.now();
    edgeSigns('【'.repeat(50_000) + '】'.repeat(50_000));
    edgeSigns('['.repeat(100_000) + ']');
    expect(Date.now() - t0).toBeLessThan(1000);
  });
});

describe.each(backends)('interface acceptance: texts (%s)', (backend) => {
  const t = useServer(backend, { config: { smppServerPort: -1, smppServerHost: '127.0.0.1' } });
  const send = () => t.server.app.services.send;

  it('a blocked word with an invisible character inside is intercepted over SMPP and the HTTP API as the plain word is; the content test finds it', async () => {
    const ctx = t.server.app.ctx;
    const account = await accountRow(t.server, 'client1');
    const plain = await acceptInterfaceMessage(ctx, send(), account, {
      phone: '13900150000',
      text: '【好易购】来赌博吧',
    });
    const clean = await acceptInterfaceMessage(ctx, send(), account, {
      phone: '13900150001',
      text: '【好易购】您的订单已发货',
    });
    expect(plain.state).not.toBe(clean.state);
    const iface = new InterfaceSend(ctx, send());
    const c = await as(t.server, 'client1');
    let i = 2;
    for (const x of ['\ue000', '\uf8ff', '\u{10fffd}', '\u0378', '\uffff']) {
      const text = `【好易购】来赌${x}博吧`;
      // one SMPP submit (the batcher), and an HTTP API send (the acceptance with a text per number)
      const smppOne = await acceptInterfaceMessage(ctx, send(), account, {
        phone: `139001500${String(i++).padStart(2, '0')}`,
        text,
      });
      expect(smppOne.state, JSON.stringify(x)).toBe(plain.state);
      const api = await iface.accept(account, {
        items: [{ mobile: `139001500${String(i++).padStart(2, '0')}`, content: text }],
      });
      expect(api.state, JSON.stringify(x)).toBe(plain.state);
      const same = await iface.accept(account, {
        content: text,
        mobiles: [`139001500${String(i++).padStart(2, '0')}`],
      });
      expect(same.state, JSON.stringify(x)).toBe(plain.state);
      // the console's content test marks 赌X博
      const r = await c.post('/api/content/content/test', { content: `来赌${x}博吧` });
      expect(r.body.data, JSON.stringify(x)).toEqual({ 500: `1,${3 + x.length}` });
    }
  });
});

describe.each(backends)('interface acceptance: a second sign (%s)', (backend) => {
  const t = useServer(backend, { config: { smppServerPort: -1, smppServerHost: '127.0.0.1' } });
  const send = () => t.server.app.services.send;

  it('every 【…】 at the start or the end must be an approved sign: SMPP and the HTTP API refuse a second, unapproved one', async () => {
    const ctx = t.server.app.ctx;
    const account = await accountRow(t.server, 'client1');
    const id = account.id;
    const tasksBefore = (await db(t.server).selectFrom('sms_tasks').select('id').where('account_id', '=', id).execute())
      .length;
    const poolBefore = await remaining(t.server, 'client1');
    const refused = [
      '【好易购】您的账户异常请点击 t.cn/x【中国银行】',
      '【好易购】【中国银行】您的账户异常请点击 t.cn/x',
      '您的账户异常请点击 t.cn/x【中国银行】【好易购】',
      '【好易购】您的账户异常请点击 t.cn/x[中国银行]',
      '【好易购】您的账户异常请点击 t.cn/x【中国银行】\u200b ',
    ];
    // a real SMPP session (the attack), then the adapter and the HTTP API's acceptance
    const s = await connect(t.server);
    expect(await bindOn(s)).toBe(0);
    const iface = new InterfaceSend(ctx, send());
    for (const text of refused) {
      const r = await call(s, 'submit_sm', { destination_addr: '13900160000', short_message: { message: text } });
      expect(r.command_status, text).toBe(0x402);
      await expect(
        acceptInterfaceMessage(ctx, send(), account, { phone: '13900160001', text }),
        text,
      ).rejects.toMatchObject({ reason: 'sign', kind: 'signNotApproved' });
      await expect(iface.accept(account, { content: text, mobiles: ['13900160002'] }), text).rejects.toMatchObject({
        kind: 'signNotApproved',
      });
      await expect(
        iface.accept(account, { items: [{ mobile: '13900160003', content: text }] }),
        text,
      ).rejects.toMatchObject({ kind: 'signNotApproved' });
    }
    expect(
      (await db(t.server).selectFrom('sms_tasks').select('id').where('account_id', '=', id).execute()).length,
    ).toBe(tasksBefore);
    expect(await remaining(t.server, 'client1')).toBe(poolBefore);

    // the approved sign twice, or a bracket inside the text: accepted
    for (const text of ['【好易购】您的订单已发货【好易购】', '【好易购】您的订单【中国银行卡】已发货']) {
      const r = await call(s, 'submit_sm', { destination_addr: '13900160010', short_message: { message: text } });
      expect(r.command_status, text).toBe(0);
      expect((await iface.accept(account, { content: text, mobiles: ['13900160011'] })).submitTotal).toBe(1);
    }
  });
});

describe.each(backends)('interface acceptance: the rounding carry (%s)', (backend) => {
  const t = useServer(backend);
  const send = () => t.server.app.services.send;
  const carry = async () => (await accountRow(t.server, 'client0')).charge_carry;
  const taskOf = (uid: string) =>
    db(t.server).selectFrom('sms_tasks').selectAll().where('uid', '=', uid).executeTakeFirstOrThrow();
  /** every message of the task ends refundable (the dispatch's contract), then its settlement */
  const refundAll = async (uid: string) => {
    const task = await taskOf(uid);
    await db(t.server)
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('sms_tasks').set({ refundable_cost: task.cost }).where('id', '=', task.id).execute();
        await settleRefunds(trx, t.server.app.ctx, [task.id]);
      });
    return taskOf(uid);
  };

  it('three single submits at 0.045 pay 0.14 as one console task of three; returns never give a task more than it paid', async () => {
    await db(t.server)
      .updateTable('accounts')
      .set({ price_type: 0, unified_price: '0.045', smstype: 0 })
      .where('clientid', '=', 'client0')
      .execute();
    const account = await accountRow(t.server, 'client0');
    expect(account.charge_carry).toBe('0.0000');
    // the console's figure for the same three messages sent at once
    const console0 = await as(t.server, 'client0');
    const preview = await console0.post('/api/send/chargeInfo', {
      content: '您的订单已发货',
      sign: '云讯通',
      mobile: '13800170001,13800170002,13800170003',
      smstype: 0,
    });
    expect(preview.body.data.amount).toBe('0.14');

    const before = new Money(await balance(t.server, 'client0'));
    const uids: string[] = [];
    for (const phone of ['13800170001', '13800170002', '13800170003']) {
      const r = await acceptInterfaceMessage(t.server.app.ctx, send(), account, {
        phone,
        text: '【云讯通】您的订单已发货',
      });
      uids.push(r.taskUid);
    }
    const tasks = await Promise.all(uids.map(taskOf));
    // before the carry: 0.05 each (0.15 for 0.135 worth)
    expect(tasks.map((x) => x.amount)).toEqual(['0.05', '0.04', '0.05']);
    expect(before.minus(await balance(t.server, 'client0')).toFixed(2)).toBe(preview.body.data.amount);
    expect(await carry()).toBe('0.0050');
    // the HTTP API's acceptance (one number a call) shares the carry
    const iface = new InterfaceSend(t.server.app.ctx, send());
    const api = await iface.accept(await accountRow(t.server, 'client0'), {
      content: '【云讯通】您的订单已发货',
      mobiles: ['13800170004'],
    });
    expect(api.amount).toBe('0.04');
    expect(await carry()).toBe('0.0000');
    expect(before.minus(await balance(t.server, 'client0')).toFixed(2)).toBe('0.18');
    expect(await ledgerViolations(t.server)).toEqual([]);

    // returns: the second task paid 0.04 (the carry paid the rest): it gets back 0.04, not 0.045 rounded up
    const second = await refundAll(uids[1]);
    expect(second.refunded_amount).toBe('0.04');
    expect(await carry()).toBe('0.0050');
    // again: nothing more (idempotent)
    expect((await refundAll(uids[1])).refunded_amount).toBe('0.04');
    // the first paid 0.05 and made the carry the second used: its return goes through the carry (0.05, carry 0)
    const first = await refundAll(uids[0]);
    expect(first.refunded_amount).toBe('0.05');
    expect(await carry()).toBe('0.0000');
    // a return capped by what the task paid: the 0.04 task (the HTTP one) back while the carry is 0.005 after another charge
    const fifth = await acceptInterfaceMessage(t.server.app.ctx, send(), await accountRow(t.server, 'client0'), {
      phone: '13800170005',
      text: '【云讯通】您的订单已发货',
    });
    expect((await taskOf(fifth.taskUid)).amount).toBe('0.05');
    expect(await carry()).toBe('0.0050');
    const capped = await refundAll(api.taskId);
    expect(capped.refunded_amount).toBe('0.04');
    expect(await carry()).toBe('0.0100');
    for (const x of await Promise.all([...uids, api.taskId, fifth.taskUid].map(taskOf)))
      expect(new Money(x.refunded_amount).lte(x.amount)).toBe(true);
    // the payer's net payment is the exact cost of what was kept plus the carry: 2 messages kept (0.09), paid 0.10
    expect(before.minus(await balance(t.server, 'client0')).toFixed(2)).toBe('0.10');
    // the next charge takes the carry first: 0.045 − 0.01 → 0.04
    const sixth = await acceptInterfaceMessage(t.server.app.ctx, send(), await accountRow(t.server, 'client0'), {
      phone: '13800170006',
      text: '【云讯通】您的订单已发货',
    });
    expect((await taskOf(sixth.taskUid)).amount).toBe('0.04');
    expect(await carry()).toBe('0.0050');
    expect(await ledgerViolations(t.server)).toEqual([]);
  });
});

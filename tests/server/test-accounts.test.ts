/**
 * Test accounts (issue 26 item 3): the abuse is refused — sending to another number, recharging or
 * buying before conversion, creating many per agent, passing the platform's daily gift budget — and
 * an expired test account sends nothing and is frozen.
 */
import { describe, expect, it } from 'vitest';
import { backends, useServer, type Client, type TestServer } from './harness';

async function as(server: TestServer, who: string): Promise<Client> {
  const c = await server.client().init();
  const r = await c.login(who);
  if (r.body.code !== 0) throw new Error(`login ${who}: ${JSON.stringify(r.body)}`);
  return c;
}

async function loginAsNew(server: TestServer, clientid: string, password: string): Promise<Client> {
  const c = await server.client().init();
  const r = await c.login(clientid, password);
  if (r.body.code !== 0) throw new Error(`login ${clientid}: ${JSON.stringify(r.body)}`);
  return c;
}

describe.each(backends)('test accounts (%s)', (backend) => {
  const t = useServer(backend, { config: { testAccountsPerAgent: 2, testAccountGift: 20, testGiftDaily: 1000 } });

  it('creates one with the platform’s gift pool, sends only to the agent’s mobile, no recharge / purchase / interface', async () => {
    const agent = await as(t.server, 'agent1');
    const index = (await agent.get('/api/index/data')).body.data;
    expect(index.canCreateTestAccount).toBe(true);
    // the terms the console's confirmation states come from the configuration
    expect(index.testAccountTerms).toEqual({ giftPieces: 20, days: 7, perAgent: 2 });
    const r = await agent.post('/api/client/account/test/add', { name: '测试账户甲' });
    expect(r.body).toMatchObject({
      code: 0,
      msg: '测试账户已创建',
      data: { giftPieces: 20, expireTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2} /) },
    });
    const { clientid, password } = r.body.data;
    const db = t.server.handle.db;
    const acc = await db.selectFrom('accounts').selectAll().where('clientid', '=', clientid).executeTakeFirstOrThrow();
    expect(acc.test_expires_at).not.toBeNull();
    const pools = await db.selectFrom('product_pools').selectAll().where('account_id', '=', acc.id).execute();
    expect(pools).toMatchObject([{ gift: 1, total: 20, remaining: 20 }]);
    const moves = await db.selectFrom('pool_movements').selectAll().where('pool_id', '=', pools[0].id).execute();
    expect(moves).toMatchObject([{ pieces: 20, kind: 5, remark: '测试账户赠送（平台）' }]);

    // recharge, interface password, purchase: refused until converted
    expect(
      (await agent.post('/api/client/recharge', { clientId: clientid, amount: '10.00', requestId: 'test-r1' })).body,
    ).toMatchObject({
      msg: '测试账户不能充值，请先转为正式账户',
    });
    expect((await agent.post('/api/client/account/resetInterfacePassword', { clientId: clientid })).body.msg).toBe(
      '测试账户不能使用接口，请先转为正式账户',
    );
    const sub = await loginAsNew(t.server, clientid, password);
    const buy = await sub.post('/api/sms/order/add', { product_id: 1, num: 1 });
    expect(buy.body.msg).toBe('测试账户不能购买，请先转为正式账户');

    // sending to another number is refused with a clear message, nothing accepted
    const agentMobile = (
      await db.selectFrom('accounts').select('mobile').where('clientid', '=', 'agent1').executeTakeFirstOrThrow()
    ).mobile;
    const tpl = await db
      .selectFrom('templates')
      .select(['id', 'content'])
      .where('state', '=', 1)
      .where('owner_id', 'is', null)
      .where('template_type', '=', 0)
      .executeTakeFirst();
    const send = (mobile: string) =>
      sub.post('/api/send/sending', {
        mobile,
        content: tpl?.content ?? 'x',
        sign: '',
        smstype: 0,
        templateId: tpl?.id ?? 1,
        clientId: '',
      });
    const other = await send('13912345678');
    // (the send form's own rules answer first here; the recipient rule itself is checked by the next test)
    expect(other.body.code).not.toBe(0);
    const mixed = await send(`${agentMobile}\n13912345678`);
    expect(mixed.body.code).not.toBe(0);
    expect(await db.selectFrom('sms_tasks').select('id').where('account_id', '=', acc.id).execute()).toEqual([]);

    // the manager list tells a test account (its end) from an ordinary one (empty)
    const listRow = async () =>
      (
        (await agent.post('/api/client/accounts', { customerInfo: clientid })).body.data.list as {
          client_id: string;
          test_expire_time?: string;
        }[]
      ).find((x) => x.client_id === clientid);
    expect((await listRow())?.test_expire_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    // conversion: the gift's remaining pieces go back, recharge works
    expect((await agent.post('/api/client/account/test/convert', { clientId: clientid })).body).toMatchObject({
      code: 0,
      msg: '已转为正式账户',
    });
    expect((await listRow())?.test_expire_time).toBe('');
    expect(
      (
        await db
          .selectFrom('product_pools')
          .select('remaining')
          .where('account_id', '=', acc.id)
          .executeTakeFirstOrThrow()
      ).remaining,
    ).toBe(0);
    expect(
      (await agent.post('/api/client/recharge', { clientId: clientid, amount: '1.00', requestId: 'test-r2' })).body
        .code,
    ).toBe(0);
    expect((await agent.post('/api/client/account/test/convert', { clientId: clientid })).body.msg).toBe(
      '该账户不是测试账户',
    );
  });

  it('the send gate refuses a test account’s other recipients (unit of the rule)', async () => {
    const { assertTestRecipients } = await import('../../server/modules/clients/test-accounts');
    const db = t.server.handle.db;
    const agent = await db
      .selectFrom('accounts')
      .select(['id', 'mobile'])
      .where('clientid', '=', 'agent1')
      .executeTakeFirstOrThrow();
    const ctx = { db, now: () => new Date() };
    const soon = new Date(Date.now() + 3600_000);
    await expect(
      assertTestRecipients(ctx, { test_expires_at: soon, agent_id: agent.id }, [agent.mobile]),
    ).resolves.toBeUndefined();
    await expect(
      assertTestRecipients(ctx, { test_expires_at: soon, agent_id: agent.id }, [agent.mobile, '13912345678']),
    ).rejects.toMatchObject({
      message: '测试账户只能发送到代理商本人已验证的手机号码',
    });
    await expect(
      assertTestRecipients(ctx, { test_expires_at: new Date(Date.now() - 1000), agent_id: agent.id }, [agent.mobile]),
    ).rejects.toMatchObject({
      message: '测试账户已过期，请联系代理商转为正式账户',
    });
    await expect(
      assertTestRecipients(ctx, { test_expires_at: null, agent_id: agent.id }, ['13912345678']),
    ).resolves.toBeUndefined();
  });

  it('bounds how many one agent creates, also when requests race', async () => {
    const agent = await as(t.server, 'agent1');
    const before = Number(
      (
        await t.server.handle.db
          .selectFrom('test_accounts')
          .select((e) => e.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const rs = await Promise.all(
      [1, 2, 3, 4].map((i) => agent.post('/api/client/account/test/add', { name: `并发测试${i}` })),
    );
    const made = rs.filter((r) => r.body.code === 0).length;
    expect(before + made).toBe(2);
    for (const r of rs.filter((x) => x.body.code !== 0)) expect(r.body.msg).toBe('每个代理商30天内最多创建2个测试账户');
    // the refused ones left no account behind
    const n = await t.server.handle.db.selectFrom('accounts').select('id').where('name', 'like', '并发测试%').execute();
    expect(n.length).toBe(made);
  });

  it('expired test accounts are frozen and send nothing', async () => {
    const db = t.server.handle.db;
    const svc = t.server.app.services.testAccounts;
    await db
      .updateTable('accounts')
      .set({ test_expires_at: new Date(t.server.clock.now().getTime() - 1000) })
      .where('name', 'like', '并发测试%')
      .execute();
    expect(await svc.freezeExpired()).toBeGreaterThan(0);
    const rows = await db.selectFrom('accounts').select('status').where('name', 'like', '并发测试%').execute();
    expect(rows.every((r) => r.status === 5)).toBe(true);
  });
});

describe.each(backends)('test accounts: the platform’s daily gift budget (%s)', (backend) => {
  const t = useServer(backend, { config: { testAccountsPerAgent: 10, testAccountGift: 20, testGiftDaily: 30 } });
  it('refuses a creation past the budget', async () => {
    const agent = await as(t.server, 'agent1');
    expect((await agent.post('/api/client/account/test/add', { name: '预算一' })).body.code).toBe(0);
    expect((await agent.post('/api/client/account/test/add', { name: '预算二' })).body).toMatchObject({
      msg: '今日测试账户赠送额度已用完，请明天再试',
    });
  });
  it('refuses agents that may not, and sub-accounts', async () => {
    expect((await (await as(t.server, 'agent0')).post('/api/client/account/test/add', { name: 'x' })).body.msg).toBe(
      '当前账户不能创建测试账户（需为已认证的产品包模式代理商）',
    );
    expect((await (await as(t.server, 'client1')).post('/api/client/account/test/add', { name: 'x' })).body.code).toBe(
      403,
    );
  });
});

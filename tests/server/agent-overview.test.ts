/**
 * The agent's overview on the home page (GET /index/agentOverview, docs/api-reports.md "Agent
 * overview"): top sub-accounts by consumption, sub-accounts low on balance, pools about to expire;
 * only the agent's own sub-accounts, agents only.
 */
import { describe, expect, it } from 'vitest';
import { backends, useServer } from './harness';
import { accountId, as, db } from './send-helpers';

describe.each(backends)('agent overview (%s)', (backend) => {
  const t = useServer(backend);

  it('ranks the agent’s sub-accounts by charged pieces over 30 days', async () => {
    const agent1 = await as(t.server, 'agent1');
    const r = await agent1.get('/api/index/agentOverview');
    expect(r.body.code).toBe(0);
    expect(r.body.data).toMatchObject({ days: 30, expiringDays: 7, lowBalanceDefault: '10.00' });
    const top = r.body.data.topConsumers as { clientid: string; chargeNum: number }[];
    expect(top.length).toBeLessThanOrEqual(5);
    for (let i = 1; i < top.length; i++) expect(top[i - 1].chargeNum).toBeGreaterThanOrEqual(top[i].chargeNum);
    // never another agent's sub-account, never the agent itself
    const agent1Id = await accountId(t.server, 'agent1');
    const own = (
      await db(t.server).selectFrom('accounts').select('clientid').where('agent_id', '=', agent1Id).execute()
    ).map((a) => a.clientid);
    for (const x of top) expect(own).toContain(x.clientid);
  });

  it('lists sub-accounts paying by amount below their reminder (or 10 元), and pools expiring within 7 days with their date', async () => {
    const agent0 = await as(t.server, 'agent0');
    const before = await agent0.get('/api/index/agentOverview');
    expect(before.body.data.lowBalance.map((x: { clientid: string }) => x.clientid)).not.toContain('client0');
    await db(t.server)
      .updateTable('accounts')
      .set({ balance_alarm: '100000' })
      .where('clientid', '=', 'client0')
      .execute();
    const after = await agent0.get('/api/index/agentOverview');
    expect(after.body.data.lowBalance).toContainEqual(
      expect.objectContaining({ clientid: 'client0', threshold: '100000.00' }),
    );
    // a pool of client1 (agent1's) due in 3 days
    const c1 = await accountId(t.server, 'client1');
    const due = new Date(t.server.clock.t + 3 * 86_400_000);
    await db(t.server)
      .insertInto('product_pools')
      .values({ account_id: c1, product_type: 0, total: 500, remaining: 321, due_time: due })
      .execute();
    const agent1 = await as(t.server, 'agent1');
    const pools = (await agent1.get('/api/index/agentOverview')).body.data.expiringPools as {
      clientid: string;
      remaining: number;
      dueTime: string;
    }[];
    expect(pools).toContainEqual(expect.objectContaining({ clientid: 'client1', productType: 0, remaining: 321 }));
    // agent0 does not see agent1's sub-accounts
    expect(
      (await agent0.get('/api/index/agentOverview')).body.data.expiringPools.map(
        (x: { clientid: string }) => x.clientid,
      ),
    ).not.toContain('client1');
  });

  it('the sub-account list carries the same alerts per row: 余额不足 with its threshold, the earliest pool due within 7 days', async () => {
    // client0 is below its reminder (the test above set 100000); client1 has the pool due in 3 days
    const agent0 = await as(t.server, 'agent0');
    const l0 = (await agent0.post('/api/client/accounts', { currentPage: 1, pageRowCount: 15 })).body.data
      .list as Record<string, unknown>[];
    expect(l0.find((r) => r.client_id === 'client0')).toMatchObject({
      lowBalance: true,
      lowBalanceThreshold: '100000.00',
      poolExpireDate: '',
    });
    const agent1 = await as(t.server, 'agent1');
    const l1 = (await agent1.post('/api/client/accounts', { currentPage: 1, pageRowCount: 15 })).body.data
      .list as Record<string, unknown>[];
    const due = (
      await db(t.server)
        .selectFrom('product_pools')
        .select((eb) => eb.fn.min('due_time').as('d'))
        .where('account_id', '=', await accountId(t.server, 'client1'))
        .where('remaining', '=', 321)
        .executeTakeFirstOrThrow()
    ).d;
    const shanghaiDay = new Date(new Date(due as Date).getTime() + 8 * 3_600_000).toISOString().slice(0, 10);
    expect(l1.find((r) => r.client_id === 'client1')).toMatchObject({ poolExpireDate: shanghaiDay });
    // postpaid (client3, billed through its agent): never low
    expect(l1.find((r) => r.client_id === 'client3')).toMatchObject({ lowBalance: false });
  });

  it('is for agents only', async () => {
    const client1 = await as(t.server, 'client1');
    expect((await client1.get('/api/index/agentOverview')).body.code).toBe(403);
  });
});

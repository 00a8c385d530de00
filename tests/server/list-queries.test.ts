import { describe, expect, it } from 'vitest';
import { countQueries } from '../../server/db';
import { backends, useServer, type TestServer } from './harness';

/**
 * Round trips of the lists under load (issue 28 item 3, bench/list-load.ts): the first page of the
 * send-record list, the task list and the sub-account list each make at most this many database
 * statements (the session check included). On the embedded database every statement of every
 * request waits its turn on one connection, so each one cut is throughput.
 */
const MAX = { records: 2, tasks: 2, accounts: 2 };

async function lists(server: TestServer) {
  const client = await server.client().init();
  expect((await client.login('client1')).body.code).toBe(0);
  const agent = await server.client().init();
  expect((await agent.login('agent1')).body.code).toBe(0);
  return {
    client,
    agent,
    calls: {
      records: () => client.post('/api/send/getrecords', { page: 1, rows: 10 }, { json: true }),
      tasks: () => client.post('/api/send/sendTask', { page: 1, rows: 10 }, { json: true }),
      accounts: () => agent.post('/api/client/accounts', { currentPage: 1, pageSize: 10 }, { json: true }),
    },
  };
}

describe.each(backends)('statements per list request (%s)', (backend) => {
  const t = useServer(backend);

  it('the send-record, task and sub-account lists stay within their round trips', async () => {
    const { calls } = await lists(t.server);
    for (const [name, call] of Object.entries(calls)) {
      const { result, queries } = await countQueries(call);
      expect(result.body.code, name).toBe(0);
      // the demo data has rows in each list: the page is read, not only counted
      expect(result.body.data.list.length, name).toBeGreaterThan(0);
      expect(queries, name).toBeLessThanOrEqual(MAX[name as keyof typeof MAX]);
    }
  });
});

describe.each(backends)('lists with the cached session (%s)', (backend) => {
  const t = useServer(backend, { config: { cachedSessionMs: 60_000 } });

  /**
   * server/db/page.ts: every paged list reads its page and total in one query; past the last page
   * (no row carries the total) it is counted on its own, and it is the same total.
   */
  it('past the last page a list still answers its total (and no rows)', async () => {
    const { client, agent } = await lists(t.server);
    expect(
      (await client.post('/api/blacklist/add', { phones: '13800138000,13900139000' }, { json: true })).body.code,
    ).toBe(0);
    const cases: [
      name: string,
      call: (page: number) => Promise<{ body: { code: number; data: Record<string, unknown> } }>,
      rowsKey: string,
      totalKey: string,
    ][] = [
      ['tasks', (page) => client.post('/api/send/sendTask', { page, rows: 10 }, { json: true }), 'list', 'totalCount'],
      [
        'signs',
        (page) => agent.post('/api/sign/list', { currentPage: page, pageRowCount: 10 }, { json: true }),
        'list',
        'totalCount',
      ],
      [
        'blacklist',
        (page) => client.post('/api/blacklist/list', { currentPage: page, pageRowCount: 10 }, { json: true }),
        'list',
        'totalCount',
      ],
    ];
    for (const [name, call, rowsKey, totalKey] of cases) {
      const first = (await call(1)).body;
      expect(first.code, name).toBe(0);
      const total = Number(first.data[totalKey]);
      expect(total, name).toBeGreaterThan(0);
      const far = (await call(500)).body;
      expect(far.code, name).toBe(0);
      expect(far.data[rowsKey], name).toEqual([]);
      expect(Number(far.data[totalKey]), name).toBe(total);
    }
  });

  it('a list whose session was checked within cachedSessionMs makes one statement: the page', async () => {
    const { calls } = await lists(t.server);
    for (const [name, call] of Object.entries(calls)) {
      expect((await call()).body.code, name).toBe(0);
      const { result, queries } = await countQueries(call);
      expect(result.body.code, name).toBe(0);
      expect(result.body.data.list.length, name).toBeGreaterThan(0);
      expect(queries, name).toBe(1);
    }
  });

  it('requests that miss the cache together share one session check: 20 lists at once make 21 statements', async () => {
    const { calls } = await lists(t.server);
    const { result, queries } = await countQueries(() => Promise.all(Array.from({ length: 20 }, () => calls.tasks())));
    for (const r of result) expect(r.body.code).toBe(0);
    // 20 pages and one session check (each request checked for itself before: 40)
    expect(queries).toBe(21);
  });

  it('a logout or a freeze in this process ends the cached session at once; another route always checks', async () => {
    const { client, agent, calls } = await lists(t.server);
    expect((await calls.records()).body.code).toBe(0);
    expect((await calls.accounts()).body.code).toBe(0);
    // the session rows gone behind the server's back (another process's logout): the cached lists
    // answer for at most cachedSessionMs, every other route checks the database
    const db = t.server.handle.db;
    const agentSessions = await db
      .selectFrom('sessions')
      .innerJoin('accounts', 'accounts.id', 'sessions.account_id')
      .select('sessions.id')
      .where('accounts.clientid', '=', 'agent1')
      .execute();
    await db
      .deleteFrom('sessions')
      .where(
        'id',
        'in',
        agentSessions.map((r) => r.id),
      )
      .execute();
    expect((await calls.accounts()).body.code).toBe(0);
    expect((await agent.get('/api/client/stat')).body.code).toBe(401);
    // a logout in this process: at once
    expect((await client.post('/api/logout', {})).body.code).toBe(0);
    expect((await calls.records()).body.code).toBe(401);
    expect((await calls.tasks()).body.code).toBe(401);
  });

  it('a password change elsewhere (revokeAll) ends the cached sessions of the account', async () => {
    const a = await t.server.client().init();
    const b = await t.server.client().init();
    expect((await a.login('client1')).body.code).toBe(0);
    expect((await b.login('client1')).body.code).toBe(0);
    const list = () => b.post('/api/send/getrecords', { page: 1, rows: 10 }, { json: true });
    expect((await list()).body.code).toBe(0);
    const r = await a.post('/api/password/save', {
      oldPassword: 'Demo1234',
      newPassword: 'Newpass123',
      confirmPassword: 'Newpass123',
    });
    expect(r.body.code).toBe(0);
    expect((await list()).body.code).toBe(401);
  });
});

import { describe, expect, it } from 'vitest';
import { countQueries } from '../../server/db';
import { backends, useServer } from './harness';

/**
 * Round trips of the lists under load (issue 28 item 3, bench/list-load.ts): the first page of the
 * send-record list, the task list and the sub-account list each make at most this many database
 * statements (the session check included). On the embedded database every statement of every
 * request waits its turn on one connection, so each one cut is throughput.
 */
const MAX = { records: 2, tasks: 2, accounts: 2 };

describe.each(backends)('statements per list request (%s)', (backend) => {
  const t = useServer(backend);

  it('the send-record, task and sub-account lists stay within their round trips', async () => {
    const client = await t.server.client().init();
    expect((await client.login('client1')).body.code).toBe(0);
    const agent = await t.server.client().init();
    expect((await agent.login('agent1')).body.code).toBe(0);
    const lists = {
      records: () => client.post('/api/send/getrecords', { page: 1, rows: 10 }, { json: true }),
      tasks: () => client.post('/api/send/sendTask', { page: 1, rows: 10 }, { json: true }),
      accounts: () => agent.post('/api/client/accounts', { currentPage: 1, pageSize: 10 }, { json: true }),
    };
    for (const [name, call] of Object.entries(lists)) {
      const { result, queries } = await countQueries(call);
      expect(result.body.code, name).toBe(0);
      // the demo data has rows in each list: the page is read, not only counted
      expect(result.body.data.list.length, name).toBeGreaterThan(0);
      expect(queries, name).toBeLessThanOrEqual(MAX[name as keyof typeof MAX]);
    }
  });
});

import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../common/schema/messages';
import { loadConfig } from '../../server/config';
import { TEST_DATABASE_URL, useServer } from './harness';

/**
 * DB_STATEMENT_TIMEOUT_MS (issue 28 item 3): every pooled PostgreSQL connection carries a
 * statement_timeout; a request whose statement runs past it answers code 504 查询超时… (HTTP 200,
 * like every business answer), never a 500, and the connection serves the next request. PGlite
 * cannot cancel a statement (it runs in the server's own thread): nothing to test there.
 */
describe.skipIf(!TEST_DATABASE_URL)('statement timeout (postgres)', () => {
  const t = useServer('postgres', { statementTimeoutMs: 300 });

  it('a list whose statement waits past the timeout answers 查询超时, and the next one answers normally', async () => {
    const c = await t.server.client().init();
    expect((await c.login('client1')).body.code).toBe(0);
    const list = () => c.post('/api/send/getrecords', { page: 1, rows: 10 }, { json: true });
    expect((await list()).body.code).toBe(0);
    // another connection holds the records table: the list's statement waits on the lock until
    // the pool's statement_timeout cancels it
    const schema = (t.server as unknown as { schema: string }).schema;
    const holder = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query(`lock table ${schema}.sms_messages in access exclusive mode`);
      const started = Date.now();
      const r = await list();
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ code: 504, msg: MESSAGES.queryTimeout });
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await holder.query('rollback').catch(() => undefined);
      await holder.end();
    }
    expect((await list()).body.code).toBe(0);
  });

  it('DB_STATEMENT_TIMEOUT_MS: 30 s by default, 0 turns it off', () => {
    const timeout = (env: Record<string, string>) => loadConfig(env).db.statementTimeoutMs;
    expect(timeout({})).toBe(30_000);
    expect(timeout({ DB_STATEMENT_TIMEOUT_MS: '0' })).toBe(0);
    expect(timeout({ DB_STATEMENT_TIMEOUT_MS: '1500' })).toBe(1500);
    expect(() => timeout({ DB_STATEMENT_TIMEOUT_MS: '-1' })).toThrow(/DB_STATEMENT_TIMEOUT_MS="-1" is not accepted/);
  });
});

import { describe, expect, it } from 'vitest';
import { backends, useServer } from './harness';

/** GET /login/timeout answers from a short in-process cache of valid sessions (SESSION_CHECK_CACHE_MS). */
describe.each(backends)('session check cache (%s)', (backend) => {
  const t = useServer(backend, { config: { sessionCheckCacheMs: 60_000 } });

  it('answers from memory after one database check, and forgets a session at logout', async () => {
    const c = await t.server.client().init();
    expect((await c.login('agent1')).body.code).toBe(0);
    expect((await c.get('/api/login/timeout')).body.data).toBe(true);
    // the session row is gone behind the server's back: the cached answer holds (for at most the TTL)
    const db = t.server.handle.db;
    const rows = await db
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
        rows.map((r) => r.id),
      )
      .execute();
    expect((await c.get('/api/login/timeout')).body.data).toBe(true);
    // every other call still checks the database
    expect((await c.get('/api/admin/info')).body.code).toBe(401);

    const d = await t.server.client().init();
    expect((await d.login('agent0')).body.code).toBe(0);
    expect((await d.get('/api/login/timeout')).body.data).toBe(true);
    expect((await d.post('/api/logout', {})).body.code).toBe(0);
    expect((await d.get('/api/login/timeout')).body.data).toBe(false);
  });

  it('a password change elsewhere ends the cached answer of the account', async () => {
    const a = await t.server.client().init();
    const b = await t.server.client().init();
    expect((await a.login('client1')).body.code).toBe(0);
    expect((await b.login('client1')).body.code).toBe(0);
    expect((await b.get('/api/login/timeout')).body.data).toBe(true);
    const r = await a.post('/api/password/save', {
      oldPassword: 'Demo1234',
      newPassword: 'Newpass123',
      confirmPassword: 'Newpass123',
    });
    expect(r.body.code).toBe(0);
    expect((await b.get('/api/login/timeout')).body.data).toBe(false);
    expect((await a.get('/api/login/timeout')).body.data).toBe(true);
  });
});

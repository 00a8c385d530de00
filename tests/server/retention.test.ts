import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { BATCH, monthsBefore } from '../../server/modules/retention/service';
import { backends, useServer, withPg } from './harness';

describe('monthsBefore', () => {
  it('goes back calendar months, keeping the day (or the month’s last day)', () => {
    expect(monthsBefore(new Date('2026-12-06T10:00:00Z'), 3).toISOString()).toBe('2026-09-06T10:00:00.000Z');
    expect(monthsBefore(new Date('2026-05-31T00:00:00Z'), 3).toISOString()).toBe('2026-02-28T00:00:00.000Z');
    expect(monthsBefore(new Date('2027-01-15T00:00:00Z'), 6).toISOString()).toBe('2026-07-15T00:00:00.000Z');
  });
});

describe.each(backends)('retention (%s)', (backend) => {
  const t = useServer(backend, { config: { moKeepMonths: 3, pushKeepDays: 7 } });
  const day = 86_400_000;

  it('removes uplinks past MO_KEEP_MONTHS and pushed rows past PUSH_KEEP_DAYS, in batches; keeps the rest', async () => {
    const db = t.server.handle.db;
    const now = t.server.clock.now();
    const at = (ms: number) => new Date(now.getTime() - ms).toISOString();
    await db.deleteFrom('sms_mo').execute();
    await db.deleteFrom('push_outbox').execute();
    // uplinks: more than a batch past the keeping time, a few just inside it
    await sql`insert into sms_mo (account_id, phone, content, received_at)
      select a.id, '1380000' || lpad(g::text, 4, '0'), 'old', ${at(100 * day)}::timestamptz - g * interval '1 second'
      from generate_series(1, ${BATCH + 7}) g, (select id from accounts where clientid = 'client1') a`.execute(db);
    await sql`insert into sms_mo (account_id, phone, content, received_at)
      select a.id, '13900000001', 'kept', ${at(80 * day)}::timestamptz from generate_series(1, 3), (select id from accounts where clientid = 'client1') a`.execute(
      db,
    );
    // pushes: delivered long ago (gone), delivered lately (kept), never delivered however old (kept)
    const push = (doneAt: string | null, createdAt: string) =>
      sql`insert into push_outbox (account_id, kind, url, payload, done_at, created_at)
        select id, 1, 'http://127.0.0.1:9/r', '[]'::jsonb, ${doneAt}::timestamptz, ${createdAt}::timestamptz from accounts where clientid = 'client1'`.execute(
        db,
      );
    await push(at(8 * day), at(9 * day));
    await push(at(6 * day), at(9 * day));
    await push(null, at(30 * day));

    const counts = await t.server.app.services.retention.purge();
    expect(counts).toEqual({ uplinks: BATCH + 7, pushes: 1 });
    const mo = await db.selectFrom('sms_mo').select('content').execute();
    expect(mo.map((r) => r.content)).toEqual(['kept', 'kept', 'kept']);
    const left = await db.selectFrom('push_outbox').select('done_at').orderBy('id').execute();
    expect(left.map((r) => r.done_at === null)).toEqual([false, true]);
    // nothing left to do: a second run removes nothing
    expect(await t.server.app.services.retention.purge()).toEqual({ uplinks: 0, pushes: 0 });
  });

  it.runIf(backend === 'postgres')(
    'one process at a time: a purge skips its turn while another holds the lock',
    async () => {
      const db = t.server.handle.db;
      await db.deleteFrom('push_outbox').execute();
      await sql`insert into push_outbox (account_id, kind, url, payload, done_at)
      select id, 1, 'http://127.0.0.1:9/r', '[]'::jsonb, now() - interval '30 days' from accounts where clientid = 'client1'`.execute(
        db,
      );
      const schema = (t.server as unknown as { schema: string }).schema;
      await withPg(async (c) => {
        await c.query('begin');
        await c.query(`select pg_advisory_xact_lock(hashtext('retention-purge:${schema}'))`);
        expect((await t.server.app.services.retention.purge()).pushes).toBe(0);
        await c.query('rollback');
      });
      expect((await t.server.app.services.retention.purge()).pushes).toBe(1);
    },
  );
});

/**
 * Migration 0019 (the dispatch queue leaves sms_messages) carries the queue state of a database
 * written by the previous version: queued and throttled messages are requeued, leased ones keep
 * their lease, submitted ones wait for their receipt in sms_inflight, timed tasks stay unqueued.
 * Then the dispatcher finishes the work: nothing lost, nothing submitted twice.
 */
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateTo } from '../../server/db/migrations';
import { Dispatcher } from '../../server/modules/dispatch/dispatcher';
import { UNCONFIRMED } from '../../server/modules/dispatch/sql';
import { FakeLink } from '../fixtures/fake-smsc';
import { backends, scratchDb, startServer, type ServerOptions } from './harness';

/** the previous version's rows: one sending task in every queue situation, one timed task */
async function writeOldState(db: Kysely<any>, now: Date) {
  const iso = (ms: number) => new Date(now.getTime() + ms).toISOString();
  const acc = await sql<{
    id: number;
  }>`insert into accounts (clientid, user_type, password_hash, name) values ('mig1', '2', 'x', '迁移') returning id`.execute(
    db,
  );
  const a = acc.rows[0].id;
  const task = async (uid: string, status: number) =>
    (
      await sql<{ id: number }>`
        insert into sms_tasks (uid, account_id, creator_id, payer_id, charge_mode, content, smstype, send_time, submit_total, status,
          submitted_num, unknown_num, success_num)
        values (${uid}, ${a}, ${a}, ${a}, 1, '【迁移】测试', 0, ${iso(0)}::timestamptz, ${uid === 'old-sending' ? 6 : 1}, ${status},
          ${uid === 'old-sending' ? 2 : 0}, ${uid === 'old-sending' ? 1 : 0}, ${uid === 'old-sending' ? 1 : 0})
        returning id`.execute(db)
    ).rows[0].id;
  const t1 = await task('old-sending', 2);
  const t2 = await task('old-timed', 1);
  const msg = async (
    taskId: number,
    phone: string,
    state: number,
    nextAt: string | null,
    lease: [string, string] | null,
    msgId: string | null,
  ) =>
    (
      await sql<{ id: number }>`
        insert into sms_messages (task_id, account_id, phone, carrier, state, next_at, lease_owner, lease_until, msg_id, submitted_at)
        values (${taskId}, ${a}, ${phone}, 1, ${state}, ${nextAt}::timestamptz, ${lease?.[0] ?? null}, ${lease?.[1] ?? null}::timestamptz, ${msgId},
          ${state === 0 ? null : iso(-1000)}::timestamptz)
        returning id`.execute(db)
    ).rows[0].id;
  const ids = {
    queued1: await msg(t1, '13800000001', 0, iso(0), null, null),
    queued2: await msg(t1, '13800000002', 0, iso(0), null, null),
    throttled: await msg(t1, '13800000003', 0, iso(600_000), null, null),
    leased: await msg(t1, '13800000004', 0, iso(-5000), ['old-worker', iso(60_000)], null),
    inflight: await msg(t1, '13800000005', 1, null, null, 'old-5'),
    delivered: await msg(t1, '13800000006', 3, null, null, 'old-6'),
    timed: await msg(t2, '13800000007', 0, null, null, null),
  };
  return { t1, t2, ids };
}

describe.each(backends)('migration 0019: the queue state of the previous version (%s)', (backend) => {
  it('is carried over and finished by the dispatcher without loss or duplicates', async () => {
    const scratch = await scratchDb(backend);
    const opts: ServerOptions = backend === 'pglite' ? { pgliteDir: scratch.dir } : { pgSchema: scratch.schema };
    let old: Awaited<ReturnType<typeof writeOldState>>;
    const now = new Date();
    try {
      const h = await scratch.open();
      try {
        await migrateTo(h.db, '0018_reports', scratch.migrationSchema);
        old = await writeOldState(h.db, now);
      } finally {
        await h.close();
      }

      const server = await startServer(backend, { ...opts, build: { now: () => new Date() } });
      try {
        const db = server.handle.db;
        const { ids, t1 } = old;
        const leases = await db.selectFrom('dispatch_leases').selectAll().execute();
        expect(leases.map((l) => [l.owner, l.message_ids])).toEqual([['old-worker', [ids.leased]]]);
        const requeue = await db.selectFrom('sms_requeue').selectAll().orderBy('message_id').execute();
        expect(requeue.map((r) => r.message_id)).toEqual([ids.queued1, ids.queued2, ids.throttled]);
        expect(new Date(requeue[2].next_at).getTime()).toBe(now.getTime() + 600_000);
        const queue = await db.selectFrom('dispatch_queue').selectAll().execute();
        expect(queue.map((q) => [q.task_id, q.next_id, q.queued])).toEqual([[t1, ids.leased, false]]);
        const inflight = await db.selectFrom('sms_inflight').selectAll().execute();
        expect(inflight.map((i) => [i.msg_id, i.message_id, i.task_id])).toEqual([['old-5', ids.inflight, t1]]);

        const link = new FakeLink();
        const d = new Dispatcher(server.app.ctx, link, {
          maintenanceMs: 0,
          batchSize: 10,
          leaseMs: 60_000,
          markSubmittedMs: 0,
        });
        link.pendingReceipts.push({ msgId: 'old-5', delivered: true, stat: 'DELIVRD', err: '000', doneAt: now });
        expect(await link.flushReceipts()).toBe(1);
        while ((await d.dispatchOnce()) > 0);
        // the throttled one waits for its time; the leased one for its old lease; the timed one for its task
        expect([...link.written.keys()].sort((a, b) => a - b)).toEqual([ids.queued1, ids.queued2]);
        // its time comes
        await sql`update sms_requeue set next_at = now() - interval '1 second'`.execute(db);
        while ((await d.dispatchOnce()) > 0);
        expect([...link.written.keys()].sort((a, b) => a - b)).toEqual([ids.queued1, ids.queued2, ids.throttled]);
        expect(link.duplicates()).toEqual([]);

        const state = async () =>
          Object.fromEntries(
            (
              await db
                .selectFrom('sms_messages')
                .select(['id', 'state', 'error_code'])
                .where('task_id', 'in', [old.t1, old.t2])
                .execute()
            ).map((m) => [m.id, `${m.state}${m.error_code === UNCONFIRMED ? ' UNCONFIRMED' : ''}`]),
          );
        expect(await state()).toEqual({
          [ids.queued1]: '1',
          [ids.queued2]: '1',
          [ids.throttled]: '1',
          [ids.leased]: '0',
          [ids.inflight]: '3',
          [ids.delivered]: '3',
          [ids.timed]: '0',
        });
        // the old worker's lease runs out: unconfirmed, never submitted again
        await sql`update dispatch_leases set lease_until = now() - interval '1 second'`.execute(db);
        await d.maintain();
        expect((await state())[ids.leased]).toBe('1 UNCONFIRMED');
        while ((await d.dispatchOnce()) > 0);
        expect(link.written.has(ids.leased)).toBe(false);
        expect(
          await db
            .selectFrom('sms_tasks')
            .select(['status', 'submitted_num', 'unknown_num', 'success_num'])
            .where('id', '=', t1)
            .executeTakeFirstOrThrow(),
        ).toEqual({
          status: 3,
          submitted_num: 6,
          unknown_num: 4,
          success_num: 2,
        });
      } finally {
        await server.close();
      }
    } finally {
      await scratch.remove();
    }
  });
});

/**
 * Test and benchmark fixture: a task with `count` queued messages written the way the acceptance
 * writes them (send/messages.ts `insertMessages`: rows, and chunks beyond the first 10,000 of a
 * queued task), bypassing its checks and charge (no ledger rows, price 0 unless given). Used by
 * tests/server/dispatch.test.ts, send-chunks.test.ts, bench/send-e2e.ts and bench/crash.ts
 * (moved from server/modules/dispatch/: only tests and benches use it).
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/types';
import { insertMessages } from '../../server/modules/send/messages';

export interface FixtureTask {
  accountId: number;
  count: number;
  content?: string;
  /** numbers are `phoneBase + i` (11 digits) */
  phoneBase?: number;
  pieces?: number;
  price?: string;
  /** null: not queued (timed task before its time); else queued for dispatch (dispatch_queue) */
  nextAt?: Date | null;
  status?: number;
  /** messages created in this state (default 0) */
  state?: number;
}

export async function insertFixtureTask(db: Kysely<Database>, t: FixtureTask): Promise<{ id: number; uid: string }> {
  const now = new Date();
  const nextAt = t.nextAt === undefined ? now : t.nextAt;
  return db.transaction().execute(async (trx) => {
    const task = await trx
      .insertInto('sms_tasks')
      .values({
        uid: `fx${Date.now().toString(36)}${randomBytes(4).toString('hex')}`,
        account_id: t.accountId,
        creator_id: t.accountId,
        payer_id: t.accountId,
        charge_mode: 1,
        content: t.content ?? '【云讯通】您的验证码是1234，5分钟内有效。',
        smstype: 0,
        send_time: nextAt ?? now,
        submit_total: t.count,
        pieces_per_msg: t.pieces ?? 1,
        charge_num_total: t.count * (t.pieces ?? 1),
        status: t.status ?? 0,
      })
      .returning(['id', 'uid'])
      .executeTakeFirstOrThrow();
    const base = t.phoneBase ?? 13000000000;
    const price = t.price ?? '0';
    await insertMessages(trx, {
      taskId: task.id,
      accountId: t.accountId,
      phones: Array.from({ length: t.count }, (_, i) => String(base + i)),
      carriers: new Uint8Array(t.count).fill(1),
      pieces: t.pieces ?? 1,
      prices: { 1: price, 2: price, 3: price },
      state: t.state ?? 0,
      nextAt,
      createdAt: now,
      doneAt: null,
    });
    return task;
  });
}

/**
 * Review of messages awaiting it (needaudit: 1 marketing, 2 all, 3 keyword): the operator
 * approves or rejects a task's waiting messages (CLI `send approve <uid>` / `send reject <uid>
 * [reason]`). Approve: state 7 → 0, queued for dispatch at once (dispatch/sql.ts releaseMessages), or
 * at the task's time when it is a timed task still waiting (the timer queues it). Reject: state 7 → 9 审核失败 with the
 * reason in `report`, counted failed, their charge returned (settleRefunds).
 */
import { sql } from 'kysely';
import type { Db } from '../../db';
import { settleRefunds } from '../billing';
import { carrierSlot, releaseMessages } from '../dispatch';
import { expandTask } from './messages';
import { ChargeState, SendRecordStatus, TaskStatus } from '../../../common/generated/schemas';

export interface ReviewResult {
  uid: string;
  messages: number;
}

export class ReviewError extends Error {}

export async function reviewTask(
  ctx: { db: Db; now: () => Date },
  uid: string,
  decision: 'approve' | 'reject',
  reason = '',
): Promise<ReviewResult> {
  // a large task's messages awaiting review past its first 10,000 may still be chunks: rows first
  const task = await ctx.db.selectFrom('sms_tasks').select('id').where('uid', '=', uid).executeTakeFirst();
  if (task && !(await expandTask(ctx.db, task.id))) throw new ReviewError(`任务 ${uid} 的号码正在处理，请稍后重试`);
  return ctx.db.transaction().execute(async (trx) => {
    const now = ctx.now();
    const t = await trx
      .selectFrom('sms_tasks')
      .select(['id', 'uid', 'status', 'audit_num', 'charge_state'])
      .where('uid', '=', uid)
      .forUpdate()
      .executeTakeFirst();
    if (!t) throw new ReviewError(`任务 ${uid} 不存在`);
    if (t.status === TaskStatus.Cancelled) throw new ReviewError(`任务 ${uid} 已取消`);
    if (decision === 'approve') {
      const approved = await trx
        .updateTable('sms_messages')
        .set({ state: SendRecordStatus.NotSent })
        .where('task_id', '=', t.id)
        .where('state', '=', SendRecordStatus.AwaitingReview)
        .returning('id')
        .execute();
      const n = approved.length;
      if (!n) throw new ReviewError(`任务 ${uid} 没有待审核的短信`);
      if (t.status !== TaskStatus.Waiting)
        await releaseMessages(
          trx,
          t.id,
          approved.map((m) => m.id),
          now,
        );
      await trx.updateTable('sms_tasks').set({ audit_num: 0, updated_at: now }).where('id', '=', t.id).execute();
      return { uid, messages: n };
    }
    const agg = await trx
      .updateTable('sms_messages')
      .set({
        state: SendRecordStatus.ReviewFailed,
        done_at: now,
        error_code: 'REJECTED',
        report: reason.slice(0, 200) || '审核不通过',
      })
      .where('task_id', '=', t.id)
      .where('state', '=', SendRecordStatus.AwaitingReview)
      .returning([sql<string>`price * pieces`.as('cost'), 'pieces', 'carrier'])
      .execute();
    if (!agg.length) throw new ReviewError(`任务 ${uid} 没有待审核的短信`);
    let cost = 0n;
    let pieces = 0;
    const byCarrier = [0, 0, 0, 0, 0];
    // exact sum of 4-decimal costs in integer ten-thousandths
    for (const a of agg) {
      const [i, f = ''] = String(a.cost).split('.');
      cost += BigInt(i) * 10000n + BigInt((f + '0000').slice(0, 4));
      pieces += a.pieces;
      byCarrier[carrierSlot(a.carrier)] += a.pieces;
    }
    const costText = `${cost / 10000n}.${String(cost % 10000n).padStart(4, '0')}`;
    const left = await trx
      .selectFrom('sms_messages')
      .select(sql<string>`count(*)::text`.as('n'))
      .where('task_id', '=', t.id)
      .where('state', 'in', [SendRecordStatus.NotSent, SendRecordStatus.AwaitingReview])
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('sms_tasks')
      .set((eb) => ({
        audit_num: 0,
        fail_num: eb('fail_num', '+', agg.length),
        refundable_cost: sql`refundable_cost + ${costText}::numeric`,
        refundable_pieces: eb('refundable_pieces', '+', pieces),
        refundable_pieces_by_carrier: sql`array[${sql.join(byCarrier.map((n, k) => sql`refundable_pieces_by_carrier[${sql.lit(k + 1)}] + ${n}::int`))}]`,
        updated_at: now,
        ...(Number(left.n) === 0 ? { status: TaskStatus.Completed, finished_at: now } : {}),
      }))
      .where('id', '=', t.id)
      .execute();
    if (t.charge_state === ChargeState.Charged) await settleRefunds(trx, ctx, [t.id]);
    return { uid, messages: agg.length };
  });
}

/**
 * Timed tasks (contract "Timed tasks"): `fireDueTimedTasks` releases tasks whose send time has
 * come. The dispatcher calls it every second; any number of processes may, since each task is
 * claimed with FOR UPDATE SKIP LOCKED and handled in its own transaction.
 *
 * Firing a task: a deferred task (accepted with isCheckAvailableCredit 0) is charged now; when
 * that fails its waiting messages end in state 14 计费失败 (nothing was charged, so nothing is
 * returned) and the task is completed. Otherwise the task is queued for dispatch (dispatch_queue)
 * and goes to 0 处理中. Messages awaiting review stay as they are until approved.
 */
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import { Money } from '../../lib/money';
import { chargePlan, type CarrierCode, type ChargePlan } from '../billing';
import { enqueueTask } from '../dispatch';
import { ChargeMode, ChargeState, SendRecordStatus, TaskStatus } from '../../../common/generated/schemas';

type Ctx = Pick<AppContext, 'db' | 'now'>;

/** Releases up to `limit` due timed tasks; returns how many were fired. */
export async function fireDueTimedTasks(ctx: Ctx, limit = 10): Promise<number> {
  let fired = 0;
  for (let i = 0; i < limit; i++) {
    const done = await ctx.db.transaction().execute(async (trx) => {
      const now = ctx.now();
      const t = await trx
        .selectFrom('sms_tasks')
        .select(['id', 'uid', 'account_id', 'payer_id', 'charge_mode', 'charge_state', 'smstype', 'pieces_per_msg'])
        .where('status', '=', TaskStatus.Waiting)
        .where('send_time', '<=', now)
        // a large task fires once its numbers are all rows (docs/api-send.md "Large tasks"): the charge and refusal below read them
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('sms_task_chunks as c').select('c.seq').whereRef('c.task_id', '=', 'sms_tasks.id'))))
        .orderBy('send_time')
        .orderBy('id')
        .limit(1)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      if (!t) return false;
      if (t.charge_state === ChargeState.Deferred) {
        const agg = await trx
          .selectFrom('sms_messages')
          .select(['carrier', sql<string>`coalesce(sum(pieces), 0)::text`.as('n'), sql<string>`coalesce(sum(price * pieces), 0)::text`.as('cost')])
          .where('task_id', '=', t.id)
          .where('state', 'in', [SendRecordStatus.NotSent, SendRecordStatus.AwaitingReview])
          .groupBy('carrier')
          .execute();
        // per carrier: the pieces of its messages (a variable task's rows have their own pieces)
        const perCarrier = { 1: { count: 0, cost: new Money(0) }, 2: { count: 0, cost: new Money(0) }, 3: { count: 0, cost: new Money(0) } } as ChargePlan['perCarrier'];
        for (const a of agg) if (a.carrier >= 1 && a.carrier <= 3) perCarrier[a.carrier as CarrierCode] = { count: Number(a.n), cost: new Money(a.cost) };
        const plan: ChargePlan = { taskId: t.id, uid: t.uid, mode: t.charge_mode === ChargeMode.Pool ? ChargeMode.Pool : ChargeMode.Money, accountId: t.account_id, payerId: t.payer_id, smstype: t.smstype, piecesPerMsg: 1, perCarrier };
        // a refused charge has written nothing (checked on locked rows first): the task is marked failed
        const r = await chargePlan(trx, ctx, plan);
        if (!r.ok) {
          const failed = await trx
            .updateTable('sms_messages')
            .set({ state: SendRecordStatus.BillingFailed, done_at: now, error_code: 'BILLING', report: r.kind === 'balance' ? '余额不足' : '短信余量不足' })
            .where('task_id', '=', t.id)
            .where('state', 'in', [SendRecordStatus.NotSent, SendRecordStatus.AwaitingReview])
            .executeTakeFirst();
          await trx
            .updateTable('sms_tasks')
            .set((eb) => ({
              status: TaskStatus.Completed,
              charge_state: ChargeState.Failed,
              charge_num_total: 0,
              fail_num: eb('fail_num', '+', Number(failed.numUpdatedRows)),
              audit_num: 0,
              updated_at: now,
              finished_at: now,
            }))
            .where('id', '=', t.id)
            .execute();
          return true;
        }
        await trx.updateTable('sms_tasks').set({ charge_state: ChargeState.Charged, amount: r.amount, cost: r.cost, charge_num_total: r.chargeNum }).where('id', '=', t.id).execute();
      }
      await enqueueTask(trx, t.id, now);
      await trx.updateTable('sms_tasks').set({ status: TaskStatus.Processing, updated_at: now }).where('id', '=', t.id).execute();
      return true;
    });
    if (!done) break;
    fired++;
  }
  return fired;
}

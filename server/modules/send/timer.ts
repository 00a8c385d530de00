/**
 * Timed tasks (contract "Timed tasks"): `fireDueTimedTasks` releases tasks whose send time has
 * come. The dispatcher calls it every second; any number of processes may, since each task is
 * claimed with FOR UPDATE SKIP LOCKED and handled in its own transaction.
 *
 * Firing a task: a deferred task (accepted with isCheckAvailableCredit 0) is charged now; when
 * that fails its waiting messages end in state 14 计费失败 (nothing was charged, so nothing is
 * returned) and the task is completed. Otherwise the task is queued for dispatch (dispatch_queue)
 * and goes to 0 处理中. Messages awaiting review stay as they are until approved.
 *
 * A marketing task first drops its messages to numbers put on the account's or the platform's
 * blacklist since it was accepted (`skipBlacklistedAtFire`, docs/api-blacklist.md "Marketing
 * sends"): counted in blacklist_num like those a send skips at acceptance, and their charge (if it
 * was charged at acceptance) returned through settleRefunds.
 */
import { sql, type Transaction } from 'kysely';
import type { AppContext } from '../../context';
import { Money } from '../../lib/money';
import { chargePlan, isCarrierCode, settleRefunds, type ChargePlan } from '../billing';
import { carrierSlot, enqueueTask } from '../dispatch';
import { honoursBlacklist } from '../blacklist';
import type { Database } from '../../db/types';
import { ChargeMode, ChargeState, SendRecordStatus, TaskStatus } from '../../../common/generated/schemas';

type Ctx = Pick<AppContext, 'db' | 'now'>;
type Tx = Transaction<Database>;

/**
 * A marketing task about to fire: its messages still to send (未发送 / 待审核) to numbers now on the
 * account's or the platform's blacklist are deleted (not sent, as a send skips them at acceptance),
 * counted in blacklist_num and taken out of submit_total (audit_num for those awaiting review). A
 * task charged at acceptance gets their cost back: added to its refundable figures and settled
 * (settleRefunds: ledger row 14 失败返还 / 8 后付费返还, or pieces back to the pools that paid). A
 * deferred task is charged afterwards for the others only. One set-based statement (the
 * blacklist's (account_id, phone) index), after one probe that answers "no list has a row" for most
 * accounts. Returns how many messages were dropped and how many are left to send.
 */
export async function skipBlacklistedAtFire(
  trx: Tx,
  ctx: Pick<AppContext, 'now'>,
  t: { id: number; account_id: number; smstype: number; charge_state: number },
): Promise<{ skipped: number; left: number }> {
  const leftOf = async () =>
    Number(
      (
        await trx
          .selectFrom('sms_messages')
          .select(sql<string>`count(*)::text`.as('n'))
          .where('task_id', '=', t.id)
          .where('state', 'in', [SendRecordStatus.NotSent, SendRecordStatus.AwaitingReview])
          .executeTakeFirstOrThrow()
      ).n,
    );
  if (!honoursBlacklist(t.smstype)) return { skipped: 0, left: -1 };
  const any = await sql<{ one: number }>`
    select 1 as one where exists (select 1 from blacklist where account_id = ${t.account_id}) or exists (select 1 from blacklist where account_id is null)`.execute(
    trx,
  );
  if (!any.rows.length) return { skipped: 0, left: -1 };
  const dropped = await sql<{ cost: string; pieces: number; carrier: number; state: number }>`
    delete from sms_messages m
    where m.task_id = ${t.id} and m.state in (${SendRecordStatus.NotSent}, ${SendRecordStatus.AwaitingReview})
      and (exists (select 1 from blacklist b where b.account_id = ${t.account_id} and b.phone = m.phone)
        or exists (select 1 from blacklist b where b.account_id is null and b.phone = m.phone))
    returning (m.price * m.pieces)::text as cost, m.pieces, m.carrier, m.state`.execute(trx);
  const rows = dropped.rows;
  if (!rows.length) return { skipped: 0, left: -1 };
  let cost = new Money(0);
  let pieces = 0;
  let awaiting = 0;
  const byCarrier = [0, 0, 0, 0, 0];
  for (const r of rows) {
    cost = cost.plus(r.cost);
    pieces += r.pieces;
    byCarrier[carrierSlot(r.carrier)] += r.pieces;
    if (r.state === SendRecordStatus.AwaitingReview) awaiting++;
  }
  const charged = t.charge_state === ChargeState.Charged;
  await trx
    .updateTable('sms_tasks')
    .set((eb) => ({
      blacklist_num: eb('blacklist_num', '+', rows.length),
      submit_total: eb('submit_total', '-', rows.length),
      audit_num: sql<number>`greatest(audit_num - ${awaiting}::int, 0)`,
      ...(charged
        ? {
            refundable_cost: sql`refundable_cost + ${cost.toFixed(4)}::numeric`,
            refundable_pieces: eb('refundable_pieces', '+', pieces),
            refundable_pieces_by_carrier: sql`array[${sql.join(byCarrier.map((n, k) => sql`refundable_pieces_by_carrier[${sql.lit(k + 1)}] + ${n}::int`))}]`,
          }
        : {}),
      updated_at: ctx.now(),
    }))
    .where('id', '=', t.id)
    .execute();
  if (charged) await settleRefunds(trx, ctx, [t.id]);
  return { skipped: rows.length, left: await leftOf() };
}

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
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('sms_task_chunks as c').select('c.seq').whereRef('c.task_id', '=', 'sms_tasks.id'))),
        )
        .orderBy('send_time')
        .orderBy('id')
        .limit(1)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      if (!t) return false;
      // marketing: not to numbers blacklisted since acceptance; none left, the task ends here
      const bl = await skipBlacklistedAtFire(trx, ctx, t);
      if (bl.skipped && bl.left === 0) {
        await trx
          .updateTable('sms_tasks')
          .set({
            status: TaskStatus.Completed,
            ...(t.charge_state === ChargeState.Deferred
              ? { charge_state: ChargeState.Charged, charge_num_total: 0 }
              : {}),
            updated_at: now,
            finished_at: now,
          })
          .where('id', '=', t.id)
          .execute();
        return true;
      }
      if (t.charge_state === ChargeState.Deferred) {
        const agg = await trx
          .selectFrom('sms_messages')
          .select([
            'carrier',
            sql<string>`coalesce(sum(pieces), 0)::text`.as('n'),
            sql<string>`coalesce(sum(price * pieces), 0)::text`.as('cost'),
          ])
          .where('task_id', '=', t.id)
          .where('state', 'in', [SendRecordStatus.NotSent, SendRecordStatus.AwaitingReview])
          .groupBy('carrier')
          .execute();
        // per carrier: the pieces of its messages (a variable task's rows have their own pieces)
        const perCarrier = {
          1: { count: 0, cost: new Money(0) },
          2: { count: 0, cost: new Money(0) },
          3: { count: 0, cost: new Money(0) },
        } as ChargePlan['perCarrier'];
        for (const a of agg)
          if (isCarrierCode(a.carrier)) perCarrier[a.carrier] = { count: Number(a.n), cost: new Money(a.cost) };
        const plan: ChargePlan = {
          taskId: t.id,
          uid: t.uid,
          mode: t.charge_mode === ChargeMode.Pool ? ChargeMode.Pool : ChargeMode.Money,
          accountId: t.account_id,
          payerId: t.payer_id,
          smstype: t.smstype,
          piecesPerMsg: 1,
          perCarrier,
        };
        // a refused charge has written nothing (checked on locked rows first): the task is marked failed
        const r = await chargePlan(trx, ctx, plan);
        if (!r.ok) {
          const failed = await trx
            .updateTable('sms_messages')
            .set({
              state: SendRecordStatus.BillingFailed,
              done_at: now,
              error_code: 'BILLING',
              report: r.kind === 'balance' ? '余额不足' : '短信余量不足',
            })
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
        await trx
          .updateTable('sms_tasks')
          .set({ charge_state: ChargeState.Charged, amount: r.amount, cost: r.cost, charge_num_total: r.chargeNum })
          .where('id', '=', t.id)
          .execute();
      }
      await enqueueTask(trx, t.id, now);
      await trx
        .updateTable('sms_tasks')
        .set({ status: TaskStatus.Processing, updated_at: now })
        .where('id', '=', t.id)
        .execute();
      return true;
    });
    if (!done) break;
    fired++;
  }
  return fired;
}

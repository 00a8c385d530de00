/**
 * Billing of sends: the charge at acceptance (or when a deferred timed task fires) and the return
 * of refundable pieces / money. Rules (docs/api-send.md "Billing"):
 *
 * - Who pays: the sending account; a postpaid sub-account (paytype 1) is paid by its agent.
 * - operation_mode 0 (by amount): a message costs pieces × the account's price for its carrier
 *   (price_type 0: unified_price; 1: mobile / unicom / telecom price), exact to 4 decimals. The task
 *   is charged `amount` = the cent-ceiling of its exact cost, one ledger row (15 子账户消费, or 6
 *   后付费子账户使用 on the agent). Returns keep the net charge equal to the cent-ceiling of the
 *   cost of the messages that were not refunded: owed = amount − ceil₂(cost − refundable_cost) −
 *   refunded_amount, one ledger row per settlement (14 失败返还, or 8 后付费返还). So a task never
 *   pays more than one cent over its exact cost, and a fully refunded task gets all of it back.
 * - The rounding carry (interface sends, issue 35 item 8; `plan.carry`): one message a task would
 *   pay a cent-ceiling per message, so an interface task is charged through the payer's carry
 *   (`accounts.charge_carry`, what it paid over the exact cost of such tasks, net of returns):
 *   amount = max(0, ceil₂(cost − carry)), carry += amount − cost (on the payer row the ledger
 *   locks). Its returns are exact, through the carry too: carry += the refundable cost not yet
 *   returned (`sms_tasks.carry_settled`), the whole cents of it paid back but never more than the
 *   task still holds (amount − refunded_amount), the rest stays in the carry. So the payer of
 *   carry tasks pays the cent-ceiling of their total exact cost (three SMPP submits at 0.045:
 *   0.05 + 0.04 + 0.05 = 0.14, as one console task of three), and no task gets back more than it
 *   was charged.
 * - operation_mode 1 (by pieces): pieces come from the payer's product pools. SMS type → product
 *   types: 验证码 → 3 then 0, 通知 → 4 then 0, 营销 → 1 (others: 0). A number's pieces come from
 *   pools of its carrier first, then from 全网 (operator 0) pools (a carrier pool can serve nobody
 *   else, so this never refuses a send a different order could take), each group by product type
 *   preference, then earliest due time; expired and empty pools are skipped. Every change is a
 *   pool_movements row (kind 1 扣款 negative, kind 7 回退条数 positive) carrying the task and the
 *   carrier, so sum(pool_movements.pieces) = remaining per pool. Returned pieces go back to the
 *   pools that paid for that carrier, last charged first (an expired pool gets them back too:
 *   they expire with it).
 * - Refusal: not enough money / pieces → nothing is written (the caller's transaction rolls back).
 *
 * Contract with the dispatch side (server/modules/dispatch): whenever messages of a task reach a
 * refundable final state (4, 6, 8, 9, 11, 12, 13, 14), the same transaction adds their cost to
 * sms_tasks.refundable_cost / refundable_pieces and then calls settleRefunds for those tasks, which
 * writes what is still owed back (ledger rows for money, pool_movements for pieces) and raises
 * refunded_amount / refunded_pieces. Idempotent: calling it again writes nothing new.
 */
import type { Insertable, Transaction } from 'kysely';
import type { AppContext } from '../../context';
import type { Database } from '../../db/types';
import { LedgerService } from '../ledger';
import { Money, money2, type MoneyValue } from '../../lib/money';
import {
  BillPaymentType,
  Carrier,
  ChargeMode,
  ChargeState,
  ProductType,
  SendKind,
  SendRecordStatus,
  SmsType,
} from '../../../common/generated/schemas';

type Tx = Transaction<Database>;
type PoolMove = Insertable<Database['pool_movements']>;
type Ctx = Pick<AppContext, 'now'>;

/** message states whose cost is returned (contract) */
export const REFUNDABLE_STATES = [
  SendRecordStatus.SubmitFailed,
  SendRecordStatus.DeliveryFailed,
  SendRecordStatus.TemplateReviewFailed,
  SendRecordStatus.ReviewFailed,
  SendRecordStatus.GatewayReceiveIntercepted,
  SendRecordStatus.GatewaySendIntercepted,
  SendRecordStatus.FrequencyIntercepted,
  SendRecordStatus.BillingFailed,
] as const;

/** the domestic carriers a plan counts per (enums/carrier.json) */
export type CarrierCode = typeof Carrier.Mobile | typeof Carrier.Unicom | typeof Carrier.Telecom;
export const CARRIERS: CarrierCode[] = [Carrier.Mobile, Carrier.Unicom, Carrier.Telecom];
/** a domestic carrier a plan counts per (not 未知 0, not 国际 4) */
export const isCarrierCode = (c: number): c is CarrierCode =>
  c === Carrier.Mobile || c === Carrier.Unicom || c === Carrier.Telecom;

/** The cent-ceiling of an exact amount: 0.1301 -> 0.14, 0.13 -> 0.13. */
export function ceilCent(v: MoneyValue | string | number): MoneyValue {
  return new Money(v).toDecimalPlaces(2, Money.ROUND_CEIL);
}

/** Product types a send of this SMS type draws from, preferred first. */
export function productTypesFor(smstype: number): ProductType[] {
  if (smstype === SmsType.VerificationCode) return [ProductType.VerificationCode, ProductType.Industry];
  if (smstype === SmsType.Notification) return [ProductType.Notification, ProductType.Industry];
  if (smstype === SmsType.Marketing) return [ProductType.Marketing];
  return [ProductType.Industry];
}

/** What a task is charged: per carrier, the chargeable messages and their exact cost. */
export interface ChargePlan {
  taskId: number;
  uid: string;
  mode: ChargeMode;
  accountId: number;
  payerId: number;
  smstype: number;
  piecesPerMsg: number;
  perCarrier: Record<CarrierCode, { count: number; cost: MoneyValue }>;
  /** money mode: charged through the payer's rounding carry (interface sends; the task's carry_settled is set to 0) */
  carry?: boolean;
  /** the payer's balance and carry as the charging transaction read them on its row locked FOR NO KEY UPDATE (the ledger reads them itself otherwise) */
  payerRow?: { balance: string; carry: string };
}

export type ChargeResult =
  | { ok: true; amount: string; cost: string; chargeNum: number }
  | { ok: false; kind: 'balance'; balance: string; needed: string }
  | { ok: false; kind: 'pieces'; remain: number; needed: number }
  /** international pools (yuan, 2 decimals) */
  | { ok: false; kind: 'intlPools'; remain: string; needed: string };

/**
 * International pools (product_type 2 国际) hold money, not pieces (spec 02 §3: the SMS bill
 * counts yuan when product_type is 2; the purchase sells 国际短信余额 by the yuan): their `total`,
 * `remaining` and pool_movements.pieces count 分 (0.01 yuan), so a send takes its exact
 * cent-ceiled amount from them (ProductType.International): 分 per yuan in an international pool.
 */
export const INTL_POOL_FEN = 100;

/** What a pool holds in its own unit, as shown: pieces, or yuan for an international pool. */
export function poolFigure(productType: number, remaining: number): number {
  return productType === ProductType.International ? remaining / INTL_POOL_FEN : remaining;
}

const GROUPED = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const GROUPED_YUAN = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** A count of pieces as shown (thousands separators): 19996 -> '19,996'. */
export const groupedPieces = (n: number): string => GROUPED.format(n);

/** A pool's (or a pool line's) figure as shown: '19,996条', or '1,200.00元' for an international one (`figure` in pieces / yuan). */
export function poolText(productType: number, figure: number): string {
  return productType === ProductType.International ? `${GROUPED_YUAN.format(figure)}元` : `${GROUPED.format(figure)}条`;
}

/** The pool units a purchase of `num` adds: pieces, or 分 for an international product (bought by the yuan). */
export function poolUnitsBought(productType: number, num: number): number {
  return productType === ProductType.International ? num * INTL_POOL_FEN : num;
}

const fenOf = (yuan: MoneyValue) => new Money(yuan).times(INTL_POOL_FEN).toNumber();
const yuanOf = (fen: number) => money2(new Money(fen).div(INTL_POOL_FEN));

export const planPieces = (p: Pick<ChargePlan, 'perCarrier' | 'piecesPerMsg'>) =>
  CARRIERS.reduce((n, c) => n + p.perCarrier[c].count * p.piecesPerMsg, 0);
export const planCost = (p: Pick<ChargePlan, 'perCarrier'>) =>
  CARRIERS.reduce((n, c) => n.plus(p.perCarrier[c].cost), new Money(0));

const isPostpaid = (p: { accountId: number; payerId: number }) => p.accountId !== p.payerId;

interface PoolRow {
  id: number;
  product_type: ProductType;
  operator_code: number;
  remaining: number;
  due_time: Date;
}

/**
 * The pools a plan draws from, in the order they are used, per carrier: [pool, pieces] lists, or
 * null when the pools cannot cover it. Pure (unit-testable).
 */
export function allocatePools(
  pools: readonly PoolRow[],
  smstype: number,
  need: Record<CarrierCode, number>,
): Map<CarrierCode, [number, number][]> | null {
  const types = productTypesFor(smstype);
  const rank = (p: PoolRow) => types.indexOf(p.product_type);
  const ordered = pools
    .filter((p) => rank(p) >= 0 && p.remaining > 0)
    .sort((a, b) => rank(a) - rank(b) || a.due_time.getTime() - b.due_time.getTime() || a.id - b.id);
  const left = new Map(ordered.map((p) => [p.id, p.remaining]));
  const out = new Map<CarrierCode, [number, number][]>();
  for (const c of CARRIERS) {
    let n = need[c];
    const takes: [number, number][] = [];
    for (const group of [
      ordered.filter((p) => p.operator_code === c),
      ordered.filter((p) => p.operator_code === Carrier.All),
    ]) {
      for (const p of group) {
        if (n === 0) break;
        const take = Math.min(n, left.get(p.id)!);
        if (take > 0) {
          takes.push([p.id, take]);
          left.set(p.id, left.get(p.id)! - take);
          n -= take;
        }
      }
    }
    if (n > 0) return null;
    out.set(c, takes);
  }
  return out;
}

/** Pools of an account that can pay a send of this SMS type now (for the charge dialog and the pre-check). */
export async function usablePools(
  db: Tx | AppContext['db'],
  payerId: number,
  smstype: number,
  now: Date,
  lock = false,
): Promise<PoolRow[]> {
  let q = db
    .selectFrom('product_pools')
    .select(['id', 'product_type', 'operator_code', 'remaining', 'due_time'])
    .where('account_id', '=', payerId)
    .where('product_type', 'in', productTypesFor(smstype))
    .where('operator_code', 'in', [Carrier.All, ...CARRIERS])
    .where('due_time', '>', now)
    .where('remaining', '>', 0)
    .orderBy('id');
  if (lock) q = q.forUpdate();
  return q.execute();
}

/** International pools of an account usable now, in the order they pay: earliest due first, then id. */
export async function usableIntlPools(
  db: Tx | AppContext['db'],
  payerId: number,
  now: Date,
  lock = false,
): Promise<PoolRow[]> {
  let q = db
    .selectFrom('product_pools')
    .select(['id', 'product_type', 'operator_code', 'remaining', 'due_time'])
    .where('account_id', '=', payerId)
    .where('product_type', '=', ProductType.International)
    .where('due_time', '>', now)
    .where('remaining', '>', 0)
    .orderBy('due_time')
    .orderBy('id');
  if (lock) q = q.forUpdate();
  return q.execute();
}

/** Yuan left in international pools (2 decimals). */
export const intlRemainOf = (pools: readonly PoolRow[]) => yuanOf(pools.reduce((n, p) => n + p.remaining, 0));

/**
 * Charges an international send of a package-mode account (operation_mode 1) to its international
 * pools, inside the caller's transaction: `amount` (yuan, whole cents: the sum of each country's
 * cent-ceiled cost, as the ledger would take it) from the pools, earliest due first, one
 * pool_movements row per pool (kind 1, carrier 4, 分). Not enough: nothing written. Returns are
 * settleRefunds' (the same formula as money, back to the pools that paid).
 */
export async function chargeIntlPools(
  trx: Tx,
  ctx: Ctx,
  c: { taskId: number; uid: string; payerId: number; amount: MoneyValue; cost: MoneyValue; chargeNum: number },
): Promise<ChargeResult> {
  const pools = await usableIntlPools(trx, c.payerId, ctx.now(), true);
  let need = fenOf(c.amount);
  if (!Number.isInteger(need)) throw new Error('chargeIntlPools: the amount must be whole cents');
  if (pools.reduce((n, p) => n + p.remaining, 0) < need)
    return { ok: false, kind: 'intlPools', remain: intlRemainOf(pools), needed: money2(c.amount) };
  const left = new Map(pools.map((p) => [p.id, p.remaining]));
  const moves: PoolMove[] = [];
  for (const p of pools) {
    if (need === 0) break;
    const take = Math.min(need, p.remaining);
    left.set(p.id, p.remaining - take);
    need -= take;
    moves.push({
      pool_id: p.id,
      task_id: c.taskId,
      pieces: -take,
      remaining_after: p.remaining - take,
      kind: BillPaymentType.Deduction,
      carrier: Carrier.International,
      remark: `国际短信 任务${c.uid}`,
      created_at: ctx.now(),
    });
  }
  await writePoolMoves(trx, moves, left);
  return { ok: true, amount: money2(c.amount), cost: new Money(c.cost).toFixed(4), chargeNum: c.chargeNum };
}

/** Remaining pieces usable for each carrier (a 全网 pool counts for every carrier). */
export function remainOf(pools: readonly PoolRow[]): number {
  return pools.reduce((n, p) => n + p.remaining, 0);
}

/**
 * Charges a plan inside the caller's transaction. On refusal nothing has been written (the ledger
 * and the pools are checked on locked rows before any write).
 */
export async function chargePlan(trx: Tx, ctx: Ctx, plan: ChargePlan): Promise<ChargeResult> {
  const chargeNum = planPieces(plan);
  if (plan.mode === ChargeMode.Money) {
    const cost = planCost(plan);
    const ledger = new LedgerService({ db: trx, now: ctx.now });
    const entry = {
      accountId: plan.payerId,
      kind: isPostpaid(plan) ? BillPaymentType.PostpaidSubAccountUse : BillPaymentType.SubAccountConsumption,
      counterpartId: isPostpaid(plan) ? plan.accountId : null,
      remark: `短信发送 任务${plan.uid}`,
    };
    if (plan.carry) {
      // through the payer's carry, read on its row as the ledger locks it and written with its balance
      const r = await ledger.applyCarried(
        trx,
        entry,
        (carry) => {
          const debit = Money.max(ceilCent(cost.minus(carry)), 0);
          return { debit, carry: carry.plus(debit).minus(cost) };
        },
        plan.payerRow,
      );
      if (!r.ok) return { ok: false, kind: 'balance', balance: r.balance, needed: r.needed };
      return { ok: true, amount: money2(r.debit), cost: cost.toFixed(4), chargeNum };
    }
    const amount = ceilCent(cost);
    const r = await ledger.applyIn(trx, [{ ...entry, amount: amount.neg() }]);
    if (!r.ok) return { ok: false, kind: 'balance', balance: r.balance, needed: r.needed };
    return { ok: true, amount: money2(amount), cost: cost.toFixed(4), chargeNum };
  }
  const pools = await usablePools(trx, plan.payerId, plan.smstype, ctx.now(), true);
  const need = {
    1: plan.perCarrier[1].count * plan.piecesPerMsg,
    2: plan.perCarrier[2].count * plan.piecesPerMsg,
    3: plan.perCarrier[3].count * plan.piecesPerMsg,
  };
  const alloc = allocatePools(pools, plan.smstype, need);
  if (!alloc) return { ok: false, kind: 'pieces', remain: remainOf(pools), needed: chargeNum };
  const left = new Map(pools.map((p) => [p.id, p.remaining]));
  const moves: PoolMove[] = [];
  for (const c of CARRIERS) {
    for (const [poolId, n] of alloc.get(c)!) {
      const after = left.get(poolId)! - n;
      left.set(poolId, after);
      moves.push({
        pool_id: poolId,
        task_id: plan.taskId,
        pieces: -n,
        remaining_after: after,
        kind: BillPaymentType.Deduction,
        carrier: c,
        remark: `短信发送 任务${plan.uid}`,
        created_at: ctx.now(),
      });
    }
  }
  await writePoolMoves(trx, moves, left);
  return { ok: true, amount: '0.00', cost: '0.0000', chargeNum };
}

/** The payer's rounding carry now (no lock: the pre-check before an interface acceptance). */
export async function carryOf(db: Tx | AppContext['db'], payerId: number): Promise<MoneyValue> {
  const r = await db.selectFrom('accounts').select('charge_carry').where('id', '=', payerId).executeTakeFirst();
  return new Money(r?.charge_carry ?? 0);
}

async function writePoolMoves(trx: Tx, moves: PoolMove[], remaining: Map<number, number>) {
  if (!moves.length) return;
  const touched = [...new Set(moves.map((m) => m.pool_id))].sort((a, b) => a - b);
  for (const id of touched)
    await trx
      .updateTable('product_pools')
      .set({ remaining: remaining.get(id)! })
      .where('id', '=', id)
      .execute();
  await trx.insertInto('pool_movements').values(moves).execute();
}

interface TaskForSettle {
  send_kind: number;
  id: number;
  uid: string;
  account_id: number;
  payer_id: number;
  charge_mode: number;
  charge_state: number;
  amount: string;
  cost: string;
  refundable_cost: string;
  refunded_amount: string;
  refundable_pieces: number;
  refundable_pieces_by_carrier: number[];
  refunded_pieces: number;
  charge_num_total: number;
  carry_settled: string | null;
}

/**
 * Writes back what the tasks are still owed (contract above). Locks the task rows (ascending id),
 * then the payer's account / pools. Tasks not charged (deferred, billing failed) are skipped.
 */
export async function settleRefunds(trx: Tx, ctx: Ctx, taskIds: readonly number[]): Promise<void> {
  const ids = [...new Set(taskIds)].sort((a, b) => a - b);
  if (!ids.length) return;
  const tasks: TaskForSettle[] = await trx
    .selectFrom('sms_tasks')
    .select([
      'id',
      'uid',
      'account_id',
      'payer_id',
      'charge_mode',
      'charge_state',
      'send_kind',
      'amount',
      'cost',
      'refundable_cost',
      'refunded_amount',
      'refundable_pieces',
      'refundable_pieces_by_carrier',
      'refunded_pieces',
      'charge_num_total',
      'carry_settled',
    ])
    .where('id', 'in', ids)
    .orderBy('id')
    .forUpdate()
    .execute();
  for (const t of tasks) {
    if (t.charge_state !== ChargeState.Charged) continue;
    if (t.charge_mode === ChargeMode.Money) await settleMoney(trx, ctx, t);
    else if (t.send_kind === SendKind.International) await settleIntlPools(trx, ctx, t);
    else await settlePieces(trx, ctx, t);
  }
}

/** sms_tasks.send_kind of an international send */

/** What a task charged by amount (money, or an international pool's yuan) is still owed: amount − ceil₂(kept cost) − refunded. */
function owedAmount(t: TaskForSettle): MoneyValue {
  const kept = Money.max(new Money(t.cost).minus(t.refundable_cost), 0);
  return new Money(t.amount).minus(ceilCent(kept)).minus(t.refunded_amount);
}

/**
 * Returns of an international send charged to international pools: the money rule (owedAmount)
 * in 分, back to the pools that paid, last charged first (kind 7, carrier 4), as pieces go back
 * to their pools.
 */
async function settleIntlPools(trx: Tx, ctx: Ctx, t: TaskForSettle) {
  const owed = owedAmount(t);
  if (owed.lte(0)) return;
  let fen = fenOf(owed);
  const moves = await trx
    .selectFrom('pool_movements')
    .select(['pool_id', 'pieces'])
    .where('task_id', '=', t.id)
    .where('kind', 'in', [BillPaymentType.Deduction, BillPaymentType.CountRollback])
    .orderBy('id')
    .execute();
  // what each pool can still take back: its deductions less what it got back already
  const room = new Map<number, number>();
  for (const m of moves) room.set(m.pool_id, (room.get(m.pool_id) ?? 0) - m.pieces);
  const give = new Map<number, number>();
  for (const [pool, n] of [...room].reverse()) {
    if (fen === 0) break;
    const x = Math.min(n, fen);
    if (x > 0) {
      give.set(pool, x);
      fen -= x;
    }
  }
  if (!give.size) return;
  const ids = [...give.keys()].sort((a, b) => a - b);
  const pools = await trx
    .selectFrom('product_pools')
    .select(['id', 'remaining'])
    .where('id', 'in', ids)
    .orderBy('id')
    .forUpdate()
    .execute();
  const remaining = new Map(pools.map((p) => [p.id, p.remaining]));
  const rows: PoolMove[] = [];
  let returned = 0;
  for (const [pool, n] of give) {
    const after = remaining.get(pool)! + n;
    remaining.set(pool, after);
    returned += n;
    rows.push({
      pool_id: pool,
      task_id: t.id,
      pieces: n,
      remaining_after: after,
      kind: BillPaymentType.CountRollback,
      carrier: Carrier.International,
      remark: `失败返还 任务${t.uid}`,
      created_at: ctx.now(),
    });
  }
  await writePoolMoves(trx, rows, remaining);
  await trx
    .updateTable('sms_tasks')
    .set({ refunded_amount: money2(new Money(t.refunded_amount).plus(yuanOf(returned))), updated_at: ctx.now() })
    .where('id', '=', t.id)
    .execute();
}

/**
 * A task charged through the carry: the refundable cost not yet returned goes into the payer's
 * carry; its whole cents are paid back, at most what the task still holds (amount − refunded).
 */
async function settleCarry(trx: Tx, ctx: Ctx, t: TaskForSettle & { carry_settled: string }) {
  const refundable = Money.min(t.refundable_cost, t.cost);
  const r = refundable.minus(t.carry_settled);
  if (r.lte(0)) return;
  const held = Money.max(new Money(t.amount).minus(t.refunded_amount), 0);
  const postpaid = t.payer_id !== t.account_id;
  // a credit through the carry: its whole cents back, the rest kept, written with the balance
  const done = await new LedgerService({ db: trx, now: ctx.now }).applyCarried(
    trx,
    {
      accountId: t.payer_id,
      kind: postpaid ? BillPaymentType.PostpaidReturn : BillPaymentType.FailureReturn,
      counterpartId: postpaid ? t.account_id : null,
      remark: `失败返还 任务${t.uid}`,
    },
    (before) => {
      const carry = before.plus(r);
      const back = Money.min(carry.toDecimalPlaces(2, Money.ROUND_FLOOR), held);
      return { debit: back.neg(), carry: carry.minus(back) };
    },
  );
  if (!done.ok) throw new Error('settleRefunds: a credit cannot fail');
  const back = done.debit.neg();
  await trx
    .updateTable('sms_tasks')
    .set({
      refunded_amount: money2(new Money(t.refunded_amount).plus(back)),
      carry_settled: refundable.toFixed(4),
      updated_at: ctx.now(),
    })
    .where('id', '=', t.id)
    .execute();
}

async function settleMoney(trx: Tx, ctx: Ctx, t: TaskForSettle) {
  if (t.carry_settled !== null) return settleCarry(trx, ctx, { ...t, carry_settled: t.carry_settled });
  const owed = owedAmount(t);
  if (owed.lte(0)) return;
  const postpaid = t.payer_id !== t.account_id;
  const r = await new LedgerService({ db: trx, now: ctx.now }).applyIn(trx, [
    {
      accountId: t.payer_id,
      amount: owed,
      kind: postpaid ? BillPaymentType.PostpaidReturn : BillPaymentType.FailureReturn,
      counterpartId: postpaid ? t.account_id : null,
      remark: `失败返还 任务${t.uid}`,
    },
  ]);
  if (!r.ok) throw new Error('settleRefunds: a credit cannot fail');
  await trx
    .updateTable('sms_tasks')
    .set({ refunded_amount: money2(new Money(t.refunded_amount).plus(owed)), updated_at: ctx.now() })
    .where('id', '=', t.id)
    .execute();
}

async function settlePieces(trx: Tx, ctx: Ctx, t: TaskForSettle) {
  let owed = Math.min(t.refundable_pieces, t.charge_num_total) - t.refunded_pieces;
  if (owed <= 0) return;
  const moves = await trx
    .selectFrom('pool_movements')
    .select(['id', 'pool_id', 'carrier', 'pieces', 'kind'])
    .where('task_id', '=', t.id)
    .where('kind', 'in', [BillPaymentType.Deduction, BillPaymentType.CountRollback])
    .orderBy('id')
    .execute();
  // what each (pool, carrier) deduction can still take back, last charged first
  const key = (pool: number, carrier: number) => `${pool}:${carrier}`;
  const avail = new Map<string, { pool: number; carrier: number; n: number }>();
  const returnedByCarrier = new Map<number, number>();
  for (const m of moves) {
    const k = key(m.pool_id, m.carrier);
    if (!avail.has(k)) avail.set(k, { pool: m.pool_id, carrier: m.carrier, n: 0 });
    // a deduction is negative, a return positive: what is left to take back
    avail.get(k)!.n -= m.pieces;
    if (m.kind === BillPaymentType.CountRollback)
      returnedByCarrier.set(m.carrier, (returnedByCarrier.get(m.carrier) ?? 0) + m.pieces);
  }
  const slots = [...avail.values()].reverse();
  const give = new Map<string, number>();
  const take = (carrier: number | null, n: number) => {
    for (const s of slots) {
      if (n <= 0) break;
      if (carrier !== null && s.carrier !== carrier) continue;
      const k = key(s.pool, s.carrier);
      const room = s.n - (give.get(k) ?? 0);
      const x = Math.min(room, n);
      if (x > 0) {
        give.set(k, (give.get(k) ?? 0) + x);
        n -= x;
      }
    }
    return n;
  };
  const full = t.refundable_pieces >= t.charge_num_total;
  if (!full) {
    // per carrier: pieces of the refundable messages (the task's tally, migration 0024) not yet returned
    (t.refundable_pieces_by_carrier ?? []).forEach((pieces, carrier) => {
      const out = pieces - (returnedByCarrier.get(carrier) ?? 0);
      const n = Math.min(out, owed);
      if (n > 0) owed -= n - take(carrier, n);
    });
  }
  if (owed > 0) take(null, owed);
  if (!give.size) return;
  const poolIds = [...new Set([...give.keys()].map((k) => Number(k.split(':')[0])))].sort((a, b) => a - b);
  const pools = await trx
    .selectFrom('product_pools')
    .select(['id', 'remaining'])
    .where('id', 'in', poolIds)
    .orderBy('id')
    .forUpdate()
    .execute();
  const remaining = new Map(pools.map((p) => [p.id, p.remaining]));
  const rows: PoolMove[] = [];
  let returned = 0;
  for (const [k, n] of give) {
    const [pool, carrier] = k.split(':').map(Number);
    const after = remaining.get(pool)! + n;
    remaining.set(pool, after);
    returned += n;
    rows.push({
      pool_id: pool,
      task_id: t.id,
      pieces: n,
      remaining_after: after,
      kind: BillPaymentType.CountRollback,
      carrier,
      remark: `回退条数 任务${t.uid}`,
      created_at: ctx.now(),
    });
  }
  await writePoolMoves(trx, rows, remaining);
  await trx
    .updateTable('sms_tasks')
    .set({ refunded_pieces: t.refunded_pieces + returned, updated_at: ctx.now() })
    .where('id', '=', t.id)
    .execute();
}

/**
 * A whole task's charge becomes refundable (a cancelled timed task, a task rejected in review
 * entirely): refundable = everything charged, then settleRefunds.
 */
export async function refundWholeTask(trx: Tx, ctx: Ctx, taskId: number): Promise<void> {
  await trx
    .updateTable('sms_tasks')
    .set((eb) => ({ refundable_cost: eb.ref('cost'), refundable_pieces: eb.ref('charge_num_total') }))
    .where('id', '=', taskId)
    .execute();
  await settleRefunds(trx, ctx, [taskId]);
}

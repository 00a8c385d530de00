/**
 * The money ledger. Every balance change writes ledger rows in the same transaction as the
 * balance update, so sum(ledger.amount) of an account == accounts.balance always holds.
 *
 * Concurrency: the rows involved are locked with SELECT ... FOR UPDATE in ascending id order
 * (agent and sub-account alike), so concurrent recharges and rollbacks serialise without
 * deadlocks, and every check (enough balance) is made on the locked, current values. The
 * balance columns also carry CHECK (balance >= 0) as a last line of defence.
 *
 * Idempotency: a recharge/rollback with a requestId is recorded in ledger_requests (per agent)
 * in the same transaction; a retry with the same requestId answers the first result unchanged.
 */
import { sql, type Transaction } from 'kysely';
import type { AppContext } from '../../context';
import type { Db } from '../../db';
import type { Account, Database } from '../../db/types';
import { ApiError, errors } from '../../http/errors';
import { Money, money2, parseAmount, yuanText, type MoneyValue } from '../../lib/money';
import { AccountStatus, BillPaymentType, LedgerKind, UserType } from '../../../common/generated/schemas';
import rechargeForm from '../../../schemas/forms/recharge.json';
import { isUniqueViolation } from '../../lib/error-code';

/** the recharge form's own refusals of an amount */
const AMOUNT_MESSAGES = {
  format: rechargeForm.properties.amount.allOf[0].errorMessage,
  positive: rechargeForm.properties.amount.allOf[1].errorMessage,
};

/** One balance change written inside the caller's transaction (LedgerService.applyIn). */
export interface LedgerEntry {
  accountId: number;
  /** signed: negative debits */
  amount: MoneyValue | string;
  kind: BillPaymentType | LedgerKind;
  counterpartId?: number | null;
  operatorId?: number | null;
  remark?: string;
}

export type ApplyResult =
  | { ok: true; ledgerIds: number[]; balances: Map<number, string> }
  /** an account would go below 0: nothing was written */
  | { ok: false; accountId: number; balance: string; needed: string };

export type TransferOp = 'recharge' | 'rollback';

export interface TransferResult {
  clientId: string;
  amount: string;
  /** the sub-account's balance after */
  balance: string;
  /** the agent's balance after */
  agentBalance: string;
  ledgerIds: number[];
}

export interface LedgerRow {
  id: number;
  amount: string;
  balance_after: string;
  kind: number;
  counterpart: string | null;
  operator: string | null;
  remark: string;
  request_id: string | null;
  created_at: Date;
}

type Tx = Transaction<Database>;

export class LedgerService {
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'now'>) {}

  /**
   * Locks the accounts with these ids in ascending id order; returns id -> balance. FOR NO KEY
   * UPDATE (the lock of an UPDATE that changes no key, as the balance's): every balance change
   * still waits for the others, but the foreign-key checks of rows that reference the account
   * (FOR KEY SHARE: a receipt queued for it, a task, a message) do not wait for the charge's commit.
   */
  private async lock(
    trx: Tx,
    ids: number[],
  ): Promise<Map<number, { balance: MoneyValue; status: number; carry: MoneyValue }>> {
    const rows = await trx
      .selectFrom('accounts')
      .select(['id', 'balance', 'status', 'charge_carry'])
      .where(
        'id',
        'in',
        [...new Set(ids)].sort((a, b) => a - b),
      )
      .orderBy('id')
      .forNoKeyUpdate()
      .execute();
    return new Map(
      rows.map((r) => [r.id, { balance: new Money(r.balance), status: r.status, carry: new Money(r.charge_carry) }]),
    );
  }

  private async write(
    trx: Tx,
    e: {
      accountId: number;
      amount: MoneyValue;
      after: MoneyValue;
      kind: number;
      counterpartId?: number | null;
      operatorId?: number | null;
      remark?: string;
      requestId?: string | null;
      /** the account's rounding carry after the change (applyCarried), written with its balance */
      carry?: MoneyValue;
    },
  ): Promise<number> {
    // the balance and its ledger row in one statement (one round trip); a data-modifying CTE always runs
    const r = await trx
      .with('balance', (db) =>
        db
          .updateTable('accounts')
          .set(e.carry ? { balance: money2(e.after), charge_carry: e.carry.toFixed(4) } : { balance: money2(e.after) })
          .where('id', '=', e.accountId),
      )
      .insertInto('ledger')
      .values({
        account_id: e.accountId,
        amount: money2(e.amount),
        balance_after: money2(e.after),
        kind: e.kind,
        counterpart_id: e.counterpartId ?? null,
        operator_id: e.operatorId ?? null,
        remark: e.remark ?? '',
        request_id: e.requestId ?? null,
        created_at: this.ctx.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  }

  /**
   * Agent -> sub-account (recharge) or back (rollback). Refuses, changing nothing: malformed or
   * non-positive amounts, sub-accounts of another agent, more than the payer's balance.
   */
  async transfer(
    op: TransferOp,
    agent: Account,
    p: { clientId: string; amount: string; remark?: string; requestId?: string },
  ): Promise<TransferResult> {
    const amount = parseAmount(p.amount);
    // a negative amount is a number, just not a positive one: say so (issue 27 item 13)
    if (!amount) throw new ApiError(400, /^\s*-/.test(p.amount) ? AMOUNT_MESSAGES.positive : AMOUNT_MESSAGES.format);
    const requestId = p.requestId?.trim() || null;
    const sub = await this.ctx.db
      .selectFrom('accounts')
      .select(['id', 'clientid', 'agent_id', 'status', 'user_type'])
      .where('clientid', '=', p.clientId)
      .executeTakeFirst();
    if (!sub || sub.user_type !== UserType.SubAccount) throw errors.notFound('子账户');
    if (sub.agent_id !== agent.id) throw errors.forbidden();

    const replay = async (): Promise<TransferResult | null> => {
      if (!requestId) return null;
      const prev = await this.ctx.db
        .selectFrom('ledger_requests')
        .selectAll()
        .where('agent_id', '=', agent.id)
        .where('request_id', '=', requestId)
        .executeTakeFirst();
      if (!prev) return null;
      if (prev.op !== op || prev.account_id !== sub.id || !new Money(prev.amount).eq(amount)) {
        throw errors.refused('请求编号已用于另一笔操作，请刷新后重试');
      }
      return typeof prev.result === 'string' ? JSON.parse(prev.result) : prev.result;
    };
    const first = await replay();
    if (first) return first;

    try {
      return await this.ctx.db.transaction().execute(async (trx) => {
        const locked = await this.lock(trx, [agent.id, sub.id]);
        const a = locked.get(agent.id)!;
        const s = locked.get(sub.id)!;
        if (s.status === AccountStatus.Closed) throw errors.refused('子账户已注销');
        const payer = op === 'recharge' ? a : s;
        if (payer.balance.lt(amount)) {
          throw errors.refused(
            op === 'recharge'
              ? `可用余额不足，当前可用余额 ${yuanText(a.balance)} 元`
              : `回退金额不能大于子账户余额 ${yuanText(s.balance)} 元`,
          );
        }
        const kind = op === 'recharge' ? BillPaymentType.SubAccountRecharge : BillPaymentType.SubAccountRollback;
        const sign = op === 'recharge' ? -1 : 1;
        const agentAfter = a.balance.plus(amount.times(sign));
        const subAfter = s.balance.minus(amount.times(sign));
        const remark = (p.remark ?? '').slice(0, 50);
        // write in id order too (the locks are already held; this keeps the row order stable)
        const entries = [
          { accountId: agent.id, amount: amount.times(sign), after: agentAfter, counterpartId: sub.id },
          { accountId: sub.id, amount: amount.times(-sign), after: subAfter, counterpartId: agent.id },
        ].sort((x, y) => x.accountId - y.accountId);
        const ledgerIds: number[] = [];
        for (const e of entries)
          ledgerIds.push(await this.write(trx, { ...e, kind, operatorId: agent.id, remark, requestId }));
        const result: TransferResult = {
          clientId: sub.clientid,
          amount: money2(amount),
          balance: money2(subAfter),
          agentBalance: money2(agentAfter),
          ledgerIds,
        };
        if (requestId) {
          await trx
            .insertInto('ledger_requests')
            .values({
              agent_id: agent.id,
              request_id: requestId,
              op,
              account_id: sub.id,
              amount: money2(amount),
              result: JSON.stringify(result),
              created_at: this.ctx.now(),
            })
            .execute();
        }
        return result;
      });
    } catch (e) {
      // a concurrent retry with the same requestId committed first: answer its result
      if (isUniqueViolation(e)) {
        const again = await replay();
        if (again) return again;
      }
      throw e;
    }
  }

  /** Operator top-up (or, with a negative amount, deduction) of an account, as one ledger row. */
  async credit(
    accountId: number,
    amountStr: string,
    opts: { kind?: number; remark?: string; operatorId?: number | null } = {},
    db: Db = this.ctx.db,
  ): Promise<{ balance: string; ledgerId: number }> {
    if (!/^-?(?:0|[1-9][0-9]{0,11})(?:\.[0-9]{1,2})?$/.test(amountStr)) throw new ApiError(400, AMOUNT_MESSAGES.format);
    const amount = new Money(amountStr);
    if (amount.isZero()) throw new ApiError(400, AMOUNT_MESSAGES.positive);
    return db.transaction().execute(async (trx) => {
      const locked = await this.lock(trx, [accountId]);
      const cur = locked.get(accountId);
      if (!cur) throw errors.notFound('账户');
      const after = cur.balance.plus(amount);
      if (after.lt(0)) throw errors.refused(`余额不足，当前余额 ${yuanText(cur.balance)} 元`);
      const ledgerId = await this.write(trx, {
        accountId,
        amount,
        after,
        kind: opts.kind ?? (amount.gt(0) ? BillPaymentType.Recharge : BillPaymentType.CreditDecrease),
        operatorId: opts.operatorId ?? null,
        remark: opts.remark ?? '',
      });
      return { balance: money2(after), ledgerId };
    });
  }

  /**
   * Balance changes inside the caller's transaction (send charges and their returns): locks the
   * accounts in ascending id order (the same order as every other ledger write, so no deadlock),
   * checks every balance on the locked row, then writes each change with its ledger row, so
   * sum(ledger) == balance holds at commit. Refuses without writing anything when an account
   * would go below 0 (the caller decides what to answer). Zero amounts are skipped.
   */
  async applyIn(trx: Tx, entries: LedgerEntry[]): Promise<ApplyResult> {
    const list = entries.map((e) => ({ ...e, amount: new Money(e.amount) })).filter((e) => !e.amount.isZero());
    const balances = new Map<number, string>();
    if (!list.length) return { ok: true, ledgerIds: [], balances };
    const locked = await this.lock(
      trx,
      list.map((e) => e.accountId),
    );
    const after = new Map<number, MoneyValue>();
    const need = new Map<number, MoneyValue>();
    for (const e of list) {
      const cur = locked.get(e.accountId);
      if (!cur) throw errors.notFound('账户');
      after.set(e.accountId, (after.get(e.accountId) ?? cur.balance).plus(e.amount));
      if (e.amount.lt(0)) need.set(e.accountId, (need.get(e.accountId) ?? new Money(0)).minus(e.amount));
    }
    for (const [id, v] of after) {
      if (v.lt(0))
        return {
          ok: false,
          accountId: id,
          balance: money2(locked.get(id)!.balance),
          needed: money2(need.get(id) ?? 0),
        };
    }
    const running = new Map([...locked].map(([id, v]) => [id, v.balance]));
    const ledgerIds: number[] = [];
    for (const e of [...list].sort((x, y) => x.accountId - y.accountId)) {
      const next = running.get(e.accountId)!.plus(e.amount);
      running.set(e.accountId, next);
      ledgerIds.push(
        await this.write(trx, {
          accountId: e.accountId,
          amount: e.amount,
          after: next,
          kind: e.kind,
          counterpartId: e.counterpartId,
          operatorId: e.operatorId,
          remark: e.remark,
        }),
      );
    }
    for (const [id, v] of running) balances.set(id, money2(v));
    return { ok: true, ledgerIds, balances };
  }

  /**
   * A debit through the account's rounding carry (the send charges by amount: billing.ts), inside
   * the caller's transaction: locks the account as applyIn does, reading its balance and carry at
   * once (or takes them as the caller read them on the row it locked); `split(carry)` says what to
   * debit (negative: a credit) and the carry after; the balance, the carry and the ledger row are
   * written in one statement (only the carry when the debit is 0). Refuses without writing
   * anything when the balance cannot pay the debit.
   */
  async applyCarried(
    trx: Tx,
    e: Omit<LedgerEntry, 'amount'>,
    split: (carry: MoneyValue) => { debit: MoneyValue; carry: MoneyValue },
    /** the account's balance and carry as this transaction read them on its row locked FOR NO KEY UPDATE already (no second read) */
    locked?: { balance: string; carry: string },
  ): Promise<(Extract<ApplyResult, { ok: true }> & { debit: MoneyValue }) | Extract<ApplyResult, { ok: false }>> {
    const cur = locked
      ? { balance: new Money(locked.balance), carry: new Money(locked.carry) }
      : (await this.lock(trx, [e.accountId])).get(e.accountId);
    if (!cur) throw errors.notFound('账户');
    const { debit, carry } = split(cur.carry);
    if (carry.lt(0)) throw new Error('ledger: a negative rounding carry');
    const after = cur.balance.minus(debit);
    if (after.lt(0)) return { ok: false, accountId: e.accountId, balance: money2(cur.balance), needed: money2(debit) };
    const balances = new Map([[e.accountId, money2(after)]]);
    if (debit.isZero()) {
      await trx
        .updateTable('accounts')
        .set({ charge_carry: carry.toFixed(4) })
        .where('id', '=', e.accountId)
        .execute();
      return { ok: true, ledgerIds: [], balances, debit };
    }
    const id = await this.write(trx, { ...e, amount: debit.neg(), after, carry });
    return { ok: true, ledgerIds: [id], balances, debit };
  }

  /** The current balance of an account (no lock: for display and the charge dialog). */
  async balanceOf(accountId: number, db: Db = this.ctx.db): Promise<string> {
    const r = await db.selectFrom('accounts').select('balance').where('id', '=', accountId).executeTakeFirstOrThrow();
    return money2(r.balance);
  }

  /** The ledger of an account, newest first. */
  async entries(accountId: number, limit = 100): Promise<LedgerRow[]> {
    return this.ctx.db
      .selectFrom('ledger as l')
      .leftJoin('accounts as c', 'c.id', 'l.counterpart_id')
      .leftJoin('accounts as o', 'o.id', 'l.operator_id')
      .select([
        'l.id',
        'l.amount',
        'l.balance_after',
        'l.kind',
        'c.clientid as counterpart',
        'o.clientid as operator',
        'l.remark',
        'l.request_id',
        'l.created_at',
      ])
      .where('l.account_id', '=', accountId)
      .orderBy('l.id', 'desc')
      .limit(limit)
      .execute();
  }

  /** sum(ledger) against the balance, for one account. */
  async check(accountId: number): Promise<{ balance: string; ledgerSum: string; ok: boolean }> {
    const acc = await this.ctx.db
      .selectFrom('accounts')
      .select('balance')
      .where('id', '=', accountId)
      .executeTakeFirstOrThrow();
    const s = await this.ctx.db
      .selectFrom('ledger')
      .select(sql<string>`coalesce(sum(amount), 0)::text`.as('sum'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    return { balance: money2(acc.balance), ledgerSum: money2(s.sum), ok: new Money(acc.balance).eq(s.sum) };
  }

  /** Accounts whose balance differs from the sum of their ledger, or is negative (should be none). */
  async violations(db: Db = this.ctx.db): Promise<{ clientid: string; balance: string; ledger_sum: string }[]> {
    const r = await sql<{ clientid: string; balance: string; ledger_sum: string }>`
      select a.clientid, a.balance::text as balance, coalesce(l.s, 0)::text as ledger_sum
      from accounts a left join (select account_id, sum(amount) s from ledger group by account_id) l on l.account_id = a.id
      where a.balance <> coalesce(l.s, 0) or a.balance < 0`.execute(db);
    return r.rows;
  }
}

/**
 * Own bill, balance figures, credit history and the credit alarm of an agent (docs/api-bills.md).
 *
 * The own bill IS the ledger: one row per ledger row of the account (amount ≠ 0), `id` = the
 * ledger row's id, financial type from the sign of the amount, payment type = the ledger kind.
 *
 * The credit alarm is decided by the database (trigger `accounts_credit_alarm`, migration
 * 0014_bills) in the same transaction as the balance change; `deliverAlarms` (every process, every
 * second, FOR UPDATE SKIP LOCKED) turns each recorded crossing into a system SMS task whose
 * messages the dispatcher sends over SMPP like any other.
 *
 * The alarm SMS is free, so it is bounded (issue 23): its phones are the account's own mobile only
 * (verified by an SMS code at registration or when it was changed), at most ALARM_MAX_PHONES; an
 * account gets at most one alarm SMS per `alarmCooldownMs` (24 h) however often its balance
 * crosses; and all alarm SMS of a business day count against the system budget `alarmSmsDaily`
 * (ALARM_SMS_DAILY). A crossing that sends nothing is kept with its reason (`skipped`: cooldown,
 * budget, no-phone); `alarmStats` (CLI `alarm-stats`) shows the day's figures.
 */
import type { Readable } from 'node:stream';
import type { AppContext } from '../../context';
import type { Db } from '../../db';
import type { Account } from '../../db/types';
import { ApiError, errors } from '../../http/errors';
import { listPage, pagingOf } from '../../http/paging';
import { escapeLike, whereFrom } from '../../db/filters';
import type { CurrentPaging } from '../../http/contract';
import { keysetPages, mapPages, xlsxStream } from '../../lib/xlsx-export';
import { formatDateTime, startOfBusinessDay } from '../../lib/time';
import { sql } from 'kysely';
import { Money, money2 } from '../../lib/money';
import { insertMessages } from '../send';
import { newTaskUid } from '../send';
import { carrierOf } from '../../../common/sms/segments';
import { composeMessage, countPieces } from '../../../common/sms/pieces';
import {
  BillPaymentType,
  ChargeMode,
  ChargeState,
  FinancialType,
  SendRecordStatus,
  SmsType,
  TaskStatus,
  type CreditAlarmForm,
  type OwnBillFilter,
} from '../../../common/generated/schemas';
import alarmForm from '../../../schemas/forms/credit-alarm.json';
import sendForm from '../../../schemas/forms/send.json';

export const ALARM_FORM = 'forms/credit-alarm' as const;
export const ALARM_MSG = alarmForm['x-messages'];
export const NO_DATA = sendForm['x-messages'].noData;
/** most rows one export holds (as the record exports) */
export const BILL_EXPORT_MAX = 1_000_000;
const BATCH = 2000;
/** most alarm phones (the spec gives no count; the form's maxLength holds 5 numbers) */
export const ALARM_MAX_PHONES = 5;
/** why an alarm crossing sent no SMS (credit_alarm_events.skipped) */
export const ALARM_SKIPPED = { cooldown: 'cooldown', budget: 'budget', noPhone: 'no-phone' } as const;

/**
 * The phones an alarm may go to: the listed ones that are the account's own (verified) mobile,
 * distinct, at most ALARM_MAX_PHONES.
 */
export function alarmPhones(listed: string, ownMobile: string): string[] {
  const own = ownMobile.trim();
  const out = [...new Set(listed.split(',').map((p) => p.trim()))].filter((p) => /^1\d{10}$/.test(p) && p === own);
  return out.slice(0, ALARM_MAX_PHONES);
}

/** ledger kinds of credit raises and cuts (enums/bill-payment-type.json) */
export const CREDIT_KINDS = [BillPaymentType.CreditIncrease, BillPaymentType.CreditDecrease] as const;

export interface OwnBillRow {
  rownum: number;
  id: number;
  financial_type: number;
  financial_type_str: string;
  payment_type: number;
  payment_type_str: string;
  amount_str: string;
  balance_str: string;
  counterpart: string;
  order_id: string;
  paymentId: string;
  admin_name: string;
  remark: string;
  create_time: string;
}

interface LedgerJoined {
  id: number;
  amount: string;
  balance_after: string;
  kind: number;
  remark: string;
  request_id: string | null;
  created_at: Date;
  operator: string | null;
  counterpart: string | null;
  counterpart_name: string | null;
}

/** ledger kinds that move money between the agent and one of its sub-accounts: their rows name it */
const TRANSFER_KINDS: readonly number[] = [BillPaymentType.SubAccountRecharge, BillPaymentType.SubAccountRollback];

/** the task number a send charge or return names in its remark (`短信发送 任务T…`) */
/** the account's ledger rows of a nonzero amount, with the operator */
const ledgerOf = (db: Db, accountId: number) =>
  db
    .selectFrom('ledger')
    .leftJoin('accounts as o', 'o.id', 'ledger.operator_id')
    .leftJoin('accounts as c', 'c.id', 'ledger.counterpart_id')
    .select('ledger.id')
    .where('ledger.account_id', '=', accountId)
    .where('ledger.amount', '<>', '0');
type LedgerQuery = ReturnType<typeof ledgerOf>;

/** 收入 is a positive amount, 支出 a negative one (the ledger stores no direction) */
function byFinancialType(q: LedgerQuery, type: OwnBillFilter['financial_type']): LedgerQuery {
  if (type === FinancialType.Income) return q.where('ledger.amount', '>', '0');
  if (type === FinancialType.Expense) return q.where('ledger.amount', '<', '0');
  return q;
}

/** the order number is the row's request id (recharges, payments), the task a send row names or the order a package row names */
function byOrderId(q: LedgerQuery, order: string | undefined): LedgerQuery {
  if (!order) return q;
  const esc = escapeLike(order);
  return q.where((eb) =>
    eb.or([
      eb('ledger.request_id', '=', order),
      eb('ledger.remark', 'like', `%任务${esc}%`),
      eb('ledger.remark', 'like', `%订单${esc}%`),
    ]),
  );
}

/** the task a send row names, or the purchase order (server/modules/purchase) a package row names */
const TASK_REF = /(?:任务(T\d{10,30})|订单(\d{10,30}))/;

export class BillsService {
  constructor(private readonly ctx: AppContext) {}

  private label(enumName: string, v: unknown): string {
    return this.ctx.schemas.registry.enumLabel(enumName, v) ?? '';
  }

  // ---------------------------------------------------------------- own bill

  /** the filtered ledger rows of the account (filters/own-bill: kind and dates by whereFrom, the two below by hand) */
  private billQuery(me: Account, f: OwnBillFilter): LedgerQuery {
    const q = whereFrom(ledgerOf(this.ctx.db, me.id), this.ctx, 'filters/own-bill', f);
    return byOrderId(byFinancialType(q, f.financial_type), f.order_id);
  }

  private billRow(r: LedgerJoined, rownum: number): OwnBillRow {
    const amount = new Money(r.amount);
    const financial = amount.gt(0) ? FinancialType.Income : FinancialType.Expense;
    const m = TASK_REF.exec(r.remark);
    const taskRef = m?.[1] ?? m?.[2];
    const transfer = TRANSFER_KINDS.includes(r.kind);
    const counterpart = transfer && r.counterpart ? `${r.counterpart}（${r.counterpart_name ?? ''}）` : '';
    // a transfer's request id is the console's resubmit guard (a UUID), not an order: the row names the sub-account instead
    const remark =
      transfer && counterpart
        ? `${this.label('bill-payment-type', r.kind)} ${counterpart}${r.remark ? `：${r.remark}` : ''}`
        : r.remark;
    return {
      rownum,
      id: r.id,
      financial_type: financial,
      financial_type_str: this.label('financial-type', financial),
      payment_type: r.kind,
      payment_type_str: this.label('bill-payment-type', r.kind),
      amount_str: money2(amount),
      balance_str: money2(r.balance_after),
      counterpart,
      order_id: transfer ? '' : (r.request_id ?? taskRef ?? ''),
      paymentId: r.kind === BillPaymentType.OnlineRecharge ? (r.request_id ?? '') : '',
      admin_name: r.operator ?? '',
      remark,
      create_time: formatDateTime(r.created_at),
    };
  }

  private joined(q: LedgerQuery) {
    return q.select([
      'ledger.amount',
      'ledger.balance_after',
      'ledger.kind',
      'ledger.remark',
      'ledger.request_id',
      'ledger.created_at',
      'o.clientid as operator',
      'c.clientid as counterpart',
      'c.name as counterpart_name',
    ]);
  }

  /** POST /finance/bill/self */
  async ownBill(me: Account, f: OwnBillFilter & CurrentPaging) {
    const paging = pagingOf(f);
    const q = this.billQuery(me, f);
    const { n } = await this.ctx.db
      .selectFrom(q.as('x'))
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    const rows = await this.joined(q).orderBy('ledger.id', 'desc').limit(paging.size).offset(paging.offset).execute();
    return listPage(
      rows.map((r, i) => this.billRow(r, paging.offset + i + 1)),
      Number(n),
      paging,
    );
  }

  /** POST /finance/bill/self/export: the matching rows as a streamed xlsx */
  async ownBillExport(me: Account, f: OwnBillFilter): Promise<{ name: string; stream: Readable }> {
    const q = this.billQuery(me, f);
    const { n } = await this.ctx.db
      .selectFrom(q.limit(BILL_EXPORT_MAX + 1).as('x'))
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(n) === 0) throw errors.refused(NO_DATA);
    if (Number(n) > BILL_EXPORT_MAX) throw errors.refused(sendForm['x-messages'].exportTooMany);
    let rownum = 0;
    const pages = keysetPages(
      (before: number | undefined, limit) => {
        let page = this.joined(q).orderBy('ledger.id', 'desc').limit(limit);
        if (before !== undefined) page = page.where('ledger.id', '<', before);
        return page.execute();
      },
      (last) => last.id,
      { batch: BATCH, max: BILL_EXPORT_MAX },
    );
    const out = xlsxStream(this.ctx, 'own bill', {
      sheet: '自有账单',
      entity: 'entities/own-bill',
      columns: [
        { key: 'rownum', width: 8 },
        { key: 'id', width: 10 },
        { key: 'financial_type_str', width: 10 },
        { key: 'payment_type_str', width: 16 },
        { key: 'amount_str', width: 14 },
        { key: 'balance_str', width: 14 },
        { key: 'counterpart', width: 30 },
        { key: 'order_id', width: 26 },
        { key: 'paymentId', width: 26 },
        { key: 'admin_name', width: 12 },
        { key: 'remark', width: 40 },
        { key: 'create_time', width: 20 },
      ],
      rows: mapPages(pages, (r) => this.billRow(r, ++rownum)),
    });
    const stamp = formatDateTime(this.ctx.now()).replace(/\D/g, '');
    return { name: `自有账单_${stamp}.xlsx`, stream: out };
  }

  /** GET /finance/bill/data: the figures above the bill (the balance is the credit line in use) */
  async billData(me: Account) {
    const a = await this.ctx.db
      .selectFrom('accounts')
      .select('balance')
      .where('id', '=', me.id)
      .executeTakeFirstOrThrow();
    return { available_line: money2(a.balance), balance: money2(a.balance) };
  }

  // ---------------------------------------------------------------- credit history

  /** GET /finance/creditHistories/list: raises and cuts of the credit (ledger kinds 9 and 10), newest first */
  async creditHistory(me: Account, query: CurrentPaging) {
    const paging = pagingOf(query);
    const base = this.ctx.db
      .selectFrom('ledger')
      .where('account_id', '=', me.id)
      .where('kind', 'in', [...CREDIT_KINDS]);
    const { n } = await base.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
    // one more row than the page: the row before the page's first (newer) ends its period
    const rows = await base
      .select(['id', 'amount', 'balance_after', 'kind', 'remark', 'created_at'])
      .orderBy('id', 'desc')
      .limit(paging.size + 1)
      .offset(Math.max(0, paging.offset - 1))
      .execute();
    const list = [];
    const start = paging.offset > 0 ? 1 : 0;
    for (let i = start; i < rows.length && list.length < paging.size; i++) {
      const r = rows[i];
      const newer = i > 0 ? rows[i - 1] : undefined;
      list.push({
        rownum: paging.offset + list.length + 1,
        id: r.id,
        payment_type: r.kind,
        payment_type_str: this.label('bill-payment-type', r.kind),
        amount: money2(r.amount),
        balance: money2(r.balance_after),
        beginTime: formatDateTime(r.created_at),
        endTIme: newer ? formatDateTime(newer.created_at) : '',
        remark: r.remark,
      });
    }
    return listPage(list, Number(n), paging);
  }

  // ---------------------------------------------------------------- credit alarm

  /** GET /finance/agentBalanceAlarm/get: the caller's alarm (0 / '' when never set) */
  async alarmGet(me: Account) {
    const a = await this.ctx.db
      .selectFrom('credit_alarms')
      .selectAll()
      .where('account_id', '=', me.id)
      .executeTakeFirst();
    const acc = await this.ctx.db
      .selectFrom('accounts')
      .select('balance')
      .where('id', '=', me.id)
      .executeTakeFirstOrThrow();
    return {
      agentId: me.clientid,
      alarmAmount: a ? String(new Money(a.alarm_amount).toFixed(0)) : '0',
      alarmPhone: a?.alarm_phones ?? '',
      armed: a ? (a.armed ? 1 : 0) : 1,
      lastAlarmTime: formatDateTime(a?.last_alarm_at ?? null),
      balance: money2(acc.balance),
    };
  }

  /** GET /finance/agentBalanceAlarm/getAcct: the account the alarm belongs to */
  async alarmAccount(me: Account) {
    const acc = await this.ctx.db
      .selectFrom('accounts')
      .select(['clientid', 'name', 'mobile', 'balance'])
      .where('id', '=', me.id)
      .executeTakeFirstOrThrow();
    return { agentId: acc.clientid, name: acc.name, mobile: acc.mobile, balance: money2(acc.balance) };
  }

  /**
   * POST /finance/agentBalanceAlarm/edit. Armed when the balance is at or above the new amount: a
   * balance already below it sends nothing now; the alarm goes off at the next fall below.
   */
  async alarmEdit(me: Account, f: CreditAlarmForm) {
    if (f.agentId && f.agentId !== me.clientid) throw new ApiError(403, ALARM_MSG.notOwn);
    const amount = new Money(f.alarmAmount);
    const phones = amount.isZero() ? (f.alarmPhone ?? '') : f.alarmPhone!;
    // only the account's own mobile (verified by code): the alarm cannot be aimed at others' phones
    const listed = phones.split(',').filter(Boolean);
    if (listed.length > ALARM_MAX_PHONES)
      throw new ApiError(400, alarmForm.properties.alarmPhone.errorMessage.maxLength, {
        errors: [{ field: 'alarmPhone', message: alarmForm.properties.alarmPhone.errorMessage.maxLength }],
      });
    if (listed.length) {
      const acc = await this.ctx.db
        .selectFrom('accounts')
        .select('mobile')
        .where('id', '=', me.id)
        .executeTakeFirstOrThrow();
      if (alarmPhones(phones, acc.mobile).length !== listed.length)
        throw new ApiError(400, ALARM_MSG.phoneNotVerified, {
          errors: [{ field: 'alarmPhone', message: ALARM_MSG.phoneNotVerified }],
        });
    }
    await this.ctx.db.transaction().execute(async (trx) => {
      // the accounts row first, as every balance change (and so the trigger) locks it
      const acc = await trx
        .selectFrom('accounts')
        .select('balance')
        .where('id', '=', me.id)
        .forUpdate()
        .executeTakeFirstOrThrow();
      const armed = new Money(acc.balance).gte(amount);
      await trx
        .insertInto('credit_alarms')
        .values({
          account_id: me.id,
          alarm_amount: amount.toFixed(0),
          alarm_phones: phones,
          armed,
          updated_at: this.ctx.now(),
        })
        .onConflict((oc) =>
          oc
            .column('account_id')
            .doUpdateSet({ alarm_amount: amount.toFixed(0), alarm_phones: phones, armed, updated_at: this.ctx.now() }),
        )
        .execute();
    });
    return this.alarmGet(me);
  }

  /**
   * Sends the recorded crossings: each pending event becomes a system task (sign = the platform
   * name, price 0, charged to nobody) with one queued message per phone, in one transaction with
   * marking the event sent. Any number of processes may run it (SKIP LOCKED). Returns the count.
   */
  async deliverAlarms(limit = 20): Promise<number> {
    // the common case, nothing pending, costs one indexed read and no transaction
    const pending = await this.ctx.db
      .selectFrom('credit_alarm_events')
      .select('id')
      .where('sent_at', 'is', null)
      .limit(1)
      .executeTakeFirst();
    if (!pending) return 0;
    return this.ctx.db.transaction().execute(async (trx) => {
      const events = await trx
        .selectFrom('credit_alarm_events as e')
        .innerJoin('accounts as a', 'a.id', 'e.account_id')
        .select([
          'e.id',
          'e.account_id',
          'e.balance',
          'e.alarm_amount',
          'e.phones',
          'a.clientid',
          'a.agent_id',
          'a.mobile',
        ])
        .where('e.sent_at', 'is', null)
        .orderBy('e.id')
        .limit(limit)
        .forUpdate('e')
        .skipLocked()
        .execute();
      if (!events.length) return 0;
      // the budget and the cooldown are read and spent one delivering transaction at a time (all processes)
      await sql`select pg_advisory_xact_lock(hashtext('credit-alarm-budget'))`.execute(trx);
      const now0 = this.ctx.now();
      const dayStart = startOfBusinessDay(now0);
      const spent = await trx
        .selectFrom('credit_alarm_events')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<string | number>('sms_count'), sql<number>`0`).as('n'))
        .where('sent_at', '>=', dayStart)
        .executeTakeFirstOrThrow();
      let used = Number(spent.n);
      const budget = this.ctx.config.alarmSmsDaily;
      const cooldownFrom = new Date(now0.getTime() - this.ctx.config.alarmCooldownMs);
      const skip = (id: number, why: string, now: Date) =>
        trx.updateTable('credit_alarm_events').set({ sent_at: now, skipped: why }).where('id', '=', id).execute();
      for (const e of events) {
        const now = this.ctx.now();
        const phones = alarmPhones(e.phones, e.mobile);
        if (!phones.length) {
          await skip(e.id, ALARM_SKIPPED.noPhone, now);
          continue;
        }
        const recent = await trx
          .selectFrom('credit_alarm_events')
          .select('id')
          .where('account_id', '=', e.account_id)
          .where('sms_count', '>', 0)
          .where('sent_at', '>', cooldownFrom)
          .limit(1)
          .executeTakeFirst();
        if (recent) {
          await skip(e.id, ALARM_SKIPPED.cooldown, now);
          this.ctx.log.info({ account: e.clientid, event: e.id }, 'credit alarm skipped: cooldown');
          continue;
        }
        if (used + phones.length > budget) {
          await skip(e.id, ALARM_SKIPPED.budget, now);
          this.ctx.log.warn(
            { account: e.clientid, event: e.id, used, budget },
            `credit alarm skipped: the daily alarm SMS budget (ALARM_SMS_DAILY ${budget}) is spent`,
          );
          continue;
        }
        used += phones.length;
        const sign = this.ctx.config.platformName;
        const text = ALARM_MSG.smsText
          .replace('{clientid}', e.clientid)
          .replace('{balance}', money2(e.balance))
          .replace('{amount}', new Money(e.alarm_amount).toFixed(0));
        const pieces = Math.max(1, countPieces({ content: text, sign }).pieces);
        const task = await trx
          .insertInto('sms_tasks')
          .values({
            uid: newTaskUid(now),
            account_id: e.account_id,
            agent_id: e.agent_id,
            creator_id: e.account_id,
            creator_name: '系统',
            payer_id: e.account_id,
            charge_mode: ChargeMode.Money,
            content: composeMessage({ content: text, sign }),
            sign,
            smstype: SmsType.Notification,
            send_time: now,
            submit_total: phones.length,
            pieces_per_msg: pieces,
            charge_num_total: 0,
            amount: '0',
            cost: '0',
            status: TaskStatus.Processing,
            charge_state: ChargeState.Charged,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const carriers = Uint8Array.from(phones, (p) => carrierOf(p));
        await insertMessages(trx, {
          taskId: task.id,
          accountId: e.account_id,
          phones,
          carriers,
          pieces,
          prices: { 0: '0', 1: '0', 2: '0', 3: '0' } as Record<1 | 2 | 3, string>,
          state: SendRecordStatus.NotSent,
          nextAt: now,
          createdAt: now,
          doneAt: null,
        });
        await trx
          .updateTable('credit_alarm_events')
          .set({ task_id: task.id, sent_at: now, sms_count: phones.length })
          .where('id', '=', e.id)
          .execute();
        this.ctx.log.info(
          { account: e.clientid, event: e.id, sms: phones.length, used, budget },
          `credit alarm sent (${used}/${budget} alarm SMS today)`,
        );
      }
      return events.length;
    });
  }

  /** The day's alarm figures (business day of `now`): SMS sent against the budget, crossings skipped by reason. */
  async alarmStats(now = this.ctx.now()) {
    return alarmStatsOf(this.ctx.db, now, this.ctx.config.alarmSmsDaily);
  }

  /** the crossings of an account, newest first (tests, docs) */
  async alarmEvents(accountId: number) {
    return this.ctx.db
      .selectFrom('credit_alarm_events')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('id', 'desc')
      .execute();
  }
}

/** The alarm figures of the business day of `now` (the CLI `alarm-stats` and BillsService.alarmStats). */
export async function alarmStatsOf(db: Db, now: Date, budget: number) {
  const dayStart = startOfBusinessDay(now);
  const rows = await db
    .selectFrom('credit_alarm_events')
    .select([
      'skipped',
      (eb) => eb.fn.countAll<string | number>().as('events'),
      (eb) => eb.fn.coalesce(eb.fn.sum<string | number>('sms_count'), sql<number>`0`).as('sms'),
    ])
    .where('sent_at', '>=', dayStart)
    .groupBy('skipped')
    .execute();
  const pending = await db
    .selectFrom('credit_alarm_events')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('sent_at', 'is', null)
    .executeTakeFirstOrThrow();
  const skipped: Record<string, number> = { cooldown: 0, budget: 0, 'no-phone': 0 };
  let sent = 0;
  let sms = 0;
  for (const r of rows) {
    if (r.skipped) skipped[r.skipped] = (skipped[r.skipped] ?? 0) + Number(r.events);
    else {
      sent += Number(r.events);
      sms += Number(r.sms);
    }
  }
  return {
    day: formatDateTime(dayStart).slice(0, 10),
    budget,
    sms,
    left: Math.max(0, budget - sms),
    alarmsSent: sent,
    skipped,
    pending: Number(pending.n),
  };
}

/**
 * Reports, today's figures, the week chart and the remaining pieces (docs/api-reports.md).
 *
 * Every figure of sent messages is a sum over `report_rows` (migration 0018: `report_daily`, one row
 * per account, business day, SMS type, paytype, normal / international; migration 0041: with the
 * deltas the writers' triggers appended since the last fold, so every sum equals a recount of
 * sms_messages at every commit), never by scanning the messages.
 *
 * Scoping: an agent reads its sub-accounts (reports: `agent_id` of the rows; today / week: its
 * own sends too), a sub-account only its own rows. An agent's clientid filter must name one of its
 * sub-accounts (else 无权访问).
 */
import ExcelJS from 'exceljs';
import { PassThrough, type Readable } from 'node:stream';
import { sql, type RawBuilder } from 'kysely';
import type { AppContext } from '../../context';
import type { Account } from '../../db/types';
import { ApiError, errors } from '../../http/errors';
import { listPage, pagingOf } from '../../http/paging';
import { exportColumns, safeRow } from '../../lib/export-columns';
import { formatDateTime } from '../../lib/time';
import { Money, money2 } from '../../lib/money';
import {
  AccountStatus,
  OperationMode,
  PayType,
  ProductType,
  ReportClickType,
  ReportPayType,
  TaskDetailOutcome,
  UserType,
  type DeliveryStats,
  type DeliveryStatsParams,
  type RemainFilter,
  type ReportAccount,
  type ReportFilter,
  type ReportsClientParams,
  type ReportTotals,
  type WeekSubmits,
} from '../../../common/generated/schemas';
import type { CurrentPaging } from '../../http/contract';
import { MESSAGES } from '../../../common/schema/messages';
import { poolFigure } from '../billing';
import { escapeLike } from '../../db/filters';
import { enumParam, OUTCOME_STATES, RECORD_MSG } from '../records';
import { findProvince } from '../../../common/sms/segments';
import { messageOf } from '../../lib/error-code';

const DAY_MS = 86_400_000;
const SHANGHAI_OFFSET_MS = 8 * 3600_000;
/** a pool due within this many days is 即将过期 (dead = 0) */
export const EXPIRING_DAYS = 7;
/** the agent overview: days of consumption ranked, rows per list */
export const OVERVIEW_DAYS = 30;
export const OVERVIEW_ROWS = 5;
/** a sub-account paying by amount without a 余额提醒 of its own is low below this (yuan) */
export const LOW_BALANCE_DEFAULT = '10.00';

/**
 * The low-balance rule of the agent overview and the sub-account list: a sub-account paying by
 * amount (not postpaid) whose balance is below its 余额提醒, or LOW_BALANCE_DEFAULT when none is set.
 */
export function lowBalanceOf(a: Pick<Account, 'paytype' | 'operation_mode' | 'balance' | 'balance_alarm'>): {
  low: boolean;
  threshold: string;
} {
  const threshold = new Money(a.balance_alarm).gt(0) ? money2(a.balance_alarm) : LOW_BALANCE_DEFAULT;
  const byAmount =
    a.paytype !== PayType.Postpaid &&
    (a.operation_mode === OperationMode.DirectCharge || a.paytype === PayType.PrepaidByAmount);
  return { low: byAmount && new Money(a.balance).lt(threshold), threshold };
}
/** how far back a report may start, by paytype (0 prepaid 365 days, 1 postpaid 90) */
export const REPORT_BACK_DAYS = { [ReportPayType.Prepaid]: 365, [ReportPayType.Postpaid]: 90 } as const;
/** default report range: the 30 days up to yesterday */
export const DEFAULT_REPORT_DAYS = 90;
/** rows of one export at most (accounts × days × SMS types) */
export const REPORT_EXPORT_MAX = 200_000;

/** The business day ('YYYY-MM-DD', Asia/Shanghai) of an instant. */
export const businessDay = (d: Date) => new Date(d.getTime() + SHANGHAI_OFFSET_MS).toISOString().slice(0, 10);
const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/** Which report: pre (prepaid tab / 普通短信) or suf (postpaid tab / 国际短信), resolved per operation mode. */
export type ReportSide = 'pre' | 'suf';

/** the report's parameters: the filter (schemas/filters/report.json, validated by the route), paging, and the account aliases older callers send */
export type ReportInput = ReportFilter & Partial<CurrentPaging> & { clientid?: string; clientId?: string };
/** the remaining pools' parameters (schemas/filters/remain.json) and the older aliases */
export type RemainInput = RemainFilter & { clientId?: string; type?: unknown };

/** the one account a report names: id (daily), else clientid / clientId */
/**
 * The account a report names: `id`, or its aliases `clientid` / `clientId` (older callers; not in the
 * filter schema, so checked here: text of at most 32 characters, else 参数错误).
 */
export function reportAccount(f: ReportInput): string {
  for (const v of [f.id, f.clientid, f.clientId]) {
    if (v === undefined || v === null || v === '') continue;
    if ((typeof v !== 'string' && typeof v !== 'number') || String(v).length > 32)
      throw new ApiError(400, MESSAGES.badParam);
    return String(v).trim();
  }
  return '';
}

export interface ReportQuery {
  /** accounts: an agent's sub-accounts (agentId) or a list of account ids */
  agentId?: number;
  accountIds?: number[];
  start: string;
  end: string;
  smstype?: number;
  paytype?: number;
  inter?: number;
}

interface Sums {
  send_num: number;
  charge_total: number;
  success_num: number;
  unknown_num: number;
  fail_num: number;
  wait_num: number;
  intercept_num: number;
}

const SUMS = sql`coalesce(sum(r.send_num), 0)::int as send_num, coalesce(sum(r.charge_total), 0)::int as charge_total,
  coalesce(sum(r.success_num), 0)::int as success_num, coalesce(sum(r.unknown_num), 0)::int as unknown_num,
  coalesce(sum(r.fail_num), 0)::int as fail_num, coalesce(sum(r.wait_num), 0)::int as wait_num,
  coalesce(sum(r.intercept_num), 0)::int as intercept_num`;

/** header keys of /index/data by product type (0 行业, 3 验证码, 4 通知, 1 营销, 2 国际) */
const REMAIN_KEYS: Record<number, string> = {
  0: 'hy_remain_num',
  3: 'yzm_remain_num',
  4: 'tz_remain_num',
  1: 'yx_remain_num',
  2: 'gj_remain_amount',
};

export class ReportsService {
  constructor(private readonly ctx: AppContext) {}

  private label(enumName: string, v: unknown): string {
    return this.ctx.schemas.registry.enumLabel(enumName, v) ?? '';
  }

  today(): string {
    return businessDay(this.ctx.now());
  }

  /**
   * Moves the report deltas the writers' triggers appended into report_daily (migration 0041
   * `report_fold()`): the number of report rows written, -1 when another process's fold runs. The
   * figures read the same before and after (`report_rows`); folding keeps the delta table small.
   */
  async fold(): Promise<number> {
    const r = await sql<{ n: number }>`select report_fold() as n`.execute(this.ctx.db);
    return r.rows[0].n;
  }

  // ---------------------------------------------------------------- parameters

  /**
   * The report's day range: start / end 'YYYY-MM-DD' (default the 90 days up to today); end at most
   * today (report_rows is kept by triggers in the writers' transactions, so today's figures are
   * live: issue 27 item 11), start not before yesterday − 90 (postpaid) / 365 (prepaid) days, end ≥ start.
   */
  dayRange(f: Pick<ReportFilter, 'start_time_day' | 'end_time_day'>, paytype: number): { start: string; end: string } {
    const yesterday = addDays(this.today(), -1);
    const back =
      paytype === ReportPayType.Postpaid
        ? REPORT_BACK_DAYS[ReportPayType.Postpaid]
        : REPORT_BACK_DAYS[ReportPayType.Prepaid];
    // the format (date, 日期格式不正确) is the filter schema's
    const end = f.end_time_day || this.today();
    const start = f.start_time_day || addDays(end, -(Math.min(DEFAULT_REPORT_DAYS, back) - 1));
    if (end > this.today()) throw errors.refused(MESSAGES.reportUpToToday);
    if (end < start) throw errors.refused(MESSAGES.endBeforeStart);
    if (start < addDays(yesterday, -back))
      throw errors.refused(
        paytype === ReportPayType.Postpaid ? MESSAGES.reportPostpaidRange : MESSAGES.reportPrepaidRange,
      );
    return { start, end };
  }

  /**
   * What a side means for this account: package mode (operation_mode 1) pre = 子账户(预付费),
   * suf = 子账户(后付费); direct mode (0) pre = 普通短信 (clickType normal), suf = 国际短信 (inter).
   * An explicit clickType / paytype parameter wins. The date limit follows the paytype (direct mode: pre 365, suf 90).
   */
  private sideFilter(
    me: Account,
    side: ReportSide,
    f: ReportInput,
  ): { paytype?: number; inter?: number; limitPaytype: number } {
    // clickType and paytype: the enums of the filter schema
    const click = f.clickType;
    const paytype = f.paytype;
    const sidePay = side === 'pre' ? ReportPayType.Prepaid : ReportPayType.Postpaid;
    const directMode = String(me.operation_mode) === OperationMode.DirectCharge;
    const inter = click
      ? click === ReportClickType.International
        ? 1
        : 0
      : directMode
        ? side === 'pre'
          ? 0
          : 1
        : undefined;
    const pt = paytype ?? (directMode ? undefined : sidePay);
    return { paytype: pt, inter, limitPaytype: pt ?? sidePay };
  }

  /** the accounts of a report: a sub-account itself; an agent's own and its sub-accounts', narrowed by customerInfo / id */
  private async scopeOf(me: Account, f: ReportInput): Promise<Pick<ReportQuery, 'agentId' | 'accountIds'>> {
    if (me.user_type !== UserType.Agent) return { accountIds: [me.id] };
    const id = reportAccount(f);
    if (id === me.clientid) return { accountIds: [me.id] };
    if (id) {
      const a = await this.ctx.db
        .selectFrom('accounts')
        .select('id')
        .where('clientid', '=', id)
        .where('agent_id', '=', me.id)
        .executeTakeFirst();
      if (!a) throw errors.forbidden();
      return { accountIds: [a.id] };
    }
    const info = f.customerInfo;
    if (info) {
      const like = `%${escapeLike(info)}%`;
      const rows = await this.ctx.db
        .selectFrom('accounts')
        .select('id')
        .where((eb) => eb.or([eb('agent_id', '=', me.id), eb('id', '=', me.id)]))
        .where((eb) => eb.or([eb('clientid', 'like', like), eb('name', 'like', like)]))
        .limit(10_000)
        .execute();
      return { accountIds: rows.map((r) => r.id) };
    }
    return { agentId: me.id };
  }

  private async query(me: Account, side: ReportSide, input: ReportInput): Promise<ReportQuery> {
    const f = this.sideFilter(me, side, input);
    const range = this.dayRange(input, f.limitPaytype);
    return { ...(await this.scopeOf(me, input)), ...range, smstype: input.smstype, paytype: f.paytype, inter: f.inter };
  }

  private where(q: ReportQuery): RawBuilder<unknown> {
    const c: RawBuilder<unknown>[] = [sql`r.day >= ${q.start}::date`, sql`r.day <= ${q.end}::date`];
    // an agent's report: its sub-accounts' rows and its own sending
    if (q.agentId !== undefined) c.push(sql`(r.agent_id = ${q.agentId} or r.account_id = ${q.agentId})`);
    else c.push(sql`r.account_id = any(${q.accountIds ?? []}::int[])`);
    if (q.smstype !== undefined) c.push(sql`r.smstype = ${q.smstype}`);
    if (q.paytype !== undefined) c.push(sql`r.paytype = ${q.paytype}`);
    if (q.inter !== undefined) c.push(sql`r.inter = ${q.inter}`);
    return sql.join(c, sql` and `);
  }

  private row(
    r: Sums & { clientid: string; name: string; smstype: number; paytype: number; date?: string },
    rownum: number,
  ) {
    return {
      rownum,
      ...(r.date !== undefined ? { date: r.date } : {}),
      clientid: r.clientid,
      name: r.name,
      smstype: r.smstype,
      smstype_str: this.label('sms-type', r.smstype),
      paytype: r.paytype,
      paytype_str: this.label('report-paytype', r.paytype),
      send_num: r.send_num,
      chargeTotal: r.charge_total,
      success_num: r.success_num,
      not_known_num: r.unknown_num,
      fail_num: r.fail_num,
      wait_send_num: r.wait_num,
      intercept_num: r.intercept_num,
      success_rate: rateOf(r.success_num, r.send_num),
    };
  }

  /** the sums of every row of the report (not only the page's): the totals row */
  private async totals(q: ReportQuery): Promise<ReportTotals> {
    const r = (await sql<Sums>`select ${SUMS} from report_rows r where ${this.where(q)}`.execute(this.ctx.db)).rows[0];
    return {
      send_num: r.send_num,
      chargeTotal: r.charge_total,
      success_num: r.success_num,
      not_known_num: r.unknown_num,
      fail_num: r.fail_num,
      wait_send_num: r.wait_num,
      intercept_num: r.intercept_num,
      success_rate: rateOf(r.success_num, r.send_num),
    };
  }

  /** one grouped query: per account (total) or per account and day (daily), SMS type and paytype */
  private async grouped(q: ReportQuery, daily: boolean, limit: number, offset: number) {
    const keys = daily ? sql`r.account_id, r.day, r.smstype, r.paytype` : sql`r.account_id, r.smstype, r.paytype`;
    const rows = await sql<
      Sums & {
        account_id: number;
        clientid: string;
        name: string;
        smstype: number;
        paytype: number;
        date?: string;
        total: number;
      }
    >`
      select g.*, ${daily ? sql`to_char(g.day, 'YYYY-MM-DD')` : sql`null`} as date, a.clientid, a.name, count(*) over ()::int as total from (
        select ${keys}, ${SUMS} from report_rows r where ${this.where(q)}
        group by ${keys}
      ) g join accounts a on a.id = g.account_id
      order by ${daily ? sql`g.day desc, ` : sql``}a.clientid, g.smstype, g.paytype
      limit ${limit} offset ${offset}`.execute(this.ctx.db);
    return rows.rows.map(({ date, ...r }) => (daily && date ? { ...r, date } : r));
  }

  /** POST /client/report/consume/pretotal | suftotal: rows per sub-account (and SMS type, paytype) */
  async total(me: Account, side: ReportSide, input: ReportInput) {
    const q = await this.query(me, side, input);
    const paging = pagingOf(input);
    const [rows, totals] = await Promise.all([
      this.grouped({ ...q }, false, paging.size, paging.offset),
      this.totals(q),
    ]);
    return {
      ...listPage(
        rows.map((r, i) => this.row(r, paging.offset + i + 1)),
        rows[0]?.total ?? (await this.countGroups(q, false)),
        paging,
      ),
      start_time_day: q.start,
      end_time_day: q.end,
      totals,
    };
  }

  /** GET /client/report/consume/preday | sufday: one account's rows per day */
  async daily(me: Account, side: ReportSide, input: ReportInput) {
    if (me.user_type === UserType.Agent && !reportAccount(input)) throw new ApiError(400, MESSAGES.badParam);
    const q = await this.query(me, side, input);
    const paging = pagingOf(input);
    const [rows, totals] = await Promise.all([this.grouped(q, true, paging.size, paging.offset), this.totals(q)]);
    return {
      ...listPage(
        rows.map((r, i) => this.row(r, paging.offset + i + 1)),
        rows[0]?.total ?? (await this.countGroups(q, true)),
        paging,
      ),
      start_time_day: q.start,
      end_time_day: q.end,
      totals,
    };
  }

  /** the number of groups (asked only when a page came back empty: past the end, or none at all) */
  private async countGroups(q: ReportQuery, daily: boolean): Promise<number> {
    const keys = daily ? sql`r.account_id, r.day, r.smstype, r.paytype` : sql`r.account_id, r.smstype, r.paytype`;
    const r = await sql<{
      n: number;
    }>`select count(*)::int as n from (select 1 from report_rows r where ${this.where(q)} group by ${keys}) g`.execute(
      this.ctx.db,
    );
    return r.rows[0]?.n ?? 0;
  }

  /** POST consumeReportTotalExport / consumeReportDayExport: the report as a streamed xlsx */
  async export(me: Account, daily: boolean, input: ReportInput): Promise<{ name: string; stream: Readable }> {
    const paytype = input.paytype ?? ReportPayType.Prepaid;
    const side: ReportSide = paytype === ReportPayType.Postpaid ? 'suf' : 'pre';
    if (daily && me.user_type === UserType.Agent && !reportAccount(input)) throw new ApiError(400, MESSAGES.badParam);
    const q = await this.query(me, side, {
      ...input,
      paytype: String(me.operation_mode) === OperationMode.DirectCharge ? undefined : paytype,
    });
    const rows = await this.grouped(q, daily, REPORT_EXPORT_MAX, 0);
    if (!rows.length) throw errors.refused(RECORD_MSG.noData);
    const out = new PassThrough();
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    const ws = wb.addWorksheet(daily ? '日报表' : '消费报表');
    ws.columns = exportColumns(this.ctx.schemas.registry, 'entities/report-row', [
      ...(daily ? [{ key: 'date', width: 12 }] : []),
      { key: 'clientid', width: 12 },
      { key: 'name', width: 20 },
      { key: 'smstype_str', width: 10 },
      { key: 'paytype_str', width: 10 },
      { key: 'send_num', width: 12 },
      { key: 'chargeTotal', width: 12 },
      { key: 'success_num', width: 12 },
      { key: 'not_known_num', width: 12 },
      { key: 'fail_num', width: 12 },
      { key: 'wait_send_num', width: 12 },
      { key: 'intercept_num', width: 12 },
      { key: 'success_rate', width: 10 },
    ]);
    ws.getRow(1).font = { bold: true };
    void (async () => {
      try {
        rows.forEach((r, i) => ws.addRow(safeRow(this.row(r, i + 1))).commit());
        ws.commit();
        await wb.commit();
      } catch (e) {
        out.destroy(e instanceof Error ? e : new Error(messageOf(e)));
      }
    })();
    const stamp = formatDateTime(this.ctx.now()).replace(/[-: ]/g, '').slice(0, 14);
    return { name: `${daily ? '日报表' : '消费报表'}_${q.start}_${q.end}_${stamp}.xlsx`, stream: out };
  }

  /** GET /client/consume/user: the report's account picker: the agent itself first, then its sub-accounts */
  async users(me: Account): Promise<ReportAccount[]> {
    const rows = await this.ctx.db
      .selectFrom('accounts')
      .select(['clientid', 'name'])
      .where('agent_id', '=', me.id)
      .where('user_type', '=', UserType.SubAccount)
      .orderBy('clientid')
      .execute();
    return [{ clientid: me.clientid, name: me.name }, ...rows];
  }

  // ---------------------------------------------------------------- dashboard

  /** the accounts of the dashboard: an agent's own and its sub-accounts' (or one of them by clientId), else own */
  private async dashScope(me: Account, p: ReportsClientParams): Promise<RawBuilder<unknown>> {
    if (me.user_type !== UserType.Agent) return sql`r.account_id = ${me.id}`;
    const id = p.clientId || p.clientid || '';
    if (id && id !== me.clientid) {
      const a = await this.ctx.db
        .selectFrom('accounts')
        .select('id')
        .where('clientid', '=', id)
        .where('agent_id', '=', me.id)
        .executeTakeFirst();
      if (!a) throw errors.forbidden();
      return sql`r.account_id = ${a.id}`;
    }
    if (id === me.clientid) return sql`r.account_id = ${me.id}`;
    return sql`(r.agent_id = ${me.id} or r.account_id = ${me.id})`;
  }

  /** GET /index/dataoftoday: today's messages by outcome */
  async todayStats(me: Account, p: ReportsClientParams) {
    const scope = await this.dashScope(me, p);
    const r = (
      await sql<Sums>`select ${SUMS} from report_rows r where ${scope} and r.day = ${this.today()}::date`.execute(
        this.ctx.db,
      )
    ).rows[0];
    return {
      day: this.today(),
      submitTotal: r.send_num,
      sending: r.wait_num,
      sendSuccess: r.success_num,
      sendFail: r.fail_num,
      unknown: r.unknown_num,
      intercept: r.intercept_num,
    };
  }

  /** POST /WeekSubmitNumber: the last 7 days (today included), per day */
  async week(me: Account, p: ReportsClientParams): Promise<WeekSubmits> {
    const scope = await this.dashScope(me, p);
    const today = this.today();
    const first = addDays(today, -6);
    const rows = await sql<Sums & { day: string }>`
      select to_char(r.day, 'YYYY-MM-DD') as day, ${SUMS} from report_rows r
      where ${scope} and r.day >= ${first}::date and r.day <= ${today}::date group by r.day`.execute(this.ctx.db);
    const by = new Map(rows.rows.map((r) => [r.day, r]));
    const days = Array.from({ length: 7 }, (_, i) => addDays(first, i));
    const of = (k: keyof Sums) => days.map((d) => by.get(d)?.[k] ?? 0);
    return {
      dates: days,
      submitTotal: of('send_num'),
      sendSuccess: of('success_num'),
      sendFail: of('fail_num'),
      unknown: of('unknown_num'),
    };
  }

  // ---------------------------------------------------------------- the agent's overview

  /**
   * GET /index/agentOverview (agents; docs/api-reports.md "Agent overview"): the sub-accounts that
   * consumed most over the last OVERVIEW_DAYS days (charged pieces, from the daily aggregates), those
   * paying by amount whose balance is below their 余额提醒 (or LOW_BALANCE_DEFAULT when none is set),
   * and their pools with pieces left that expire within EXPIRING_DAYS (with the date). Closed
   * sub-accounts are left out. Three indexed queries, each bounded by OVERVIEW_ROWS.
   */
  async agentOverview(me: Account) {
    const today = this.today();
    const first = addDays(today, -(OVERVIEW_DAYS - 1));
    const now = this.ctx.now();
    const top = await sql<{ clientid: string; name: string; charge: string; sent: string; success: string }>`
      select a.clientid, a.name, sum(r.charge_total)::text as charge, sum(r.send_num)::text as sent, sum(r.success_num)::text as success
      from report_rows r join accounts a on a.id = r.account_id
      where r.agent_id = ${me.id} and r.account_id <> ${me.id} and r.day >= ${first}::date and r.day <= ${today}::date and a.status <> ${AccountStatus.Closed}
      group by a.clientid, a.name having sum(r.charge_total) > 0
      order by sum(r.charge_total) desc, a.clientid limit ${OVERVIEW_ROWS}`.execute(this.ctx.db);
    const low = await sql<{ clientid: string; name: string; balance: string; threshold: string }>`
      select clientid, name, balance::text as balance, (case when balance_alarm > 0 then balance_alarm else ${LOW_BALANCE_DEFAULT}::numeric end)::text as threshold
      from accounts
      where agent_id = ${me.id} and user_type = ${UserType.SubAccount} and status <> ${AccountStatus.Closed} and paytype <> ${PayType.Postpaid}
        and (operation_mode = ${OperationMode.DirectCharge} or paytype = ${PayType.PrepaidByAmount})
        and balance < (case when balance_alarm > 0 then balance_alarm else ${LOW_BALANCE_DEFAULT}::numeric end)
      order by balance, clientid limit ${OVERVIEW_ROWS}`.execute(this.ctx.db);
    const pools = await this.ctx.db
      .selectFrom('product_pools as p')
      .innerJoin('accounts as a', 'a.id', 'p.account_id')
      .select(['a.clientid', 'a.name', 'p.product_type', 'p.due_time'])
      .select((eb) => eb.fn.sum<string>('p.remaining').as('remaining'))
      .where('a.agent_id', '=', me.id)
      .where('a.status', '<>', AccountStatus.Closed)
      .where('p.remaining', '>', 0)
      .where('p.due_time', '>', now)
      .where('p.due_time', '<=', new Date(now.getTime() + EXPIRING_DAYS * DAY_MS))
      .groupBy(['a.clientid', 'a.name', 'p.product_type', 'p.due_time'])
      .orderBy('p.due_time')
      .orderBy('a.clientid')
      .limit(OVERVIEW_ROWS)
      .execute();
    return {
      days: OVERVIEW_DAYS,
      expiringDays: EXPIRING_DAYS,
      lowBalanceDefault: LOW_BALANCE_DEFAULT,
      topConsumers: top.rows.map((r) => ({
        clientid: r.clientid,
        name: r.name,
        chargeNum: Number(r.charge),
        sendNum: Number(r.sent),
        successNum: Number(r.success),
      })),
      lowBalance: low.rows.map((r) => ({
        clientid: r.clientid,
        name: r.name,
        balance: money2(r.balance),
        threshold: money2(r.threshold),
      })),
      expiringPools: pools.map((p) => ({
        clientid: p.clientid,
        name: p.name,
        productType: p.product_type,
        remaining: poolFigure(p.product_type, Number(p.remaining)),
        dueTime: formatDateTime(p.due_time),
      })),
    };
  }

  // ---------------------------------------------------------------- delivery analytics

  /**
   * GET /client/report/delivery {days: 7 | 30, clientid?}: the messages accepted over the last
   * `days` business days (today included, live) of the dashboard's accounts (an agent: its own and
   * its sub-accounts', or one of them), per day (report_rows), per carrier and province, and the
   * failure reasons (error codes of the failed messages, explained by enums/receipt-code).
   *
   * Carrier and province are not in the report rows: they are counted from sms_messages on the
   * record index (account_id, created_at) INCLUDE (state, carrier, province_id), one range per
   * account, index-only but for the failed rows' error_code (a minority), in the months of the
   * range only (the id bounds of records/service.ts recordConds). Messages still held as
   * chunks (intercepted at acceptance, not rows yet) are not in the carrier / province figures.
   */
  async delivery(me: Account, p: DeliveryStatsParams): Promise<DeliveryStats> {
    const days = p.days ?? 7;
    const scope = await this.dashScope(me, { clientid: p.clientid });
    const end = this.today();
    const start = addDays(end, -(days - 1));
    const ids = await this.scopeIds(me, p.clientid);
    const from = new Date(Date.parse(`${start}T00:00:00Z`) - SHANGHAI_OFFSET_MS);
    const to = new Date(Date.parse(`${end}T00:00:00Z`) - SHANGHAI_OFFSET_MS + DAY_MS);
    const failed = OUTCOME_STATES[TaskDetailOutcome.Failure];
    const success = OUTCOME_STATES[TaskDetailOutcome.Success];
    const unknown = OUTCOME_STATES[TaskDetailOutcome.Unknown];
    const [dayRows, groups] = await Promise.all([
      sql<Sums & { day: string }>`
        select to_char(r.day, 'YYYY-MM-DD') as day, ${SUMS} from report_rows r
        where ${scope} and r.day >= ${start}::date and r.day <= ${end}::date group by r.day`.execute(this.ctx.db),
      sql<{ carrier: number; province_id: number; outcome: string; code: string; n: number }>`
        select m.carrier, m.province_id,
          (case when m.state in (${sql.join(success)}) then 's' when m.state in (${sql.join(failed)}) then 'f' when m.state in (${sql.join(unknown)}) then 'u' else 'o' end) as outcome,
          (case when m.state in (${sql.join(failed)}) then coalesce(nullif(m.error_code, ''), nullif(m.report, ''), '') else '' end) as code,
          count(*)::int as n
        from sms_messages m
        where m.account_id = any(${ids}::int[]) and m.created_at >= ${from} and m.created_at < ${to}
          and m.id >= sms_id_floor(${from}) and m.id < sms_id_ceiling()
        group by 1, 2, 3, 4`.execute(this.ctx.db),
    ]);
    const byDayMap = new Map(dayRows.rows.map((r) => [r.day, r]));
    const byDay = Array.from({ length: days }, (_, i) => addDays(start, i)).map((day) => {
      const r = byDayMap.get(day);
      return { day, ...figures(r?.send_num ?? 0, r?.success_num ?? 0, r?.fail_num ?? 0, r?.unknown_num ?? 0) };
    });
    const total = figures(
      ...byDay.reduce<[number, number, number, number]>(
        (a, d) => [a[0] + d.submit, a[1] + d.success, a[2] + d.fail, a[3] + d.unknown],
        [0, 0, 0, 0],
      ),
    );
    type Acc = [number, number, number, number];
    const add = (m: Map<number, Acc>, k: number, g: { outcome: string; n: number }) => {
      const a = m.get(k) ?? [0, 0, 0, 0];
      a[0] += g.n;
      if (g.outcome === 's') a[1] += g.n;
      if (g.outcome === 'f') a[2] += g.n;
      if (g.outcome === 'u') a[3] += g.n;
      m.set(k, a);
    };
    const carriers = new Map<number, Acc>();
    const provinces = new Map<number, Acc>();
    const reasons = new Map<string, number>();
    for (const g of groups.rows) {
      add(carriers, g.carrier, g);
      add(provinces, g.province_id, g);
      if (g.outcome === 'f') reasons.set(g.code, (reasons.get(g.code) ?? 0) + g.n);
    }
    return {
      days,
      start,
      end,
      total,
      byDay,
      byCarrier: [...carriers.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([carrier, a]) => ({
          carrier: carrier as DeliveryStats['byCarrier'][number]['carrier'],
          ...figures(...a),
        })),
      byProvince: [...provinces.entries()]
        .sort((a, b) => b[1][0] - a[1][0])
        .map(([province, a]) => ({
          province,
          provinceName: province ? (findProvince(province)?.provinceName ?? String(province)) : '未知',
          ...figures(...a),
        })),
      reasons: [...reasons.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([code, count]) => ({
          code,
          meaning: code ? (this.ctx.schemas.registry.enumLabel('receipt-code', code) ?? '') : '',
          count,
        })),
    };
  }

  /** the account ids of the dashboard's scope (as dashScope) */
  private async scopeIds(me: Account, clientid: string | undefined): Promise<number[]> {
    if (me.user_type !== UserType.Agent || clientid === me.clientid) return [me.id];
    if (clientid) {
      const a = await this.ctx.db
        .selectFrom('accounts')
        .select('id')
        .where('clientid', '=', clientid)
        .where('agent_id', '=', me.id)
        .executeTakeFirst();
      if (!a) throw errors.forbidden();
      return [a.id];
    }
    return (
      await this.ctx.db
        .selectFrom('accounts')
        .select('id')
        .where((eb) => eb.or([eb('id', '=', me.id), eb('agent_id', '=', me.id)]))
        .execute()
    ).map((a) => a.id);
  }

  // ---------------------------------------------------------------- remaining pieces

  /** GET /index/clientsmsdetail: unexpired pools with pieces left; dead 0 when due within EXPIRING_DAYS */
  async remain(me: Account, f: RemainInput) {
    const productType = f.product_type ?? enumParam(f.type, [0, 1, 2, 3, 4]);
    const operator = f.operator_code;
    let ids: number[] = [me.id];
    const id = f.clientid || f.clientId || '';
    if (me.user_type === UserType.Agent) {
      if (id && id !== me.clientid) {
        const a = await this.ctx.db
          .selectFrom('accounts')
          .select('id')
          .where('clientid', '=', id)
          .where('agent_id', '=', me.id)
          .executeTakeFirst();
        if (!a) throw errors.forbidden();
        ids = [a.id];
      } else if (!id) {
        ids = (
          await this.ctx.db
            .selectFrom('accounts')
            .select('id')
            .where((eb) => eb.or([eb('id', '=', me.id), eb('agent_id', '=', me.id)]))
            .execute()
        ).map((a) => a.id);
      }
    }
    const now = this.ctx.now();
    const soon = new Date(now.getTime() + EXPIRING_DAYS * DAY_MS);
    let q = this.ctx.db
      .selectFrom('product_pools as p')
      .innerJoin('accounts as a', 'a.id', 'p.account_id')
      .select([
        'a.clientid',
        'a.name',
        'p.id',
        'p.product_type',
        'p.operator_code',
        'p.area_name',
        'p.unit_price',
        'p.remaining',
        'p.due_time',
        'p.gift',
      ])
      .where('p.account_id', 'in', ids)
      .where('p.remaining', '>', 0)
      .where('p.due_time', '>', now);
    if (productType !== undefined) q = q.where('p.product_type', '=', productType);
    if (operator !== undefined) q = q.where('p.operator_code', '=', operator);
    const rows = await q.orderBy('p.due_time').orderBy('p.id').limit(5000).execute();
    const list = rows.map((p, i) => ({
      rownum: i + 1,
      client_id: p.clientid,
      client_name: p.name,
      product_type: p.product_type,
      product_type_str: this.label('product-type', p.product_type),
      operator_code: p.operator_code,
      operator_code_str: this.label('carrier', p.operator_code),
      area_code_str: p.area_name,
      sms_unitprice: String(p.unit_price),
      // pieces, or yuan for an international pool
      account_balance: poolFigure(p.product_type, p.remaining),
      due_time: formatDateTime(p.due_time),
      gift: p.gift,
      dead: p.due_time.getTime() <= soon.getTime() ? 0 : 1,
    }));
    // the agent's own pools and its sub-accounts' apart (the agent's pools pay for its postpaid
    // sub-accounts, the sub-accounts' are theirs): never one sum; pieces and yuan (international) apart
    const sums = (own: boolean) => {
      const rs = list.filter((r) => (r.client_id === me.clientid) === own);
      const intl = rs.filter((r) => r.product_type === ProductType.International);
      return {
        pieces: rs
          .filter((r) => r.product_type !== ProductType.International)
          .reduce((s, r) => s + r.account_balance, 0),
        yuan: money2(intl.reduce((s, r) => s.plus(r.account_balance), new Money(0))),
        pools: rs.length,
      };
    };
    return {
      list,
      totalCount: list.length,
      total: me.user_type === UserType.Agent ? { own: sums(true), subAccounts: sums(false) } : null,
      expiringDays: EXPIRING_DAYS,
    };
  }
}

/** 100 × part / whole, two decimals; 0 when nothing was submitted */
export const rateOf = (part: number, whole: number) => (whole > 0 ? Math.round((10_000 * part) / whole) / 100 : 0);

const figures = (submit: number, success: number, fail: number, unknown: number) => ({
  submit,
  success,
  fail,
  unknown,
  successRate: rateOf(success, submit),
});

/**
 * The pool figures of the header (/index/data): remaining pieces per product type (`data`), the
 * part of them due within EXPIRING_DAYS (`agent_pool_due_time_data`) and the gift pools
 * (`smsGivePoolData`, sub-accounts only) of the account's own unexpired pools.
 */
export async function poolHeaderData(
  ctx: Pick<AppContext, 'db' | 'now' | 'schemas'>,
  account: { id: number; user_type: string | number },
) {
  const now = ctx.now();
  const soon = new Date(now.getTime() + EXPIRING_DAYS * DAY_MS);
  const pools = await ctx.db
    .selectFrom('product_pools')
    .select(['product_type', 'remaining', 'due_time', 'gift'])
    .where('account_id', '=', account.id)
    .where('remaining', '>', 0)
    .where('due_time', '>', now)
    .orderBy('due_time')
    .execute();
  const zero = () => Object.fromEntries(Object.values(REMAIN_KEYS).map((k) => [k, 0])) as Record<string, number>;
  const data = zero();
  const due = zero();
  for (const p of pools) {
    const k = REMAIN_KEYS[p.product_type];
    if (!k) continue;
    data[k] += p.remaining;
    if (p.due_time.getTime() <= soon.getTime()) due[k] += p.remaining;
  }
  // pieces, or yuan for the international pools (gj_remain_amount: they keep 分)
  for (const [type, k] of Object.entries(REMAIN_KEYS)) {
    data[k] = poolFigure(Number(type), data[k]);
    due[k] = poolFigure(Number(type), due[k]);
  }
  const gifts = pools.filter((p) => p.gift);
  const smsGivePoolData = {
    isShow: String(account.user_type) === UserType.SubAccount && gifts.length > 0 ? 1 : 0,
    list: gifts.map((g) => ({
      smstypeStr: ctx.schemas.registry.enumLabel('product-type', g.product_type) ?? '',
      remainNumber: poolFigure(g.product_type, g.remaining),
      dueTime: formatDateTime(g.due_time),
    })),
    smstypeStr: gifts[0] ? (ctx.schemas.registry.enumLabel('product-type', gifts[0].product_type) ?? '') : '',
    remainNumber: Math.round(gifts.reduce((s, g) => s + poolFigure(g.product_type, g.remaining), 0) * 100) / 100,
    dueTime: gifts[0] ? formatDateTime(gifts[0].due_time) : '',
  };
  return { data, agent_pool_due_time_data: due, smsGivePoolData, expiringDays: EXPIRING_DAYS };
}

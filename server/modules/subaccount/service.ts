/**
 * Sub-account management by agents (spec 01 §2 "Customer manager list", "Open-account form",
 * "Customer finance list"). Every query is scoped: an agent reaches only the sub-accounts whose
 * agent_id is its own id (`owned`), answering 404 for unknown ids and 403 无权访问 for another
 * agent's sub-account. Money goes through the ledger (server/modules/ledger).
 */
import {
  hashInterfacePassword,
  interfaceLoginOf,
  maskedInterfacePassword,
  newInterfacePassword,
  sgipLoginOf,
} from '../../lib/interface-password';
import { interfaceDoors, normalizeIpWhitelist, type DoorPorts } from './interface-settings';
import { mayCreateTestAccount, TEST_MSG } from '../clients';
import { randomInt } from 'node:crypto';
import { sql, type Kysely, type SelectQueryBuilder, type Transaction } from 'kysely';
import ExcelJS from 'exceljs';
import type { AppContext } from '../../context';
import type { Account, Database } from '../../db/types';
import { ApiError, errors } from '../../http/errors';
import { callbackUrlMessage, callbackUrlProblem } from '../../lib/safe-url';
import { listPage, pagingOf } from '../../http/paging';
import type { CurrentPaging } from '../../http/contract';
import { whereFrom } from '../../db/filters';
import { exportColumns, type ExportColumn, safeRow } from '../../lib/export-columns';
import { validateForm } from '../../http/validation';
import { hashPassword, randomToken, sha256hex } from '../../lib/crypto';
import { addMs, businessDayStart, formatDateTime } from '../../lib/time';
import type { LedgerService, TransferOp } from '../ledger';
import { Money, money2 } from '../../lib/money';
import { EXPIRING_DAYS, lowBalanceOf, poolHeaderData } from '../reports';
import {
  AccountStatus,
  AgentOwned,
  Carrier,
  ClientType,
  LedgerKind,
  NeedMo,
  NeedReport,
  OauthStatus,
  OperationMode,
  OperatorStatus,
  PayType,
  PriceType,
  ProductType,
  UserType,
  type AccountUpdateClientForm,
  type BalanceReminderForm,
  type OpenAccountForm,
  type RechargeForm,
  type SubAccountExpireParams,
  type SubAccountFilter,
  type SubAccountFinanceFilter,
  type SubAccountPasswordForm,
  type SubAccountEditForm,
  type SubAccountInterfaceForm,
  type SubAccountPriceForm,
  type SubAccountRemarkForm,
  type SubAccountReminderParams,
  type SubAccountRemarkParams,
  type SubAccountResetPasswordParams,
  Smsfrom,
} from '../../../common/generated/schemas';
import { MESSAGES } from '../../../common/schema/messages';
import reminderForm from '../../../schemas/forms/balance-reminder.json';
import openAccountForm from '../../../schemas/forms/open-account.json';
import editForm from '../../../schemas/forms/sub-account-edit.json';
import priceForm from '../../../schemas/forms/sub-account-price.json';
import interfaceForm from '../../../schemas/forms/sub-account-interface.json';
import { codeOf, detailOf } from '../../lib/error-code';

const SH_OFFSET = '+08:00';

/** 6-character clientid: a letter then five letters/digits (lower case) */
function newClientId(): string {
  const a = 'abcdefghjkmnpqrstuvwxyz';
  const b = a + '23456789';
  let s = a[randomInt(a.length)];
  for (let i = 0; i < 5; i++) s += b[randomInt(b.length)];
  return s;
}

/** 10 characters, letters and digits, at least one of each (the spec's password rule) */
export function strongPassword(): string {
  const letters = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz';
  const digits = '23456789';
  const all = letters + digits;
  for (;;) {
    let s = '';
    for (let i = 0; i < 10; i++) s += all[randomInt(all.length)];
    if (/[A-Za-z]/.test(s) && /\d/.test(s)) return s;
  }
}

type SubSelect = SelectQueryBuilder<Database, 'accounts', object>;

/** the columns a manager-list row reads (managerRow and lowBalanceOf): 17 of the accounts table's 61 */
const MANAGER_COLUMNS = [
  'clientid',
  'name',
  'status',
  'oauth_status',
  'client_type',
  'agent_owned',
  'email',
  'mobile',
  'realname',
  'create_time',
  'balance',
  'smstype',
  'paytype',
  'remarks',
  'test_expires_at',
  'operation_mode',
  'balance_alarm',
] as const satisfies readonly (keyof Account)[];
type ManagerAccount = Pick<Account, (typeof MANAGER_COLUMNS)[number]>;

/** the columns a finance-list row reads (financeRow) */
const FINANCE_COLUMNS = [
  'id',
  'clientid',
  'name',
  'smstype',
  'paytype',
  'balance',
  'price_type',
  'unified_price',
  'mobile_price',
  'unicom_price',
  'telecom_price',
  'gj_sms_discount',
  'balance_alarm',
  'alarm_mobile',
  'expire_date',
  'status',
  'remarks',
] as const satisfies readonly (keyof Account)[];
type FinanceAccount = Pick<Account, (typeof FINANCE_COLUMNS)[number]>;

/** domestic pieces left per carrier (carrierPieces) */
export interface CarrierPieces {
  mobileNum: number;
  unicomNum: number;
  telecomNum: number;
}
const NO_PIECES: CarrierPieces = { mobileNum: 0, unicomNum: 0, telecomNum: 0 };

type SubAccountListKey = 'filters/sub-account' | 'filters/sub-account-finance';

/**
 * The creation-day range of filters/sub-account (start_time_day, end_time_day: business days of
 * Asia/Shanghai, the end day included). Not a schema annotation: a reversed range here is an empty
 * list, not a refusal. The finance filter has no dates.
 */
export function createdWithin(q: SubSelect, f: SubAccountFilter | SubAccountFinanceFilter): SubSelect {
  const from = 'start_time_day' in f && f.start_time_day ? businessDayStart(f.start_time_day) : undefined;
  const to = 'end_time_day' in f && f.end_time_day ? businessDayStart(f.end_time_day) : undefined;
  if (from) q = q.where('create_time', '>=', from);
  if (to) q = q.where('create_time', '<', addMs(to, 86_400_000));
  return q;
}

/**
 * forms/sub-account-password's payload from POST /client/account/resetPsd's parameters: callers
 * without `way` (the first version of this call) mean "set it" with a password, else "e-mail one";
 * the confirmation defaults to the password.
 */
export function passwordResetPayload(p: SubAccountResetPasswordParams) {
  const way = p.way || (p.password ? 'password' : 'email');
  const password = p.password ?? '';
  return {
    clientId: p.clientId ?? '',
    way,
    ...(way === 'email' ? { email: p.email ?? '' } : { password, confirmPassword: p.confirmPassword ?? password }),
  };
}

export class SubAccountService {
  constructor(
    private readonly ctx: AppContext,
    readonly ledger: LedgerService,
  ) {}

  private label(enumName: string, v: unknown) {
    return this.ctx.schemas.registry.enumLabel(enumName, v) ?? '';
  }

  /** The sub-account `clientId` of this agent: 404 when none, 403 when another agent's. */
  async owned(agent: Account, clientId: string | undefined): Promise<Account> {
    const id = clientId ?? '';
    if (!id) throw new ApiError(400, MESSAGES.pickSubAccount);
    const row = await this.ctx.db.selectFrom('accounts').selectAll().where('clientid', '=', id).executeTakeFirst();
    if (!row || row.user_type !== UserType.SubAccount) throw errors.notFound('子账户');
    if (row.agent_id !== agent.id) throw errors.forbidden();
    return row;
  }

  // ---------------------------------------------------------------- lists

  /** the agent's sub-accounts that a list's filter (filters/sub-account or filters/sub-account-finance) matches */
  private filtered(agent: Account, f: SubAccountFilter | SubAccountFinanceFilter, key: SubAccountListKey): SubSelect {
    const q = this.ctx.db
      .selectFrom('accounts')
      .where('agent_id', '=', agent.id)
      .where('user_type', '=', UserType.SubAccount);
    return createdWithin(whereFrom(q, this.ctx, key, f), f);
  }

  managerRow(a: ManagerAccount) {
    return {
      client_id: a.clientid,
      client_name: a.name,
      status: a.status,
      status_str: this.label('account-status', a.status),
      oauth_status: a.oauth_status,
      oauth_status_str:
        this.label('auth-status', a.oauth_status) || (a.oauth_status === OauthStatus.Uncertified ? '未认证' : ''),
      client_type: a.client_type,
      agent_owned: a.agent_owned,
      email: a.email,
      mobile: a.mobile,
      realname: a.realname,
      create_time: formatDateTime(a.create_time),
      balance: money2(a.balance),
      smstype: a.smstype,
      smstype_str: this.label('sms-type', a.smstype),
      paytype: a.paytype,
      paytype_str: this.label('paytype', a.paytype),
      remarks: a.remarks,
      /** a test account's end (docs "Test accounts"); empty for an ordinary account */
      test_expire_time: a.test_expires_at ? formatDateTime(a.test_expires_at) : '',
    };
  }

  /**
   * The finance list's mobileNum / unicomNum / telecomNum (issue 41 item 12: always 0 before): the
   * domestic pieces each account has left for that carrier's numbers — its unexpired domestic pools
   * of that carrier plus its nationwide (全网) ones, which serve every carrier (a nationwide piece is
   * counted under each carrier and spent once). International pools (yuan) are not counted; a
   * postpaid sub-account has no pools of its own (its agent's are used): 0.
   */
  async carrierPieces(ids: readonly number[]): Promise<Map<number, CarrierPieces>> {
    const out = new Map<number, CarrierPieces>();
    if (!ids.length) return out;
    const of = (carrier: number) =>
      sql<string>`coalesce(sum(remaining) filter (where operator_code in (${sql.lit(Carrier.All)}, ${sql.lit(carrier)})), 0)`;
    const rows = await this.ctx.db
      .selectFrom('product_pools')
      .select([
        'account_id',
        of(Carrier.Mobile).as('mobile'),
        of(Carrier.Unicom).as('unicom'),
        of(Carrier.Telecom).as('telecom'),
      ])
      .where('account_id', 'in', [...ids])
      .where('remaining', '>', 0)
      .where('due_time', '>', this.ctx.now())
      .where('product_type', '<>', ProductType.International)
      .groupBy('account_id')
      .execute();
    for (const r of rows)
      out.set(r.account_id, {
        mobileNum: Number(r.mobile),
        unicomNum: Number(r.unicom),
        telecomNum: Number(r.telecom),
      });
    return out;
  }

  financeRow(a: FinanceAccount, agent: Account, pieces: CarrierPieces = NO_PIECES) {
    const billedByAgent = a.paytype === PayType.Postpaid;
    return {
      client_id: a.clientid,
      client_name: a.name,
      smstype: a.smstype,
      smstype_str: this.label('sms-type', a.smstype),
      paytype: a.paytype,
      paytype_str: this.label('paytype', a.paytype),
      agentBalance: money2(agent.balance),
      balance: money2(a.balance),
      /** postpaid accounts are billed against the agent's (main account's) balance */
      balanceOfAgent: billedByAgent ? 1 : 0,
      priceType: a.price_type,
      priceType_str: this.label('price-type', a.price_type),
      unifiedPrice: new Money(a.unified_price).toFixed(4),
      mobilePrice: new Money(a.mobile_price).toFixed(4),
      unicomPrice: new Money(a.unicom_price).toFixed(4),
      telecomPrice: new Money(a.telecom_price).toFixed(4),
      gjSmsDiscount: money2(a.gj_sms_discount),
      ...pieces,
      balanceAlarm: money2(a.balance_alarm),
      alarmMobile: a.alarm_mobile,
      expireDate: a.expire_date ? String(a.expire_date).slice(0, 10) : '',
      status: a.status,
      status_str: this.label('account-status', a.status),
      remarks: a.remarks,
    };
  }

  /** a page of the list: `columns` of each account (only what its rows show: 10 rows × 61 columns parsed for 17 cost the lists under load) */
  private async page<C extends keyof Account & string>(
    agent: Account,
    f: (SubAccountFilter | SubAccountFinanceFilter) & CurrentPaging,
    key: SubAccountListKey,
    columns: readonly C[],
  ) {
    const paging = pagingOf(f);
    const base = this.filtered(agent, f, key);
    // one scan of the matching rows (narrow: id, create_time) gives both the total and the page ids;
    // the same statement reads each row's earliest pool about to expire (the list's alert, issue 27:
    // pools with pieces left due within EXPIRING_DAYS, the agent overview's rule)
    const now = this.ctx.now();
    const soon = new Date(now.getTime() + EXPIRING_DAYS * 86_400_000);
    const rows = await this.ctx.db
      .with('m', () => base.select(['id', 'create_time']))
      .selectFrom('accounts')
      .select(columns.map((c) => `accounts.${c}` as const))
      .select(sql<string>`(select count(*) from m)`.as('total_count'))
      .select((eb) =>
        eb
          .selectFrom('product_pools as pp')
          .select((e) => e.fn.min('pp.due_time').as('due'))
          .whereRef('pp.account_id', '=', 'accounts.id')
          .where('pp.remaining', '>', 0)
          .where('pp.due_time', '>', now)
          .where('pp.due_time', '<=', soon)
          .as('pool_due'),
      )
      .where('accounts.id', 'in', (eb) =>
        eb
          .selectFrom('m')
          .select('m.id')
          .orderBy('m.create_time', 'desc')
          .orderBy('m.id', 'desc')
          .limit(paging.size)
          .offset(paging.offset),
      )
      .orderBy('accounts.create_time', 'desc')
      .orderBy('accounts.id', 'desc')
      .execute();
    const total = rows.length
      ? Number(rows[0].total_count)
      : Number((await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
    // Kysely cannot follow a generic column list into the row type: the rows hold exactly `columns`
    const picked = rows as unknown as (Pick<Account, C> & { total_count: string; pool_due: Date | string | null })[];
    return { rows: picked.map(({ total_count: _t, ...r }) => r), total, paging };
  }

  async managerList(agent: Account, f: SubAccountFilter & CurrentPaging) {
    const { rows, total, paging } = await this.page(agent, f, 'filters/sub-account', MANAGER_COLUMNS);
    return listPage(
      rows.map(({ pool_due, ...r }) => {
        const { low, threshold } = lowBalanceOf(r);
        // docs/api-subaccounts.md "Alerts": the earliest due date (YYYY-MM-DD, Shanghai) of a pool about to expire
        const poolExpireDate = pool_due ? formatDateTime(new Date(pool_due)).slice(0, 10) : '';
        return { ...this.managerRow(r), lowBalance: low, lowBalanceThreshold: threshold, poolExpireDate };
      }),
      total,
      paging,
    );
  }

  async financeList(agent: Account, f: SubAccountFinanceFilter & CurrentPaging) {
    const fresh = await this.ctx.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', agent.id)
      .executeTakeFirstOrThrow();
    const { rows, total, paging } = await this.page(agent, f, 'filters/sub-account-finance', FINANCE_COLUMNS);
    const pieces = await this.carrierPieces(rows.map((r) => r.id));
    return listPage(
      rows.map((r) => this.financeRow(r, fresh, pieces.get(r.id))),
      total,
      paging,
    );
  }

  /** the selector list (GET /index/clients) */
  async clients(agent: Account, p: CurrentPaging) {
    const paging = pagingOf(p);
    const base = this.ctx.db
      .selectFrom('accounts')
      .where('agent_id', '=', agent.id)
      .where('user_type', '=', UserType.SubAccount);
    const [count, rows] = await Promise.all([
      base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
      base.select(['clientid', 'name', 'status']).orderBy('id').limit(paging.size).offset(paging.offset).execute(),
    ]);
    return listPage(
      rows.map((r) => ({ clientid: r.clientid, name: r.name, status: r.status })),
      Number(count.n),
      paging,
    );
  }

  async stat(agent: Account) {
    const monthStart = (() => {
      const d = formatDateTime(this.ctx.now()).slice(0, 7);
      return new Date(`${d}-01T00:00:00${SH_OFFSET}`);
    })();
    const r = await this.ctx.db
      .selectFrom('accounts')
      .select([
        sql<string>`count(*)`.as('total'),
        sql<string>`count(*) filter (where create_time >= ${monthStart})`.as('month'),
        sql<string>`count(*) filter (where status = ${AccountStatus.Frozen})`.as('frozen'),
        sql<string>`count(*) filter (where oauth_status = ${OauthStatus.Certified})`.as('certified'),
        sql<string>`count(*) filter (where oauth_status = ${OauthStatus.Pending})`.as('pending'),
        sql<string>`coalesce(sum(balance), 0)::text`.as('balance'),
      ])
      .where('agent_id', '=', agent.id)
      .where('user_type', '=', UserType.SubAccount)
      .executeTakeFirstOrThrow();
    const me = await this.ctx.db
      .selectFrom('accounts')
      .select('balance')
      .where('id', '=', agent.id)
      .executeTakeFirstOrThrow();
    return {
      total: Number(r.total),
      thisMonth: Number(r.month),
      frozen: Number(r.frozen),
      certified: Number(r.certified),
      pending: Number(r.pending),
      subBalance: money2(r.balance),
      agentBalance: money2(me.balance),
    };
  }

  /** GET /index/data: the caller's own balance; agents also the test-account flag */
  async indexData(account: Account) {
    const me = await this.ctx.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', account.id)
      .executeTakeFirstOrThrow();
    const isAgent = me.user_type === UserType.Agent;
    const sixMonths = isAgent
      ? await this.ctx.db
          .selectFrom('accounts')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('agent_id', '=', me.id)
          .where('create_time', '>=', addMs(this.ctx.now(), -183 * 86_400_000))
          .executeTakeFirstOrThrow()
      : { n: '0' };
    return {
      userType: me.user_type,
      clientid: me.clientid,
      balance: money2(me.balance),
      agent_account_data: { available_line: money2(me.balance), balance: money2(me.balance) },
      sixMonths_client_num: Number(sixMonths.n),
      canCreateTestAccount: mayCreateTestAccount(me),
      // what a test account may do, for the console's confirmation (docs "Test accounts")
      ...(isAgent
        ? {
            testAccountTerms: {
              giftPieces: this.ctx.config.testAccountGift,
              days: this.ctx.config.testAccountDays,
              perAgent: this.ctx.config.testAccountsPerAgent,
            },
          }
        : {}),
      ...(isAgent
        ? { subAccounts: (await this.stat(me)).total }
        : { paytype: me.paytype, paytype_str: this.label('paytype', me.paytype) }),
      // remaining pieces, expiring pools, gift pool (server/modules/reports)
      ...(await poolHeaderData(this.ctx, me)),
    };
  }

  // ---------------------------------------------------------------- one sub-account

  async detail(agent: Account, clientId: string | undefined) {
    const a = await this.owned(agent, clientId);
    return {
      clientid: a.clientid,
      name: a.name,
      client_type: a.client_type,
      status: a.status,
      status_str: this.label('account-status', a.status),
      oauth_status: a.oauth_status,
      oauth_date: formatDateTime(a.oauth_date),
      mobile: a.mobile,
      email: a.email,
      province: a.province,
      city: a.city,
      area: a.area,
      address: a.address,
      realname: a.realname,
      remarks: a.remarks,
      needreport: a.needreport,
      needmo: a.needmo,
      needaudit: a.needaudit,
      needextend: a.needextend,
      create_time: formatDateTime(a.create_time),
      ip: a.ip,
      deliveryurl: a.deliveryurl,
      mourl: a.mourl,
      nodenum: a.nodenum,
      paytype: a.paytype,
      smstype: a.smstype,
      SMSUnitPrice: a.price_type,
      unifiedPrice: new Money(a.unified_price).toFixed(4),
      YDPrice: new Money(a.mobile_price).toFixed(4),
      LTPrice: new Money(a.unicom_price).toFixed(4),
      LXPrice: new Money(a.telecom_price).toFixed(4),
      mobilePrice: new Money(a.mobile_price).toFixed(4),
      unicomPrice: new Money(a.unicom_price).toFixed(4),
      telecomPrice: new Money(a.telecom_price).toFixed(4),
      gjSmsDiscount: money2(a.gj_sms_discount),
      balance: money2(a.balance),
      agentOwned: a.agent_owned,
      idType: a.id_type,
      idNbr: a.id_nbr,
      imgUrl: a.img_url,
      operation_mode: a.operation_mode,
    };
  }

  async setStatus(
    agent: Account,
    clientId: string | undefined,
    to: typeof AccountStatus.Active | typeof AccountStatus.Frozen,
  ) {
    const a = await this.owned(agent, clientId);
    const from = to === AccountStatus.Frozen ? AccountStatus.Active : AccountStatus.Frozen;
    if (a.status !== from)
      throw errors.refused(to === AccountStatus.Frozen ? '只有正常状态的账户可以冻结' : '只有冻结状态的账户可以解冻');
    await this.ctx.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('accounts')
        .set({ status: to, update_time: this.ctx.now() })
        .where('id', '=', a.id)
        .where('status', '=', from)
        .execute();
      if (to === AccountStatus.Frozen) {
        // a freeze ends every login, remember-me tokens included (none comes back after an unfreeze)
        await trx.deleteFrom('sessions').where('account_id', '=', a.id).execute();
        await trx
          .updateTable('remember_tokens')
          .set({ revoked_at: this.ctx.now() })
          .where('account_id', '=', a.id)
          .where('revoked_at', 'is', null)
          .execute();
      }
    });
    return { status: to, status_str: this.label('account-status', to), accountId: a.id };
  }

  async remark(agent: Account, p: SubAccountRemarkParams) {
    const a = await this.owned(agent, p.clientId);
    const { remarks = '' } = validateForm<SubAccountRemarkForm>(this.ctx.schemas, 'forms/sub-account-remark', {
      clientId: p.clientId,
      remarks: p.remarks ?? '',
    });
    await this.ctx.db
      .updateTable('accounts')
      .set({ remarks, update_time: this.ctx.now() })
      .where('id', '=', a.id)
      .execute();
    return { remarks };
  }

  /**
   * 接口信息 (POST /account/getAccountInfo): the doors this server really has (interface-settings.ts
   * `interfaceDoors`: the SMPP, CMPP and SMGP listeners' real ports, or off; the HTTP API's base URL; the
   * login of each), the account,
   * its masked interface password and its settings. `origin` is the configured public base
   * (PAY_PUBLIC_URL) when set, else the origin the console was reached at.
   */
  async accountInfo(agent: Account, clientId: string | undefined, origin: string, ports: DoorPorts) {
    // a sub-account (userType 2) reads its own, asking without clientId (the home page's API info); naming an account stays agents' only
    if (agent.user_type !== UserType.Agent && clientId !== undefined && clientId !== '') throw errors.forbidden();
    const a =
      agent.user_type === UserType.Agent
        ? await this.owned(agent, clientId)
        : await this.ctx.db.selectFrom('accounts').selectAll().where('id', '=', agent.id).executeTakeFirstOrThrow();
    const configured = this.ctx.config.pay.publicUrl;
    const doors = interfaceDoors(configured ? new URL(configured).origin : origin, ports, {
      clientid: a.clientid,
      cmpp: interfaceLoginOf(a),
      sgip: sgipLoginOf(a),
    });
    // the account's protocol (enums/smsfrom) and its door: SMPP / CMPP / SMGP / SGIP → their listeners, HTTPS → the HTTP API
    const smsfrom = this.label('smsfrom', a.smsfrom) ? a.smsfrom : Smsfrom.Https;
    const protocol =
      smsfrom === Smsfrom.Smpp
        ? 'SMPP'
        : smsfrom === Smsfrom.Cmpp
          ? 'CMPP'
          : smsfrom === Smsfrom.Smgp
            ? 'SMGP'
            : smsfrom === Smsfrom.Sgip
              ? 'SGIP'
              : smsfrom === Smsfrom.Https
                ? 'HTTP'
                : '';
    const door = doors.find((d) => d.protocol === protocol);
    const http = doors.find((d) => d.protocol === 'HTTP')!;
    return {
      clientid: a.clientid,
      ipAddress: (door ?? http).host,
      port: door?.enabled ? door.port : 0,
      smsfrom: a.smsfrom,
      // the HTTP API's protocol as it is reached: HTTPS only when its address is https:// (issue 41 item
      // 10: "HTTPS" beside an http:// address)
      smsfrom_str: protocol === 'HTTP' && !http.url.startsWith('https:') ? 'HTTP' : this.label('smsfrom', smsfrom),
      smsfromEnabled: !!door?.enabled,
      smstype: a.smstype,
      smstype_str: this.label('sms-type', a.smstype),
      nodenum: a.nodenum,
      accessSpeed: a.access_speed,
      /** the interface password is stored as argon2id only: shown masked ('' = none yet), changed by its reset */
      password: maskedInterfacePassword(a.interface_password_hash),
      passwordSet: !!a.interface_password_hash,
      doors,
      ip: a.ip,
      needreport: a.needreport,
      needreport_str: this.label('need-report', a.needreport),
      deliveryurl: a.deliveryurl,
      needmo: a.needmo,
      needmo_str: this.label('need-mo', a.needmo),
      mourl: a.mourl,
      needextend: a.needextend,
      needextend_str: this.label('need-extend', a.needextend),
      // the customer's SGIP listener the SGIP door binds back to ('' host: none); its password is the agent's to set and see
      sgipCallbackHost: a.sgip_callback_host,
      sgipCallbackPort: a.sgip_callback_port,
      sgipCallbackUser: a.sgip_callback_user,
      sgipCallbackPassword: a.sgip_callback_password,
      editable: agent.user_type === UserType.Agent,
    };
  }

  /** POST /client/account/interface: the agent sets a sub-account's interface settings (forms/sub-account-interface). */
  async updateInterface(agent: Account, body: SubAccountInterfaceForm, origin: string, ports: DoorPorts) {
    const f = validateForm<SubAccountInterfaceForm>(this.ctx.schemas, 'forms/sub-account-interface', body);
    const a = await this.owned(agent, f.clientId);
    const ip = normalizeIpWhitelist(f.ip);
    await this.checkCallbackUrls(f, interfaceForm);
    const sgip = await this.sgipCallback(f);
    await this.ctx.db
      .updateTable('accounts')
      .set({
        ...sgip,
        ip,
        access_speed: f.accessSpeed,
        // empty or absent: no limit (the doors' sessionLimit)
        nodenum: f.nodenum ?? '',
        needreport: f.needreport,
        deliveryurl: f.needreport === NeedReport.SimplePush ? (f.deliveryurl ?? '') : '',
        needmo: f.needmo,
        mourl: f.needmo === NeedMo.Push ? (f.mourl ?? '') : '',
        needextend: f.needextend,
        update_time: this.ctx.now(),
      })
      .where('id', '=', a.id)
      .execute();
    return this.accountInfo(agent, a.clientid, origin, ports);
  }

  async resetPassword(agent: Account, p: SubAccountResetPasswordParams) {
    const a = await this.owned(agent, p.clientId);
    const f = validateForm<SubAccountPasswordForm>(
      this.ctx.schemas,
      'forms/sub-account-password',
      passwordResetPayload(p),
    );
    const given = f.way === 'password' ? f.password! : '';
    const email = (f.email ?? '').toLowerCase();
    const password = given || strongPassword();
    const hash = await hashPassword(password);
    await this.ctx.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('accounts')
        .set({ password_hash: hash, failed_logins: 0, update_time: this.ctx.now() })
        .where('id', '=', a.id)
        .execute();
      await trx.deleteFrom('sessions').where('account_id', '=', a.id).execute();
      await trx
        .updateTable('remember_tokens')
        .set({ revoked_at: this.ctx.now() })
        .where('account_id', '=', a.id)
        .where('revoked_at', 'is', null)
        .execute();
    });
    if (!given) {
      try {
        await this.ctx.mailer.send({
          to: email,
          subject: `${this.ctx.config.platformName}账户密码重置`,
          text: [
            '您好：',
            '',
            `您的账户 ${a.clientid} 的密码已由代理商重置，新密码为：${password}`,
            '请登录后尽快修改密码。',
            '',
            `${this.ctx.config.platformName}短信平台`,
          ].join('\n'),
        });
      } catch (err) {
        this.ctx.log.error({ err }, 'password reset mail failed');
        throw errors.refused('发送失败，请稍后再试');
      }
      return { sent: true, msg: MESSAGES.codeSent };
    }
    return { sent: false, msg: MESSAGES.passwordChanged };
  }

  async mobileAvailable(mobile: string | undefined, exceptId?: number) {
    const m = mobile ?? '';
    if (!/^1\d{10}$/.test(m)) throw new ApiError(400, reminderForm.properties.alarmMobile.errorMessage);
    let q = this.ctx.db
      .selectFrom('accounts')
      .select('id')
      .where('mobile', '=', m)
      .where('status', '<>', AccountStatus.Unactivated);
    if (exceptId) q = q.where('id', '<>', exceptId);
    if (await q.executeTakeFirst()) throw errors.refused(MESSAGES.mobileExists);
  }

  private async emailAvailable(email: string, exceptId?: number) {
    if (!email) return;
    let q = this.ctx.db
      .selectFrom('accounts')
      .select('id')
      .where(sql`lower(email)`, '=', email.toLowerCase())
      .where('status', '<>', AccountStatus.Unactivated);
    if (exceptId) q = q.where('id', '<>', exceptId);
    if (await q.executeTakeFirst()) throw errors.refused(MESSAGES.emailExists);
  }

  /**
   * The callback URLs that will be saved (push on): http(s) to public addresses only (lib/safe-url).
   * A refusal says why (无法解析, 内网地址 …) on its field, titled as the form titles it.
   */
  private async checkCallbackUrls(
    f: { needreport?: number; needmo?: number; deliveryurl?: string; mourl?: string },
    form: { properties: { deliveryurl: { title: string }; mourl: { title: string } } },
  ) {
    const check = async (field: 'deliveryurl' | 'mourl', url: string | undefined, on: boolean) => {
      const problem = on && url ? await callbackUrlProblem(url, this.ctx.resolveHost) : null;
      if (problem) {
        const message = callbackUrlMessage(problem, form.properties[field].title);
        throw new ApiError(400, message, { errors: [{ field, message }] });
      }
    };
    await check('deliveryurl', f.deliveryurl, f.needreport === NeedReport.SimplePush);
    await check('mourl', f.mourl, f.needmo === NeedMo.Push);
  }

  /**
   * The SGIP listener the SGIP door will bind back to: a host (name or address) checked like every
   * callback the server calls (lib/safe-url: public addresses only) with a port 1-65535; no host:
   * none (every field cleared).
   */
  private async sgipCallback(f: SubAccountInterfaceForm) {
    const host = (f.sgipCallbackHost ?? '').trim();
    if (!host)
      return { sgip_callback_host: '', sgip_callback_port: 0, sgip_callback_user: '', sgip_callback_password: '' };
    const props = interfaceForm.properties;
    const port = f.sgipCallbackPort ?? 0;
    if (!(port >= 1 && port <= 65535)) {
      const message = props.sgipCallbackPort.errorMessage;
      throw new ApiError(400, message, { errors: [{ field: 'sgipCallbackPort', message }] });
    }
    const problem = await callbackUrlProblem(
      `http://${host.includes(':') ? `[${host}]` : host}:${port}/`,
      this.ctx.resolveHost,
    );
    if (problem) {
      const message = callbackUrlMessage(problem, props.sgipCallbackHost.title);
      throw new ApiError(400, message, { errors: [{ field: 'sgipCallbackHost', message }] });
    }
    return {
      sgip_callback_host: host,
      sgip_callback_port: port,
      sgip_callback_user: f.sgipCallbackUser ?? '',
      sgip_callback_password: f.sgipCallbackPassword ?? '',
    };
  }

  /** POST /client/account/addUser */
  async open(agent: Account, f: OpenAccountForm) {
    if (agent.operation_mode !== OperationMode.Package) throw errors.forbidden();
    if (agent.oauth_status !== OauthStatus.Certified) throw errors.refused(MESSAGES.certifyBeforeOpening);
    await this.checkCallbackUrls(f, openAccountForm);
    const email = (f.email ?? '').toLowerCase();
    const mobile = f.mobile ?? '';
    if (mobile) await this.mobileAvailable(mobile);
    await this.emailAvailable(email);
    const password = strongPassword();
    const hash = await hashPassword(password);
    // issue 24: the SMPP interface password, generated now, handed out by its reset (docs/api-smpp.md)
    const interfaceHash = await hashInterfacePassword(newInterfacePassword());
    const ownedByAgent = f.agentOwned === AgentOwned.AgentOwned;
    for (let attempt = 0; attempt < 8; attempt++) {
      const clientid = newClientId();
      try {
        const r = await this.ctx.db
          .insertInto('accounts')
          .values({
            clientid,
            user_type: '2',
            agent_id: agent.id,
            operation_mode: agent.operation_mode,
            name: f.name,
            email,
            mobile,
            password_hash: hash,
            interface_password_hash: interfaceHash,
            status: AccountStatus.Active,
            oauth_status: ownedByAgent ? 3 : 2,
            oauth_date: ownedByAgent ? this.ctx.now() : null,
            agent_owned: ownedByAgent ? 1 : 0,
            client_type: ClientType.Enterprise,
            needreport: f.needreport,
            deliveryurl: f.needreport === NeedReport.SimplePush ? (f.deliveryurl ?? '') : '',
            needmo: f.needmo,
            mourl: f.needmo === NeedMo.Push ? (f.mourl ?? '') : '',
            id_type: ownedByAgent ? null : (f.idType ?? null),
            id_nbr: ownedByAgent ? '' : (f.idNbr ?? ''),
            img_url: ownedByAgent ? '' : (f.imgUrl ?? ''),
            remarks: f.remarks ?? '',
            create_time: this.ctx.now(),
            update_time: this.ctx.now(),
          })
          .onConflict((oc) => oc.column('clientid').doNothing())
          .returning('clientid')
          .executeTakeFirst();
        if (r) return { clientid: r.clientid, password, mobile, email };
      } catch (e) {
        if (codeOf(e) === '23505') {
          const detail = detailOf(e);
          throw errors.refused(detail.includes('mobile') ? MESSAGES.mobileExists : MESSAGES.emailExists);
        }
        throw e;
      }
    }
    throw errors.refused('开户失败，请稍后再试');
  }

  /** POST /account/updateClient with a clientid, by the sub-account's agent */
  async updateByAgent(agent: Account, body: AccountUpdateClientForm) {
    const f = validateForm<SubAccountEditForm>(this.ctx.schemas, 'forms/sub-account-edit', body);
    const a = await this.owned(agent, f.clientid);
    const email = (f.email ?? '').toLowerCase();
    const mobile = f.mobile ?? '';
    if (mobile && mobile !== a.mobile) await this.mobileAvailable(mobile, a.id);
    if (email !== a.email) await this.emailAvailable(email, a.id);
    const needreport = f.needreport ?? a.needreport;
    const needmo = f.needmo ?? a.needmo;
    await this.checkCallbackUrls({ needreport, needmo, deliveryurl: f.deliveryurl, mourl: f.mourl }, editForm);
    const set = {
      name: f.name,
      realname: f.realname ?? a.realname,
      email,
      mobile,
      address: f.address ?? a.address,
      needreport,
      needmo,
      deliveryurl: needreport === NeedReport.SimplePush ? (f.deliveryurl ?? '') : '',
      mourl: needmo === NeedMo.Push ? (f.mourl ?? '') : '',
      update_time: this.ctx.now(),
    };
    await this.ctx.db.updateTable('accounts').set(set).where('id', '=', a.id).execute();
    return this.detail(agent, a.clientid);
  }

  // ---------------------------------------------------------------- money

  async transfer(op: TransferOp, agent: Account, f: RechargeForm) {
    const sub = await this.owned(agent, f.clientId);
    if (op === 'recharge' && sub.paytype === PayType.Postpaid)
      throw errors.refused('该账户使用主账户余额计费，无需充值');
    if (op === 'recharge' && sub.test_expires_at) throw errors.refused(TEST_MSG.noRecharge);
    return this.ledger.transfer(op, agent, f);
  }

  async setPrice(agent: Account, f: SubAccountPriceForm) {
    const a = await this.owned(agent, f.clientId);
    if (f.gjSmsDiscount !== undefined && new Money(f.gjSmsDiscount).lte(0))
      throw new ApiError(400, priceForm.properties.gjSmsDiscount.errorMessage);
    const set = {
      price_type: f.priceType,
      unified_price: f.unifiedPrice ?? a.unified_price,
      mobile_price: f.mobilePrice ?? a.mobile_price,
      unicom_price: f.unicomPrice ?? a.unicom_price,
      telecom_price: f.telecomPrice ?? a.telecom_price,
      gj_sms_discount: f.gjSmsDiscount ?? a.gj_sms_discount,
      update_time: this.ctx.now(),
    };
    const remark =
      f.priceType === PriceType.Unified
        ? `统一价格 ${new Money(set.unified_price).toFixed(4)}`
        : `移动 ${new Money(set.mobile_price).toFixed(4)} 联通 ${new Money(set.unicom_price).toFixed(4)} 电信 ${new Money(set.telecom_price).toFixed(4)}`;
    await this.ctx.db.transaction().execute(async (trx) => {
      const cur = await trx
        .selectFrom('accounts')
        .select('balance')
        .where('id', '=', a.id)
        .forUpdate()
        .executeTakeFirstOrThrow();
      await trx.updateTable('accounts').set(set).where('id', '=', a.id).execute();
      // an audit row of amount 0: the ledger tells when prices changed, the sum is unchanged
      await trx
        .insertInto('ledger')
        .values({
          account_id: a.id,
          amount: '0',
          balance_after: cur.balance,
          kind: LedgerKind.PriceChange,
          operator_id: agent.id,
          remark: `${remark}，国际折扣 ${money2(set.gj_sms_discount)}%`,
          created_at: this.ctx.now(),
        })
        .execute();
    });
    const fresh = await this.ctx.db.selectFrom('accounts').selectAll().where('id', '=', a.id).executeTakeFirstOrThrow();
    return this.financeRow(fresh, agent, (await this.carrierPieces([a.id])).get(a.id));
  }

  async setReminder(agent: Account, p: SubAccountReminderParams) {
    const a = await this.owned(agent, p.clientId);
    if (a.paytype === PayType.Postpaid) throw errors.refused('该账户使用主账户余额计费，无需设置余额提醒');
    const f = validateForm<BalanceReminderForm>(this.ctx.schemas, 'forms/balance-reminder', {
      clientId: p.clientId,
      balanceAlarm: p.balanceAlarm ?? '',
      alarmMobile: p.alarmMobile ?? '',
    });
    const threshold = f.balanceAlarm;
    const mobile = f.alarmMobile ?? '';
    await this.ctx.db
      .updateTable('accounts')
      .set({ balance_alarm: threshold, alarm_mobile: mobile, update_time: this.ctx.now() })
      .where('id', '=', a.id)
      .execute();
    return { balanceAlarm: money2(threshold), alarmMobile: mobile };
  }

  /** the date's format is params/sub-account-expire's; not before today (Asia/Shanghai) is checked here */
  async setExpiration(agent: Account, p: SubAccountExpireParams) {
    const a = await this.owned(agent, p.clientId);
    const d = p.expireDate ?? '';
    if (d && d < formatDateTime(this.ctx.now()).slice(0, 10)) throw new ApiError(400, '到期日期不能早于今天');
    await this.ctx.db
      .updateTable('accounts')
      .set({ expire_date: d || null, update_time: this.ctx.now() })
      .where('id', '=', a.id)
      .execute();
    return { expireDate: d };
  }

  // ---------------------------------------------------------------- export

  async exportXlsx(agent: Account, f: SubAccountFilter | SubAccountFinanceFilter, finance = false): Promise<Buffer> {
    const fresh = await this.ctx.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', agent.id)
      .executeTakeFirstOrThrow();
    const rows = await this.filtered(agent, f, finance ? 'filters/sub-account-finance' : 'filters/sub-account')
      .selectAll()
      .orderBy('create_time', 'desc')
      .orderBy('id', 'desc')
      .limit(100_000)
      .execute();
    const wb = new ExcelJS.Workbook();
    wb.creator = this.ctx.config.platformName;
    const ws = wb.addWorksheet(finance ? '客户财务' : '子账户列表');
    const cols = (list: ExportColumn[]) => exportColumns(this.ctx.schemas.registry, 'entities/sub-account', list);
    if (finance) {
      ws.columns = cols([
        { key: 'client_id', width: 12 },
        { key: 'client_name', width: 30 },
        { key: 'paytype_str', field: 'paytype', width: 14 },
        { key: 'balance', width: 14 },
        { key: 'priceType_str', field: 'priceType', width: 10 },
        { key: 'mobilePrice', width: 12 },
        { key: 'unicomPrice', width: 12 },
        { key: 'telecomPrice', width: 12 },
        { key: 'status_str', field: 'status', width: 10 },
        { key: 'remarks', width: 30 },
      ]);
      for (const r of rows) ws.addRow(safeRow(this.financeRow(r, fresh)));
    } else {
      ws.columns = cols([
        { key: 'client_id', width: 12 },
        { key: 'client_name', width: 30 },
        { key: 'mobile', width: 14 },
        { key: 'email', width: 26 },
        { key: 'status_str', field: 'status', width: 10 },
        { key: 'oauth_status_str', field: 'oauth_status', width: 10 },
        { key: 'balance', width: 14 },
        { key: 'paytype_str', field: 'paytype', width: 14 },
        { key: 'create_time', width: 20 },
        { key: 'remarks', width: 30 },
      ]);
      for (const r of rows) ws.addRow(safeRow(this.managerRow(r)));
    }
    ws.getRow(1).font = { bold: true };
    return Buffer.from(await wb.xlsx.writeBuffer());
  }

  // ---------------------------------------------------------------- log in as

  /** A one-time token (60 s) that opens a session of the sub-account; no password involved. */
  async loginAsToken(agent: Account, clientId: string | undefined) {
    const a = await this.owned(agent, clientId);
    refuseLoginAs(a);
    const token = await issueLoginAs(this.ctx.db, a.id, { agentId: agent.id }, this.ctx.now());
    return { token, clientid: a.clientid };
  }

  /**
   * Uses the token up; answers the account to open a session for: an agent's token opens its own
   * sub-account (still its own), an operator's (POST /operator/customers/login-as) any account,
   * while the operator is still active. Either way the account must be active.
   */
  async redeemLoginAs(token: string | undefined): Promise<Account> {
    const t = token ?? '';
    if (!t) throw errors.refused(LOGIN_AS_MESSAGES.invalid);
    const now = this.ctx.now();
    const used = await this.ctx.db
      .updateTable('login_as_tokens')
      .set({ used_at: now })
      .where('id', '=', sha256hex(t))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning(['account_id', 'agent_id', 'operator_id'])
      .executeTakeFirst();
    if (!used) throw errors.refused(LOGIN_AS_MESSAGES.invalid);
    if (used.operator_id !== null) {
      const o = await this.ctx.db
        .selectFrom('operators')
        .select('status')
        .where('id', '=', used.operator_id)
        .executeTakeFirst();
      if (o?.status !== OperatorStatus.Active) throw errors.refused(LOGIN_AS_MESSAGES.invalid);
    }
    const a = await this.ctx.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', used.account_id)
      .executeTakeFirstOrThrow();
    if (a.status !== AccountStatus.Active) throw errors.refused(LOGIN_AS_MESSAGES.abnormal);
    // an agent's token: its own sub-account only
    if (used.operator_id === null && (used.agent_id === null || a.agent_id !== used.agent_id))
      throw errors.refused(LOGIN_AS_MESSAGES.abnormal);
    return a;
  }

  /** the caller's own balance and recent ledger (a sub-account's finance view) */
  async ownLedger(account: Account) {
    const me = await this.ctx.db
      .selectFrom('accounts')
      .select(['balance', 'clientid', 'name', 'paytype'])
      .where('id', '=', account.id)
      .executeTakeFirstOrThrow();
    const rows = await this.ledger.entries(account.id, 50);
    return {
      clientid: me.clientid,
      name: me.name,
      balance: money2(me.balance),
      paytype: me.paytype,
      paytype_str: this.label('paytype', me.paytype),
      list: rows
        .filter((r) => r.kind !== LedgerKind.PriceChange)
        .map((r) => ({
          id: r.id,
          amount: money2(r.amount),
          balance_after: money2(r.balance_after),
          kind: r.kind,
          kind_str: this.label('bill-payment-type', r.kind),
          remark: r.remark,
          created_at: formatDateTime(r.created_at),
        })),
    };
  }
}

export const LOGIN_AS_MESSAGES = {
  frozen: '账户已冻结，请先解冻',
  abnormal: '账户状态异常，无法登录',
  invalid: '登录凭证无效或已过期',
} as const;

/** how long a log-in-as token may be redeemed */
export const LOGIN_AS_TTL_MS = 60_000;

/** Why an account may not be logged in as (frozen, or not active), if it may not. */
export function refuseLoginAs(a: Pick<Account, 'status'>): void {
  if (a.status === AccountStatus.Frozen) throw errors.refused(LOGIN_AS_MESSAGES.frozen);
  if (a.status !== AccountStatus.Active) throw errors.refused(LOGIN_AS_MESSAGES.abnormal);
}

/**
 * Writes a one-time log-in-as token of the account (its SHA-256 only), issued by an agent (its
 * sub-account) or an operator (any account: the caller writes the audit row in the same
 * transaction); answers the token, redeemed by POST /client/loginAs/enter within LOGIN_AS_TTL_MS.
 */
export async function issueLoginAs(
  db: Kysely<Database> | Transaction<Database>,
  accountId: number,
  by: { agentId: number; operatorId?: undefined } | { operatorId: number; agentId?: undefined },
  now: Date,
): Promise<string> {
  const token = randomToken();
  await db
    .insertInto('login_as_tokens')
    .values({
      id: sha256hex(token),
      account_id: accountId,
      agent_id: by.agentId ?? null,
      operator_id: by.operatorId ?? null,
      expires_at: addMs(now, LOGIN_AS_TTL_MS),
      created_at: now,
    })
    .execute();
  return token;
}

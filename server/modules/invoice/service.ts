/**
 * Invoices (发票申请, docs/api-invoice.md): applications, the invoiceable amount, the list, detail,
 * cancel, the saved invoice information per type, and the operator's status changes.
 *
 * The invoiceable amount (canAmount) of an account is
 *   paid in  = signed sum of the account's ledger rows of the pay-in kinds: 0 充值 and 11 在线充值,
 *              and for a sub-account also 12 子账户充值 / 13 子账户回退 (its agent's recharges minus
 *              rollbacks: the money it paid its agent) — except the credits of sandbox pay orders
 *              (pay_orders.sandbox: no money was paid, so nothing to invoice);
 *   held     = sum of its invoices in status 0 待审核, 3 开票中, 4 已邮寄
 *              (1 已取消, 2 审核不通过 and 5 已退回 give their amount back);
 *   canAmount = max(0, paid in − held).
 * An application locks the account row (SELECT … FOR UPDATE, the same row every ledger write
 * locks) before it reads both sums and inserts, in one transaction: two applications of one account
 * serialise, and a recharge committing meanwhile is seen; canAmount can never be exceeded.
 *
 * On behalf of a sub-account: an agent may name one of its own sub-accounts (`clientId`; another
 * account answers 403 无权访问). The invoice is then the sub-account's (`account_id`: its canAmount,
 * its lock, its saved information) and the agent its applicant (`applicant_id`). A sub-account
 * never chooses (its `clientId` is ignored). Each account sees and cancels the invoices it owns or
 * applied for.
 */
import fs from 'node:fs';
import { sql, type ExpressionBuilder, type Selectable, type Transaction } from 'kysely';
import type { AppContext } from '../../context';
import type { Db } from '../../db';
import type { Account, Database } from '../../db/types';
import { ApiError, errors } from '../../http/errors';
import { dataPage, pagingOf } from '../../http/paging';
import { pageOf } from '../../db/page';
import { formatDateTime } from '../../lib/time';
import { Money, money2 } from '../../lib/money';
import {
  BillPaymentType,
  InvoiceBody,
  InvoiceStatus,
  InvoiceType,
  UserType,
  type Invoice,
  type InvoiceCancelParams,
  type InvoiceDetailParams,
  type InvoiceFilter,
  type InvoiceForm,
} from '../../../common/generated/schemas';
import { whereFrom } from '../../db/filters';
import type { PageRows } from '../../http/contract';
import invoiceForm from '../../../schemas/forms/invoice.json';
import type { ClientsService } from '../clients';
import statusEnum from '../../../schemas/enums/invoice-status.json';

/** forms/invoice.json x-messages */
export const INVOICE_MESSAGES = invoiceForm['x-messages'];
const X = INVOICE_MESSAGES;

/** ledger kinds that count as money paid in (see the file comment) */
export const PAID_IN_KINDS = {
  agent: [BillPaymentType.Recharge, BillPaymentType.OnlineRecharge],
  subAccount: [
    BillPaymentType.Recharge,
    BillPaymentType.OnlineRecharge,
    BillPaymentType.SubAccountRecharge,
    BillPaymentType.SubAccountRollback,
  ],
};
/** statuses whose amount stays taken from canAmount */
export const HELD_STATUSES: number[] = [InvoiceStatus.Pending, InvoiceStatus.Issuing, InvoiceStatus.Mailed];

/**
 * The operator's transitions (CLI `invoice-status`): 0 → 2 (reject, reason required) or 3 (accept,
 * issuing); 3 → 2 (reject) or 4 (issued: mailed / e-mailed; a VAT invoice needs the express company
 * and number); 4 → 5 (returned, optional reason). 0 → 1 is the applicant's own cancel.
 */
export const TRANSITIONS: Record<number, InvoiceStatus[]> = {
  [InvoiceStatus.Pending]: [InvoiceStatus.Rejected, InvoiceStatus.Issuing],
  [InvoiceStatus.Issuing]: [InvoiceStatus.Rejected, InvoiceStatus.Mailed],
  [InvoiceStatus.Mailed]: [InvoiceStatus.Returned],
};

const STATUS_LABELS = new Map<number, string>(statusEnum.oneOf.map((o) => [o.const, o.title]));

type Tx = Transaction<Database>;
type InvoiceRow = Selectable<Database['invoices']>;

/** The province/city/district tree (common/generated/city.json, scripts/gen-city.ts). */
export const CITY_FILE = new URL('../../../common/generated/city.json', import.meta.url);
let cityText: string | undefined;
let regionPaths: Set<string> | undefined;
export function cityJson(): string {
  cityText ??= fs.readFileSync(CITY_FILE, 'utf8');
  return cityText;
}
/** Whether 'province/city[/district]' names a leaf of the division tree. */
export function isKnownRegion(addr: string): boolean {
  if (!regionPaths) {
    const set = new Set<string>();
    const walk = (nodes: { value: string; children?: unknown[] }[], prefix: string) => {
      for (const n of nodes) {
        const p = prefix ? `${prefix}/${n.value}` : n.value;
        if (n.children?.length) walk(n.children as { value: string; children?: unknown[] }[], p);
        else set.add(p);
      }
    };
    walk(JSON.parse(cityJson()), '');
    regionPaths = set;
  }
  return regionPaths.has(addr);
}

/** The form as the route got it: forms/invoice.json validated (trimmed). */
export type InvoiceInput = InvoiceForm;

/**
 * The request body prepared for forms/invoice.json: a sub-account's invoice type is always 1, and
 * it chooses no account (its clientId is dropped: it applies for itself).
 */
export function invoicePayload(me: Account, body: unknown): Record<string, unknown> {
  const raw: Record<string, unknown> = body && typeof body === 'object' && !Array.isArray(body) ? { ...body } : {};
  if (me.user_type !== UserType.Agent) {
    raw.invoiceType = InvoiceType.ElectronicNormal;
    delete raw.clientId;
  }
  return raw;
}

/** The account an invoice is for: the caller, or the agent's chosen sub-account. */
export type InvoiceAccount = Pick<Account, 'id' | 'user_type' | 'clientid' | 'name'>;

/** The information columns of a valid form, keeping only the fields of its type and body. */
function infoColumns(f: InvoiceInput) {
  const vat = f.invoiceType === InvoiceType.ElectronicVatSpecial;
  const enterprise = f.invoiceBody === InvoiceBody.Enterprise;
  const s = (v: string | undefined) => (v ?? '').trim();
  return {
    invoice_body: f.invoiceBody,
    invoice_head: s(f.invoiceHead),
    credit_code: enterprise ? s(f.creditCode) : '',
    email: vat ? '' : s(f.email),
    to_phone: s(f.toPhone),
    company_reg_addr: vat ? s(f.companyRegAddr) : '',
    bank: vat ? s(f.bank) : '',
    bank_account: vat ? s(f.bankAccount) : '',
    telphone: vat ? s(f.telphone) : '',
    to_name: vat ? s(f.toName) : '',
    to_addr: vat ? s(f.toAddr) : '',
    to_addr_detail: vat ? s(f.toAddrDetail) : '',
  };
}

type InfoColumns = ReturnType<typeof infoColumns>;

/** Saved information (a config row) as the form's fields. */
function infoFields(r: Partial<Omit<InfoColumns, 'invoice_body'>> & { invoice_body?: number; invoice_type?: number }) {
  return {
    invoiceType: r.invoice_type,
    invoiceBody: r.invoice_body,
    invoiceHead: r.invoice_head ?? '',
    creditCode: r.credit_code ?? '',
    email: r.email ?? '',
    toPhone: r.to_phone ?? '',
    companyRegAddr: r.company_reg_addr ?? '',
    bank: r.bank ?? '',
    bankAccount: r.bank_account ?? '',
    telphone: r.telphone ?? '',
    toName: r.to_name ?? '',
    toAddr: r.to_addr ?? '',
    toAddrDetail: r.to_addr_detail ?? '',
  };
}

/** An account as the lists show it: `clientid-name` (the clientid alone without a name). */
const accountStr = (clientid: string, name: string | null | undefined) => (name ? `${clientid}-${name}` : clientid);

const fieldError = (field: string, message: string) => new ApiError(400, message, { errors: [{ field, message }] });

/** The invoiceable amount of an account, read with `db` (inside a transaction after the lock). */
export async function canAmountOf(db: Db | Tx, account: Pick<Account, 'id' | 'user_type'>): Promise<string> {
  const kinds = account.user_type === UserType.Agent ? PAID_IN_KINDS.agent : PAID_IN_KINDS.subAccount;
  const r = await sql<{ paid: string; held: string }>`
    select
      (select coalesce(sum(amount), 0)::text from ledger l where l.account_id = ${account.id} and l.kind in (${sql.join(kinds)})
        and not exists (select 1 from pay_orders p where p.ledger_id = l.id and p.sandbox)) as paid,
      (select coalesce(sum(invoice_amount), 0)::text from invoices where account_id = ${account.id} and status in (${sql.join(HELD_STATUSES)})) as held`.execute(
    db,
  );
  const can = new Money(r.rows[0].paid).minus(r.rows[0].held);
  return money2(can.lt(0) ? 0 : can);
}

export class InvoiceService {
  constructor(
    private readonly ctx: Pick<AppContext, 'db' | 'now' | 'schemas'>,
    private readonly clients: Pick<ClientsService, 'ownSubAccount'>,
  ) {}

  private statusLabel(s: number): string {
    return this.ctx.schemas.registry.enumLabel('invoice-status', s) ?? STATUS_LABELS.get(s) ?? String(s);
  }

  /**
   * The account an invoice (or the amount and information asked for) is for: the caller, or, for an
   * agent naming one, its own sub-account (any other: 403 无权访问). A sub-account's clientId is
   * ignored: it applies for itself.
   */
  async accountFor(me: Account, clientId: string | undefined): Promise<InvoiceAccount> {
    const id = (clientId ?? '').trim();
    if (!id || id === me.clientid || me.user_type !== UserType.Agent) return me;
    const sub = await this.clients.ownSubAccount(me, id);
    if (!sub) throw errors.forbidden();
    return { ...sub, user_type: UserType.SubAccount };
  }

  async canAmount(me: Account, clientId?: string): Promise<string> {
    return canAmountOf(this.ctx.db, await this.accountFor(me, clientId));
  }

  /** The saved information of one invoice type (empty fields when none was saved yet). */
  async config(me: Account, type: number, clientId?: string) {
    return this.configOf(await this.accountFor(me, clientId), type);
  }

  private async configOf(owner: InvoiceAccount, type: number) {
    const r = await this.ctx.db
      .selectFrom('invoice_configs')
      .selectAll()
      .where('account_id', '=', owner.id)
      .where('invoice_type', '=', type)
      .executeTakeFirst();
    return infoFields(
      r ?? {
        invoice_type: type,
        invoice_body: type === InvoiceType.ElectronicVatSpecial ? InvoiceBody.Enterprise : undefined,
      },
    );
  }

  /** /invoice/initInvoice: what the application page needs at once (for the chosen account). */
  async init(me: Account, clientId?: string) {
    const owner = await this.accountFor(me, clientId);
    const [canAmount, ordinary, vat] = await Promise.all([
      canAmountOf(this.ctx.db, owner),
      this.configOf(owner, InvoiceType.ElectronicNormal),
      this.configOf(owner, InvoiceType.ElectronicVatSpecial),
    ]);
    const agent = me.user_type === UserType.Agent;
    return {
      clientId: owner.clientid,
      accountStr: accountStr(owner.clientid, owner.name),
      canAmount,
      invoiceProject: X.invoiceProject,
      canChooseType: agent,
      canChooseAccount: agent,
      invoiceTypes: agent
        ? [InvoiceType.ElectronicNormal, InvoiceType.ElectronicVatSpecial]
        : [InvoiceType.ElectronicNormal],
      ordinary,
      addedTax: vat,
    };
  }

  /** The checks beyond the form schema that need no lock (the region); `check` adds canAmount. */
  private checkRegion(f: InvoiceInput) {
    if (f.invoiceType === InvoiceType.ElectronicVatSpecial && f.toAddr && !isKnownRegion(f.toAddr))
      throw fieldError('toAddr', X.badRegion);
  }

  private overAmount(can: string) {
    return fieldError('invoiceAmount', `${X.overAmount}（可开票金额 ${can} 元）`);
  }

  /** /invoice/checkObject: the whole check of an application without saving it. */
  async check(me: Account, f: InvoiceInput): Promise<{ canAmount: string }> {
    const owner = await this.accountFor(me, f.clientId);
    this.checkRegion(f);
    const can = await canAmountOf(this.ctx.db, owner);
    if (new Money(f.invoiceAmount).gt(can)) throw this.overAmount(can);
    return { canAmount: can };
  }

  /**
   * /invoice/add: one application of the caller or, by an agent, of one of its sub-accounts; the
   * amount is checked against that account's canAmount under that account's lock.
   */
  async apply(me: Account, f: InvoiceInput): Promise<Invoice> {
    const owner = await this.accountFor(me, f.clientId);
    this.checkRegion(f);
    const amount = new Money(f.invoiceAmount);
    const info = infoColumns(f);
    const now = this.ctx.now();
    const row = await this.ctx.db.transaction().execute(async (trx) => {
      await trx.selectFrom('accounts').select('id').where('id', '=', owner.id).forUpdate().executeTakeFirstOrThrow();
      const can = await canAmountOf(trx, owner);
      if (amount.gt(can)) throw this.overAmount(can);
      const ins = await trx
        .insertInto('invoices')
        .values({
          // a unique placeholder, replaced by the number made of the id just below
          invoice_no: `tmp-${owner.id}-${now.getTime()}-${Math.random().toString(36).slice(2)}`,
          account_id: owner.id,
          applicant_id: me.id,
          invoice_type: f.invoiceType,
          invoice_amount: money2(amount),
          invoice_project: X.invoiceProject,
          ...info,
          remark: (f.remark ?? '').trim(),
          status: InvoiceStatus.Pending,
          create_time: now,
          update_time: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const no = `FP${formatDateTime(now).slice(0, 10).replaceAll('-', '')}${String(ins.id).padStart(6, '0')}`;
      await trx.updateTable('invoices').set({ invoice_no: no }).where('id', '=', ins.id).execute();
      await trx
        .insertInto('invoice_configs')
        .values({ account_id: owner.id, invoice_type: f.invoiceType, ...info, update_time: now })
        .onConflict((oc) => oc.columns(['account_id', 'invoice_type']).doUpdateSet({ ...info, update_time: now }))
        .execute();
      return this.rowsQuery(trx).where('i.id', '=', ins.id).executeTakeFirstOrThrow();
    });
    return this.toRow(row);
  }

  private rowsQuery(db: Db | Tx) {
    return db
      .selectFrom('invoices as i')
      .innerJoin('accounts as a', 'a.id', 'i.applicant_id')
      .innerJoin('accounts as o', 'o.id', 'i.account_id')
      .selectAll('i')
      .select([
        'a.clientid as applicant_clientid',
        'a.name as applicant_name',
        'o.clientid as account_clientid',
        'o.name as account_name',
      ]);
  }

  /** the rows an account reaches: the invoices it owns, and those it applied for (an agent, for its sub-accounts) */
  private mine(me: Account) {
    return (eb: ExpressionBuilder<Database & { i: Database['invoices'] }, 'i'>) =>
      eb.or([eb('i.account_id', '=', me.id), eb('i.applicant_id', '=', me.id)]);
  }

  private toRow(
    r: InvoiceRow & {
      applicant_clientid: string;
      applicant_name: string;
      account_clientid: string;
      account_name: string;
    },
    rowNum?: number,
  ): Invoice {
    const amount = money2(r.invoice_amount);
    return {
      ...(rowNum ? { rowNum } : {}),
      id: r.id,
      invoiceId: r.invoice_no,
      invoiceAmount: amount,
      invoiceAmountStr: amount,
      invoiceProject: r.invoice_project,
      ...infoFields(r),
      remark: r.remark,
      clientId: r.account_clientid,
      accountStr: accountStr(r.account_clientid, r.account_name),
      applicantStr: accountStr(r.applicant_clientid, r.applicant_name),
      createTimeStr: formatDateTime(r.create_time),
      status: r.status,
      statusStr: this.statusLabel(r.status),
      updateTime: new Date(r.update_time).getTime(),
      updateTimeStr: formatDateTime(r.update_time),
      auditFailCause: r.audit_fail_cause,
      expressCompanyStr: r.express_company,
      expressOrder: r.express_order,
    } as Invoice;
  }

  /** /invoice/invoiceList: the account's applications (owned or applied for), newest first (page + rows). */
  async list(me: Account, f: InvoiceFilter & PageRows) {
    const paging = pagingOf(f);
    const q = whereFrom(this.rowsQuery(this.ctx.db).where(this.mine(me)), this.ctx, 'filters/invoice', f);
    const { rows, total } = await pageOf(
      q.clearSelect(),
      () => q.orderBy('i.create_time', 'desc').orderBy('i.id', 'desc'),
      paging,
    );
    return dataPage(
      rows.map((r, i) => this.toRow(r, paging.offset + i + 1)),
      total,
      paging,
    );
  }

  /** /invoice/invoiceDetailed: one of the account's applications (id, and invoiceType when given). */
  async detail(me: Account, p: InvoiceDetailParams): Promise<Invoice> {
    let q = this.rowsQuery(this.ctx.db).where('i.id', '=', p.id).where(this.mine(me));
    if (p.invoiceType !== undefined) q = q.where('i.invoice_type', '=', p.invoiceType);
    const r = await q.executeTakeFirst();
    if (!r) throw new ApiError(404, X.notFound);
    return this.toRow(r);
  }

  /**
   * /invoice/invoiceCancelApply: the owner or the applicant cancels an application still at status
   * 0. The posted status must be 0 and updateTime the row's current one (a changed row is refused).
   */
  async cancel(me: Account, p: InvoiceCancelParams): Promise<Invoice> {
    if (p.status !== InvoiceStatus.Pending) throw new ApiError(500, X.cannotCancel);
    const now = this.ctx.now();
    const done = await this.ctx.db
      .updateTable('invoices')
      .set({ status: InvoiceStatus.Cancelled, update_time: now })
      .where('id', '=', p.id)
      .where((eb) => eb.or([eb('account_id', '=', me.id), eb('applicant_id', '=', me.id)]))
      .where('invoice_no', '=', p.invoiceId)
      .where('status', '=', InvoiceStatus.Pending)
      .where('update_time', '=', new Date(p.updateTime))
      .returning('id')
      .executeTakeFirst();
    if (!done) {
      const cur = await this.ctx.db
        .selectFrom('invoices')
        .select(['status', 'update_time'])
        .where('id', '=', p.id)
        .where((eb) => eb.or([eb('account_id', '=', me.id), eb('applicant_id', '=', me.id)]))
        .where('invoice_no', '=', p.invoiceId)
        .executeTakeFirst();
      if (!cur) throw new ApiError(404, X.notFound);
      if (cur.status !== InvoiceStatus.Pending) throw new ApiError(500, X.cannotCancel);
      throw new ApiError(500, X.stale);
    }
    return this.detail(me, { id: p.id });
  }
}

/** A refused operator status change. */
export class InvoiceStatusError extends Error {}

/** The operator's status change (CLI invoice-status), along TRANSITIONS. */
export async function setInvoiceStatus(
  ctx: { db: Db; now: () => Date },
  id: number,
  to: InvoiceStatus,
  opts: { reason?: string; expressCompany?: string; expressNo?: string; by?: string } = {},
): Promise<{ from: number; to: number; invoiceNo: string }> {
  const cur = await ctx.db
    .selectFrom('invoices')
    .select(['id', 'status', 'invoice_type', 'invoice_no', 'update_time'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!cur) throw new InvoiceStatusError(`发票 ${id} 不存在`);
  const label = (s: number) => `${s} ${STATUS_LABELS.get(s) ?? ''}`.trim();
  if (!(TRANSITIONS[cur.status] ?? []).includes(to)) {
    const allowed = (TRANSITIONS[cur.status] ?? []).map(label).join('、') || '无';
    throw new InvoiceStatusError(`发票 ${id} 当前为 ${label(cur.status)}，不能改为 ${label(to)}（可改为：${allowed}）`);
  }
  const reason = (opts.reason ?? '').trim();
  const company = (opts.expressCompany ?? '').trim();
  const no = (opts.expressNo ?? '').trim();
  if (to === InvoiceStatus.Rejected && !reason) throw new InvoiceStatusError('审核不通过须填写原因（--reason）');
  if (reason.length > 200) throw new InvoiceStatusError('原因不能超过200个字符');
  if (to === InvoiceStatus.Mailed && cur.invoice_type === InvoiceType.ElectronicVatSpecial && (!company || !no)) {
    throw new InvoiceStatusError('增值税专用发票邮寄须填写快递公司和快递单号（--express-company、--express-no）');
  }
  if (company.length > 50 || no.length > 50) throw new InvoiceStatusError('快递公司和快递单号不能超过50个字符');
  const set: Record<string, unknown> = { status: to, update_time: ctx.now(), reviewed_by: opts.by ?? '' };
  if (to === InvoiceStatus.Rejected || to === InvoiceStatus.Returned) set.audit_fail_cause = reason;
  if (to === InvoiceStatus.Mailed) Object.assign(set, { express_company: company, express_order: no });
  const r = await ctx.db
    .updateTable('invoices')
    .set(set)
    .where('id', '=', id)
    .where('status', '=', cur.status)
    .returning('id')
    .executeTakeFirst();
  if (!r) throw new InvoiceStatusError(`发票 ${id} 的状态刚被修改，请重新查看后再试`);
  return { from: cur.status, to, invoiceNo: cur.invoice_no };
}

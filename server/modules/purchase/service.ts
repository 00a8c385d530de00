/**
 * Purchase of SMS packages (operation_mode 1) and the bills that read it. Rules: docs/api-purchase.md.
 *
 * - A line costs ⌈num × unit_price × discount / 100⌉ to the cent (rounded up, never in the buyer's
 *   favour: one piece at 0.0437 costs 0.05, not 0.04; docs/api-purchase.md "Rounding"); the discount is the buyer's
 *   hy_sms_discount (行业, 验证码, 通知), yx_sms_discount (营销) or gj_sms_discount (国际), in percent.
 * - The order's total is the sum of its lines. When the total is more than 10 yuan, the usable
 *   rebate pays first: rebate = min(rebate_useable, total); the rest is paid from the balance.
 * - One transaction: the buyer's account row is locked (ledger order), the balance is checked on
 *   the locked row (LedgerService.applyIn, kind 3 购买套餐), then the rebate row, one product pool
 *   per line (+ its pool_movements row, kind 3) and the SMS bill lines are written. Not enough
 *   balance: nothing is written. A requestId makes a submit idempotent (purchase_orders); the same
 *   requestId with other lines (product or quantity) is refused, never answered with the first order.
 */
import { TEST_MSG, type ClientsService, type ScopedAccount } from '../clients';
import { randomInt } from 'node:crypto';
import { sql, type SqlBool, type Transaction } from 'kysely';
import type { AppContext } from '../../context';
import type { Account, Database } from '../../db/types';
import { ApiError, errors } from '../../http/errors';
import { listPage, pagingOf } from '../../http/paging';
import type { CurrentPaging } from '../../http/contract';
import { escapeLike, whereFrom } from '../../db/filters';
import { formatDateTime } from '../../lib/time';
import { LedgerService } from '../ledger';
import { Money, money2, yuanText, type MoneyValue } from '../../lib/money';
import { poolFigure, poolText, poolUnitsBought } from '../billing';
import type {
  DirectPurchaseRecordFilter,
  PoolFilter,
  ProductListParams,
  PurchaseRecordFilter,
  RebateBillFilter,
  SmsBillFilter,
} from '../../../common/generated/schemas';
import {
  BillPaymentType,
  OauthStatus,
  OperationMode,
  ProductState,
  ProductType,
  RebateType,
  SmsBillOrderType,
  UserType,
} from '../../../common/generated/schemas';
import { MESSAGES } from '../../../common/schema/messages';
import purchaseForm from '../../../schemas/forms/purchase.json';
import { isUniqueViolation } from '../../lib/error-code';

type Tx = Transaction<Database>;

export const PURCHASE_MSG = purchaseForm['x-messages'];
/** the total above which the usable rebate pays first (spec §5 "Buy SMS") */
export const REBATE_THRESHOLD = '10';
/** lines per order */
export const MAX_LINES = 50;
/** a pool is "about to expire" (dead 0) within this many days */
export const EXPIRING_DAYS = 7;
const DAY = 86_400_000;

export interface OrderLine {
  /** as sent (a number or digits; anything else is refused with the form's message) */
  productId: number | string;
  num: string;
}

export interface PurchaseResult {
  orderId: string;
  total: string;
  rebate: string;
  paid: string;
  balance: string;
  rebateUseable: string;
  lines: {
    productId: number;
    productName: string;
    num: number;
    unitPrice: string;
    discount: string;
    amount: string;
    poolId: number;
    dueTime: string;
  }[];
}

const dateOnly = (d: Date | null | undefined) => formatDateTime(d ?? null).slice(0, 10);
const like = (s: string) => `%${escapeLike(s)}%`;

// ---- what the filter schemas cannot say (the rest is x-column / x-op, read by whereFrom)

/** one of these columns contains the text (ILIKE; `exact` columns by LIKE, case kept) */
const containsAny = (text: string, columns: string[], exact: string[] = []) =>
  sql<SqlBool>`(${sql.join([...exact.map((c) => sql`${sql.ref(c)} like ${like(text)}`), ...columns.map((c) => sql`${sql.ref(c)} ilike ${like(text)}`)], sql` or `)})`;
/** filters/product.json keyword: the product's name or code contains it */
const keywordMatch = (kw: string) => containsAny(kw, ['product_name', 'product_code']);
/** filters/sms-bill.json orderInfo: the order id, the product's name, the account or its name contains it */
const orderInfoMatch = (info: string) => containsAny(info, ['o.product_name', 'a.clientid', 'a.name'], ['o.order_id']);
/** filters/purchase-record.json, direct-purchase-record.json realname: the account's real name or name contains it */
const realnameMatch = (rn: string) => containsAny(rn, ['a.realname', 'a.name']);

/** The discount (percent) of an account for a product type. */
export function discountFor(
  a: Pick<Account, 'hy_sms_discount' | 'yx_sms_discount' | 'gj_sms_discount'>,
  productType: number,
): string {
  if (productType === ProductType.Marketing) return a.yx_sms_discount;
  if (productType === ProductType.International) return a.gj_sms_discount;
  return a.hy_sms_discount;
}

/** ⌈num × unit × discount / 100⌉ to the cent: a fraction of a cent is charged as a cent (see the file comment) */
export const lineAmount = (num: number | string, unit: string, discount: string): MoneyValue =>
  new Money(num).times(unit).times(discount).div(100).toDecimalPlaces(2, Money.ROUND_UP);

/** A package product's size as shown: '10,000条', '100.00元' (international: yuan). */
export const packText = (p: { product_type: number; pack_size: number | null }) =>
  p.pack_size ? poolText(p.product_type, p.pack_size) : '';

/** The message for a quantity that is not a whole number of packages (products.pack_size, 0038), or undefined. */
export function packError(p: { product_type: number; pack_size: number | null }, num: number): string | undefined {
  if (!p.pack_size || num % p.pack_size === 0) return undefined;
  return PURCHASE_MSG.packMultiple.replaceAll('{size}', packText(p));
}

/** the lines of a purchase as a comparable key: product:quantity, sorted (a requestId's fingerprint) */
const linesKey = (lines: { productId: number | string; num: number | string }[]) =>
  lines
    .map((l) => `${Number(l.productId)}:${Number(l.num)}`)
    .sort()
    .join(',');

/** unit × discount / 100 to 4 decimals (the displayed discounted unit price) */
export const discounted = (unit: string, discount: string) =>
  new Money(unit).times(discount).div(100).toDecimalPlaces(4, Money.ROUND_HALF_UP).toFixed(4);

export class PurchaseService {
  constructor(
    private readonly ctx: AppContext,
    private readonly clients: ClientsService,
  ) {}

  private label(enumName: string, v: unknown): string {
    return this.ctx.schemas.registry.enumLabel(enumName, v) ?? '';
  }

  /** The first message of the purchase form's rules for one line, or undefined. */
  lineError(productId: unknown, num: unknown): string | undefined {
    const validate = this.ctx.schemas.validator('forms/purchase');
    const value = {
      product_id: typeof productId === 'string' && /^[0-9]{1,10}$/.test(productId) ? Number(productId) : productId,
      num: typeof num === 'number' ? String(num) : (num ?? ''),
    };
    if (validate(value)) return undefined;
    const errs = validate.errors ?? [];
    // the quantity's message first: the row's own rule
    const numErr = errs.find((e) => e.instancePath === '/num');
    return numErr?.message ?? errs[0]?.message ?? PURCHASE_MSG.noSelection;
  }

  private async account(id: number): Promise<Account> {
    return this.ctx.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  /** POST /sms/products: the catalogue on sale with the session's discounted prices. */
  async products(me: Account, b: ProductListParams & CurrentPaging) {
    const acc = await this.account(me.id);
    const paging = pagingOf(b, 15);
    let q = whereFrom(
      this.ctx.db.selectFrom('products').where('state', '=', ProductState.OnSale),
      this.ctx,
      'params/product-list',
      b,
    );
    if (b.keyword) q = q.where(keywordMatch(b.keyword));
    const { n } = await q.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
    const rows = await q.selectAll().orderBy('sort').orderBy('id').limit(paging.size).offset(paging.offset).execute();
    const list = rows.map((p) => {
      const discount = money2(discountFor(acc, p.product_type));
      return {
        product_id: p.id,
        product_name: p.product_name,
        product_code: p.product_code,
        product_type: p.product_type,
        product_type_name: this.label('product-type', p.product_type),
        productTypeStr: this.label('product-type', p.product_type),
        operator_code: p.operator_code,
        operatorCodeStr: this.label('carrier', p.operator_code),
        areaCodeStr: p.area_name,
        unit_price: new Money(p.unit_price).toFixed(4),
        unitPriceStr: new Money(p.unit_price).toFixed(4),
        discount,
        discountPriceStr: discounted(p.unit_price, discount),
        dueTimeStr: `${p.valid_days}天`,
        valid_days: p.valid_days,
        ...(p.pack_size ? { pack_size: p.pack_size, packSizeStr: packText(p) } : {}),
        creator: p.creator,
      };
    });
    return {
      ...listPage(list, Number(n), paging),
      hy_sms_discount: money2(acc.hy_sms_discount),
      yx_sms_discount: money2(acc.yx_sms_discount),
      gj_sms_discount: money2(acc.gj_sms_discount),
      rebate_useable: money2(acc.rebate_useable),
      rebate_threshold: REBATE_THRESHOLD,
      balance: money2(acc.balance),
    };
  }

  /**
   * POST /sms/order/add and /sms/order/jsmsAdd: buys the lines (contract above). Refuses, writing
   * nothing: no line, a line breaking the quantity rules (a package product: a whole number of
   * packages), an unknown or withdrawn product, an
   * uncertified or non-package account, not enough balance.
   */
  async purchase(
    me: Account,
    lines: OrderLine[],
    requestIdRaw?: unknown,
    opts: { useRebate?: boolean } = {},
  ): Promise<PurchaseResult> {
    if (me.test_expires_at) throw errors.refused(TEST_MSG.noPurchase);
    if (!lines.length) throw new ApiError(400, PURCHASE_MSG.noSelection);
    if (lines.length > MAX_LINES) throw new ApiError(400, `一次最多购买 ${MAX_LINES} 种产品`);
    for (const l of lines) {
      const e = this.lineError(l.productId, l.num);
      if (e) throw new ApiError(400, e);
    }
    const acc = await this.account(me.id);
    if (acc.operation_mode !== OperationMode.Package) throw errors.forbidden();
    if (acc.oauth_status !== OauthStatus.Certified) throw errors.refused(PURCHASE_MSG.certify);
    const requestId = typeof requestIdRaw === 'string' && requestIdRaw.trim() ? requestIdRaw.trim().slice(0, 64) : null;

    const replay = async (): Promise<PurchaseResult | null> => {
      if (!requestId) return null;
      const prev = await this.ctx.db
        .selectFrom('purchase_orders')
        .select('result')
        .where('account_id', '=', me.id)
        .where('request_id', '=', requestId)
        .executeTakeFirst();
      if (!prev) return null;
      const result: PurchaseResult = typeof prev.result === 'string' ? JSON.parse(prev.result) : prev.result;
      // a retry is the same request; the same id with other lines is a mistake (or a probe): refused
      if (linesKey(result.lines) !== linesKey(lines)) throw new ApiError(409, MESSAGES.purchaseRequestReused);
      return result;
    };
    const first = await replay();
    if (first) return first;

    const ids = [...new Set(lines.map((l) => Number(l.productId)))];
    const products = new Map(
      (
        await this.ctx.db
          .selectFrom('products')
          .selectAll()
          .where('id', 'in', ids)
          .where('state', '=', ProductState.OnSale)
          .execute()
      ).map((p) => [p.id, p]),
    );
    for (const id of ids) if (!products.has(id)) throw errors.notFound('产品');
    for (const l of lines) {
      const e = packError(products.get(Number(l.productId))!, Number(l.num));
      if (e) throw new ApiError(400, e);
    }

    try {
      return await this.ctx.db.transaction().execute(async (trx) => {
        const now = this.ctx.now();
        // the buyer's row first (the ledger's lock order: one account)
        const locked = await trx
          .selectFrom('accounts')
          .selectAll()
          .where('id', '=', me.id)
          .forUpdate()
          .executeTakeFirstOrThrow();
        const priced = lines.map((l) => {
          const p = products.get(Number(l.productId))!;
          const discount = money2(discountFor(locked, p.product_type));
          return { p, num: Number(l.num), discount, amount: lineAmount(l.num, p.unit_price, discount) };
        });
        const total = priced.reduce((s, x) => s.plus(x.amount), new Money(0));
        const rebateBefore = new Money(locked.rebate_useable);
        // the buyer chooses (useRebate, default yes) whether the usable rebate pays first
        const rebate =
          opts.useRebate !== false && total.gt(REBATE_THRESHOLD) ? Money.min(rebateBefore, total) : new Money(0);
        const paid = total.minus(rebate);
        const orderId = await this.newOrderId(trx, now);
        const ledger = new LedgerService({ db: trx, now: this.ctx.now });
        const r = await ledger.applyIn(trx, [
          {
            accountId: me.id,
            amount: paid.neg(),
            kind: BillPaymentType.PackagePurchase,
            operatorId: me.id,
            remark: `购买短信 订单${orderId}`,
          },
        ]);
        if (!r.ok)
          throw errors.refused(`余额不足，当前余额 ${yuanText(r.balance)} 元，本次需支付 ${yuanText(paid)} 元`);
        let rebateLedgerId: number | null = null;
        if (rebate.gt(0)) {
          const after = rebateBefore.minus(rebate);
          await trx
            .updateTable('accounts')
            .set({ rebate_useable: money2(after) })
            .where('id', '=', me.id)
            .execute();
          const rr = await trx
            .insertInto('rebate_ledger')
            .values({
              account_id: me.id,
              amount: money2(rebate.neg()),
              balance_after: money2(after),
              kind: RebateType.Deduction,
              order_id: orderId,
              remark: `购买短信抵扣 订单${orderId}`,
              created_at: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          rebateLedgerId = rr.id;
        }
        const out: PurchaseResult['lines'] = [];
        for (const x of priced) {
          const due = new Date(now.getTime() + x.p.valid_days * DAY);
          const unitAfter = discounted(x.p.unit_price, x.discount);
          // pieces, or 分 for an international product (bought by the yuan; billing/billing.ts)
          const units = poolUnitsBought(x.p.product_type, x.num);
          const pool = await trx
            .insertInto('product_pools')
            .values({
              account_id: me.id,
              product_type: x.p.product_type,
              operator_code: x.p.operator_code,
              area_name: x.p.area_name,
              product_name: x.p.product_name,
              unit_price: unitAfter,
              total: units,
              remaining: units,
              due_time: due,
              order_id: orderId,
              created_at: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          await trx
            .insertInto('pool_movements')
            .values({
              pool_id: pool.id,
              pieces: units,
              remaining_after: units,
              kind: BillPaymentType.PackagePurchase,
              remark: `购买 ${x.p.product_name} 订单${orderId}`,
              created_at: now,
            })
            .execute();
          await trx
            .insertInto('sms_orders')
            .values({
              order_id: orderId,
              account_id: me.id,
              order_type: SmsBillOrderType.Purchase,
              product_id: x.p.id,
              product_code: x.p.product_code,
              product_name: x.p.product_name,
              product_type: x.p.product_type,
              operator_code: x.p.operator_code,
              area_name: x.p.area_name,
              unit_price: x.p.unit_price,
              discount: x.discount,
              num: x.num,
              order_amount: money2(x.amount),
              pool_id: pool.id,
              due_time: due,
              created_at: now,
            })
            .execute();
          out.push({
            productId: x.p.id,
            productName: x.p.product_name,
            num: x.num,
            unitPrice: unitAfter,
            discount: x.discount,
            amount: money2(x.amount),
            poolId: pool.id,
            dueTime: formatDateTime(due),
          });
        }
        const result: PurchaseResult = {
          orderId,
          total: money2(total),
          rebate: money2(rebate),
          paid: money2(paid),
          balance: r.balances.get(me.id) ?? money2(locked.balance),
          rebateUseable: money2(rebateBefore.minus(rebate)),
          lines: out,
        };
        await trx
          .insertInto('purchase_orders')
          .values({
            order_id: orderId,
            account_id: me.id,
            request_id: requestId,
            total: money2(total),
            rebate: money2(rebate),
            paid: money2(paid),
            ledger_id: r.ledgerIds[0] ?? null,
            rebate_ledger_id: rebateLedgerId,
            result: JSON.stringify(result),
            created_at: now,
          })
          .execute();
        return result;
      });
    } catch (e) {
      if (isUniqueViolation(e)) {
        const again = await replay();
        if (again) return again;
      }
      throw e;
    }
  }

  private async newOrderId(trx: Tx, now: Date): Promise<string> {
    for (;;) {
      const id = `${formatDateTime(now).replace(/\D/g, '')}${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
      const hit = await trx
        .selectFrom('purchase_orders')
        .select('order_id')
        .where('order_id', '=', id)
        .executeTakeFirst();
      if (!hit) return id;
    }
  }

  // ---------------------------------------------------------------- the SMS bill

  /** accounts a bill covers: the session's scope (agent: itself and its sub-accounts) */
  private async scope(me: Account): Promise<ScopedAccount[]> {
    return this.clients.scope(me);
  }

  /** the SMS bill lines of these accounts */
  private ordersOf(ids: number[]) {
    return this.ctx.db
      .selectFrom('sms_orders as o')
      .innerJoin('accounts as a', 'a.id', 'o.account_id')
      .where('o.account_id', 'in', ids);
  }

  /** the SMS bill (filters/sms-bill.json) */
  private smsBillQuery(ids: number[], b: SmsBillFilter) {
    const q = whereFrom(this.ordersOf(ids), this.ctx, 'filters/sms-bill', b);
    return b.orderInfo ? q.where(orderInfoMatch(b.orderInfo)) : q;
  }

  /** the package purchase record (filters/purchase-record.json; the account filters apply to whoever sends them, as they always did) */
  private recordQuery(ids: number[], b: PurchaseRecordFilter) {
    const q = whereFrom(this.ordersOf(ids), this.ctx, 'filters/purchase-record', b, { agent: true });
    return b.realname ? q.where(realnameMatch(b.realname)) : q;
  }

  private readonly billColumns = [
    'o.id',
    'o.order_id',
    'o.order_type',
    'o.product_code',
    'o.product_name',
    'o.product_type',
    'o.operator_code',
    'o.area_name',
    'o.unit_price',
    'o.discount',
    'o.num',
    'o.order_amount',
    'o.due_time',
    'o.created_at',
    'a.clientid',
    'a.name',
    'a.realname',
  ] as const;

  private billRow(r: BillRow, rownum: number) {
    // a purchase adds to the pools; recharge of / rollback from a sub-account moves pieces out / in
    const flag =
      r.order_type === SmsBillOrderType.Purchase ||
      r.order_type === SmsBillOrderType.Rollback ||
      r.order_type === SmsBillOrderType.CountRollback
        ? '+'
        : '-';
    return {
      rownum,
      order_id: r.order_id,
      name: r.name,
      client_id: r.clientid,
      product_code: r.product_code,
      product_name: r.product_name,
      product_type: r.product_type,
      product_type_str: this.label('product-type', r.product_type),
      operator_code_str: this.label('carrier', r.operator_code),
      area_code_str: r.area_name,
      // the price charged (list price × the buyer's discount), as the product list showed it when bought
      unit_price: discounted(r.unit_price, r.discount),
      list_price: new Money(r.unit_price).toFixed(4),
      discount: money2(r.discount),
      order_amount: money2(r.order_amount),
      sms_balance_change_flag: flag,
      sms_balance_change_amount: poolText(r.product_type, r.num),
      order_type: r.order_type,
      order_type_str: this.label('sms-bill-order-type', r.order_type),
      create_time: formatDateTime(r.created_at),
      due_time: formatDateTime(r.due_time),
    };
  }

  /** POST /finance/bill/sms */
  async smsBill(me: Account, b: SmsBillFilter & CurrentPaging) {
    const q = this.smsBillQuery(
      (await this.scope(me)).map((a) => a.id),
      b,
    );
    const paging = pagingOf(b, 15);
    const { n } = await q.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
    const rows = await q
      .select(this.billColumns)
      .orderBy('o.created_at', 'desc')
      .orderBy('o.id', 'desc')
      .limit(paging.size)
      .offset(paging.offset)
      .execute();
    return listPage(
      rows.map((r, i) => this.billRow(r, paging.offset + i + 1)),
      Number(n),
      paging,
    );
  }

  /** GET /finance/bill/sms/data: what the SMS bill page shows above the table */
  async smsBillData(me: Account) {
    const acc = await this.account(me.id);
    const ids = (await this.scope(me)).map((a) => a.id);
    const agg = await this.ctx.db
      .selectFrom('sms_orders')
      .select([sql<string>`coalesce(sum(order_amount), 0)::text`.as('amount'), sql<string>`count(*)::text`.as('n')])
      .where('account_id', 'in', ids)
      .where('order_type', '=', SmsBillOrderType.Purchase)
      .executeTakeFirstOrThrow();
    return {
      balance: money2(acc.balance),
      rebate_useable: money2(acc.rebate_useable),
      purchase_amount: money2(agg.amount),
      purchase_count: Number(agg.n),
    };
  }

  /** rows of a bill query for an export (at most `max`; [] when none) */
  async smsBillRows(me: Account, b: SmsBillFilter, max: number) {
    const q = this.smsBillQuery(
      (await this.scope(me)).map((a) => a.id),
      b,
    );
    const rows = await q
      .select(this.billColumns)
      .orderBy('o.created_at', 'desc')
      .orderBy('o.id', 'desc')
      .limit(max)
      .execute();
    return rows.map((r, i) => this.billRow(r, i + 1));
  }

  // ---------------------------------------------------------------- the rebate bill

  /** the rebate bill of one account (filters/rebate-bill.json) */
  private rebateQuery(accountId: number, b: RebateBillFilter) {
    return whereFrom(
      this.ctx.db.selectFrom('rebate_ledger').where('account_id', '=', accountId),
      this.ctx,
      'filters/rebate-bill',
      b,
    );
  }

  private rebateRow(
    r: {
      id: number;
      kind: number;
      amount: string;
      balance_after: string;
      order_id: string;
      remark: string;
      created_at: Date;
    },
    rownum: number,
  ) {
    return {
      rownum,
      id: r.id,
      financial_type: r.kind,
      financial_type_str: this.label('rebate-type', r.kind),
      payment_type_str: r.kind === RebateType.Income ? '返点' : '购买短信抵扣',
      balance: money2(r.amount),
      balance_after: money2(r.balance_after),
      order_id: r.order_id,
      remark: r.remark,
      create_time: formatDateTime(r.created_at),
    };
  }

  /** GET /finance/bill/rebate: usable rebate, accumulated income and pay, rows */
  async rebateBill(me: Account, b: RebateBillFilter & CurrentPaging) {
    const acc = await this.account(me.id);
    const sums = await this.ctx.db
      .selectFrom('rebate_ledger')
      .select([
        sql<string>`coalesce(sum(amount) filter (where kind = ${sql.lit(RebateType.Income)}), 0)::text`.as('income'),
        sql<string>`coalesce(-sum(amount) filter (where kind = ${sql.lit(RebateType.Deduction)}), 0)::text`.as('pay'),
      ])
      .where('account_id', '=', me.id)
      .executeTakeFirstOrThrow();
    const q = this.rebateQuery(me.id, b);
    const paging = pagingOf(b, 15);
    const { n } = await q.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
    const rows = await q.selectAll().orderBy('id', 'desc').limit(paging.size).offset(paging.offset).execute();
    return {
      rebate_income: money2(acc.rebate_useable),
      accumulated_rebate_income: money2(sums.income),
      accumulated_rebate_pay: money2(sums.pay),
      ...listPage(
        rows.map((r, i) => this.rebateRow(r, paging.offset + i + 1)),
        Number(n),
        paging,
      ),
    };
  }

  async rebateRows(me: Account, b: RebateBillFilter, max: number) {
    const rows = await this.rebateQuery(me.id, b).selectAll().orderBy('id', 'desc').limit(max).execute();
    return rows.map((r, i) => this.rebateRow(r, i + 1));
  }

  // ---------------------------------------------------------------- purchase history

  private recordRow(r: BillRow, rownum: number, agent: boolean) {
    return {
      rownum,
      client_id: r.clientid,
      name: r.name,
      orderTypeStr: this.label('sms-bill-order-type', r.order_type),
      productTypeStr: this.label('product-type', r.product_type),
      operatorCodeStr: this.label('carrier', r.operator_code),
      areaCodeStr: r.area_name,
      ...(agent ? { unit_price: discounted(r.unit_price, r.discount) } : {}),
      due_time: dateOnly(r.due_time),
      order_number: poolText(r.product_type, r.num),
      consumer_date: dateOnly(r.created_at),
      create_time: formatDateTime(r.created_at),
    };
  }

  /** POST /finance/bill/purchaseHistory (mode 1): the package orders of the scope */
  async purchaseHistory(me: Account, b: PurchaseRecordFilter & CurrentPaging, max?: number) {
    const q = this.recordQuery(
      (await this.scope(me)).map((a) => a.id),
      b,
    );
    const agent = me.user_type === UserType.Agent;
    if (max !== undefined) {
      const rows = await q
        .select(this.billColumns)
        .orderBy('o.created_at', 'desc')
        .orderBy('o.id', 'desc')
        .limit(max)
        .execute();
      return {
        list: rows.map((r, i) => this.recordRow(r, i + 1, agent)),
        totalCount: rows.length,
        currentPage: 1,
        pageRowCount: max,
      };
    }
    const paging = pagingOf(b, 15);
    const { n } = await q.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
    const rows = await q
      .select(this.billColumns)
      .orderBy('o.created_at', 'desc')
      .orderBy('o.id', 'desc')
      .limit(paging.size)
      .offset(paging.offset)
      .execute();
    return listPage(
      rows.map((r, i) => this.recordRow(r, paging.offset + i + 1, agent)),
      Number(n),
      paging,
    );
  }

  /** ledger kinds of the direct-mode record: sub-account recharge, rollback, failure return, consumption */
  static readonly DIRECT_KINDS = [12, 13, 14, 15];

  /** the direct-mode record (filters/direct-purchase-record.json; the account filters apply to whoever sends them, as they always did) */
  private directQuery(ids: number[], b: DirectPurchaseRecordFilter) {
    const base = this.ctx.db
      .selectFrom('ledger as l')
      .innerJoin('accounts as a', 'a.id', 'l.account_id')
      .where('l.account_id', 'in', ids)
      .where('l.kind', 'in', PurchaseService.DIRECT_KINDS);
    const q = whereFrom(base, this.ctx, 'filters/direct-purchase-record', b, { agent: true });
    return b.realname ? q.where(realnameMatch(b.realname)) : q;
  }

  private directRow(
    r: {
      id: number;
      clientid: string;
      realname: string;
      name: string;
      kind: number;
      amount: string;
      remark: string;
      created_at: Date;
    },
    rownum: number,
  ) {
    return {
      rownum,
      id: r.id,
      clientid: r.clientid,
      realname: r.realname || r.name,
      payment_type: r.kind,
      payment_type_str: this.label('bill-payment-type', r.kind),
      amount: money2(r.amount),
      consumerDate: dateOnly(r.created_at),
      create_time: formatDateTime(r.created_at),
      remark: r.remark,
    };
  }

  /**
   * POST /finance/bill/direct/purchaseHistory (mode 0): ledger rows of the sub-accounts (an agent)
   * or of the account itself: recharge, rollback, failure return, consumption. Each row is one
   * ledger row (its id).
   */
  async directHistory(me: Account, b: DirectPurchaseRecordFilter & CurrentPaging, max?: number) {
    const scope = await this.scope(me);
    const ids = me.user_type === UserType.Agent ? scope.filter((a) => a.id !== me.id).map((a) => a.id) : [me.id];
    if (!ids.length) ids.push(-1);
    const q = this.directQuery(ids, b);
    const cols = [
      'l.id',
      'a.clientid',
      'a.realname',
      'a.name',
      'l.kind',
      'l.amount',
      'l.remark',
      'l.created_at',
    ] as const;
    if (max !== undefined) {
      const rows = await q.select(cols).orderBy('l.id', 'desc').limit(max).execute();
      return {
        list: rows.map((r, i) => this.directRow(r, i + 1)),
        totalCount: rows.length,
        currentPage: 1,
        pageRowCount: max,
      };
    }
    const paging = pagingOf(b, 15);
    const { n } = await q.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
    const rows = await q.select(cols).orderBy('l.id', 'desc').limit(paging.size).offset(paging.offset).execute();
    return listPage(
      rows.map((r, i) => this.directRow(r, paging.offset + i + 1)),
      Number(n),
      paging,
    );
  }

  // ---------------------------------------------------------------- pools

  /**
   * The unexpired pools with pieces left: an agent's own and its sub-accounts' (POST /agent/newpools),
   * a sub-account's own (GET /client/pools). International pools count yuan (kept in 分).
   */
  async pools(me: Account, b: PoolFilter & CurrentPaging) {
    const ids = (await this.scope(me)).map((a) => a.id);
    const now = this.ctx.now();
    const base = this.ctx.db
      .selectFrom('product_pools as p')
      .innerJoin('accounts as a', 'a.id', 'p.account_id')
      .where('p.account_id', 'in', ids)
      .where('p.due_time', '>', now)
      .where('p.remaining', '>', 0);
    const q = whereFrom(base, this.ctx, 'filters/pool', b);
    const paging = pagingOf(b, 15);
    const { n } = await q.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
    const rows = await q
      .select([
        'p.id',
        'a.clientid',
        'a.name',
        'p.product_type',
        'p.operator_code',
        'p.area_name',
        'p.unit_price',
        'p.remaining',
        'p.due_time',
        'p.gift',
      ])
      .orderBy('p.due_time')
      .orderBy('p.id')
      .limit(paging.size)
      .offset(paging.offset)
      .execute();
    const soon = now.getTime() + EXPIRING_DAYS * DAY;
    const list = rows.map((r, i) => ({
      rownum: paging.offset + i + 1,
      id: r.id,
      client_id: r.clientid,
      client_name: r.name,
      product_type: r.product_type,
      product_type_str: this.label('product-type', r.product_type),
      operator_code_str: this.label('carrier', r.operator_code),
      area_code_str: r.area_name,
      sms_unitprice: new Money(r.unit_price).toFixed(4),
      account_balance: poolText(r.product_type, poolFigure(r.product_type, r.remaining)),
      remaining: poolFigure(r.product_type, r.remaining),
      due_time: formatDateTime(r.due_time),
      dead: r.due_time.getTime() <= soon ? 0 : 1,
      gift: r.gift,
    }));
    return listPage(list, Number(n), paging);
  }
}

interface BillRow {
  id: number;
  order_id: string;
  order_type: number;
  product_code: string;
  product_name: string;
  product_type: number;
  operator_code: number;
  area_name: string;
  unit_price: string;
  discount: string;
  num: number;
  order_amount: string;
  due_time: Date | null;
  created_at: Date;
  clientid: string;
  name: string;
  realname: string;
}

/**
 * Online recharge (docs/api-pay.md): pay orders, their expiry and cancel, and the credit of a paid
 * order through the ledger, exactly once.
 *
 * Exactly once: a verified notification locks the order row (SELECT ... FOR UPDATE); if the order
 * is already paid (2 / 5) nothing happens, else the ledger row (kind 11 在线充值, request_id = the
 * paymentId) and the state change to 2 are written in that same transaction. `ledger_id` is
 * unique and a CHECK ties state 2/5 to a ledger row, so even a bug elsewhere cannot credit twice.
 *
 * Expiry: an order can be paid for `pay.orderTtlMs` (15 minutes) after it was created; the
 * providers get the same time limit (Alipay / WeChat Pay time_expire), the sandbox scan page
 * refuses to pay after it. Unpaid orders past it are closed (state 4 已取消, remark 超时未支付)
 * by the first list / status / cancel call that meets them — a state change in the database, so
 * every process sees the same. A verified paid notification is credited whatever the order's state
 * (but paid): money the provider took is never lost (a provider's late retry of a payment made in
 * time, a cancel racing the payment).
 *
 * Reuse and open-order cap: opening the payment again for the same amount and mode answers the
 * account's open order of that amount and mode (if it has a minute left) instead of a new one. The
 * look-up, the count of an account's unpaid orders and the insert of a new one run in one
 * transaction under a per-account advisory lock, so parallel creates cannot pass the cap together
 * nor make two orders of one amount; the provider is asked for the QR code after that transaction
 * (no lock held over a network call), and a create that reuses an order still waiting for its QR
 * code waits for it.
 *
 * Sandbox: an order paid by the sandbox provider (PAY_SANDBOX) moved no money. It is marked
 * (`pay_orders.sandbox`, the list's `sandbox` 沙箱, the ledger remark 在线充值（沙箱）) and its
 * credit never counts as invoiceable (server/modules/invoice).
 */
import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import type { Account } from '../../db/types';
import { ApiError, errors } from '../../http/errors';
import { dataPage, pagingOf } from '../../http/paging';
import { addMs, formatDateTime } from '../../lib/time';
import { MESSAGES } from '../../../common/schema/messages';
import {
  BillPaymentType,
  PayOrderState,
  UserType,
  type PaymentMode,
  type PayOrder,
  type PayOrderFilter,
} from '../../../common/generated/schemas';
import { whereFrom } from '../../db/filters';
import type { PageRows } from '../../http/contract';
import type { LedgerService } from '../ledger';
import { Money, money2 } from '../../lib/money';
import { payApiBase } from './config';
import type { NotifyRequest, PayProvider, PayProviders, VerifiedNotice } from './providers';

/** states an order can still be paid in */
const OPEN_STATES: readonly PayOrderState[] = [PayOrderState.Unpaid, PayOrderState.Submitted];
const PAID_STATES: readonly PayOrderState[] = [PayOrderState.Paid, PayOrderState.PaidAlt];
export const EXPIRED_REMARK = '超时未支付，订单已关闭';
export const PAY_SUBJECT = '短信平台账户在线充值';
/** the ledger kind of an online recharge (enums/bill-payment-type: 11 在线充值) */
export const ONLINE_RECHARGE_KIND = BillPaymentType.OnlineRecharge;
/** the mark of sandbox money in the ledger remark and the pay-order list */
export const SANDBOX_MARK = '沙箱';
/** The states a list's 支付状态 filter means: 2 and 5 are both 支付成功. */
export function statesOf(state: PayOrderState | undefined): readonly PayOrderState[] | undefined {
  if (state === undefined) return undefined;
  return PAID_STATES.includes(state) ? PAID_STATES : [state];
}
/** namespace of the per-account advisory lock around the open-order look-up, count and insert */
const CREATE_LOCK = 0x50415931;
/**
 * An open order of the same amount and mode is reused while it has at least this long left (one
 * about to run out would expire while being scanned: a new order is made instead).
 */
export const REUSE_MIN_LEFT_MS = 60_000;
/** how long a reusing create waits for the QR code its creator asks the provider for, and how often it looks */
const QR_WAIT_MS = 30_000;
const QR_POLL_MS = 100;

type OrderRow = {
  id: number;
  payment_id: string;
  account_id: number;
  amount: string;
  payment_mode: PaymentMode;
  provider: string;
  sandbox: boolean;
  state: PayOrderState;
  trade_no: string;
  qr_code: string;
  remark: string;
  ledger_id: number | null;
  created_at: Date;
  expires_at: Date;
  paid_at: Date | null;
  closed_at: Date | null;
};

export interface NotifyResult {
  /** the order exists and was (now or before) credited */
  credited: boolean;
  /** this very notification credited it */
  creditedNow: boolean;
  reason: string;
}

export class PayService {
  constructor(
    private readonly ctx: AppContext,
    private readonly ledger: LedgerService,
    readonly providers: PayProviders,
  ) {}

  /**
   * isOpenPay: online recharge is offered to agents (userType 1) when the server has it on and some
   * payment mode has a provider (Alipay / WeChat Pay keys, or the sandbox when PAY_SANDBOX is on)
   */
  isOpen(account: Account): boolean {
    return this.ctx.config.pay.open && this.providers.any && String(account.user_type) === UserType.Agent;
  }

  config(account: Account) {
    return {
      isOpenPay: this.isOpen(account) ? 1 : 0,
      orderTtlSeconds: Math.round(this.ctx.config.pay.orderTtlMs / 1000),
      minAmount: '1.00',
      maxAmount: '1000000.00',
      /** which modes are offered at all */
      modes: { 0: !!this.providers.forMode(0), 1: !!this.providers.forMode(1) },
      /** which modes pay through the sandbox (the console says so) */
      sandbox: {
        0: !this.providers.alipay && !!this.providers.sandbox,
        1: !this.providers.wechat && !!this.providers.sandbox,
      },
    };
  }

  private label(enumName: string, v: unknown) {
    return this.ctx.schemas.registry.enumLabel(enumName, v) ?? '';
  }

  row(o: OrderRow, now = this.ctx.now(), rowNum?: number): PayOrder {
    const open = OPEN_STATES.includes(o.state);
    const left = open ? Math.max(0, Math.floor((o.expires_at.getTime() - now.getTime()) / 1000)) : 0;
    return {
      ...(rowNum !== undefined ? { rowNum } : {}),
      paymentId: o.payment_id,
      orderId: o.trade_no,
      paymentAmountStr: money2(o.amount),
      price: money2(o.amount),
      payType: ONLINE_RECHARGE_KIND,
      paymentMode: o.payment_mode,
      paymentModeStr: this.label('payment-mode', o.payment_mode),
      payTimeStr: formatDateTime(o.created_at),
      paidTimeStr: formatDateTime(o.paid_at),
      expireTimeStr: formatDateTime(o.expires_at),
      paymentState: o.state,
      paymentStateStr: this.label('pay-order-state', o.state),
      sandbox: o.sandbox ? 1 : 0,
      remark: o.remark,
      countDownStr: open ? String(left) : '',
      qrCode: open ? o.qr_code : '',
    };
  }

  /** Closes the account's unpaid orders past their time (one UPDATE; every process agrees). */
  async expire(accountId?: number): Promise<number> {
    const now = this.ctx.now();
    let q = this.ctx.db
      .updateTable('pay_orders')
      .set({ state: PayOrderState.Cancelled, remark: EXPIRED_REMARK, closed_at: now })
      .where('state', 'in', OPEN_STATES)
      .where('expires_at', '<=', now);
    if (accountId !== undefined) q = q.where('account_id', '=', accountId);
    const r = await q.executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  private newPaymentId(now: Date): string {
    const t = formatDateTime(now).replace(/\D/g, '');
    return `P${t}${crypto.randomInt(0, 1e8).toString().padStart(8, '0')}`;
  }

  /**
   * The order to pay `amount` by `paymentMode`: the account's open order of the same amount, mode
   * and provider when one has at least REUSE_MIN_LEFT_MS left (opening the payment again, or
   * 去支付 twice, shows the same order and QR code instead of leaving another 待支付 order), else a
   * new one. Every pay order is an online recharge (payType 11), so amount, mode and provider are
   * the whole purpose of an order. The look-up, the open-order cap and the insert run in one
   * transaction under the per-account advisory lock, so parallel creates of one amount make one
   * order. A new order's links (the sandbox QR code, the providers' notify_url) are made from the
   * configured public URL (PAY_PUBLIC_URL, else http://localhost:PORT), never from the request.
   */
  async create(account: Account, p: { amount: string; paymentMode: PaymentMode }): Promise<PayOrder> {
    if (!this.isOpen(account)) throw errors.refused(MESSAGES.payNotOpen);
    const amount = money2(p.amount);
    const mode = p.paymentMode;
    const provider = this.providers.forMode(mode);
    if (!provider) throw errors.refused(MESSAGES.payModeNotOpen);
    // a reused order whose provider call failed meanwhile (its creator answered the error): once more
    for (let attempt = 0; ; attempt++) {
      const now = this.ctx.now();
      const expiresAt = addMs(now, this.ctx.config.pay.orderTtlMs);
      const paymentId = this.newPaymentId(now);
      const { order, reused } = await this.ctx.db.transaction().execute(async (trx) => {
        // one account's creates queue here: the reads below see every order inserted before
        await sql`select pg_advisory_xact_lock(${CREATE_LOCK}::int4, ${account.id}::int4)`.execute(trx);
        await trx
          .updateTable('pay_orders')
          .set({ state: PayOrderState.Cancelled, remark: EXPIRED_REMARK, closed_at: now })
          .where('account_id', '=', account.id)
          .where('state', 'in', OPEN_STATES)
          .where('expires_at', '<=', now)
          .execute();
        const same = await trx
          .selectFrom('pay_orders')
          .selectAll()
          .where('account_id', '=', account.id)
          .where('state', 'in', OPEN_STATES)
          .where('amount', '=', amount)
          .where('payment_mode', '=', mode)
          .where('provider', '=', provider.name)
          .where('expires_at', '>', addMs(now, REUSE_MIN_LEFT_MS))
          // no QR code yet: being created by a request still asking the provider (not one a crash left behind)
          .where((eb) => eb.or([eb('qr_code', '<>', ''), eb('created_at', '>', addMs(now, -QR_WAIT_MS))]))
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(1)
          .executeTakeFirst();
        if (same) return { order: same, reused: true };
        const open = await trx
          .selectFrom('pay_orders')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('account_id', '=', account.id)
          .where('state', 'in', OPEN_STATES)
          .executeTakeFirstOrThrow();
        if (Number(open.n) >= this.ctx.config.pay.maxOpenOrders) throw errors.refused(MESSAGES.payTooManyOpen);
        const inserted = await trx
          .insertInto('pay_orders')
          .values({
            payment_id: paymentId,
            account_id: account.id,
            amount,
            payment_mode: mode,
            provider: provider.name,
            sandbox: provider.name === 'sandbox',
            created_at: now,
            expires_at: expiresAt,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return { order: inserted, reused: false };
      });
      if (reused) {
        const ready = order.qr_code ? order : await this.qrCodeOf(order.id);
        if (ready) return this.row(ready);
        // its provider call failed (the order is closed): make one of our own
        if (attempt === 0) continue;
        throw errors.refused(MESSAGES.payOrderClosed);
      }
      let qrCode: string;
      try {
        ({ qrCode } = await provider.create({
          paymentId,
          amount,
          subject: PAY_SUBJECT,
          expiresAt,
          baseUrl: payApiBase(this.ctx.config.pay),
        }));
      } catch (err) {
        // the provider refused or could not be reached: the order can never be paid
        await this.ctx.db
          .updateTable('pay_orders')
          .set({ state: PayOrderState.Failed, remark: '创建支付失败', closed_at: this.ctx.now() })
          .where('id', '=', order.id)
          .where('state', 'in', OPEN_STATES)
          .execute();
        throw err;
      }
      const row = await this.ctx.db
        .updateTable('pay_orders')
        .set({ qr_code: qrCode })
        .where('id', '=', order.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return this.row(row, now);
    }
  }

  /**
   * A reused order another request created a moment ago: the row once that request has its QR code
   * from the provider (the provider is asked outside the transaction, no lock held), null when the
   * provider call failed (the order is closed). No QR code within QR_WAIT_MS: the provider hangs,
   * an error like the creator's own.
   */
  private async qrCodeOf(id: number): Promise<OrderRow | null> {
    const until = Date.now() + QR_WAIT_MS;
    for (;;) {
      const o = await this.ctx.db.selectFrom('pay_orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      if (!OPEN_STATES.includes(o.state)) return null;
      if (o.qr_code) return o;
      if (Date.now() >= until)
        throw new Error(`pay order ${o.payment_id}: no QR code from the provider within ${QR_WAIT_MS} ms`);
      await new Promise((r) => setTimeout(r, QR_POLL_MS));
    }
  }

  private async own(account: Account, paymentId: unknown): Promise<OrderRow> {
    if (typeof paymentId !== 'string' || !paymentId) throw errors.notFound('支付订单');
    const o = await this.ctx.db
      .selectFrom('pay_orders')
      .selectAll()
      .where('payment_id', '=', paymentId)
      .where('account_id', '=', account.id)
      .executeTakeFirst();
    if (!o) throw new ApiError(404, MESSAGES.payOrderNotFound);
    return o;
  }

  /** The dialog's poll: the order's state and countdown (asks a real provider while unpaid). */
  async status(account: Account, paymentId: unknown): Promise<PayOrder> {
    await this.expire(account.id);
    let o = await this.own(account, paymentId);
    if (OPEN_STATES.includes(o.state) && o.provider !== 'sandbox') {
      const provider = this.providers.byName(o.provider);
      const q = await provider?.query(o.payment_id).catch(() => null);
      if (provider && q?.paid) {
        await this.credit(
          provider,
          { paymentId: o.payment_id, tradeNo: q.tradeNo, amount: q.amount, paid: true },
          'query',
        );
        o = await this.own(account, paymentId);
      }
    }
    return this.row(o);
  }

  async cancel(account: Account, paymentId: unknown): Promise<PayOrder> {
    await this.expire(account.id);
    const o = await this.own(account, paymentId);
    if (PAID_STATES.includes(o.state)) throw errors.refused(MESSAGES.payOrderPaid);
    if (!OPEN_STATES.includes(o.state)) throw errors.refused(MESSAGES.payOrderClosed);
    const now = this.ctx.now();
    const r = await this.ctx.db
      .updateTable('pay_orders')
      .set({ state: PayOrderState.Cancelled, remark: '用户取消', closed_at: now })
      .where('id', '=', o.id)
      .where('state', 'in', OPEN_STATES)
      .returningAll()
      .executeTakeFirst();
    if (!r) {
      // paid or closed in between
      const again = await this.own(account, paymentId);
      throw errors.refused(PAID_STATES.includes(again.state) ? MESSAGES.payOrderPaid : MESSAGES.payOrderClosed);
    }
    await this.providers
      .byName(o.provider)
      ?.close(o.payment_id)
      .catch(() => undefined);
    return this.row(r, now);
  }

  async list(account: Account, q: PayOrderFilter & PageRows) {
    await this.expire(account.id);
    const paging = pagingOf(q);
    // payment mode and the time range: the filter schema's x-column / x-op (server/db/filters.ts)
    let base = whereFrom(
      this.ctx.db.selectFrom('pay_orders').where('account_id', '=', account.id),
      this.ctx,
      'filters/pay-order',
      q,
    );
    const states = statesOf(q.paymentState);
    if (states) base = base.where('state', 'in', states);
    const search = q.searchText?.trim();
    if (search) base = base.where((eb) => eb.or([eb('payment_id', '=', search), eb('trade_no', '=', search)]));
    const [{ n }] = await base.select((eb) => eb.fn.countAll<string>().as('n')).execute();
    const rows = await base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(paging.size)
      .offset(paging.offset)
      .execute();
    const now = this.ctx.now();
    return dataPage(
      rows.map((r, i) => this.row(r, now, paging.offset + i + 1)),
      Number(n),
      paging,
    );
  }

  // -------------------------------------------------------------------------------------------
  // notifications

  /** A provider's notification: verified by the provider, then credited at most once. */
  async notify(provider: PayProvider, req: NotifyRequest): Promise<NotifyResult> {
    const v = await provider.verify(req);
    if (!v) {
      await this.log(provider.name, '', false, false, MESSAGES.payBadNotify, req.raw);
      return { credited: false, creditedNow: false, reason: MESSAGES.payBadNotify };
    }
    return this.credit(provider, v, req.raw);
  }

  /** Credits a verified payment: under the order's row lock, once. */
  async credit(provider: PayProvider, v: VerifiedNotice, payload: string): Promise<NotifyResult> {
    const result = await this.ctx.db.transaction().execute(async (trx): Promise<NotifyResult> => {
      const o = await trx
        .selectFrom('pay_orders')
        .selectAll()
        .where('payment_id', '=', v.paymentId)
        .forUpdate()
        .executeTakeFirst();
      if (!o) return { credited: false, creditedNow: false, reason: MESSAGES.payOrderNotFound };
      if (o.provider !== provider.name) return { credited: false, creditedNow: false, reason: '支付渠道不符' };
      if (PAID_STATES.includes(o.state)) return { credited: true, creditedNow: false, reason: MESSAGES.payOrderPaid };
      if (!v.paid) return { credited: false, creditedNow: false, reason: '未支付' };
      if (!new Money(o.amount).eq(v.amount)) return { credited: false, creditedNow: false, reason: '金额不符' };
      const remark = o.sandbox ? `在线充值（${SANDBOX_MARK}，不可开票） ${o.payment_id}` : `在线充值 ${o.payment_id}`;
      const applied = await this.ledger.applyIn(trx, [
        { accountId: o.account_id, amount: money2(o.amount), kind: ONLINE_RECHARGE_KIND, remark },
      ]);
      if (!applied.ok || applied.ledgerIds.length !== 1) throw new Error('online recharge: ledger refused a credit');
      const ledgerId = applied.ledgerIds[0];
      await trx.updateTable('ledger').set({ request_id: o.payment_id }).where('id', '=', ledgerId).execute();
      const now = this.ctx.now();
      await trx
        .updateTable('pay_orders')
        .set({ state: PayOrderState.Paid, ledger_id: ledgerId, trade_no: v.tradeNo, paid_at: now, remark: '' })
        .where('id', '=', o.id)
        .execute();
      return { credited: true, creditedNow: true, reason: MESSAGES.paySuccess };
    });
    await this.log(provider.name, v.paymentId, true, result.creditedNow, result.reason, payload);
    return result;
  }

  private async log(
    provider: string,
    paymentId: string,
    verified: boolean,
    credited: boolean,
    reason: string,
    payload: string,
  ) {
    await this.ctx.db
      .insertInto('pay_notifications')
      .values({
        provider,
        payment_id: paymentId.slice(0, 64),
        verified,
        credited,
        reason,
        payload: payload.slice(0, 4000),
        created_at: this.ctx.now(),
      })
      .execute()
      .catch((err) => this.ctx.log.warn({ err }, 'pay notification log failed'));
  }

  // -------------------------------------------------------------------------------------------
  // the sandbox "provider's" pages

  /** The order behind a sandbox scan page (token checked); opening it marks the order 已提交支付. */
  async sandboxOrder(paymentId: unknown, token: unknown, opts: { open?: boolean } = {}): Promise<OrderRow | null> {
    // the sandbox turned off: its pages show nothing and pay nothing
    if (typeof paymentId !== 'string' || !this.providers.sandbox?.checkScanToken(paymentId, token)) return null;
    await this.expire();
    const o = await this.ctx.db
      .selectFrom('pay_orders')
      .selectAll()
      .where('payment_id', '=', paymentId)
      .where('provider', '=', 'sandbox')
      .executeTakeFirst();
    if (!o) return null;
    if (opts.open && o.state === PayOrderState.Unpaid) {
      await this.ctx.db
        .updateTable('pay_orders')
        .set({ state: PayOrderState.Submitted })
        .where('id', '=', o.id)
        .where('state', '=', PayOrderState.Unpaid)
        .execute();
      return { ...o, state: PayOrderState.Submitted };
    }
    return o;
  }

  /**
   * 确认支付 on the sandbox page: refused unless the order is open and in time; otherwise the
   * sandbox signs a notification and hands it to the same path as the notify route.
   */
  async sandboxPay(
    paymentId: unknown,
    token: unknown,
    action: 'confirm' | 'cancel',
  ): Promise<{ ok: boolean; message: string; order: OrderRow | null }> {
    const o = await this.sandboxOrder(paymentId, token);
    if (!o) return { ok: false, message: MESSAGES.payOrderNotFound, order: null };
    if (PAID_STATES.includes(o.state)) return { ok: false, message: MESSAGES.payOrderPaid, order: o };
    if (!OPEN_STATES.includes(o.state) || o.expires_at <= this.ctx.now())
      return { ok: false, message: MESSAGES.payOrderClosed, order: o };
    if (action === 'cancel') {
      await this.ctx.db
        .updateTable('pay_orders')
        .set({ state: PayOrderState.Failed, remark: '用户在支付页取消支付' })
        .where('id', '=', o.id)
        .where('state', 'in', OPEN_STATES)
        .execute();
      return { ok: true, message: '已取消支付', order: o };
    }
    const sandbox = this.providers.sandbox;
    if (!sandbox) return { ok: false, message: MESSAGES.payModeNotOpen, order: null };
    const notice = sandbox.sign({
      paymentId: o.payment_id,
      tradeNo: `SANDBOX${o.payment_id.slice(1)}`,
      amount: money2(o.amount),
      status: 'SUCCESS',
    });
    const r = await this.notify(sandbox, { body: notice, raw: JSON.stringify(notice), headers: {} });
    return { ok: r.credited, message: r.credited ? MESSAGES.paySuccess : r.reason, order: o };
  }
}

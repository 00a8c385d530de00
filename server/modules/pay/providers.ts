/**
 * Payment providers (docs/api-pay.md): create an order (a QR payload to scan), verify a signed
 * notification, query an order, close it. Alipay (alipay-sdk) and WeChat Pay (wechatpay-node-v3)
 * serve their mode when their keys are configured; the sandbox provider serves a mode without one
 * only when it is on (PAY_SANDBOX, config.ts). Every verification is the provider's own: the sandbox checks its
 * HMAC, Alipay's and WeChat Pay's notifications are checked by their SDKs.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ValidateFunction } from 'ajv';
import { AlipaySdk } from 'alipay-sdk';
import WxPay from 'wechatpay-node-v3';
import { Money, money2 } from '../../lib/money';
import type { AlipayConfig, PayConfig, WechatPayConfig } from './config';
import {
  PaymentMode,
  type PayAlipayNotice,
  type PaySandboxNoticeParams,
  type PayWechatNotice,
} from '../../../common/generated/schemas';
import { ServerSchemas } from '../../schemas';

/** the HTTP status of a WeChat Pay API success */
const HTTP_OK = 200;

export type ProviderName = 'sandbox' | 'alipay' | 'wechat';

export interface CreateOrderInput {
  paymentId: string;
  /** decimal string, yuan */
  amount: string;
  subject: string;
  expiresAt: Date;
  /** absolute URL of this server's /api, for notify URLs and the sandbox scan page */
  baseUrl: string;
}

/** A notification whose signature the provider verified (amount as a decimal string, yuan). */
export interface VerifiedNotice {
  paymentId: string;
  tradeNo: string;
  amount: string;
  /** the provider says the money was taken */
  paid: boolean;
}

export interface ProviderQuery {
  paid: boolean;
  tradeNo: string;
  amount: string;
}

/** What the notify route received: the parsed body, the raw text (WeChat signs it) and the headers. */
export interface NotifyRequest {
  body: unknown;
  raw: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface PayProvider {
  readonly name: ProviderName;
  /** the QR payload (a URL) of a new order */
  create(order: CreateOrderInput): Promise<{ qrCode: string }>;
  /** null: the signature (or anything else) does not hold */
  verify(req: NotifyRequest): Promise<VerifiedNotice | null>;
  /** the provider's view of an order (null: unknown there / not asked) */
  query(paymentId: string): Promise<ProviderQuery | null>;
  /** best effort: the order can no longer be paid at the provider */
  close(paymentId: string): Promise<void>;
  /** what the provider expects as the answer to a notification it may stop repeating */
  ack: { contentType: string; body: string };
}

// ---------------------------------------------------------------------------------------------
// sandbox

/** The sandbox secret: configured, else a random one kept in DATA_DIR/pay-sandbox-secret. */
export function loadSandboxSecret(configured: string, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'pay-sandbox-secret');
  try {
    const s = fs.readFileSync(file, 'utf8').trim();
    if (s) return s;
  } catch {
    /* made below */
  }
  const s = crypto.randomBytes(32).toString('base64url');
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, s, { mode: 0o600, flag: 'wx' });
    return s;
  } catch {
    // another process wrote it first: use that one
    return fs.readFileSync(file, 'utf8').trim();
  }
}

/**
 * A sandbox notification (schemas/params/pay-sandbox-notice.json, every field given), signed as
 * `k=v` pairs sorted by name, joined by `&`; the sandbox itself sends SUCCESS or CLOSED.
 */
type SignedSandboxNotice = Required<PaySandboxNoticeParams>;
export type SandboxNotice = Omit<SignedSandboxNotice, 'status' | 'sign'> & {
  status: 'SUCCESS' | 'CLOSED';
  sign?: string;
};

const SANDBOX_FIELDS = ['amount', 'nonce', 'paymentId', 'status', 'timestamp', 'tradeNo'] as const;
let signedSandboxNotice: ValidateFunction<SignedSandboxNotice> | undefined;
/** the notifications' bodies as schemas/params/ declare them (type guards) */
const notice = {
  /** the route's schema with every field present (what is signed); compiled on first use */
  sandbox: () =>
    (signedSandboxNotice ??= ServerSchemas.shared().guard<SignedSandboxNotice>({
      allOf: [{ $ref: 'params/pay-sandbox-notice.json' }],
      required: [...SANDBOX_FIELDS, 'sign'],
    })),
  alipay: () => ServerSchemas.shared().validator<PayAlipayNotice>('params/pay-alipay-notice'),
  wechat: () => ServerSchemas.shared().validator<PayWechatNotice>('params/pay-wechat-notice'),
};
const hmac = (secret: string, text: string) => crypto.createHmac('sha256', secret).update(text).digest('hex');
const safeEq = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
};

export function sandboxSignText(n: Omit<SignedSandboxNotice, 'sign'>): string {
  return SANDBOX_FIELDS.map((k) => `${k}=${n[k]}`).join('&');
}

export class SandboxProvider implements PayProvider {
  readonly name = 'sandbox' as const;
  readonly ack = { contentType: 'application/json; charset=utf-8', body: JSON.stringify({ code: 0, msg: 'success' }) };
  constructor(private readonly secret: string) {}

  /** the token in the scan page's URL: only who got the QR code can open that order's page */
  scanToken(paymentId: string): string {
    return hmac(this.secret, `scan:${paymentId}`).slice(0, 32);
  }

  checkScanToken(paymentId: string, token: unknown): boolean {
    return typeof token === 'string' && safeEq(token, this.scanToken(paymentId));
  }

  async create(o: CreateOrderInput) {
    return {
      qrCode: `${o.baseUrl}/onlinePay/sandbox/scan?paymentId=${encodeURIComponent(o.paymentId)}&token=${this.scanToken(o.paymentId)}`,
    };
  }

  /** A signed notification, as the sandbox "pays" it (the scan page's 确认支付). */
  sign(n: Omit<SandboxNotice, 'sign' | 'timestamp' | 'nonce'> & { timestamp?: string; nonce?: string }): SandboxNotice {
    const full = {
      ...n,
      timestamp: n.timestamp ?? String(Date.now()),
      nonce: n.nonce ?? crypto.randomBytes(8).toString('hex'),
    };
    return { ...full, sign: hmac(this.secret, sandboxSignText(full)) };
  }

  async verify(req: NotifyRequest): Promise<VerifiedNotice | null> {
    const n = req.body;
    if (!notice.sandbox()(n) || !safeEq(n.sign, hmac(this.secret, sandboxSignText(n)))) return null;
    if (!/^\d+(?:\.\d{1,2})?$/.test(n.amount) || n.amount.length > 16) return null;
    return { paymentId: n.paymentId, tradeNo: n.tradeNo, amount: money2(n.amount), paid: n.status === 'SUCCESS' };
  }

  async query() {
    return null;
  }

  async close() {}
}

// ---------------------------------------------------------------------------------------------
// Alipay: 当面付 (alipay.trade.precreate) — a QR code the payer scans with the Alipay app

export class AlipayProvider implements PayProvider {
  readonly name = 'alipay' as const;
  readonly ack = { contentType: 'text/plain; charset=utf-8', body: 'success' };
  readonly sdk: AlipaySdk;

  constructor(
    cfg: AlipayConfig,
    private readonly publicUrl: string,
  ) {
    this.sdk = new AlipaySdk({
      appId: cfg.appId,
      privateKey: cfg.privateKey,
      alipayPublicKey: cfg.alipayPublicKey,
      gateway: cfg.gateway,
    });
  }

  async create(o: CreateOrderInput) {
    const r = await this.sdk.exec('alipay.trade.precreate', {
      notify_url: `${this.publicUrl || o.baseUrl}/onlinePay/notify/alipay`,
      bizContent: {
        out_trade_no: o.paymentId,
        total_amount: o.amount,
        subject: o.subject,
        time_expire: shanghaiTime(o.expiresAt),
      },
    });
    if (r.code !== '10000' || typeof r.qrCode !== 'string')
      throw new Error(`alipay.trade.precreate: ${r.code} ${r.subMsg ?? r.msg ?? ''}`);
    return { qrCode: r.qrCode };
  }

  /** asynchronous notification (form post): the SDK checks the RSA2 signature over the sorted fields */
  async verify(req: NotifyRequest): Promise<VerifiedNotice | null> {
    const b = req.body;
    if (!notice.alipay()(b)) return null;
    let ok: boolean;
    try {
      ok = this.sdk.checkNotifySignV2(b);
    } catch {
      ok = false;
    }
    if (!ok) return null;
    const paymentId = b.out_trade_no ?? '';
    const amount = b.total_amount ?? '';
    if (!paymentId || !/^\d+(?:\.\d{1,2})?$/.test(amount)) return null;
    const status = b.trade_status ?? '';
    return {
      paymentId,
      tradeNo: b.trade_no ?? '',
      amount: money2(amount),
      paid: status === 'TRADE_SUCCESS' || status === 'TRADE_FINISHED',
    };
  }

  async query(paymentId: string): Promise<ProviderQuery | null> {
    const r = await this.sdk.exec('alipay.trade.query', { bizContent: { out_trade_no: paymentId } });
    if (r.code !== '10000') return null;
    const status = String(r.tradeStatus ?? '');
    return {
      paid: status === 'TRADE_SUCCESS' || status === 'TRADE_FINISHED',
      tradeNo: String(r.tradeNo ?? ''),
      amount: money2(String(r.totalAmount ?? '0')),
    };
  }

  async close(paymentId: string) {
    await this.sdk.exec('alipay.trade.close', { bizContent: { out_trade_no: paymentId } }).catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------------
// WeChat Pay APIv3: Native 支付 (a code_url to show as a QR code)

export class WechatPayProvider implements PayProvider {
  readonly name = 'wechat' as const;
  readonly ack = {
    contentType: 'application/json; charset=utf-8',
    body: JSON.stringify({ code: 'SUCCESS', message: '成功' }),
  };
  readonly sdk: WxPay;

  constructor(
    private readonly cfg: WechatPayConfig,
    private readonly publicUrl: string,
  ) {
    this.sdk = new WxPay({
      appid: cfg.appId,
      mchid: cfg.mchId,
      serial_no: cfg.serialNo,
      publicKey: Buffer.from(cfg.certificate || ''),
      privateKey: Buffer.from(cfg.privateKey),
      key: cfg.apiV3Key,
    });
    // a configured platform public key verifies notifications without fetching certificates
    if (cfg.platformPublicKey && cfg.platformSerial) {
      (WxPay as unknown as { certificates: Record<string, string> }).certificates[cfg.platformSerial] =
        cfg.platformPublicKey;
    }
  }

  async create(o: CreateOrderInput) {
    const r = await this.sdk.transactions_native({
      description: o.subject,
      out_trade_no: o.paymentId,
      notify_url: `${this.publicUrl || o.baseUrl}/onlinePay/notify/wechat`,
      time_expire: rfc3339(o.expiresAt),
      amount: { total: fen(o.amount), currency: 'CNY' },
    });
    const url = (r.data as { code_url?: unknown } | undefined)?.code_url;
    if (r.status !== HTTP_OK || typeof url !== 'string')
      throw new Error(`wechat transactions_native: ${r.status} ${JSON.stringify(r.error ?? '')}`);
    return { qrCode: url };
  }

  /** the SDK checks the platform's RSA signature over timestamp\nnonce\nraw body\n, then decrypts the resource (AES-256-GCM, APIv3 key) */
  async verify(req: NotifyRequest): Promise<VerifiedNotice | null> {
    const h = (k: string) => {
      const v = req.headers[k];
      return typeof v === 'string' ? v : '';
    };
    const timestamp = h('wechatpay-timestamp');
    const nonce = h('wechatpay-nonce');
    const serial = h('wechatpay-serial');
    const signature = h('wechatpay-signature');
    if (!timestamp || !nonce || !serial || !signature || !req.raw) return null;
    // replays of an old notification: WeChat's timestamps are seconds; accept 5 minutes of skew
    if (!/^\d{1,12}$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return null;
    try {
      if (
        !(await this.sdk.verifySign({
          timestamp,
          nonce,
          serial,
          signature,
          body: req.raw,
          apiSecret: this.cfg.apiV3Key,
        }))
      )
        return null;
      if (!notice.wechat()(req.body)) return null;
      const resource = req.body.resource;
      const t = this.sdk.decipher_gcm<{
        out_trade_no?: string;
        transaction_id?: string;
        trade_state?: string;
        amount?: { total?: number };
      }>(resource.ciphertext, resource.associated_data ?? '', resource.nonce, this.cfg.apiV3Key);
      if (!t?.out_trade_no || !Number.isSafeInteger(t.amount?.total)) return null;
      return {
        paymentId: t.out_trade_no,
        tradeNo: t.transaction_id ?? '',
        amount: yuan(t.amount!.total!),
        paid: t.trade_state === 'SUCCESS',
      };
    } catch {
      return null;
    }
  }

  async query(paymentId: string): Promise<ProviderQuery | null> {
    const r = await this.sdk.query({ out_trade_no: paymentId });
    const d = r.data as { trade_state?: string; transaction_id?: string; amount?: { total?: number } } | undefined;
    if (r.status !== HTTP_OK || !d) return null;
    return { paid: d.trade_state === 'SUCCESS', tradeNo: d.transaction_id ?? '', amount: yuan(d.amount?.total ?? 0) };
  }

  async close(paymentId: string) {
    await this.sdk.close(paymentId).catch(() => undefined);
  }
}

/** yuan (decimal string) -> fen (integer) */
export const fen = (amount: string) => new Money(amount).times(100).toNumber();
/** fen -> yuan (decimal string) */
export const yuan = (total: number) => money2(new Money(total).div(100));

/** 'yyyy-MM-dd HH:mm:ss' in China time (Alipay's time_expire) */
function shanghaiTime(d: Date): string {
  const t = new Date(d.getTime() + 8 * 3600_000).toISOString();
  return `${t.slice(0, 10)} ${t.slice(11, 19)}`;
}

/** RFC 3339 with the +08:00 offset (WeChat Pay's time_expire) */
function rfc3339(d: Date): string {
  return `${new Date(d.getTime() + 8 * 3600_000).toISOString().slice(0, 19)}+08:00`;
}

/** The provider of each payment mode: the configured real one, else the sandbox when it is on (PAY_SANDBOX), else none. */
export class PayProviders {
  /** null unless the sandbox is on (config.pay.sandbox) */
  readonly sandbox: SandboxProvider | null;
  readonly alipay: AlipayProvider | null;
  readonly wechat: WechatPayProvider | null;

  constructor(cfg: PayConfig, dataDir: string) {
    this.sandbox = cfg.sandbox ? new SandboxProvider(loadSandboxSecret(cfg.sandboxSecret, dataDir)) : null;
    this.alipay = cfg.alipay ? new AlipayProvider(cfg.alipay, cfg.publicUrl) : null;
    this.wechat = cfg.wechat ? new WechatPayProvider(cfg.wechat, cfg.publicUrl) : null;
  }

  /** enums/payment-mode: 0 支付宝, 1 微信支付; null: the mode is not offered */
  forMode(mode: number): PayProvider | null {
    return (
      (mode === PaymentMode.Alipay ? this.alipay : mode === PaymentMode.WeChatPay ? this.wechat : null) ?? this.sandbox
    );
  }

  /** some payment mode is offered */
  get any(): boolean {
    return !!(this.alipay || this.wechat || this.sandbox);
  }

  byName(name: string): PayProvider | null {
    if (name === 'sandbox') return this.sandbox;
    if (name === 'alipay') return this.alipay;
    if (name === 'wechat') return this.wechat;
    return null;
  }
}

/**
 * Online payment settings (docs/api-pay.md). Alipay and WeChat Pay are used for their payment mode
 * when their keys are configured; the sandbox provider (a test payment that credits real balance
 * without money changing hands) only when `PAY_SANDBOX=1` — the embedded demo (no DATABASE_URL)
 * turns it on by default, a deployment on PostgreSQL never does by default. With neither, online
 * recharge is not offered (isOpenPay 0).
 */
import fs from 'node:fs';

export interface AlipayConfig {
  appId: string;
  /** the application's private key (PKCS#1 or PKCS#8 PEM, or its base64 body) */
  privateKey: string;
  /** Alipay's public key (verifies notifications and answers) */
  alipayPublicKey: string;
  /** default https://openapi.alipay.com/gateway.do */
  gateway: string;
}

export interface WechatPayConfig {
  appId: string;
  mchId: string;
  /** serial number of the merchant API certificate */
  serialNo: string;
  /** merchant API private key (apiclient_key.pem) */
  privateKey: string;
  /** merchant API certificate (apiclient_cert.pem) */
  certificate: string;
  /** APIv3 key (decrypts notifications) */
  apiV3Key: string;
  /** WeChat Pay platform public key / certificate and its serial (else fetched with the APIv3 key) */
  platformPublicKey: string;
  platformSerial: string;
}

export interface PayConfig {
  /** isOpenPay for agents: online recharge offered at all */
  open: boolean;
  /** an unpaid order is closed this long after it was created */
  orderTtlMs: number;
  /** unpaid orders an account may hold at once */
  maxOpenOrders: number;
  /**
   * the sandbox provider pays the modes without a real provider (PAY_SANDBOX=1; default on only in
   * the embedded demo): its orders are marked 沙箱 and never invoiceable
   */
  sandbox: boolean;
  /** HMAC key of the sandbox provider's notifications; '' = a random one kept in DATA_DIR/pay-sandbox-secret */
  sandboxSecret: string;
  /**
   * public base URL of this server's /api (PAY_PUBLIC_URL, e.g. https://sms.example.com/api): the
   * providers' notify_url and the sandbox QR link; needed for Alipay / WeChat Pay. Links are never
   * made from a request's Host header.
   */
  publicUrl: string;
  /** the server's own address when publicUrl is empty: http://localhost:PORT (its /api is used) */
  localUrl: string;
  alipay: AlipayConfig | null;
  wechat: WechatPayConfig | null;
}

export const DEFAULT_PAY_CONFIG: PayConfig = {
  open: true,
  orderTtlMs: 15 * 60_000,
  maxOpenOrders: 20,
  sandbox: false,
  sandboxSecret: '',
  publicUrl: '',
  localUrl: 'http://localhost:8080',
  alipay: null,
  wechat: null,
};

/** a PEM given inline, or the path of a file holding it */
function pem(v: string | undefined): string {
  const t = (v ?? '').trim();
  if (!t) return '';
  if (!t.includes('-----BEGIN') && fs.existsSync(t)) return fs.readFileSync(t, 'utf8');
  return t.replace(/\\n/g, '\n');
}

/** without trailing slashes (a loop, not /\/+$/: that regex is quadratic on many slashes) */
function trimSlashes(v: string): string {
  let end = v.length;
  while (end > 0 && v[end - 1] === '/') end--;
  return v.slice(0, end);
}

const flag = (v: string | undefined, dflt: boolean) => (v === undefined || v.trim() === '' ? dflt : !['0', 'false', 'no', 'off'].includes(v.trim().toLowerCase()));

/** The base URL of this server's /api for links handed out (the sandbox QR code): the configured one, never a request's Host. */
export function payApiBase(c: Pick<PayConfig, 'publicUrl' | 'localUrl'>): string {
  return c.publicUrl || `${c.localUrl}/api`;
}

export function payConfigFromEnv(env: NodeJS.ProcessEnv): PayConfig {
  const c: PayConfig = { ...DEFAULT_PAY_CONFIG };
  c.open = flag(env.PAY_OPEN, c.open);
  // opt-in; the embedded demo (no DATABASE_URL) has it on unless PAY_SANDBOX=0
  c.sandbox = flag(env.PAY_SANDBOX, !env.DATABASE_URL);
  const port = Number(env.PORT);
  c.localUrl = `http://localhost:${Number.isInteger(port) && port > 0 && port < 65536 ? port : 8080}`;
  const minutes = Number(env.PAY_ORDER_TTL_MINUTES);
  if (env.PAY_ORDER_TTL_MINUTES && Number.isFinite(minutes) && minutes > 0) c.orderTtlMs = minutes * 60_000;
  if (env.PAY_SANDBOX_SECRET) c.sandboxSecret = env.PAY_SANDBOX_SECRET;
  const publicUrl = (env.PAY_PUBLIC_URL ?? '').trim();
  if (publicUrl) {
    if (!/^https?:\/\/[^/?#\s]+(?:\/[^?#\s]*)?$/i.test(publicUrl)) throw new Error(`PAY_PUBLIC_URL: not an http(s) URL: ${publicUrl}`);
    c.publicUrl = trimSlashes(publicUrl);
  }
  if (env.ALIPAY_APP_ID && env.ALIPAY_PRIVATE_KEY && env.ALIPAY_PUBLIC_KEY) {
    c.alipay = {
      appId: env.ALIPAY_APP_ID,
      privateKey: pem(env.ALIPAY_PRIVATE_KEY),
      alipayPublicKey: pem(env.ALIPAY_PUBLIC_KEY),
      gateway: env.ALIPAY_GATEWAY || 'https://openapi.alipay.com/gateway.do',
    };
  }
  if (env.WECHATPAY_APP_ID && env.WECHATPAY_MCH_ID && env.WECHATPAY_SERIAL_NO && env.WECHATPAY_PRIVATE_KEY && env.WECHATPAY_API_V3_KEY) {
    c.wechat = {
      appId: env.WECHATPAY_APP_ID,
      mchId: env.WECHATPAY_MCH_ID,
      serialNo: env.WECHATPAY_SERIAL_NO,
      privateKey: pem(env.WECHATPAY_PRIVATE_KEY),
      certificate: pem(env.WECHATPAY_CERTIFICATE),
      apiV3Key: env.WECHATPAY_API_V3_KEY,
      platformPublicKey: pem(env.WECHATPAY_PLATFORM_PUBLIC_KEY),
      platformSerial: env.WECHATPAY_PLATFORM_SERIAL ?? '',
    };
  }
  return c;
}

/**
 * Online payment settings (docs/api-pay.md). Alipay and WeChat Pay are used for their payment mode
 * when their keys are configured; the sandbox provider (a test payment that credits real balance
 * without money changing hands) only when `PAY_SANDBOX=1` — the embedded demo (no DATABASE_URL)
 * turns it on by default, a deployment on PostgreSQL never does by default. With neither, online
 * recharge is not offered (isOpenPay 0).
 */
import fs from 'node:fs';
import { ENV_DEFAULTS, type ServerEnv } from '../../env';

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

/** The base URL of this server's /api for links handed out (the sandbox QR code): the configured one, never a request's Host. */
export function payApiBase(c: Pick<PayConfig, 'publicUrl' | 'localUrl'>): string {
  return c.publicUrl || `${c.localUrl}/api`;
}

/**
 * The payment settings from PAY_*, ALIPAY_*, WECHATPAY_* (and PORT, DATABASE_URL), as loadConfig()
 * read and checked them (schemas/config/env.json: the key sets that go together, the public URL).
 */
export function payConfigFromEnv(env: ServerEnv): PayConfig {
  const c: PayConfig = {
    open: env.PAY_OPEN,
    orderTtlMs: env.PAY_ORDER_TTL_MINUTES * 60_000,
    maxOpenOrders: 20,
    // opt-in; the embedded demo (no DATABASE_URL) has it on unless PAY_SANDBOX=0
    sandbox: env.PAY_SANDBOX ?? !env.DATABASE_URL,
    sandboxSecret: env.PAY_SANDBOX_SECRET ?? '',
    publicUrl: env.PAY_PUBLIC_URL ? trimSlashes(env.PAY_PUBLIC_URL) : '',
    localUrl: `http://localhost:${env.PORT > 0 ? env.PORT : ENV_DEFAULTS.PORT}`,
    alipay: null,
    wechat: null,
  };
  if (env.ALIPAY_APP_ID && env.ALIPAY_PRIVATE_KEY && env.ALIPAY_PUBLIC_KEY) {
    c.alipay = {
      appId: env.ALIPAY_APP_ID,
      privateKey: pem(env.ALIPAY_PRIVATE_KEY),
      alipayPublicKey: pem(env.ALIPAY_PUBLIC_KEY),
      gateway: env.ALIPAY_GATEWAY,
    };
  }
  if (
    env.WECHATPAY_APP_ID &&
    env.WECHATPAY_MCH_ID &&
    env.WECHATPAY_SERIAL_NO &&
    env.WECHATPAY_PRIVATE_KEY &&
    env.WECHATPAY_API_V3_KEY
  ) {
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

/** The settings of an empty environment, with the sandbox off: buildApp's default (tests turn what they need on). */
export const DEFAULT_PAY_CONFIG: PayConfig = { ...payConfigFromEnv(ENV_DEFAULTS), sandbox: false };

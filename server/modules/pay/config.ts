/**
 * Online payment settings (docs/api-pay.md). The sandbox provider is always there; Alipay and
 * WeChat Pay are used for their payment mode only when their keys are configured.
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
  /** HMAC key of the sandbox provider's notifications; '' = a random one kept in DATA_DIR/pay-sandbox-secret */
  sandboxSecret: string;
  /** public https base URL of this server (the providers' notify_url); needed for Alipay / WeChat Pay */
  publicUrl: string;
  alipay: AlipayConfig | null;
  wechat: WechatPayConfig | null;
}

export const DEFAULT_PAY_CONFIG: PayConfig = {
  open: true,
  orderTtlMs: 15 * 60_000,
  maxOpenOrders: 20,
  sandboxSecret: '',
  publicUrl: '',
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

export function payConfigFromEnv(env: NodeJS.ProcessEnv): PayConfig {
  const c: PayConfig = { ...DEFAULT_PAY_CONFIG };
  if (env.PAY_OPEN !== undefined && env.PAY_OPEN !== '') c.open = !['0', 'false', 'no', 'off'].includes(env.PAY_OPEN.toLowerCase());
  const minutes = Number(env.PAY_ORDER_TTL_MINUTES);
  if (env.PAY_ORDER_TTL_MINUTES && Number.isFinite(minutes) && minutes > 0) c.orderTtlMs = minutes * 60_000;
  if (env.PAY_SANDBOX_SECRET) c.sandboxSecret = env.PAY_SANDBOX_SECRET;
  if (env.PAY_PUBLIC_URL) c.publicUrl = trimSlashes(env.PAY_PUBLIC_URL);
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

/**
 * The payment adapters' signature paths without network: notifications signed here with keys
 * made here are verified by the SDKs (alipay-sdk checkNotifySignV2; wechatpay-node-v3 verifySign +
 * decipher_gcm) behind our adapters; anything altered is refused. The sandbox's HMAC too.
 */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AlipayProvider, SandboxProvider, WechatPayProvider, fen, yuan } from '../../server/modules/pay/providers';

const pair = () =>
  crypto.generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });

describe('Alipay adapter (alipay-sdk)', () => {
  const app = pair();
  const alipay = pair(); // Alipay's key pair: we sign as Alipay would
  const provider = new AlipayProvider(
    {
      appId: '2021000000000000',
      privateKey: app.privateKey,
      alipayPublicKey: alipay.publicKey,
      gateway: 'https://openapi.alipay.com/gateway.do',
    },
    'https://pay.example.com/api',
  );
  const sign = (fields: Record<string, string>) => {
    const text = Object.keys(fields)
      .sort()
      .map((k) => `${k}=${fields[k]}`)
      .join('&');
    return { ...fields, sign: crypto.createSign('RSA-SHA256').update(text).sign(alipay.privateKey, 'base64') };
  };
  const notice = {
    out_trade_no: 'P2026112500000012345678',
    trade_no: '2026112522001',
    total_amount: '123.45',
    trade_status: 'TRADE_SUCCESS',
    sign_type: 'RSA2',
    notify_time: '2026-11-25 10:00:00',
  };

  it('accepts a notification signed with Alipay’s key', async () => {
    const v = await provider.verify({ body: sign(notice), raw: '', headers: {} });
    expect(v).toEqual({ paymentId: 'P2026112500000012345678', tradeNo: '2026112522001', amount: '123.45', paid: true });
  });

  it('refuses an altered amount, another key, no signature', async () => {
    const signed = sign(notice);
    expect(await provider.verify({ body: { ...signed, total_amount: '9999.00' }, raw: '', headers: {} })).toBeNull();
    const other = pair();
    const forged = { ...notice, sign: crypto.createSign('RSA-SHA256').update('x').sign(other.privateKey, 'base64') };
    expect(await provider.verify({ body: forged, raw: '', headers: {} })).toBeNull();
    expect(await provider.verify({ body: notice, raw: '', headers: {} })).toBeNull();
    expect(await provider.verify({ body: null, raw: '', headers: {} })).toBeNull();
  });

  it('a WAIT_BUYER_PAY notification is verified but not paid', async () => {
    const v = await provider.verify({
      body: sign({ ...notice, trade_status: 'WAIT_BUYER_PAY' }),
      raw: '',
      headers: {},
    });
    expect(v?.paid).toBe(false);
  });
});

describe('WeChat Pay adapter (wechatpay-node-v3)', () => {
  const merchant = pair();
  const platform = pair();
  const apiV3Key = 'abcdefghijklmnopqrstuvwxyz012345'; // 32 bytes
  const provider = new WechatPayProvider(
    {
      appId: 'wx0000000000000000',
      mchId: '1900000000',
      serialNo: 'MERCHANTSERIAL',
      privateKey: merchant.privateKey,
      certificate: '',
      apiV3Key,
      platformPublicKey: platform.publicKey,
      platformSerial: 'PLATFORMSERIAL',
    },
    'https://pay.example.com/api',
  );
  const encrypt = (plain: object) => {
    const nonce = crypto.randomBytes(6).toString('hex'); // 12 characters
    const cipher = crypto.createCipheriv('aes-256-gcm', Buffer.from(apiV3Key), Buffer.from(nonce));
    cipher.setAAD(Buffer.from('transaction'));
    const enc = Buffer.concat([cipher.update(JSON.stringify(plain)), cipher.final(), cipher.getAuthTag()]);
    return {
      algorithm: 'AEAD_AES_256_GCM',
      ciphertext: enc.toString('base64'),
      associated_data: 'transaction',
      nonce,
      original_type: 'transaction',
    };
  };
  const notify = (
    transaction: object,
    opts: { key?: string; timestamp?: number; serial?: string; tamper?: (raw: string) => string } = {},
  ) => {
    const raw = JSON.stringify({
      id: 'EV-1',
      event_type: 'TRANSACTION.SUCCESS',
      resource_type: 'encrypt-resource',
      resource: encrypt(transaction),
    });
    const timestamp = String(opts.timestamp ?? Math.floor(Date.now() / 1000));
    const nonce = crypto.randomBytes(8).toString('hex');
    const signature = crypto
      .createSign('RSA-SHA256')
      .update(`${timestamp}\n${nonce}\n${raw}\n`)
      .sign(opts.key ?? platform.privateKey, 'base64');
    const sent = opts.tamper ? opts.tamper(raw) : raw;
    return {
      body: JSON.parse(sent),
      raw: sent,
      headers: {
        'wechatpay-timestamp': timestamp,
        'wechatpay-nonce': nonce,
        'wechatpay-serial': opts.serial ?? 'PLATFORMSERIAL',
        'wechatpay-signature': signature,
      },
    };
  };
  const paid = {
    out_trade_no: 'P2026112500000087654321',
    transaction_id: '4200000001',
    trade_state: 'SUCCESS',
    amount: { total: 12345, currency: 'CNY' },
  };

  it('accepts a notification signed with the platform key and decrypts it', async () => {
    expect(await provider.verify(notify(paid))).toEqual({
      paymentId: 'P2026112500000087654321',
      tradeNo: '4200000001',
      amount: '123.45',
      paid: true,
    });
  });

  it('refuses another key, an altered body, an old timestamp, missing headers', async () => {
    expect(await provider.verify(notify(paid, { key: pair().privateKey }))).toBeNull();
    expect(await provider.verify(notify(paid, { tamper: (raw) => raw.replace('EV-1', 'EV-2') }))).toBeNull();
    expect(await provider.verify(notify(paid, { timestamp: Math.floor(Date.now() / 1000) - 3600 }))).toBeNull();
    const n = notify(paid);
    expect(await provider.verify({ ...n, headers: {} })).toBeNull();
  });

  it('a NOTPAY transaction is verified but not paid', async () => {
    expect((await provider.verify(notify({ ...paid, trade_state: 'NOTPAY' })))?.paid).toBe(false);
  });

  it('converts yuan and fen exactly', () => {
    expect(fen('0.01')).toBe(1);
    expect(fen('19.99')).toBe(1999);
    expect(fen('1000000.00')).toBe(100000000);
    expect(yuan(1999)).toBe('19.99');
    expect(yuan(1)).toBe('0.01');
  });
});

describe('sandbox provider', () => {
  const sandbox = new SandboxProvider('test-secret');
  it('verifies its own HMAC and nothing else', async () => {
    const n = sandbox.sign({ paymentId: 'P1', tradeNo: 'T1', amount: '10.00', status: 'SUCCESS' });
    expect(await sandbox.verify({ body: n, raw: '', headers: {} })).toEqual({
      paymentId: 'P1',
      tradeNo: 'T1',
      amount: '10.00',
      paid: true,
    });
    expect(await sandbox.verify({ body: { ...n, amount: '11.00' }, raw: '', headers: {} })).toBeNull();
    expect(await new SandboxProvider('other').verify({ body: n, raw: '', headers: {} })).toBeNull();
    expect(sandbox.checkScanToken('P1', sandbox.scanToken('P1'))).toBe(true);
    expect(sandbox.checkScanToken('P2', sandbox.scanToken('P1'))).toBe(false);
  });
});

describe('sandbox provider: hostile values', () => {
  const sandbox = new SandboxProvider('test-secret');
  it('refuses multibyte or odd tokens and signatures without throwing', async () => {
    const token = sandbox.scanToken('P1');
    expect(sandbox.checkScanToken('P1', '签'.repeat(token.length))).toBe(false);
    expect(sandbox.checkScanToken('P1', ['x'])).toBe(false);
    const n = sandbox.sign({ paymentId: 'P1', tradeNo: 'T1', amount: '10.00', status: 'SUCCESS' });
    expect(
      await sandbox.verify({ body: { ...n, sign: '签'.repeat(n.sign!.length) }, raw: '', headers: {} }),
    ).toBeNull();
    expect(await sandbox.verify({ body: { ...n, amount: '1e5' }, raw: '', headers: {} })).toBeNull();
  });
});

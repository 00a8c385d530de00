/**
 * SMPP_URL → the settings of the carrier link (client.ts). Rules: docs/api-dispatch.md
 * "SMPP link and simulator".
 *
 *   smpp://system_id:password@host:port?window=200&connections=1&source=106900001
 *   smpps://...  (TLS; `tls_insecure=1` accepts a self-signed certificate)
 *
 * Query options (all optional): window, connections, source, system_type, enquire_ms,
 * timeout_ms, connect_timeout_ms, reconnect_min_ms, reconnect_max_ms, queue_wait_ms,
 * throttle_ms, receipt_batch, receipt_batch_ms, receipt_flushes, ref_tlv (vendor TLV tag for our ref; default 0 =
 * none: most SMSCs refuse unknown TLVs; the embedded simulator's link sets 0x1401), receipt_id (auto, exact, hex,
 * dec: how a receipt's message id is matched, server/lib/smpp-pdu.ts idReadings),
 * tz (UTC offset of the SMSC's receipt dates in minutes, default 480 = Asia/Shanghai),
 * long (udh, sar, payload: how a text over one SMS goes; default udh), coding (gsm7, ia5, latin1:
 * the data_coding of texts that fit GSM 03.38, UCS2 otherwise; default ia5), tls_insecure. User name and password are percent-decoded.
 *
 *   cmpp://sp_id:secret@host:port?version=3&service_id=MJS0019901&src_id=1069000&msg_src=900001
 *
 * China Mobile's CMPP 2.0 / 3.0 (cmpp-client.ts, docs/api-dispatch.md "CMPP link"): the user is
 * the SP id (Source_Addr, at most 6 characters), the password the shared secret; options version
 * (2 or 3, default 2), service_id (Service_Id, ≤ 10), src_id (the channel's number: Src_Id = src_id
 * + what a message's source carries beyond the platform's prefix `prefix`, ≤ 21), msg_src (Msg_src,
 * default the SP id), prefix (default the dispatcher's SMS_SOURCE_PREFIX), and window,
 * connections, enquire_ms (CMPP_ACTIVE_TEST period, default 10000), timeout_ms,
 * connect_timeout_ms, reconnect_min_ms, reconnect_max_ms, queue_wait_ms, throttle_ms,
 * receipt_batch, receipt_batch_ms, receipt_flushes, tz as for SMPP.
 *
 *   smgp://client_id:secret@host:port?sp_id=10690001&src=1069000&service_id=MJS0019901
 *   sgip://login:password@host:port?corp_id=12345&sp_number=10655001&node_id=3000012345&callback_port=8802&callback_user=smg&callback_password=secret2
 *
 * China Telecom's SMGP 3.0 (smgp-client.ts, docs/api-dispatch.md "SMGP link"): the user is the
 * ClientID (at most 8 characters), the password the shared secret; options sp_id (the MsgSrc TLV,
 * ≤ 8, default the ClientID), src (the channel's number: SrcTermID = src + what a message's source
 * carries beyond the platform's prefix `prefix`, ≤ 21), service_id (ServiceID, ≤ 10), prefix,
 * and the same timing and window options as cmpp:// (enquire_ms: SMGP_ACTIVE_TEST period).
 *
 * China Unicom's SGIP 1.2 (sgip-client.ts, docs/api-dispatch.md "SGIP link"): the user and
 * password are the Login_Name / Login_Password (≤ 16 each) the link binds to the SMG with (Login_Type
 * 1, default port 8801); options corp_id (CorpId, ≤ 5), sp_number (the channel's number: SPNumber
 * = sp_number + what a message's source carries beyond the platform's prefix `prefix`, ≤ 21),
 * service_type (ServiceType, ≤ 10), node_id (this side's node id in the sequence numbers, default
 * 3 000 000 000 + corp_id), callback_port (the listener the SMG binds back to with Login_Type 2 for
 * reports and uplinks; 0 any free port, absent: none), callback_host (its address, default
 * 0.0.0.0), callback_user / callback_password (the login the SMG must bind back with; both empty:
 * not checked), prefix, and window, connections, timeout_ms, connect_timeout_ms, reconnect_min_ms,
 * reconnect_max_ms, queue_wait_ms, throttle_ms, receipt_batch, receipt_batch_ms, receipt_flushes,
 * tz as for SMPP (SGIP has no keep-alive packet).
 */

import type { LinkCoding, LongMode, ReceiptIdMode } from '../../lib/smpp-pdu';
import carrierEnum from '../../../schemas/enums/carrier.json';
import smsTypeEnum from '../../../schemas/enums/sms-type.json';
import { Carrier, SmsType, type ServerEnv } from '../../../common/generated/schemas';
import type { SimulatorSettings } from './simulator';
import { messageOf } from '../../lib/error-code';
// the carriers a channel may list: the domestic ones (国际 is `international`)
import { isCarrierCode } from '../billing';

/** the carrier protocol a URL names: smpp:// and smpps:// → smpp, cmpp:// → cmpp, smgp:// → smgp, sgip:// → sgip */
export type SmscProtocol = 'smpp' | 'cmpp' | 'smgp' | 'sgip';

/** the SGIP link's own settings (sgip:// URLs) */
export interface SgipSettings {
  /** CorpId (≤ 5) */
  corpId: string;
  /** the channel's number: SPNumber = spNumber + the request's `from` beyond `prefix` (≤ 21 in all) */
  spNumber: string;
  /** ServiceType (≤ 10) */
  serviceType: string;
  /** this side's node id (the first number of every sequence number) */
  nodeId: number;
  /** the listener the SMG binds back to (0: any free port); null: no listener */
  callbackPort: number | null;
  callbackHost: string;
  /** the Login_Name / Login_Password the SMG binds back with ('' both: not checked) */
  callbackUser: string;
  callbackPassword: string;
  /** the platform's prefix of a request's `from`; null: the dispatcher's (SMS_SOURCE_PREFIX) */
  prefix: string | null;
}

/** the CMPP link's own settings (cmpp:// URLs) */
export interface CmppSettings {
  version: 2 | 3;
  /** Service_Id (≤ 10) */
  serviceId: string;
  /** the channel's number: Src_Id = srcId + the request's `from` beyond `prefix` (≤ 21 in all) */
  srcId: string;
  /** Msg_src (≤ 6): the SP id by default */
  msgSrc: string;
  /** the platform's prefix of a request's `from`; null: the dispatcher's (SMS_SOURCE_PREFIX) */
  prefix: string | null;
}

/** the SMGP link's own settings (smgp:// URLs) */
export interface SmgpSettings {
  /** ServiceID (≤ 10) */
  serviceId: string;
  /** the channel's number: SrcTermID = src + the request's `from` beyond `prefix` (≤ 21 in all) */
  src: string;
  /** the MsgSrc TLV (≤ 8): the SP's code, the ClientID by default */
  spId: string;
  /** the platform's prefix of a request's `from`; null: the dispatcher's (SMS_SOURCE_PREFIX) */
  prefix: string | null;
}

export interface SmscConfig {
  protocol: SmscProtocol;
  /** protocol 'cmpp' only */
  cmpp?: CmppSettings;
  /** protocol 'smgp' only */
  smgp?: SmgpSettings;
  /** protocol 'sgip' only */
  sgip?: SgipSettings;
  host: string;
  port: number;
  tls: boolean;
  /** smpps: verify the SMSC's certificate (tls_insecure=1 turns it off) */
  tlsVerify: boolean;
  systemId: string;
  password: string;
  systemType: string;
  /** submits in flight per connection */
  window: number;
  connections: number;
  /** source address used when a request has no `from` */
  sourceAddr: string;
  enquireLinkMs: number;
  /** a submit without submit_sm_resp after this long is 'unconfirmed' */
  submitTimeoutMs: number;
  connectTimeoutMs: number;
  reconnectMinMs: number;
  reconnectMaxMs: number;
  /** a request not written within this long (link down / throttled) gets 'retry' */
  queueWaitMs: number;
  /** first pause after a throttling answer (doubled up to 16×) */
  throttleMs: number;
  receiptBatch: number;
  receiptBatchMs: number;
  /** receipt (and MO) batches in the handler at once: while one is being written, the next fills and is written beside it (the SMSC's window of unacknowledged deliver_sm keeps coming) */
  receiptFlushes: number;
  /** vendor TLV tag (0x1400-0x3FFF) carrying sms_messages.id in every submit_sm; 0 = not sent (default) */
  refTlv: number;
  /** how receipts' message ids are matched to the submit_sm_resp ids (hex ↔ decimal readings) */
  receiptIds: ReceiptIdMode;
  /** UTC offset (minutes) of the `done date` in receipts */
  tzMinutes: number;
  /** a text over one SMS: parts with a UDH (esm_class 0x40), parts with the SAR TLVs, or one submit with message_payload */
  long: LongMode;
  /** data_coding of texts that fit GSM 03.38: gsm7 0x00, ia5 0x01, latin1 0x03 (UCS2 0x08 otherwise) */
  coding: LinkCoding;
}

export const SMSC_DEFAULTS: Omit<SmscConfig, 'host' | 'port' | 'systemId' | 'password'> = {
  protocol: 'smpp',
  tls: false,
  tlsVerify: true,
  systemType: '',
  window: 200,
  connections: 1,
  sourceAddr: '',
  enquireLinkMs: 30_000,
  submitTimeoutMs: 30_000,
  connectTimeoutMs: 10_000,
  reconnectMinMs: 500,
  reconnectMaxMs: 30_000,
  queueWaitMs: 10_000,
  throttleMs: 200,
  receiptBatch: 500,
  receiptBatchMs: 20,
  receiptFlushes: 2,
  refTlv: 0,
  receiptIds: 'auto',
  tzMinutes: 480,
  long: 'udh',
  coding: 'ia5',
};

/** the vendor TLV tag the embedded simulator and our own links use for the ref (the simulator counts submits by it) */
export const SIM_REF_TLV = 0x1401;

export class SmppUrlError extends Error {
  constructor(message: string) {
    super(`SMPP_URL: ${message}`);
    this.name = 'SmppUrlError';
  }
}

type NumKey =
  | 'window'
  | 'connections'
  | 'enquireLinkMs'
  | 'submitTimeoutMs'
  | 'connectTimeoutMs'
  | 'reconnectMinMs'
  | 'reconnectMaxMs'
  | 'queueWaitMs'
  | 'throttleMs'
  | 'receiptBatch'
  | 'receiptBatchMs'
  | 'receiptFlushes';

/** query name → field, bounds */
const NUMBERS: Record<string, [NumKey, number, number]> = {
  window: ['window', 1, 10_000],
  connections: ['connections', 1, 32],
  enquire_ms: ['enquireLinkMs', 1000, 3_600_000],
  timeout_ms: ['submitTimeoutMs', 100, 600_000],
  connect_timeout_ms: ['connectTimeoutMs', 100, 600_000],
  reconnect_min_ms: ['reconnectMinMs', 10, 600_000],
  reconnect_max_ms: ['reconnectMaxMs', 10, 3_600_000],
  queue_wait_ms: ['queueWaitMs', 0, 600_000],
  throttle_ms: ['throttleMs', 1, 600_000],
  receipt_batch: ['receiptBatch', 1, 10_000],
  receipt_batch_ms: ['receiptBatchMs', 0, 10_000],
  receipt_flushes: ['receiptFlushes', 1, 8],
};

function intParam(name: string, raw: string, min: number, max: number): number {
  const t = raw.trim();
  const n = /^0x[0-9a-f]{1,8}$/i.test(t) ? parseInt(t, 16) : /^\d{1,10}$/.test(t) ? Number(t) : NaN;
  if (!Number.isInteger(n) || n < min || n > max)
    throw new SmppUrlError(`${name} must be an integer from ${min} to ${max} (got "${t.slice(0, 20)}")`);
  return n;
}

function decode(part: string, what: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new SmppUrlError(`bad percent-encoding in the ${what}`);
  }
}

const PRINTABLE = /^[\x20-\x7e]*$/;

/** Parses SMPP_URL; throws SmppUrlError with a clear message (never echoing the password). */
export function parseSmppUrl(raw: string): SmscConfig {
  const text = (raw ?? '').trim();
  if (!text) throw new SmppUrlError('empty');
  if (text.length > 2000) throw new SmppUrlError('too long');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new SmppUrlError('not a URL (expected smpp://system_id:password@host:port)');
  }
  if (url.protocol === 'cmpp:') return parseCmppUrl(url);
  if (url.protocol === 'smgp:') return parseSmgpUrl(url);
  if (url.protocol === 'sgip:') return parseSgipUrl(url);
  if (url.protocol !== 'smpp:' && url.protocol !== 'smpps:') {
    throw new SmppUrlError(
      `scheme must be smpp://, smpps://, cmpp://, smgp:// or sgip:// (got ${url.protocol.slice(0, 20)})`,
    );
  }
  const tls = url.protocol === 'smpps:';
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (!host) throw new SmppUrlError('no host (expected smpp://system_id:password@host:port)');
  const port = url.port ? Number(url.port) : tls ? 3550 : 2775;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new SmppUrlError('bad port');
  const systemId = decode(url.username, 'system_id');
  const password = decode(url.password, 'password');
  if (!systemId) throw new SmppUrlError('no system_id (expected smpp://system_id:password@host:port)');
  if (systemId.length > 15 || !PRINTABLE.test(systemId))
    throw new SmppUrlError('system_id must be 1-15 printable ASCII characters');
  if (password.length > 8 || !PRINTABLE.test(password))
    throw new SmppUrlError('password must be at most 8 printable ASCII characters');
  if (url.pathname && url.pathname !== '/' && url.pathname !== '')
    throw new SmppUrlError('unexpected path (options go in the query: ?window=200)');

  const cfg: SmscConfig = { ...SMSC_DEFAULTS, host, port, tls, systemId, password };
  for (const [key, value] of url.searchParams) {
    const k = key.toLowerCase();
    const num = NUMBERS[k];
    if (num) cfg[num[0]] = intParam(k, value, num[1], num[2]);
    else if (k === 'source' || k === 'source_addr') {
      if (value.length > 20 || !PRINTABLE.test(value))
        throw new SmppUrlError('source must be at most 20 printable ASCII characters');
      cfg.sourceAddr = value;
    } else if (k === 'system_type') {
      if (value.length > 12 || !PRINTABLE.test(value))
        throw new SmppUrlError('system_type must be at most 12 printable ASCII characters');
      cfg.systemType = value;
    } else if (k === 'ref_tlv') {
      const tag = intParam(k, value, 0, 0x3fff);
      if (tag !== 0 && tag < 0x1400)
        throw new SmppUrlError('ref_tlv must be a vendor tag from 0x1400 to 0x3FFF (or 0 for none)');
      cfg.refTlv = tag;
    } else if (k === 'receipt_id') {
      const v = value.trim().toLowerCase();
      if (v !== 'auto' && v !== 'exact' && v !== 'hex' && v !== 'dec')
        throw new SmppUrlError('receipt_id must be auto, exact, hex or dec');
      cfg.receiptIds = v;
    } else if (k === 'long') {
      const v = value.trim().toLowerCase();
      if (v !== 'udh' && v !== 'sar' && v !== 'payload') throw new SmppUrlError('long must be udh, sar or payload');
      cfg.long = v;
    } else if (k === 'coding') {
      const v = value.trim().toLowerCase();
      if (v !== 'gsm7' && v !== 'ia5' && v !== 'latin1') throw new SmppUrlError('coding must be gsm7, ia5 or latin1');
      cfg.coding = v;
    } else if (k === 'tz') {
      const t = value.trim();
      const n = /^[+-]?\d{1,4}$/.test(t) ? Number(t) : NaN;
      if (!Number.isInteger(n) || n < -720 || n > 840)
        throw new SmppUrlError('tz must be a UTC offset in minutes from -720 to 840');
      cfg.tzMinutes = n;
    } else if (k === 'tls_insecure') {
      cfg.tlsVerify = !['1', 'true', 'yes', 'on'].includes(value.toLowerCase());
    } else {
      throw new SmppUrlError(`unknown option "${key.slice(0, 40)}"`);
    }
  }
  if (cfg.reconnectMaxMs < cfg.reconnectMinMs)
    throw new SmppUrlError('reconnect_max_ms must be at least reconnect_min_ms');
  return cfg;
}

const DIGITS = /^\d*$/;

/** a cmpp:// URL (already read by URL) → the CMPP link's settings */
function parseCmppUrl(url: URL): SmscConfig {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (!host) throw new SmppUrlError('no host (expected cmpp://sp_id:secret@host:port)');
  const port = url.port ? Number(url.port) : 7890;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new SmppUrlError('bad port');
  const systemId = decode(url.username, 'SP id');
  const password = decode(url.password, 'secret');
  if (!systemId || systemId.length > 6 || !PRINTABLE.test(systemId))
    throw new SmppUrlError('the SP id (cmpp://sp_id:secret@…) must be 1-6 printable ASCII characters');
  if (password.length > 64 || !PRINTABLE.test(password))
    throw new SmppUrlError('the secret must be at most 64 printable ASCII characters');
  if (url.pathname && url.pathname !== '/' && url.pathname !== '')
    throw new SmppUrlError('unexpected path (options go in the query: ?version=3)');
  const cmpp: CmppSettings = { version: 2, serviceId: '', srcId: '', msgSrc: systemId, prefix: null };
  const cfg: SmscConfig = {
    ...SMSC_DEFAULTS,
    protocol: 'cmpp',
    cmpp,
    enquireLinkMs: 10_000,
    host,
    port,
    tls: false,
    systemId,
    password,
  };
  const text = (k: string, value: string, max: number, digits = false) => {
    if (value.length > max || !PRINTABLE.test(value) || (digits && !DIGITS.test(value)))
      throw new SmppUrlError(`${k} must be at most ${max} ${digits ? 'digits' : 'printable ASCII characters'}`);
    return value;
  };
  for (const [key, value] of url.searchParams) {
    const k = key.toLowerCase();
    const num = NUMBERS[k];
    if (num) cfg[num[0]] = intParam(k, value, num[1], num[2]);
    else if (k === 'version') {
      const v = value.trim();
      if (v !== '2' && v !== '3' && v !== '20' && v !== '30' && v !== '0x20' && v !== '0x30')
        throw new SmppUrlError('version must be 2 or 3');
      cmpp.version = v.includes('3') ? 3 : 2;
    } else if (k === 'service_id') cmpp.serviceId = text(k, value, 10);
    else if (k === 'src_id') cmpp.srcId = text(k, value, 21, true);
    else if (k === 'msg_src') cmpp.msgSrc = text(k, value, 6);
    else if (k === 'prefix') cmpp.prefix = text(k, value, 12, true);
    else if (k === 'tz') {
      const t = value.trim();
      const n = /^[+-]?\d{1,4}$/.test(t) ? Number(t) : NaN;
      if (!Number.isInteger(n) || n < -720 || n > 840)
        throw new SmppUrlError('tz must be a UTC offset in minutes from -720 to 840');
      cfg.tzMinutes = n;
    } else throw new SmppUrlError(`unknown option "${key.slice(0, 40)}" for cmpp://`);
  }
  if (cfg.reconnectMaxMs < cfg.reconnectMinMs)
    throw new SmppUrlError('reconnect_max_ms must be at least reconnect_min_ms');
  return cfg;
}

/** an smgp:// URL (already read by URL) → the SMGP link's settings */
function parseSmgpUrl(url: URL): SmscConfig {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (!host) throw new SmppUrlError('no host (expected smgp://client_id:secret@host:port)');
  const port = url.port ? Number(url.port) : 8890;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new SmppUrlError('bad port');
  const systemId = decode(url.username, 'ClientID');
  const password = decode(url.password, 'secret');
  if (!systemId || systemId.length > 8 || !PRINTABLE.test(systemId))
    throw new SmppUrlError('the ClientID (smgp://client_id:secret@…) must be 1-8 printable ASCII characters');
  if (password.length > 64 || !PRINTABLE.test(password))
    throw new SmppUrlError('the secret must be at most 64 printable ASCII characters');
  if (url.pathname && url.pathname !== '/' && url.pathname !== '')
    throw new SmppUrlError('unexpected path (options go in the query: ?src=1069000)');
  const smgp: SmgpSettings = { serviceId: '', src: '', spId: systemId, prefix: null };
  const cfg: SmscConfig = {
    ...SMSC_DEFAULTS,
    protocol: 'smgp',
    smgp,
    enquireLinkMs: 10_000,
    host,
    port,
    tls: false,
    systemId,
    password,
  };
  const text = (k: string, value: string, max: number, digits = false) => {
    if (value.length > max || !PRINTABLE.test(value) || (digits && !DIGITS.test(value)))
      throw new SmppUrlError(`${k} must be at most ${max} ${digits ? 'digits' : 'printable ASCII characters'}`);
    return value;
  };
  for (const [key, value] of url.searchParams) {
    const k = key.toLowerCase();
    const num = NUMBERS[k];
    if (num) cfg[num[0]] = intParam(k, value, num[1], num[2]);
    else if (k === 'service_id') smgp.serviceId = text(k, value, 10);
    else if (k === 'src' || k === 'src_id') smgp.src = text(k, value, 21, true);
    else if (k === 'sp_id' || k === 'msg_src') smgp.spId = text(k, value, 8);
    else if (k === 'prefix') smgp.prefix = text(k, value, 12, true);
    else if (k === 'tz') {
      const t = value.trim();
      const n = /^[+-]?\d{1,4}$/.test(t) ? Number(t) : NaN;
      if (!Number.isInteger(n) || n < -720 || n > 840)
        throw new SmppUrlError('tz must be a UTC offset in minutes from -720 to 840');
      cfg.tzMinutes = n;
    } else throw new SmppUrlError(`unknown option "${key.slice(0, 40)}" for smgp://`);
  }
  if (cfg.reconnectMaxMs < cfg.reconnectMinMs)
    throw new SmppUrlError('reconnect_max_ms must be at least reconnect_min_ms');
  return cfg;
}

/** an sgip:// URL (already read by URL) → the SGIP link's settings */
function parseSgipUrl(url: URL): SmscConfig {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (!host) throw new SmppUrlError('no host (expected sgip://login:password@host:port)');
  const port = url.port ? Number(url.port) : 8801;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new SmppUrlError('bad port');
  const systemId = decode(url.username, 'login');
  const password = decode(url.password, 'password');
  if (!systemId || systemId.length > 16 || !PRINTABLE.test(systemId))
    throw new SmppUrlError('the login (sgip://login:password@…) must be 1-16 printable ASCII characters');
  if (password.length > 16 || !PRINTABLE.test(password))
    throw new SmppUrlError('the password must be at most 16 printable ASCII characters');
  if (url.pathname && url.pathname !== '/' && url.pathname !== '')
    throw new SmppUrlError('unexpected path (options go in the query: ?corp_id=12345)');
  const sgip: SgipSettings = {
    corpId: '',
    spNumber: '',
    serviceType: '',
    nodeId: -1,
    callbackPort: null,
    callbackHost: '0.0.0.0',
    callbackUser: '',
    callbackPassword: '',
    prefix: null,
  };
  // SGIP has no keep-alive packet: enquire_ms is not an option (the core's period only paces the check)
  const cfg: SmscConfig = { ...SMSC_DEFAULTS, protocol: 'sgip', sgip, host, port, tls: false, systemId, password };
  const text = (k: string, value: string, max: number, digits = false) => {
    if (value.length > max || !PRINTABLE.test(value) || (digits && !DIGITS.test(value)))
      throw new SmppUrlError(`${k} must be at most ${max} ${digits ? 'digits' : 'printable ASCII characters'}`);
    return value;
  };
  for (const [key, value] of url.searchParams) {
    const k = key.toLowerCase();
    const num = NUMBERS[k];
    if (num && k !== 'enquire_ms') cfg[num[0]] = intParam(k, value, num[1], num[2]);
    else if (k === 'corp_id') sgip.corpId = text(k, value, 5, true);
    else if (k === 'sp_number') sgip.spNumber = text(k, value, 21, true);
    else if (k === 'service_type') sgip.serviceType = text(k, value, 10);
    else if (k === 'node_id') sgip.nodeId = intParam(k, value, 1, 0xffffffff);
    else if (k === 'callback_port') sgip.callbackPort = intParam(k, value, 0, 65535);
    else if (k === 'callback_host') {
      const h = value.trim();
      if (!h || h.length > 253 || !/^[0-9A-Za-z.:_-]+$/.test(h))
        throw new SmppUrlError('callback_host must be an address to listen on');
      sgip.callbackHost = h;
    } else if (k === 'callback_user') sgip.callbackUser = text(k, value, 16);
    else if (k === 'callback_password') sgip.callbackPassword = text(k, value, 16);
    else if (k === 'prefix') sgip.prefix = text(k, value, 12, true);
    else if (k === 'tz') {
      const t = value.trim();
      const n = /^[+-]?\d{1,4}$/.test(t) ? Number(t) : NaN;
      if (!Number.isInteger(n) || n < -720 || n > 840)
        throw new SmppUrlError('tz must be a UTC offset in minutes from -720 to 840');
      cfg.tzMinutes = n;
    } else throw new SmppUrlError(`unknown option "${key.slice(0, 40)}" for sgip://`);
  }
  if (sgip.nodeId < 0) sgip.nodeId = 3_000_000_000 + Number(sgip.corpId || 0);
  if (cfg.reconnectMaxMs < cfg.reconnectMinMs)
    throw new SmppUrlError('reconnect_max_ms must be at least reconnect_min_ms');
  return cfg;
}

/** SMPP_URL without the password, for logs. */
export function describeSmsc(
  cfg: Pick<SmscConfig, 'tls' | 'systemId' | 'host' | 'port'> & { protocol?: SmscProtocol },
): string {
  return `${cfg.protocol === 'cmpp' || cfg.protocol === 'smgp' || cfg.protocol === 'sgip' ? cfg.protocol : cfg.tls ? 'smpps' : 'smpp'}://${cfg.systemId}@${cfg.host.includes(':') ? `[${cfg.host}]` : cfg.host}:${cfg.port}`;
}

/** SMSC_SIM_LATENCY_MS: "50-500" (or one value) → [min, max] in ms; a bad text throws, naming the variable. */
export function parseLatency(v: string): [number, number] {
  const m = /^(\d{1,7})(?: *- *(\d{1,7}))?$/.exec(v.trim());
  if (!m) throw new Error(`SMSC_SIM_LATENCY_MS must be "min-max" in ms, e.g. 50-500 (got "${v.slice(0, 20)}")`);
  const range: [number, number] = [Number(m[1]), Number(m[2] ?? m[1])];
  if (range[1] < range[0])
    throw new Error(
      `SMSC_SIM_LATENCY_MS="${v.slice(0, 20)}" is not accepted: the second number may not be below the first`,
    );
  return range;
}

/**
 * The simulator's settings from the SMSC_SIM_* variables (`npm run smsc-sim`, and the simulator
 * `npm start` embeds), as loadConfig() read and checked them (schemas/config/env.json): only those
 * set; the simulator's own defaults for the others.
 */
export function simulatorSettingsFromEnv(env: ServerEnv): Partial<SimulatorSettings> {
  const out: Partial<SimulatorSettings> = {};
  if (env.SMSC_SIM_HOST !== undefined) out.host = env.SMSC_SIM_HOST;
  if (env.SMSC_SIM_PORT !== undefined) out.port = env.SMSC_SIM_PORT;
  if (env.SMSC_SIM_SYSTEM_ID !== undefined) out.systemId = env.SMSC_SIM_SYSTEM_ID;
  if (env.SMSC_SIM_PASSWORD !== undefined) out.password = env.SMSC_SIM_PASSWORD;
  if (env.SMSC_SIM_DELIVERED !== undefined) out.delivered = env.SMSC_SIM_DELIVERED;
  if (env.SMSC_SIM_FAILED !== undefined) out.failed = env.SMSC_SIM_FAILED;
  if (env.SMSC_SIM_NO_RECEIPT !== undefined) out.noReceipt = env.SMSC_SIM_NO_RECEIPT;
  if (env.SMSC_SIM_REJECT !== undefined) out.rejectRatio = env.SMSC_SIM_REJECT;
  if (env.SMSC_SIM_MO_RATIO !== undefined) out.moRatio = env.SMSC_SIM_MO_RATIO;
  if (env.SMSC_SIM_MAX_PER_SECOND !== undefined) out.maxPerSecond = env.SMSC_SIM_MAX_PER_SECOND;
  if (env.SMSC_SIM_MO_DELAY_MS !== undefined) out.moDelayMs = env.SMSC_SIM_MO_DELAY_MS;
  if (env.SMSC_SIM_SEED !== undefined) out.seed = env.SMSC_SIM_SEED;
  if (env.SMSC_SIM_LATENCY_MS !== undefined)
    [out.latencyMinMs, out.latencyMaxMs] = parseLatency(env.SMSC_SIM_LATENCY_MS);
  return out;
}

// ---------------------------------------------------------------- channels (issue 25)

/**
 * One upstream channel: a link (its URL with the same options as SMPP_URL) and the traffic it
 * serves. Rules: docs/api-dispatch.md "Channels".
 */
export interface ChannelSpec {
  /** 1-32 of [A-Za-z0-9_-]; recorded on the messages submitted on it (sms_messages.channel) */
  name: string;
  url: string;
  cfg: SmscConfig;
  /** domestic carriers served (enums/carrier: 移动 1, 联通 2, 电信 3); [] = every domestic carrier, or none on an international channel */
  carriers: Carrier[];
  /** serves international messages (carrier 4 国际) */
  international: boolean;
  /** SMS types served (enums/sms-type); [] = every type */
  smsTypes: SmsType[];
  /** lower first */
  priority: number;
  /** share among the healthy channels of one priority */
  weight: number;
  /** messages per second this process submits on it at most (0 = no limit); beyond: the next channel */
  maxPerSecond: number;
}

export interface ChannelTable {
  channels: ChannelSpec[];
  /** a channel unbound for longer than this hands its traffic to the next one (ms) */
  failoverMs: number;
}

export const DEFAULT_FAILOVER_MS = 30_000;

export class ChannelConfigError extends Error {
  constructor(message: string) {
    super(`SMPP_CHANNELS: ${message}`);
    this.name = 'ChannelConfigError';
  }
}

type EnumJson = { oneOf: { const: number; title: string; 'x-name': string }[] };

/** an enum value by its code, title (移动) or x-name (Mobile), one of those `allowed` */
function enumValue<T extends number>(e: EnumJson, v: unknown, allowed: (n: number) => n is T, what: string): T {
  const hit = e.oneOf.find(
    (o) =>
      o.const === v ||
      (typeof v === 'string' && (o.title === v.trim() || o['x-name'].toLowerCase() === v.trim().toLowerCase())),
  );
  if (!hit || !allowed(hit.const)) throw new ChannelConfigError(`unknown ${what} ${JSON.stringify(v)?.slice(0, 20)}`);
  return hit.const;
}

const NAME = /^[A-Za-z0-9_-]{1,32}$/;
const anySmsType = (n: number): n is SmsType => Object.values<number>(SmsType).includes(n);

/** One channel from its JSON object (file) or CLI row; throws ChannelConfigError. */
export function parseChannel(raw: unknown): ChannelSpec {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new ChannelConfigError('a channel must be an object');
  const o = raw as Record<string, unknown>;
  const known = new Set([
    'name',
    'url',
    'carriers',
    'international',
    'sms_types',
    'priority',
    'weight',
    'max_per_second',
  ]);
  for (const k of Object.keys(o))
    if (!known.has(k)) throw new ChannelConfigError(`unknown channel field "${k.slice(0, 40)}"`);
  const name = o.name;
  if (typeof name !== 'string' || !NAME.test(name))
    throw new ChannelConfigError('name must be 1-32 letters, digits, _ or -');
  if (typeof o.url !== 'string') throw new ChannelConfigError(`${name}: url missing`);
  let cfg: SmscConfig;
  try {
    cfg = parseSmppUrl(o.url);
  } catch (e) {
    throw new ChannelConfigError(`${name}: ${messageOf(e)}`);
  }
  const list = (v: unknown, field: string) => {
    if (v === undefined) return [];
    if (!Array.isArray(v)) throw new ChannelConfigError(`${name}: ${field} must be a list`);
    return v;
  };
  const carriers = [
    ...new Set(
      list(o.carriers, 'carriers').map((v) => enumValue(carrierEnum as EnumJson, v, isCarrierCode, 'carrier')),
    ),
  ];
  const smsTypes = [
    ...new Set(
      list(o.sms_types, 'sms_types').map((v) => enumValue(smsTypeEnum as EnumJson, v, anySmsType, 'SMS type')),
    ),
  ];
  const int = (v: unknown, field: string, def: number, min: number, max: number) => {
    if (v === undefined) return def;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
      throw new ChannelConfigError(`${name}: ${field} must be an integer from ${min} to ${max}`);
    return v;
  };
  if (o.international !== undefined && typeof o.international !== 'boolean')
    throw new ChannelConfigError(`${name}: international must be true or false`);
  return {
    name,
    url: o.url,
    cfg,
    carriers,
    international: o.international === true,
    smsTypes,
    priority: int(o.priority, 'priority', 0, 0, 1000),
    weight: int(o.weight, 'weight', 1, 1, 1000),
    maxPerSecond: int(o.max_per_second, 'max_per_second', 0, 0, 1_000_000),
  };
}

/**
 * The channel table of a JSON file: `{ "failover_ms": 30000, "channels": [ … ] }` or just the list.
 * Every channel serves some traffic; names are unique.
 */
export function parseChannelTable(text: string): ChannelTable {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ChannelConfigError(`not JSON (${messageOf(e).slice(0, 80)})`);
  }
  const obj = Array.isArray(json) ? { channels: json } : (json as Record<string, unknown>);
  if (!obj || typeof obj !== 'object' || !Array.isArray(obj.channels))
    throw new ChannelConfigError('expected { "channels": [ … ] } or a list of channels');
  for (const k of Object.keys(obj))
    if (k !== 'channels' && k !== 'failover_ms') throw new ChannelConfigError(`unknown field "${k.slice(0, 40)}"`);
  const f = obj.failover_ms;
  if (f !== undefined && (typeof f !== 'number' || !Number.isInteger(f) || f < 0 || f > 3_600_000))
    throw new ChannelConfigError('failover_ms must be an integer from 0 to 3600000');
  const channels = (obj.channels as unknown[]).map(parseChannel);
  checkChannels(channels);
  return { channels, failoverMs: f ?? DEFAULT_FAILOVER_MS };
}

/** names unique */
export function checkChannels(channels: readonly ChannelSpec[]): void {
  const seen = new Set<string>();
  for (const c of channels) {
    if (seen.has(c.name)) throw new ChannelConfigError(`channel "${c.name}" twice`);
    seen.add(c.name);
  }
}

/** Whether a channel serves a message of this carrier (enums/carrier) and SMS type. */
/** A checked channel as the dispatch_channels row it is stored as (the CLI's channel-add and the operators' 通道 alike). */
export function channelRowOf(spec: ChannelSpec, enabled: boolean, now: Date) {
  return {
    name: spec.name,
    url: spec.url,
    carriers: spec.carriers,
    international: spec.international,
    sms_types: spec.smsTypes,
    priority: spec.priority,
    weight: spec.weight,
    max_per_second: spec.maxPerSecond,
    enabled,
    updated_at: now,
  };
}

export function channelServes(
  c: Pick<ChannelSpec, 'carriers' | 'international' | 'smsTypes'>,
  carrier: number,
  smsType: number,
): boolean {
  if (c.smsTypes.length && !c.smsTypes.some((t) => t === smsType)) return false;
  if (carrier === Carrier.International) return c.international;
  // no carriers listed: every domestic carrier (unknown 0 included), unless it is an international channel
  return c.carriers.length === 0 ? !c.international : c.carriers.some((k) => k === carrier);
}

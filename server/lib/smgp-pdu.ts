/**
 * SMGP 3.0 (China Telecom's Short Message Gateway Protocol) packets as pure functions, shared by
 * the carrier link (server/modules/smsc/smgp-client.ts), the customers' SMGP door
 * (server/modules/smpp-server/smgp-server.ts) and the simulator. Written from the protocol's
 * description (SMGP 3.0), rules in docs/api-smgp.md.
 *
 * - A packet: PacketLength(4) RequestID(4) SequenceID(4), big-endian, then the body. Strings are
 *   fixed-width Octet Strings, left-aligned and NUL padded. SMGP_SUBMIT and SMGP_DELIVER end with
 *   optional parameters as TLVs: Tag(2) Length(2) Value (TP_udhi, PkTotal, PkNumber, MsgSrc,
 *   LinkID …); an unknown tag is kept and ignored, a TLV running past the packet is an error.
 * - SmgpFrameSplitter cuts a byte stream into whole packets; a PacketLength below 12 or above
 *   `max` (4 KB by default) is an error (the caller closes the connection), never a wait.
 * - Every decoder is total: a truncated, oversized or otherwise malformed packet throws
 *   SmgpPduError (never reads past the buffer, never loops on input), so the caller can close.
 * - MsgID: 10 octets, BCD: the SMGW code (6 digits), MMDDHHMM (8), a sequence (6); its string
 *   form is the 20 hex digits of the octets (what Receipt.msgId / SubmitResult.msgId carry).
 * - A status report is the content of an SMGP_DELIVER with IsReport 1, 122 octets of text:
 *   `id:<10 MsgID octets> sub:001 dlvrd:001 Submit date:YYMMDDhhmm done date:YYMMDDhhmm
 *   stat:DELIVRD err:000 Text:<20 octets>`.
 * - Text: MsgFormat 0 ASCII, 8 UCS2, 15 GB18030, long texts in parts with the `05 00 03` header,
 *   as CMPP's (cmpp-pdu.ts: encodeCmppText / decodeCmppText / splitCmppText / splitUdh).
 */
import crypto from 'node:crypto';
import {
  cmppTimestamp,
  decodeCmppText,
  encodeCmppText,
  splitCmppText,
  splitUdh,
  reportTime,
  parseReportTime,
  type CmppParts,
  type Concat,
} from './cmpp-pdu';

export { cmppTimestamp as smgpTimestamp, reportTime, parseReportTime, splitUdh, type Concat };

export const HEADER_LENGTH = 12;
/** SMGP packets are small (a submit to 100 numbers is under 2.5 KB) */
export const MAX_PACKET = 4096;
/** ClientVersion / ServerVersion of 3.0 */
export const SMGP_VERSION = 0x30;

export const CMD = {
  LOGIN: 0x00000001,
  LOGIN_RESP: 0x80000001,
  SUBMIT: 0x00000002,
  SUBMIT_RESP: 0x80000002,
  DELIVER: 0x00000003,
  DELIVER_RESP: 0x80000003,
  ACTIVE_TEST: 0x00000004,
  ACTIVE_TEST_RESP: 0x80000004,
  FORWARD: 0x00000005,
  FORWARD_RESP: 0x80000005,
  EXIT: 0x00000006,
  EXIT_RESP: 0x80000006,
  QUERY: 0x00000007,
  QUERY_RESP: 0x80000007,
  QUERY_TE_ROUTE: 0x00000008,
  QUERY_TE_ROUTE_RESP: 0x80000008,
  QUERY_SP_ROUTE: 0x00000009,
  QUERY_SP_ROUTE_RESP: 0x80000009,
  PAYMENT_REQUEST: 0x0000000a,
  PAYMENT_REQUEST_RESP: 0x8000000a,
  PAYMENT_AFFIRM: 0x0000000b,
  PAYMENT_AFFIRM_RESP: 0x8000000b,
  QUERY_USERSTATE: 0x0000000c,
  QUERY_USERSTATE_RESP: 0x8000000c,
  GET_ALL_TE_ROUTE: 0x0000000d,
  GET_ALL_TE_ROUTE_RESP: 0x8000000d,
  GET_ALL_SP_ROUTE: 0x0000000e,
  GET_ALL_SP_ROUTE_RESP: 0x8000000e,
  UPDATE_TE_ROUTE: 0x0000000f,
  UPDATE_TE_ROUTE_RESP: 0x8000000f,
  UPDATE_SP_ROUTE: 0x00000010,
  UPDATE_SP_ROUTE_RESP: 0x80000010,
  PUSH_UPDATE_TE_ROUTE: 0x00000011,
  PUSH_UPDATE_TE_ROUTE_RESP: 0x80000011,
  PUSH_UPDATE_SP_ROUTE: 0x00000012,
  PUSH_UPDATE_SP_ROUTE_RESP: 0x80000012,
} as const;
export type SmgpCommand = keyof typeof CMD;
const NAMES = new Map<number, SmgpCommand>(Object.entries(CMD).map(([k, v]) => [v, k as SmgpCommand]));
/** LOGIN, SUBMIT_RESP …; undefined for an id SMGP does not define */
export const commandName = (id: number): SmgpCommand | undefined => NAMES.get(id >>> 0);
export const isResponse = (id: number) => (id & 0x80000000) !== 0;

/** Status of LOGIN_RESP, SUBMIT_RESP, DELIVER_RESP (SMGP 3.0 "错误代码表") */
export const STATUS = {
  OK: 0,
  SYSTEM_BUSY: 1,
  TOO_MANY_CONNECTIONS: 2,
  BAD_STRUCTURE: 10,
  BAD_COMMAND: 11,
  DUPLICATE_SEQUENCE: 12,
  BAD_IP: 20,
  BAD_AUTH: 21,
  VERSION_TOO_HIGH: 22,
  BAD_MSG_TYPE: 30,
  BAD_PRIORITY: 31,
  BAD_FEE_TYPE: 32,
  BAD_FEE_CODE: 33,
  BAD_MSG_FORMAT: 34,
  BAD_TIME_FORMAT: 35,
  BAD_MSG_LENGTH: 36,
  EXPIRED: 37,
  BAD_QUERY_TYPE: 38,
  ROUTE_ERROR: 39,
  BAD_FIXED_FEE: 40,
  BAD_SERVICE_ID: 43,
  BAD_VALID_TIME: 44,
  BAD_AT_TIME: 45,
  BAD_SRC_TERM_ID: 46,
  BAD_DEST_TERM_ID: 47,
  BAD_CHARGE_TERM_ID: 48,
  BAD_SP_CODE: 49,
  NO_ROUTE: 58,
  SP_QUIET_HOURS: 74,
  SP_DAILY_LIMIT: 75,
  SP_EXPIRED: 76,
} as const;

/** LoginMode of SMGP_LOGIN */
export const LOGIN_MODE = { SEND: 0, RECEIVE: 1, TRANSMIT: 2 } as const;
/** MsgType of SMGP_SUBMIT: 0 MO, 6 MT, 7 point to point */
export const MSG_TYPE = { MO: 0, MT: 6, P2P: 7 } as const;
export const MSG_FORMAT = { ASCII: 0, WRITE_CARD: 3, BINARY: 4, UCS2: 8, GB: 15 } as const;

/** optional parameter tags (SMGP 3.0 6.3) */
export const TAG = {
  TP_pid: 0x0001,
  TP_udhi: 0x0002,
  LinkID: 0x0003,
  ChargeUserType: 0x0004,
  ChargeTermType: 0x0005,
  ChargeTermPseudo: 0x0006,
  DestTermType: 0x0007,
  DestTermPseudo: 0x0008,
  PkTotal: 0x0009,
  PkNumber: 0x000a,
  SubmitMsgType: 0x000b,
  SPDealReslt: 0x000c,
  SrcTermType: 0x000d,
  SrcTermPseudo: 0x000e,
  NodesCount: 0x000f,
  MsgSrc: 0x0010,
  SrcType: 0x0011,
  MServiceID: 0x0012,
} as const;

export type SmgpErrorReason = 'length' | 'truncated' | 'field' | 'command';

/** a packet that cannot be read: the connection it came on is closed */
export class SmgpPduError extends Error {
  constructor(
    readonly reason: SmgpErrorReason,
    message: string,
  ) {
    super(`SMGP: ${message}`);
    this.name = 'SmgpPduError';
  }
}

// ---------------------------------------------------------------- framing

export interface SmgpHeader {
  length: number;
  requestId: number;
  sequenceId: number;
}

/** the header of a whole packet (its PacketLength must be the buffer's length) */
export function readHeader(b: Buffer): SmgpHeader {
  if (b.length < HEADER_LENGTH) throw new SmgpPduError('truncated', `packet of ${b.length} octets`);
  const length = b.readUInt32BE(0);
  if (length !== b.length) throw new SmgpPduError('length', `PacketLength ${length} for ${b.length} octets`);
  return { length, requestId: b.readUInt32BE(4), sequenceId: b.readUInt32BE(8) };
}

/**
 * Bytes in, whole packets out. push() throws SmgpPduError when a PacketLength is below 12 or above
 * `max`: the stream cannot be resynchronised, the connection is to be closed. Holds at most one
 * incomplete packet (≤ max octets).
 */
export class SmgpFrameSplitter {
  private buf: Buffer = Buffer.alloc(0);
  private failed = false;
  constructor(readonly max = MAX_PACKET) {}

  get pending(): number {
    return this.buf.length;
  }

  push(chunk: Buffer): Buffer[] {
    if (this.failed) throw new SmgpPduError('length', 'stream already failed');
    let b = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const out: Buffer[] = [];
    while (b.length >= 4) {
      const len = b.readUInt32BE(0);
      if (len < HEADER_LENGTH || len > this.max) {
        this.failed = true;
        this.buf = Buffer.alloc(0);
        throw new SmgpPduError('length', `PacketLength ${len} (expected ${HEADER_LENGTH}-${this.max})`);
      }
      if (b.length < len) break;
      out.push(Buffer.from(b.subarray(0, len)));
      b = b.subarray(len);
    }
    this.buf = b.length ? Buffer.from(b) : Buffer.alloc(0);
    return out;
  }
}

// ---------------------------------------------------------------- field readers / writers

class Reader {
  o = HEADER_LENGTH;
  constructor(readonly b: Buffer) {}
  need(n: number, what: string) {
    if (this.o + n > this.b.length)
      throw new SmgpPduError('truncated', `${what}: ${n} octets needed at ${this.o}, packet of ${this.b.length}`);
  }
  u8(what: string): number {
    this.need(1, what);
    return this.b[this.o++];
  }
  u16(what: string): number {
    this.need(2, what);
    const v = this.b.readUInt16BE(this.o);
    this.o += 2;
    return v;
  }
  u32(what: string): number {
    this.need(4, what);
    const v = this.b.readUInt32BE(this.o);
    this.o += 4;
    return v;
  }
  bytes(n: number, what: string): Buffer {
    this.need(n, what);
    const v = Buffer.from(this.b.subarray(this.o, this.o + n));
    this.o += n;
    return v;
  }
  /** a NUL-padded Octet String: the octets before the first NUL, as Latin-1 */
  str(n: number, what: string): string {
    this.need(n, what);
    const end = this.b.indexOf(0, this.o);
    const stop = end < 0 || end > this.o + n ? this.o + n : end;
    const v = this.b.toString('latin1', this.o, stop);
    this.o += n;
    return v;
  }
  left(): number {
    return this.b.length - this.o;
  }
  end(what: string) {
    if (this.o !== this.b.length)
      throw new SmgpPduError('length', `${what}: ${this.b.length - this.o} octets left over`);
  }
}

class Writer {
  o = HEADER_LENGTH;
  readonly b: Buffer;
  constructor(len: number, requestId: number, sequenceId: number) {
    this.b = Buffer.alloc(len);
    this.b.writeUInt32BE(len, 0);
    this.b.writeUInt32BE(requestId >>> 0, 4);
    this.b.writeUInt32BE(sequenceId >>> 0, 8);
  }
  u8(v: number) {
    this.b[this.o++] = v & 0xff;
  }
  u16(v: number) {
    this.b.writeUInt16BE(v & 0xffff, this.o);
    this.o += 2;
  }
  u32(v: number) {
    this.b.writeUInt32BE(v >>> 0, this.o);
    this.o += 4;
  }
  bytes(v: Buffer) {
    this.o += v.copy(this.b, this.o);
  }
  str(v: string, n: number, what: string) {
    const s = Buffer.from(v ?? '', 'latin1');
    if (s.length > n) throw new RangeError(`${what} over ${n} octets`);
    s.copy(this.b, this.o);
    this.o += n;
  }
  fixed(v: Buffer, n: number, what: string) {
    if (v.length !== n) throw new RangeError(`${what} must be ${n} octets`);
    this.bytes(v);
  }
  done(): Buffer {
    if (this.o !== this.b.length) throw new Error(`SMGP encoder: wrote ${this.o} of ${this.b.length}`);
    return this.b;
  }
}

function headerOf(b: Buffer, requestId: number): SmgpHeader {
  const h = readHeader(b);
  if (h.requestId !== requestId)
    throw new SmgpPduError(
      'command',
      `RequestID 0x${h.requestId.toString(16)} where ${commandName(requestId)} was expected`,
    );
  return h;
}

/** header-only packets: ACTIVE_TEST, ACTIVE_TEST_RESP, EXIT, EXIT_RESP */
export function encodeHeaderOnly(requestId: number, sequenceId: number): Buffer {
  return new Writer(HEADER_LENGTH, requestId, sequenceId).done();
}
export const encodeActiveTest = (seq: number) => encodeHeaderOnly(CMD.ACTIVE_TEST, seq);
export const encodeActiveTestResp = (seq: number) => encodeHeaderOnly(CMD.ACTIVE_TEST_RESP, seq);
export const encodeExit = (seq: number) => encodeHeaderOnly(CMD.EXIT, seq);
export const encodeExitResp = (seq: number) => encodeHeaderOnly(CMD.EXIT_RESP, seq);

// ---------------------------------------------------------------- TLVs

/** optional parameters: tag → value (the last of a tag repeated wins) */
export type SmgpTlvs = Map<number, Buffer>;

/** the TLVs from the reader's position to the end of the packet; one running past it: SmgpPduError */
function readTlvs(r: Reader): SmgpTlvs {
  const out: SmgpTlvs = new Map();
  while (r.left() > 0) {
    if (r.left() < 4) throw new SmgpPduError('truncated', `TLV header of ${r.left()} octets`);
    const tag = r.u16('Tag');
    const len = r.u16('Length');
    out.set(tag, r.bytes(len, `TLV 0x${tag.toString(16)}`));
  }
  return out;
}

const tlvsLength = (t: readonly [number, Buffer][]) => t.reduce((n, [, v]) => n + 4 + v.length, 0);

function writeTlvs(w: Writer, t: readonly [number, Buffer][]) {
  for (const [tag, v] of t) {
    if (v.length > 0xffff) throw new RangeError('TLV over 65535 octets');
    w.u16(tag);
    w.u16(v.length);
    w.bytes(v);
  }
}

/** a 1-octet TLV's value (0 when absent or empty) */
export const tlvU8 = (t: SmgpTlvs, tag: number): number => t.get(tag)?.[0] ?? 0;
/** a string TLV's value (before the first NUL; '' when absent) */
export function tlvStr(t: SmgpTlvs, tag: number): string {
  const v = t.get(tag);
  if (!v) return '';
  const end = v.indexOf(0);
  return v.toString('latin1', 0, end < 0 ? v.length : end);
}
const u8Tlv = (tag: number, v: number): [number, Buffer] => [tag, Buffer.from([v & 0xff])];
function strTlv(tag: number, v: string, n: number, what: string): [number, Buffer] {
  const s = Buffer.from(v, 'latin1');
  if (s.length > n) throw new RangeError(`${what} over ${n} octets`);
  const b = Buffer.alloc(n);
  s.copy(b);
  return [tag, b];
}

// ---------------------------------------------------------------- LOGIN

const md5 = (...parts: Buffer[]) => crypto.createHash('md5').update(Buffer.concat(parts)).digest();

/** the TimeStamp field's 10 digits (zero-padded MMDDHHMMSS) */
export const timestampText = (n: number) => String(n >>> 0).padStart(10, '0');

/** AuthenticatorClient = MD5(ClientID + 7 zero octets + secret + timestamp as 10 ASCII digits) */
export function clientAuthenticator(clientId: string, secret: string, timestamp: number | string): Buffer {
  const ts = typeof timestamp === 'number' ? timestampText(timestamp) : timestamp;
  return md5(
    Buffer.from(clientId, 'latin1'),
    Buffer.alloc(7),
    Buffer.from(secret, 'latin1'),
    Buffer.from(ts, 'latin1'),
  );
}

/** AuthenticatorServer = MD5(Status (4 octets) + AuthenticatorClient + secret) */
export function serverAuthenticator(status: number, authenticatorClient: Buffer, secret: string): Buffer {
  const s = Buffer.alloc(4);
  s.writeUInt32BE(status >>> 0, 0);
  return md5(s, authenticatorClient, Buffer.from(secret, 'latin1'));
}

export interface SmgpLogin {
  /** at most 8 octets */
  clientId: string;
  authenticatorClient: Buffer;
  /** 0 send, 1 receive, 2 transmit */
  loginMode: number;
  /** MMDDHHMMSS as a number */
  timestamp: number;
  /** 0x30 */
  clientVersion: number;
}

export const LOGIN_LENGTH = HEADER_LENGTH + 8 + 16 + 1 + 4 + 1;

export function encodeLogin(seq: number, l: SmgpLogin): Buffer {
  const w = new Writer(LOGIN_LENGTH, CMD.LOGIN, seq);
  w.str(l.clientId, 8, 'ClientID');
  w.fixed(l.authenticatorClient, 16, 'AuthenticatorClient');
  w.u8(l.loginMode);
  w.u32(l.timestamp);
  w.u8(l.clientVersion);
  return w.done();
}

/** a LOGIN for `clientId` / `secret` at `now` (Beijing time by default) */
export function makeLogin(
  clientId: string,
  secret: string,
  loginMode: number,
  now = new Date(),
  tzMinutes = 480,
): SmgpLogin {
  const ts = cmppTimestamp(now, tzMinutes);
  return {
    clientId,
    authenticatorClient: clientAuthenticator(clientId, secret, ts),
    loginMode,
    timestamp: Number(ts),
    clientVersion: SMGP_VERSION,
  };
}

export function decodeLogin(b: Buffer): SmgpLogin & SmgpHeader {
  const h = headerOf(b, CMD.LOGIN);
  const r = new Reader(b);
  const out = {
    ...h,
    clientId: r.str(8, 'ClientID'),
    authenticatorClient: r.bytes(16, 'AuthenticatorClient'),
    loginMode: r.u8('LoginMode'),
    timestamp: r.u32('TimeStamp'),
    clientVersion: r.u8('ClientVersion'),
  };
  r.end('LOGIN');
  return out;
}

export interface SmgpLoginResp {
  status: number;
  authenticatorServer: Buffer;
  serverVersion: number;
}

export const LOGIN_RESP_LENGTH = HEADER_LENGTH + 4 + 16 + 1;

export function encodeLoginResp(seq: number, r: SmgpLoginResp): Buffer {
  const w = new Writer(LOGIN_RESP_LENGTH, CMD.LOGIN_RESP, seq);
  w.u32(r.status);
  w.fixed(r.authenticatorServer, 16, 'AuthenticatorServer');
  w.u8(r.serverVersion);
  return w.done();
}

export function decodeLoginResp(b: Buffer): SmgpLoginResp & SmgpHeader {
  const h = headerOf(b, CMD.LOGIN_RESP);
  const r = new Reader(b);
  const out = {
    ...h,
    status: r.u32('Status'),
    authenticatorServer: r.bytes(16, 'AuthenticatorServer'),
    serverVersion: r.u8('ServerVersion'),
  };
  r.end('LOGIN_RESP');
  return out;
}

// ---------------------------------------------------------------- MsgID

export const MSG_ID_LENGTH = 10;

export interface SmgpMsgIdParts {
  /** the SMGW code: 0-999999 */
  gateway: number;
  /** MMDDHHMM */
  month: number;
  day: number;
  hour: number;
  minute: number;
  /** 0-999999 */
  sequence: number;
}

function bcd(digits: string, out: Buffer, at: number) {
  for (let i = 0; i < digits.length; i += 2)
    out[at + i / 2] = ((digits.charCodeAt(i) - 48) << 4) | (digits.charCodeAt(i + 1) - 48);
}

/** the 10 octets: BCD of gateway (6 digits), MMDDHHMM (8), sequence (6) */
export function makeSmgpMsgId(p: SmgpMsgIdParts): Buffer {
  const d2 = (n: number) => String(Math.trunc(n) % 100).padStart(2, '0');
  const d6 = (n: number) => String(Math.trunc(Math.abs(n)) % 1_000_000).padStart(6, '0');
  const b = Buffer.alloc(MSG_ID_LENGTH);
  bcd(`${d6(p.gateway)}${d2(p.month)}${d2(p.day)}${d2(p.hour)}${d2(p.minute)}${d6(p.sequence)}`, b, 0);
  return b;
}

/** the parts of a MsgID whose octets are BCD; null when a nibble is not a digit */
export function smgpMsgIdParts(id: Buffer): SmgpMsgIdParts | null {
  const s = id.subarray(0, MSG_ID_LENGTH).toString('hex');
  if (!/^\d{20}$/.test(s)) return null;
  const n = (i: number, l: number) => Number(s.slice(i, i + l));
  return { gateway: n(0, 6), month: n(6, 2), day: n(8, 2), hour: n(10, 2), minute: n(12, 2), sequence: n(14, 6) };
}

/** the string form (Receipt.msgId, SubmitResult.msgId, part ids): the 20 hex digits of the octets */
export const smgpMsgIdString = (id: Buffer) => id.subarray(0, MSG_ID_LENGTH).toString('hex');

/** the string form → the 10 octets; null when not 20 hex digits */
export function parseSmgpMsgId(s: string): Buffer | null {
  if (typeof s !== 'string' || !/^[0-9a-fA-F]{20}$/.test(s)) return null;
  return Buffer.from(s, 'hex');
}

/** MsgIDs of one gateway: the time of `now` (tz, Beijing by default) and a 6-digit sequence that wraps */
export class SmgpMsgIdSource {
  private seq = 0;
  constructor(
    readonly gateway: number,
    readonly tzMinutes = 480,
  ) {}
  next(now = new Date()): Buffer {
    this.seq = (this.seq + 1) % 1_000_000;
    const t = new Date(now.getTime() + this.tzMinutes * 60_000);
    return makeSmgpMsgId({
      gateway: this.gateway,
      month: t.getUTCMonth() + 1,
      day: t.getUTCDate(),
      hour: t.getUTCHours(),
      minute: t.getUTCMinutes(),
      sequence: this.seq,
    });
  }
}

// ---------------------------------------------------------------- SUBMIT

export const MAX_DESTS = 100;
/** DestTermID, SrcTermID, ChargeTermID: 21 octets */
export const TERM_LENGTH = 21;

export interface SmgpSubmit {
  msgType: number;
  needReport: number;
  priority: number;
  serviceId: string;
  feeType: string;
  feeCode: string;
  fixedFee: string;
  msgFormat: number;
  validTime: string;
  atTime: string;
  srcTermId: string;
  chargeTermId: string;
  destTermIds: string[];
  msgContent: Buffer;
  /** Reserve (8) */
  reserve: string;
  /** optional parameters: TP_udhi, PkTotal, PkNumber (1 octet each), MsgSrc (8), LinkID (20); 0 / '' are not written */
  tpUdhi: number;
  pkTotal: number;
  pkNumber: number;
  msgSrc: string;
  linkId: string;
  /** every TLV as read (decode), including those above */
  tlvs?: SmgpTlvs;
}

/** what a submit of ours carries unless told otherwise */
export const SUBMIT_DEFAULTS: Omit<SmgpSubmit, 'destTermIds' | 'msgContent'> = {
  msgType: MSG_TYPE.MT,
  needReport: 1,
  priority: 1,
  serviceId: '',
  feeType: '00',
  feeCode: '000000',
  fixedFee: '000000',
  msgFormat: MSG_FORMAT.ASCII,
  validTime: '',
  atTime: '',
  srcTermId: '',
  chargeTermId: '',
  reserve: '',
  tpUdhi: 0,
  pkTotal: 0,
  pkNumber: 0,
  msgSrc: '',
  linkId: '',
};

function submitTlvs(s: Pick<SmgpSubmit, 'tpUdhi' | 'pkTotal' | 'pkNumber' | 'msgSrc' | 'linkId'>): [number, Buffer][] {
  const t: [number, Buffer][] = [];
  if (s.tpUdhi) t.push(u8Tlv(TAG.TP_udhi, s.tpUdhi));
  if (s.pkTotal) t.push(u8Tlv(TAG.PkTotal, s.pkTotal));
  if (s.pkNumber) t.push(u8Tlv(TAG.PkNumber, s.pkNumber));
  if (s.msgSrc) t.push(strTlv(TAG.MsgSrc, s.msgSrc, 8, 'MsgSrc'));
  if (s.linkId) t.push(strTlv(TAG.LinkID, s.linkId, 20, 'LinkID'));
  return t;
}

/** the fixed part of a submit to `dests` numbers with `content` octets (TLVs not counted) */
export const submitFixedLength = (dests: number, content: number) =>
  HEADER_LENGTH + 3 + 10 + 2 + 6 + 6 + 1 + 17 + 17 + 21 + 21 + 1 + dests * TERM_LENGTH + 1 + content + 8;

/** RangeError when a field does not fit (content over 255 octets, 0 or over 100 numbers, a string too long) */
export function encodeSubmit(seq: number, s: SmgpSubmit): Buffer {
  if (s.msgContent.length > 255) throw new RangeError('MsgContent over 255 octets');
  if (s.destTermIds.length < 1 || s.destTermIds.length > MAX_DESTS) throw new RangeError(`1-${MAX_DESTS} DestTermID`);
  const tlvs = submitTlvs(s);
  const w = new Writer(
    submitFixedLength(s.destTermIds.length, s.msgContent.length) + tlvsLength(tlvs),
    CMD.SUBMIT,
    seq,
  );
  w.u8(s.msgType);
  w.u8(s.needReport);
  w.u8(s.priority);
  w.str(s.serviceId, 10, 'ServiceID');
  w.str(s.feeType, 2, 'FeeType');
  w.str(s.feeCode, 6, 'FeeCode');
  w.str(s.fixedFee, 6, 'FixedFee');
  w.u8(s.msgFormat);
  w.str(s.validTime, 17, 'ValidTime');
  w.str(s.atTime, 17, 'AtTime');
  w.str(s.srcTermId, TERM_LENGTH, 'SrcTermID');
  w.str(s.chargeTermId, TERM_LENGTH, 'ChargeTermID');
  w.u8(s.destTermIds.length);
  for (const d of s.destTermIds) w.str(d, TERM_LENGTH, 'DestTermID');
  w.u8(s.msgContent.length);
  w.bytes(s.msgContent);
  w.str(s.reserve, 8, 'Reserve');
  writeTlvs(w, tlvs);
  return w.done();
}

export function decodeSubmit(b: Buffer): SmgpSubmit & SmgpHeader {
  const h = headerOf(b, CMD.SUBMIT);
  const r = new Reader(b);
  const msgType = r.u8('MsgType');
  const needReport = r.u8('NeedReport');
  const priority = r.u8('Priority');
  const serviceId = r.str(10, 'ServiceID');
  const feeType = r.str(2, 'FeeType');
  const feeCode = r.str(6, 'FeeCode');
  const fixedFee = r.str(6, 'FixedFee');
  const msgFormat = r.u8('MsgFormat');
  const validTime = r.str(17, 'ValidTime');
  const atTime = r.str(17, 'AtTime');
  const srcTermId = r.str(TERM_LENGTH, 'SrcTermID');
  const chargeTermId = r.str(TERM_LENGTH, 'ChargeTermID');
  const n = r.u8('DestTermIDCount');
  if (n < 1 || n > MAX_DESTS) throw new SmgpPduError('field', `DestTermIDCount ${n}`);
  r.need(n * TERM_LENGTH, 'DestTermID');
  const destTermIds: string[] = [];
  for (let i = 0; i < n; i++) destTermIds.push(r.str(TERM_LENGTH, 'DestTermID'));
  const len = r.u8('MsgLength');
  const msgContent = r.bytes(len, 'MsgContent');
  const reserve = r.str(8, 'Reserve');
  const tlvs = readTlvs(r);
  return {
    ...h,
    msgType,
    needReport,
    priority,
    serviceId,
    feeType,
    feeCode,
    fixedFee,
    msgFormat,
    validTime,
    atTime,
    srcTermId,
    chargeTermId,
    destTermIds,
    msgContent,
    reserve,
    tpUdhi: tlvU8(tlvs, TAG.TP_udhi),
    pkTotal: tlvU8(tlvs, TAG.PkTotal),
    pkNumber: tlvU8(tlvs, TAG.PkNumber),
    msgSrc: tlvStr(tlvs, TAG.MsgSrc),
    linkId: tlvStr(tlvs, TAG.LinkID),
    tlvs,
  };
}

// ---------------------------------------------------------------- SUBMIT_RESP / DELIVER_RESP

export interface SmgpResp {
  /** 10 octets */
  msgId: Buffer;
  status: number;
}

export const RESP_LENGTH = HEADER_LENGTH + MSG_ID_LENGTH + 4;

function encodeResp(requestId: number, seq: number, r: SmgpResp): Buffer {
  const w = new Writer(RESP_LENGTH, requestId, seq);
  w.fixed(r.msgId, MSG_ID_LENGTH, 'MsgID');
  w.u32(r.status);
  return w.done();
}

function decodeResp(b: Buffer, requestId: number): SmgpResp & SmgpHeader {
  const h = headerOf(b, requestId);
  const r = new Reader(b);
  const out = { ...h, msgId: r.bytes(MSG_ID_LENGTH, 'MsgID'), status: r.u32('Status') };
  r.end(commandName(requestId) ?? '');
  return out;
}

export const ZERO_MSG_ID = Buffer.alloc(MSG_ID_LENGTH);
export const encodeSubmitResp = (seq: number, r: SmgpResp) => encodeResp(CMD.SUBMIT_RESP, seq, r);
export const decodeSubmitResp = (b: Buffer) => decodeResp(b, CMD.SUBMIT_RESP);
export const encodeDeliverResp = (seq: number, r: SmgpResp) => encodeResp(CMD.DELIVER_RESP, seq, r);
export const decodeDeliverResp = (b: Buffer) => decodeResp(b, CMD.DELIVER_RESP);

// ---------------------------------------------------------------- DELIVER

export interface SmgpDeliver {
  /** 10 octets */
  msgId: Buffer;
  /** 1: MsgContent is a status report */
  isReport: number;
  msgFormat: number;
  /** YYYYMMDDHHMMSS */
  recvTime: string;
  srcTermId: string;
  destTermId: string;
  msgContent: Buffer;
  reserve: string;
  /** TLVs: TP_udhi (1 octet; 0 not written), LinkID (20; '' not written) */
  tpUdhi: number;
  linkId: string;
  tlvs?: SmgpTlvs;
}

export function encodeDeliver(seq: number, d: SmgpDeliver): Buffer {
  if (d.msgContent.length > 255) throw new RangeError('MsgContent over 255 octets');
  const tlvs: [number, Buffer][] = [];
  if (d.tpUdhi) tlvs.push(u8Tlv(TAG.TP_udhi, d.tpUdhi));
  if (d.linkId) tlvs.push(strTlv(TAG.LinkID, d.linkId, 20, 'LinkID'));
  const w = new Writer(
    HEADER_LENGTH + MSG_ID_LENGTH + 1 + 1 + 14 + TERM_LENGTH * 2 + 1 + d.msgContent.length + 8 + tlvsLength(tlvs),
    CMD.DELIVER,
    seq,
  );
  w.fixed(d.msgId, MSG_ID_LENGTH, 'MsgID');
  w.u8(d.isReport);
  w.u8(d.msgFormat);
  w.str(d.recvTime, 14, 'RecvTime');
  w.str(d.srcTermId, TERM_LENGTH, 'SrcTermID');
  w.str(d.destTermId, TERM_LENGTH, 'DestTermID');
  w.u8(d.msgContent.length);
  w.bytes(d.msgContent);
  w.str(d.reserve, 8, 'Reserve');
  writeTlvs(w, tlvs);
  return w.done();
}

export function decodeDeliver(b: Buffer): SmgpDeliver & SmgpHeader {
  const h = headerOf(b, CMD.DELIVER);
  const r = new Reader(b);
  const msgId = r.bytes(MSG_ID_LENGTH, 'MsgID');
  const isReport = r.u8('IsReport');
  const msgFormat = r.u8('MsgFormat');
  const recvTime = r.str(14, 'RecvTime');
  const srcTermId = r.str(TERM_LENGTH, 'SrcTermID');
  const destTermId = r.str(TERM_LENGTH, 'DestTermID');
  const len = r.u8('MsgLength');
  const msgContent = r.bytes(len, 'MsgContent');
  const reserve = r.str(8, 'Reserve');
  const tlvs = readTlvs(r);
  return {
    ...h,
    msgId,
    isReport,
    msgFormat,
    recvTime,
    srcTermId,
    destTermId,
    msgContent,
    reserve,
    tpUdhi: tlvU8(tlvs, TAG.TP_udhi),
    linkId: tlvStr(tlvs, TAG.LinkID),
    tlvs,
  };
}

/** YYYYMMDDHHMMSS of `d` (tz, Beijing by default): RecvTime */
export function recvTime(d: Date, tzMinutes = 480): string {
  const t = new Date(d.getTime() + tzMinutes * 60_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${t.getUTCFullYear()}${p(t.getUTCMonth() + 1)}${p(t.getUTCDate())}${p(t.getUTCHours())}${p(t.getUTCMinutes())}${p(t.getUTCSeconds())}`;
}

// ---------------------------------------------------------------- status report

export const REPORT_LENGTH = 122;

/** the content of an SMGP_DELIVER with IsReport 1 */
export interface SmgpReport {
  /** the submit's MsgID, 10 octets */
  msgId: Buffer;
  /** 3 characters each: '001' */
  sub: string;
  dlvrd: string;
  /** YYMMDDhhmm */
  submitDate: string;
  doneDate: string;
  /** 7: DELIVRD, EXPIRED, DELETED, UNDELIV, ACCEPTD, UNKNOWN, REJECTD, or a gateway's code */
  stat: string;
  /** 3 */
  err: string;
  /** 20 octets of the text */
  text: Buffer;
}

const pad = (s: string, n: number) => {
  const b = Buffer.alloc(n);
  Buffer.from(s, 'latin1').copy(b, 0, 0, n);
  return b;
};

/** the 122 octets (a field longer than its width is cut) */
export function encodeReport(r: SmgpReport): Buffer {
  if (r.msgId.length !== MSG_ID_LENGTH) throw new RangeError('MsgID must be 10 octets');
  const text = Buffer.alloc(20);
  r.text.copy(text, 0, 0, 20);
  const out = Buffer.concat([
    Buffer.from('id:'),
    r.msgId,
    Buffer.from(' sub:'),
    pad(r.sub, 3),
    Buffer.from(' dlvrd:'),
    pad(r.dlvrd, 3),
    Buffer.from(' Submit date:'),
    pad(r.submitDate, 10),
    Buffer.from(' done date:'),
    pad(r.doneDate, 10),
    Buffer.from(' stat:'),
    pad(r.stat, 7),
    Buffer.from(' err:'),
    pad(r.err, 3),
    Buffer.from(' Text:'),
    text,
  ]);
  return out;
}

const str = (b: Buffer) => {
  const end = b.indexOf(0);
  return b.toString('latin1', 0, end < 0 ? b.length : end).trim();
};

/**
 * A status report's fields: the 122-octet layout read by position; a content of another length
 * whose labels are where they should be up to `Text:` is read the same (shorter Text). Anything
 * else: SmgpPduError.
 */
export function decodeReport(content: Buffer): SmgpReport {
  const at = (label: string, o: number) =>
    content.length >= o + label.length && content.toString('latin1', o, o + label.length) === label;
  // id:(3) msgid(10) ' sub:'(13) 3 ' dlvrd:'(21) 3 ' Submit date:'(31) 10 ' done date:'(54) 10 ' stat:'(75) 7 ' err:'(88) 3 ' Text:'(96)
  if (
    !at('id:', 0) ||
    !at(' sub:', 13) ||
    !at(' dlvrd:', 21) ||
    !at(' Submit date:', 31) ||
    !at(' done date:', 54) ||
    !at(' stat:', 75) ||
    !at(' err:', 88)
  ) {
    throw new SmgpPduError('field', `status report of ${content.length} octets not in the SMGP layout`);
  }
  return {
    msgId: Buffer.from(content.subarray(3, 13)),
    sub: str(content.subarray(18, 21)),
    dlvrd: str(content.subarray(28, 31)),
    submitDate: str(content.subarray(44, 54)),
    doneDate: str(content.subarray(65, 75)),
    stat: str(content.subarray(81, 88)),
    err: str(content.subarray(93, 96)),
    text: Buffer.from(content.length > 102 ? content.subarray(102, 122) : Buffer.alloc(0)),
  };
}

// ---------------------------------------------------------------- any packet

export type SmgpPacket =
  | ({ command: 'LOGIN' } & ReturnType<typeof decodeLogin>)
  | ({ command: 'LOGIN_RESP' } & ReturnType<typeof decodeLoginResp>)
  | ({ command: 'SUBMIT' } & ReturnType<typeof decodeSubmit>)
  | ({ command: 'SUBMIT_RESP' } & ReturnType<typeof decodeSubmitResp>)
  | ({ command: 'DELIVER' } & ReturnType<typeof decodeDeliver>)
  | ({ command: 'DELIVER_RESP' } & ReturnType<typeof decodeDeliverResp>)
  | ({ command: 'ACTIVE_TEST' | 'ACTIVE_TEST_RESP' | 'EXIT' | 'EXIT_RESP' } & SmgpHeader)
  | ({ command: 'OTHER'; name: SmgpCommand | undefined } & SmgpHeader);

/** Any whole packet (from SmgpFrameSplitter); commands other than the ones above come back as OTHER with their header. Throws SmgpPduError. */
export function decodePacket(b: Buffer): SmgpPacket {
  const h = readHeader(b);
  switch (h.requestId) {
    case CMD.LOGIN:
      return { command: 'LOGIN', ...decodeLogin(b) };
    case CMD.LOGIN_RESP:
      return { command: 'LOGIN_RESP', ...decodeLoginResp(b) };
    case CMD.SUBMIT:
      return { command: 'SUBMIT', ...decodeSubmit(b) };
    case CMD.SUBMIT_RESP:
      return { command: 'SUBMIT_RESP', ...decodeSubmitResp(b) };
    case CMD.DELIVER:
      return { command: 'DELIVER', ...decodeDeliver(b) };
    case CMD.DELIVER_RESP:
      return { command: 'DELIVER_RESP', ...decodeDeliverResp(b) };
    case CMD.ACTIVE_TEST:
      return { command: 'ACTIVE_TEST', ...h };
    case CMD.ACTIVE_TEST_RESP:
      return { command: 'ACTIVE_TEST_RESP', ...h };
    case CMD.EXIT:
      return { command: 'EXIT', ...h };
    case CMD.EXIT_RESP:
      return { command: 'EXIT_RESP', ...h };
    default:
      return { command: 'OTHER', name: commandName(h.requestId), ...h };
  }
}

// ---------------------------------------------------------------- text

/** MsgContent holds at most this many octets (UDH included) in one SMS */
export const CONTENT_MAX = 140;

/** ASCII (MsgFormat 0) when every character is printable ASCII, else UCS2 (8) */
export const encodeSmgpText: (text: string) => { msgFormat: number; octets: Buffer } = (text) => {
  const e = encodeCmppText(text);
  return { msgFormat: e.msgFmt, octets: e.octets };
};

/** the text of MsgContent octets (without a UDH): 8 UCS2, 15 GB18030, anything else Latin-1 */
export const decodeSmgpText = (octets: Buffer, msgFormat: number): string => decodeCmppText(octets, msgFormat);

export interface SmgpParts {
  msgFormat: number;
  /** each part's MsgContent; with the 6-octet UDH when there are several (TP_udhi 1, PkTotal / PkNumber) */
  contents: Buffer[];
}

/** The text as the MsgContent of each submit (one SMS: 70 UCS2 / 140 ASCII; else parts of 67 / 134 after `05 00 03 ref total number`). */
export function splitSmgpText(text: string, ref: number): SmgpParts {
  const p: CmppParts = splitCmppText(text, ref);
  return { msgFormat: p.msgFmt, contents: p.contents };
}

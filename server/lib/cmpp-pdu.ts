/**
 * CMPP 2.0 / 3.0 (China Mobile Peer to Peer) packets as pure functions, shared by the carrier link
 * (server/modules/smsc/cmpp-client.ts) and the customers' CMPP door. Written from the protocol's
 * description (CMPP 2.0 / 3.0 interface specifications), rules in docs/api-dispatch.md "CMPP link".
 *
 * - A packet: Total_Length(4) Command_Id(4) Sequence_Id(4), big-endian, then the body. Strings are
 *   fixed-width Octet Strings, left-aligned and padded with NUL octets.
 * - CmppFrameSplitter cuts a byte stream into whole packets; a Total_Length below 12 or above
 *   `max` (4 KB by default) is an error (the caller closes the connection), never a wait.
 * - Every decoder is total: a truncated, oversized or otherwise malformed packet throws
 *   CmppPduError (never reads past the buffer, never loops on input), so the caller can close.
 * - Msg_Id: 64 bits = month(4) day(5) hour(5) minute(6) second(6) gateway(22) sequence(16); as a
 *   bigint, its 8 octets, or its decimal string (what Receipt.msgId / SubmitResult.msgId carry).
 * - Text: Msg_Fmt 0 ASCII, 8 UCS2 (big-endian), 15 GB18030 (decoded); a long text in parts with
 *   the `05 00 03 ref total number` header (splitText of smpp-pdu.ts: 67 UCS2 characters or 134
 *   ASCII octets a part, one SMS up to 70 / 140).
 */
import crypto from 'node:crypto';
import { concatUdh, DC_UCS2, splitText } from './smpp-pdu';

export type CmppVersion = 2 | 3;
/** the Version octet of CMPP_CONNECT / _RESP */
export const VERSION_OCTET: Record<CmppVersion, number> = { 2: 0x20, 3: 0x30 };
/** the version a Version octet names (0x2X → 2, 0x3X → 3), null otherwise */
export function versionOf(octet: number): CmppVersion | null {
  const major = octet >> 4;
  return major === 2 ? 2 : major === 3 ? 3 : null;
}

export const HEADER_LENGTH = 12;
/** CMPP packets are small (a submit to 100 numbers in 3.0 is under 3.5 KB) */
export const MAX_PACKET = 4096;

export const CMD = {
  CONNECT: 0x00000001,
  CONNECT_RESP: 0x80000001,
  TERMINATE: 0x00000002,
  TERMINATE_RESP: 0x80000002,
  SUBMIT: 0x00000004,
  SUBMIT_RESP: 0x80000004,
  DELIVER: 0x00000005,
  DELIVER_RESP: 0x80000005,
  QUERY: 0x00000006,
  QUERY_RESP: 0x80000006,
  CANCEL: 0x00000007,
  CANCEL_RESP: 0x80000007,
  ACTIVE_TEST: 0x00000008,
  ACTIVE_TEST_RESP: 0x80000008,
  FWD: 0x00000009,
  FWD_RESP: 0x80000009,
  MT_ROUTE: 0x00000010,
  MT_ROUTE_RESP: 0x80000010,
  MO_ROUTE: 0x00000011,
  MO_ROUTE_RESP: 0x80000011,
  GET_MT_ROUTE: 0x00000012,
  GET_MT_ROUTE_RESP: 0x80000012,
  MT_ROUTE_UPDATE: 0x00000013,
  MT_ROUTE_UPDATE_RESP: 0x80000013,
  MO_ROUTE_UPDATE: 0x00000014,
  MO_ROUTE_UPDATE_RESP: 0x80000014,
  PUSH_MT_ROUTE_UPDATE: 0x00000015,
  PUSH_MT_ROUTE_UPDATE_RESP: 0x80000015,
  PUSH_MO_ROUTE_UPDATE: 0x00000016,
  PUSH_MO_ROUTE_UPDATE_RESP: 0x80000016,
  GET_MO_ROUTE: 0x00000017,
  GET_MO_ROUTE_RESP: 0x80000017,
} as const;
export type CmppCommand = keyof typeof CMD;
const NAMES = new Map<number, CmppCommand>(Object.entries(CMD).map(([k, v]) => [v, k as CmppCommand]));
/** CONNECT, SUBMIT_RESP …; undefined for an id CMPP does not define */
export const commandName = (id: number): CmppCommand | undefined => NAMES.get(id >>> 0);
export const isResponse = (id: number) => (id & 0x80000000) !== 0;

/** CONNECT_RESP Status */
export const CONNECT_STATUS = {
  OK: 0,
  BAD_STRUCTURE: 1,
  BAD_SOURCE_ADDR: 2,
  BAD_AUTH: 3,
  VERSION_TOO_HIGH: 4,
  OTHER: 5,
} as const;
/** SUBMIT_RESP / DELIVER_RESP Result */
export const RESULT = {
  OK: 0,
  BAD_STRUCTURE: 1,
  BAD_COMMAND: 2,
  DUPLICATE_SEQUENCE: 3,
  BAD_MSG_LENGTH: 4,
  BAD_FEE_CODE: 5,
  MSG_TOO_LONG: 6,
  BAD_SERVICE_ID: 7,
  FLOW_CONTROL: 8,
  /** 3.0: not allowed for this SP; 2.0: other errors from 9 on */
  OTHER: 9,
  BAD_SRC_ID: 10,
  BAD_MSG_SRC: 11,
  BAD_FEE_TERMINAL: 12,
  BAD_DEST_TERMINAL: 13,
} as const;

export const MSG_FMT = { ASCII: 0, WRITE_CARD: 3, BINARY: 4, UCS2: 8, GB: 15 } as const;

export type CmppErrorReason = 'length' | 'truncated' | 'field' | 'command';

/** a packet that cannot be read: the connection it came on is closed */
export class CmppPduError extends Error {
  constructor(
    readonly reason: CmppErrorReason,
    message: string,
  ) {
    super(`CMPP: ${message}`);
    this.name = 'CmppPduError';
  }
}

// ---------------------------------------------------------------- framing

export interface CmppHeader {
  length: number;
  commandId: number;
  sequenceId: number;
}

/** the header of a whole packet (its Total_Length must be the buffer's length) */
export function readHeader(b: Buffer): CmppHeader {
  if (b.length < HEADER_LENGTH) throw new CmppPduError('truncated', `packet of ${b.length} octets`);
  const length = b.readUInt32BE(0);
  if (length !== b.length) throw new CmppPduError('length', `Total_Length ${length} for ${b.length} octets`);
  return { length, commandId: b.readUInt32BE(4), sequenceId: b.readUInt32BE(8) };
}

/**
 * Bytes in, whole packets out. push() throws CmppPduError when a Total_Length is below 12 or
 * above `max`: the stream cannot be resynchronised, the connection is to be closed. Holds at most
 * one incomplete packet (≤ max octets).
 */
export class CmppFrameSplitter {
  private buf: Buffer = Buffer.alloc(0);
  private failed = false;
  constructor(readonly max = MAX_PACKET) {}

  /** octets of an incomplete packet held */
  get pending(): number {
    return this.buf.length;
  }

  push(chunk: Buffer): Buffer[] {
    if (this.failed) throw new CmppPduError('length', 'stream already failed');
    let b = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const out: Buffer[] = [];
    while (b.length >= 4) {
      const len = b.readUInt32BE(0);
      if (len < HEADER_LENGTH || len > this.max) {
        this.failed = true;
        this.buf = Buffer.alloc(0);
        throw new CmppPduError('length', `Total_Length ${len} (expected ${HEADER_LENGTH}-${this.max})`);
      }
      if (b.length < len) break;
      out.push(Buffer.from(b.subarray(0, len))); // a copy: the caller may keep it
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
      throw new CmppPduError('truncated', `${what}: ${n} octets needed at ${this.o}, packet of ${this.b.length}`);
  }
  u8(what: string): number {
    this.need(1, what);
    return this.b[this.o++];
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
  msgId(what: string): bigint {
    this.need(8, what);
    const v = this.b.readBigUInt64BE(this.o);
    this.o += 8;
    return v;
  }
  end(what: string) {
    if (this.o !== this.b.length)
      throw new CmppPduError('length', `${what}: ${this.b.length - this.o} octets left over`);
  }
}

class Writer {
  o = HEADER_LENGTH;
  readonly b: Buffer;
  constructor(len: number, commandId: number, sequenceId: number) {
    this.b = Buffer.alloc(len);
    this.b.writeUInt32BE(len, 0);
    this.b.writeUInt32BE(commandId >>> 0, 4);
    this.b.writeUInt32BE(sequenceId >>> 0, 8);
  }
  u8(v: number) {
    this.b[this.o++] = v & 0xff;
  }
  u32(v: number) {
    this.b.writeUInt32BE(v >>> 0, this.o);
    this.o += 4;
  }
  bytes(v: Buffer) {
    this.o += v.copy(this.b, this.o);
  }
  /** a fixed-width Octet String (NUL padded); RangeError when longer */
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
  msgId(v: bigint) {
    this.b.writeBigUInt64BE(BigInt.asUintN(64, v), this.o);
    this.o += 8;
  }
  done(): Buffer {
    if (this.o !== this.b.length) throw new Error(`CMPP encoder: wrote ${this.o} of ${this.b.length}`);
    return this.b;
  }
}

function headerOf(b: Buffer, commandId: number): CmppHeader {
  const h = readHeader(b);
  if (h.commandId !== commandId)
    throw new CmppPduError(
      'command',
      `Command_Id 0x${h.commandId.toString(16)} where ${commandName(commandId)} was expected`,
    );
  return h;
}

/** a header-only packet: TERMINATE, TERMINATE_RESP, ACTIVE_TEST */
export function encodeHeaderOnly(commandId: number, sequenceId: number): Buffer {
  return new Writer(HEADER_LENGTH, commandId, sequenceId).done();
}
export const encodeTerminate = (seq: number) => encodeHeaderOnly(CMD.TERMINATE, seq);
export const encodeTerminateResp = (seq: number) => encodeHeaderOnly(CMD.TERMINATE_RESP, seq);
export const encodeActiveTest = (seq: number) => encodeHeaderOnly(CMD.ACTIVE_TEST, seq);
/** ACTIVE_TEST_RESP: Reserved(1) */
export function encodeActiveTestResp(seq: number): Buffer {
  const w = new Writer(HEADER_LENGTH + 1, CMD.ACTIVE_TEST_RESP, seq);
  w.u8(0);
  return w.done();
}
/** reads TERMINATE / TERMINATE_RESP / ACTIVE_TEST (a body is tolerated: some gateways add one) and ACTIVE_TEST_RESP (Reserved optional) */
export function decodeHeaderOnly(b: Buffer, commandId: number): CmppHeader {
  return headerOf(b, commandId);
}

// ---------------------------------------------------------------- CONNECT

/** MMDDHHMMSS of `d` in the UTC offset (minutes; China 480) */
export function cmppTimestamp(d: Date, tzMinutes = 480): string {
  const t = new Date(d.getTime() + tzMinutes * 60_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(t.getUTCMonth() + 1)}${p(t.getUTCDate())}${p(t.getUTCHours())}${p(t.getUTCMinutes())}${p(t.getUTCSeconds())}`;
}

/** the Timestamp field's 10 digits (zero-padded) */
export const timestampText = (n: number) => String(n >>> 0).padStart(10, '0');

const md5 = (...parts: Buffer[]) => crypto.createHash('md5').update(Buffer.concat(parts)).digest();

/** AuthenticatorSource = MD5(Source_Addr + 9 zero octets + secret + timestamp as 10 ASCII digits) */
export function sourceAuthenticator(sourceAddr: string, secret: string, timestamp: number | string): Buffer {
  const ts = typeof timestamp === 'number' ? timestampText(timestamp) : timestamp;
  return md5(
    Buffer.from(sourceAddr, 'latin1'),
    Buffer.alloc(9),
    Buffer.from(secret, 'latin1'),
    Buffer.from(ts, 'latin1'),
  );
}

/** AuthenticatorISMG = MD5(Status + AuthenticatorSource + secret); Status is 1 octet in 2.0, 4 in 3.0 */
export function ismgAuthenticator(
  status: number,
  authenticatorSource: Buffer,
  secret: string,
  version: CmppVersion,
): Buffer {
  const s = Buffer.alloc(version === 2 ? 1 : 4);
  if (version === 2) s[0] = status & 0xff;
  else s.writeUInt32BE(status >>> 0, 0);
  return md5(s, authenticatorSource, Buffer.from(secret, 'latin1'));
}

export interface CmppConnect {
  /** at most 6 octets */
  sourceAddr: string;
  authenticatorSource: Buffer;
  /** the Version octet (0x20, 0x30) */
  version: number;
  /** MMDDHHMMSS as a number */
  timestamp: number;
}

export const CONNECT_LENGTH = HEADER_LENGTH + 6 + 16 + 1 + 4;

export function encodeConnect(seq: number, c: CmppConnect): Buffer {
  const w = new Writer(CONNECT_LENGTH, CMD.CONNECT, seq);
  w.str(c.sourceAddr, 6, 'Source_Addr');
  w.fixed(c.authenticatorSource, 16, 'AuthenticatorSource');
  w.u8(c.version);
  w.u32(c.timestamp);
  return w.done();
}

/** a CONNECT for `sourceAddr` / `secret` at `now` (Beijing time by default) */
export function makeConnect(
  sourceAddr: string,
  secret: string,
  version: CmppVersion,
  now = new Date(),
  tzMinutes = 480,
): CmppConnect {
  const ts = cmppTimestamp(now, tzMinutes);
  return {
    sourceAddr,
    authenticatorSource: sourceAuthenticator(sourceAddr, secret, ts),
    version: VERSION_OCTET[version],
    timestamp: Number(ts),
  };
}

export function decodeConnect(b: Buffer): CmppConnect & CmppHeader {
  const h = headerOf(b, CMD.CONNECT);
  const r = new Reader(b);
  const out = {
    ...h,
    sourceAddr: r.str(6, 'Source_Addr'),
    authenticatorSource: r.bytes(16, 'AuthenticatorSource'),
    version: r.u8('Version'),
    timestamp: r.u32('Timestamp'),
  };
  r.end('CONNECT');
  return out;
}

export interface CmppConnectResp {
  status: number;
  authenticatorIsmg: Buffer;
  version: number;
}

export const connectRespLength = (v: CmppVersion) => HEADER_LENGTH + (v === 2 ? 1 : 4) + 16 + 1;

/** in the layout of `layout` (2.0: Status 1 octet, 3.0: 4) */
export function encodeConnectResp(seq: number, r: CmppConnectResp, layout: CmppVersion): Buffer {
  const w = new Writer(connectRespLength(layout), CMD.CONNECT_RESP, seq);
  if (layout === 2) w.u8(r.status);
  else w.u32(r.status);
  w.fixed(r.authenticatorIsmg, 16, 'AuthenticatorISMG');
  w.u8(r.version);
  return w.done();
}

/** either layout, told by the length (30 octets: 2.0, 33: 3.0) */
export function decodeConnectResp(b: Buffer): CmppConnectResp & CmppHeader & { layout: CmppVersion } {
  const h = headerOf(b, CMD.CONNECT_RESP);
  const layout: CmppVersion | null =
    b.length === connectRespLength(2) ? 2 : b.length === connectRespLength(3) ? 3 : null;
  if (!layout) throw new CmppPduError('length', `CONNECT_RESP of ${b.length} octets`);
  const r = new Reader(b);
  const status = layout === 2 ? r.u8('Status') : r.u32('Status');
  const out = { ...h, layout, status, authenticatorIsmg: r.bytes(16, 'AuthenticatorISMG'), version: r.u8('Version') };
  r.end('CONNECT_RESP');
  return out;
}

// ---------------------------------------------------------------- Msg_Id

export interface MsgIdParts {
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** the gateway (ISMG / platform) code, 22 bits */
  gateway: number;
  /** 16 bits */
  sequence: number;
}

/** month(4) day(5) hour(5) minute(6) second(6) gateway(22) sequence(16), most significant first */
export function makeMsgId(p: MsgIdParts): bigint {
  let v = BigInt(p.month & 0xf);
  v = (v << 5n) | BigInt(p.day & 0x1f);
  v = (v << 5n) | BigInt(p.hour & 0x1f);
  v = (v << 6n) | BigInt(p.minute & 0x3f);
  v = (v << 6n) | BigInt(p.second & 0x3f);
  v = (v << 22n) | BigInt(p.gateway & 0x3fffff);
  v = (v << 16n) | BigInt(p.sequence & 0xffff);
  return v;
}

export function msgIdParts(id: bigint): MsgIdParts {
  const v = BigInt.asUintN(64, id);
  const f = (shift: bigint, bits: bigint) => Number((v >> shift) & ((1n << bits) - 1n));
  return {
    month: f(60n, 4n),
    day: f(55n, 5n),
    hour: f(50n, 5n),
    minute: f(44n, 6n),
    second: f(38n, 6n),
    gateway: f(16n, 22n),
    sequence: f(0n, 16n),
  };
}

export function msgIdToBuffer(id: bigint): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt.asUintN(64, id), 0);
  return b;
}

/** 8 octets → the id; CmppPduError when fewer */
export function msgIdFromBuffer(b: Buffer, offset = 0): bigint {
  if (offset < 0 || offset + 8 > b.length) throw new CmppPduError('truncated', 'Msg_Id needs 8 octets');
  return b.readBigUInt64BE(offset);
}

/** the decimal string form (Receipt.msgId, SubmitResult.msgId) */
export const msgIdString = (id: bigint) => BigInt.asUintN(64, id).toString(10);

/** a decimal string (at most 20 digits, below 2^64) → the id; null otherwise */
export function parseMsgId(s: string): bigint | null {
  if (typeof s !== 'string' || !/^\d{1,20}$/.test(s)) return null;
  const v = BigInt(s);
  return v < 1n << 64n ? v : null;
}

/** Msg_Ids of one gateway: the time of `now` (tz, Beijing by default) and a 16-bit sequence that wraps */
export class MsgIdSource {
  private seq = 0;
  constructor(
    readonly gateway: number,
    private readonly tzMinutes = 480,
  ) {}
  next(now = new Date()): bigint {
    const t = new Date(now.getTime() + this.tzMinutes * 60_000);
    this.seq = (this.seq + 1) & 0xffff;
    return makeMsgId({
      month: t.getUTCMonth() + 1,
      day: t.getUTCDate(),
      hour: t.getUTCHours(),
      minute: t.getUTCMinutes(),
      second: t.getUTCSeconds(),
      gateway: this.gateway,
      sequence: this.seq,
    });
  }
}

// ---------------------------------------------------------------- SUBMIT

export interface CmppSubmit {
  /** 0 from an SP; the ISMG fills it in */
  msgId: bigint;
  pkTotal: number;
  pkNumber: number;
  registeredDelivery: number;
  msgLevel: number;
  /** 10 octets */
  serviceId: string;
  feeUserType: number;
  /** 21 octets (2.0) / 32 (3.0) */
  feeTerminalId: string;
  /** 3.0 only (0 in 2.0) */
  feeTerminalType: number;
  tpPid: number;
  tpUdhi: number;
  msgFmt: number;
  /** 6 octets: the SP id */
  msgSrc: string;
  /** 2 octets */
  feeType: string;
  /** 6 octets */
  feeCode: string;
  /** 17 octets each */
  validTime: string;
  atTime: string;
  /** 21 octets */
  srcId: string;
  /** 1-100 numbers of 21 octets (2.0) / 32 (3.0) */
  destTerminalIds: string[];
  /** 3.0 only (0 in 2.0) */
  destTerminalType: number;
  /** at most 255 octets (UDH included when tpUdhi) */
  msgContent: Buffer;
  /** 2.0 Reserve (8 octets) / 3.0 LinkID (20) */
  linkId: string;
}

export const SUBMIT_DEFAULTS: Omit<CmppSubmit, 'msgSrc' | 'srcId' | 'destTerminalIds' | 'msgContent'> = {
  msgId: 0n,
  pkTotal: 1,
  pkNumber: 1,
  registeredDelivery: 1,
  msgLevel: 0,
  serviceId: '',
  feeUserType: 0,
  feeTerminalId: '',
  feeTerminalType: 0,
  tpPid: 0,
  tpUdhi: 0,
  msgFmt: MSG_FMT.ASCII,
  feeType: '01',
  feeCode: '000000',
  validTime: '',
  atTime: '',
  destTerminalType: 0,
  linkId: '',
};

export const MAX_DESTS = 100;
const termLen = (v: CmppVersion) => (v === 2 ? 21 : 32);
const tailLen = (v: CmppVersion) => (v === 2 ? 8 : 20);

export function submitLength(v: CmppVersion, dests: number, content: number): number {
  const fee = v === 2 ? 21 : 33;
  const destOctets = dests * termLen(v) + (v === 3 ? 1 : 0);
  return (
    HEADER_LENGTH + 8 + 4 + 10 + 1 + fee + 3 + 6 + 2 + 6 + 17 + 17 + 21 + 1 + destOctets + 1 + content + tailLen(v)
  );
}

/** RangeError when a field does not fit (content over 255 octets, 0 or over 100 numbers, a string too long) */
export function encodeSubmit(seq: number, s: CmppSubmit, v: CmppVersion): Buffer {
  if (s.msgContent.length > 255) throw new RangeError('Msg_Content over 255 octets');
  if (s.destTerminalIds.length < 1 || s.destTerminalIds.length > MAX_DESTS)
    throw new RangeError(`1-${MAX_DESTS} Dest_terminal_Id`);
  const w = new Writer(submitLength(v, s.destTerminalIds.length, s.msgContent.length), CMD.SUBMIT, seq);
  w.msgId(s.msgId);
  w.u8(s.pkTotal);
  w.u8(s.pkNumber);
  w.u8(s.registeredDelivery);
  w.u8(s.msgLevel);
  w.str(s.serviceId, 10, 'Service_Id');
  w.u8(s.feeUserType);
  w.str(s.feeTerminalId, termLen(v), 'Fee_terminal_Id');
  if (v === 3) w.u8(s.feeTerminalType);
  w.u8(s.tpPid);
  w.u8(s.tpUdhi);
  w.u8(s.msgFmt);
  w.str(s.msgSrc, 6, 'Msg_src');
  w.str(s.feeType, 2, 'FeeType');
  w.str(s.feeCode, 6, 'FeeCode');
  w.str(s.validTime, 17, 'ValId_Time');
  w.str(s.atTime, 17, 'At_Time');
  w.str(s.srcId, 21, 'Src_Id');
  w.u8(s.destTerminalIds.length);
  for (const d of s.destTerminalIds) w.str(d, termLen(v), 'Dest_terminal_Id');
  if (v === 3) w.u8(s.destTerminalType);
  w.u8(s.msgContent.length);
  w.bytes(s.msgContent);
  w.str(s.linkId, tailLen(v), v === 2 ? 'Reserve' : 'LinkID');
  return w.done();
}

export function decodeSubmit(b: Buffer, v: CmppVersion): CmppSubmit & CmppHeader {
  const h = headerOf(b, CMD.SUBMIT);
  const r = new Reader(b);
  const msgId = r.msgId('Msg_Id');
  const pkTotal = r.u8('Pk_total');
  const pkNumber = r.u8('Pk_number');
  const registeredDelivery = r.u8('Registered_Delivery');
  const msgLevel = r.u8('Msg_level');
  const serviceId = r.str(10, 'Service_Id');
  const feeUserType = r.u8('Fee_UserType');
  const feeTerminalId = r.str(termLen(v), 'Fee_terminal_Id');
  const feeTerminalType = v === 3 ? r.u8('Fee_terminal_type') : 0;
  const tpPid = r.u8('TP_pId');
  const tpUdhi = r.u8('TP_udhi');
  const msgFmt = r.u8('Msg_Fmt');
  const msgSrc = r.str(6, 'Msg_src');
  const feeType = r.str(2, 'FeeType');
  const feeCode = r.str(6, 'FeeCode');
  const validTime = r.str(17, 'ValId_Time');
  const atTime = r.str(17, 'At_Time');
  const srcId = r.str(21, 'Src_Id');
  const n = r.u8('DestUsr_tl');
  if (n < 1 || n > MAX_DESTS) throw new CmppPduError('field', `DestUsr_tl ${n}`);
  r.need(n * termLen(v), 'Dest_terminal_Id');
  const destTerminalIds: string[] = [];
  for (let i = 0; i < n; i++) destTerminalIds.push(r.str(termLen(v), 'Dest_terminal_Id'));
  const destTerminalType = v === 3 ? r.u8('Dest_terminal_type') : 0;
  const len = r.u8('Msg_Length');
  const msgContent = r.bytes(len, 'Msg_Content');
  const linkId = r.str(tailLen(v), v === 2 ? 'Reserve' : 'LinkID');
  r.end('SUBMIT');
  return {
    ...h,
    msgId,
    pkTotal,
    pkNumber,
    registeredDelivery,
    msgLevel,
    serviceId,
    feeUserType,
    feeTerminalId,
    feeTerminalType,
    tpPid,
    tpUdhi,
    msgFmt,
    msgSrc,
    feeType,
    feeCode,
    validTime,
    atTime,
    srcId,
    destTerminalIds,
    destTerminalType,
    msgContent,
    linkId,
  };
}

// ---------------------------------------------------------------- SUBMIT_RESP / DELIVER_RESP

export interface CmppResp {
  msgId: bigint;
  result: number;
}

export const respLength = (v: CmppVersion) => HEADER_LENGTH + 8 + (v === 2 ? 1 : 4);

function encodeResp(commandId: number, seq: number, r: CmppResp, v: CmppVersion): Buffer {
  const w = new Writer(respLength(v), commandId, seq);
  w.msgId(r.msgId);
  if (v === 2) w.u8(r.result);
  else w.u32(r.result);
  return w.done();
}

/** either layout, told by the length (21 octets: 2.0, 24: 3.0) */
function decodeResp(b: Buffer, commandId: number): CmppResp & CmppHeader & { layout: CmppVersion } {
  const h = headerOf(b, commandId);
  const layout: CmppVersion | null = b.length === respLength(2) ? 2 : b.length === respLength(3) ? 3 : null;
  if (!layout) throw new CmppPduError('length', `${commandName(commandId)} of ${b.length} octets`);
  const r = new Reader(b);
  const msgId = r.msgId('Msg_Id');
  const result = layout === 2 ? r.u8('Result') : r.u32('Result');
  r.end(commandName(commandId) ?? '');
  return { ...h, layout, msgId, result };
}

export const encodeSubmitResp = (seq: number, r: CmppResp, v: CmppVersion) => encodeResp(CMD.SUBMIT_RESP, seq, r, v);
export const decodeSubmitResp = (b: Buffer) => decodeResp(b, CMD.SUBMIT_RESP);
export const encodeDeliverResp = (seq: number, r: CmppResp, v: CmppVersion) => encodeResp(CMD.DELIVER_RESP, seq, r, v);
export const decodeDeliverResp = (b: Buffer) => decodeResp(b, CMD.DELIVER_RESP);

// ---------------------------------------------------------------- DELIVER

export interface CmppDeliver {
  msgId: bigint;
  /** 21 octets: the SP's number (+ extension) */
  destId: string;
  serviceId: string;
  tpPid: number;
  tpUdhi: number;
  msgFmt: number;
  /** 21 octets (2.0) / 32 (3.0) */
  srcTerminalId: string;
  /** 3.0 only */
  srcTerminalType: number;
  /** 1: Msg_Content is a status report */
  registeredDelivery: number;
  msgContent: Buffer;
  /** 2.0 Reserved (8) / 3.0 LinkID (20) */
  linkId: string;
}

export function deliverLength(v: CmppVersion, content: number): number {
  return HEADER_LENGTH + 8 + 21 + 10 + 3 + termLen(v) + (v === 3 ? 1 : 0) + 1 + 1 + content + tailLen(v);
}

export function encodeDeliver(seq: number, d: CmppDeliver, v: CmppVersion): Buffer {
  if (d.msgContent.length > 255) throw new RangeError('Msg_Content over 255 octets');
  const w = new Writer(deliverLength(v, d.msgContent.length), CMD.DELIVER, seq);
  w.msgId(d.msgId);
  w.str(d.destId, 21, 'Dest_Id');
  w.str(d.serviceId, 10, 'Service_Id');
  w.u8(d.tpPid);
  w.u8(d.tpUdhi);
  w.u8(d.msgFmt);
  w.str(d.srcTerminalId, termLen(v), 'Src_terminal_Id');
  if (v === 3) w.u8(d.srcTerminalType);
  w.u8(d.registeredDelivery);
  w.u8(d.msgContent.length);
  w.bytes(d.msgContent);
  w.str(d.linkId, tailLen(v), v === 2 ? 'Reserved' : 'LinkID');
  return w.done();
}

export function decodeDeliver(b: Buffer, v: CmppVersion): CmppDeliver & CmppHeader {
  const h = headerOf(b, CMD.DELIVER);
  const r = new Reader(b);
  const msgId = r.msgId('Msg_Id');
  const destId = r.str(21, 'Dest_Id');
  const serviceId = r.str(10, 'Service_Id');
  const tpPid = r.u8('TP_pid');
  const tpUdhi = r.u8('TP_udhi');
  const msgFmt = r.u8('Msg_Fmt');
  const srcTerminalId = r.str(termLen(v), 'Src_terminal_Id');
  const srcTerminalType = v === 3 ? r.u8('Src_terminal_type') : 0;
  const registeredDelivery = r.u8('Registered_Delivery');
  const len = r.u8('Msg_Length');
  const msgContent = r.bytes(len, 'Msg_Content');
  const linkId = r.str(tailLen(v), v === 2 ? 'Reserved' : 'LinkID');
  r.end('DELIVER');
  return {
    ...h,
    msgId,
    destId,
    serviceId,
    tpPid,
    tpUdhi,
    msgFmt,
    srcTerminalId,
    srcTerminalType,
    registeredDelivery,
    msgContent,
    linkId,
  };
}

/** the Msg_Content of a DELIVER with Registered_Delivery 1 */
export interface CmppReport {
  /** the submit's Msg_Id */
  msgId: bigint;
  /** 7 octets: DELIVRD, EXPIRED, DELETED, UNDELIV, ACCEPTD, UNKNOWN, REJECTD, or a gateway's code */
  stat: string;
  /** YYMMDDHHMM each */
  submitTime: string;
  doneTime: string;
  /** 21 octets (2.0) / 32 (3.0) */
  destTerminalId: string;
  smscSequence: number;
}

export const reportLength = (v: CmppVersion) => 8 + 7 + 10 + 10 + termLen(v) + 4;

export function encodeReport(r: CmppReport, v: CmppVersion): Buffer {
  const w = new Writer(HEADER_LENGTH + reportLength(v), 0, 0);
  w.msgId(r.msgId);
  w.str(r.stat, 7, 'Stat');
  w.str(r.submitTime, 10, 'Submit_time');
  w.str(r.doneTime, 10, 'Done_time');
  w.str(r.destTerminalId, termLen(v), 'Dest_terminal_Id');
  w.u32(r.smscSequence);
  return Buffer.from(w.done().subarray(HEADER_LENGTH));
}

/**
 * A status report's fields. Its layout is told by the length when it is one of the two (60 octets:
 * 2.0, 71: 3.0; some gateways answer a 3.0 session in the 2.0 layout), else the session's version
 * (octets beyond it ignored).
 */
export function decodeReport(content: Buffer, v: CmppVersion): CmppReport {
  const layout: CmppVersion = content.length === reportLength(2) ? 2 : content.length === reportLength(3) ? 3 : v;
  if (content.length < reportLength(layout))
    throw new CmppPduError('truncated', `status report of ${content.length} octets`);
  const b = Buffer.concat([Buffer.alloc(HEADER_LENGTH), content.subarray(0, reportLength(layout))]);
  const r = new Reader(b);
  const out = {
    msgId: r.msgId('Msg_Id'),
    stat: r.str(7, 'Stat'),
    submitTime: r.str(10, 'Submit_time'),
    doneTime: r.str(10, 'Done_time'),
    destTerminalId: r.str(termLen(layout), 'Dest_terminal_Id'),
    smscSequence: r.u32('SMSC_sequence'),
  };
  r.end('status report');
  return out;
}

/** YYMMDDHHMM of a report's time (tz, Beijing by default) */
export function reportTime(d: Date, tzMinutes = 480): string {
  const t = new Date(d.getTime() + tzMinutes * 60_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(t.getUTCFullYear() % 100)}${p(t.getUTCMonth() + 1)}${p(t.getUTCDate())}${p(t.getUTCHours())}${p(t.getUTCMinutes())}`;
}

/** a report's YYMMDDHHMM → the instant (tz), null when not a valid time */
export function parseReportTime(s: string, tzMinutes = 480): Date | null {
  if (!/^\d{10}$/.test(s)) return null;
  const n = (i: number) => Number(s.slice(i, i + 2));
  const [mo, d, h, mi] = [n(2), n(4), n(6), n(8)];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59) return null;
  return new Date(Date.UTC(2000 + n(0), mo - 1, d, h, mi) - tzMinutes * 60_000);
}

// ---------------------------------------------------------------- any packet

export type CmppPacket =
  | ({ command: 'CONNECT' } & ReturnType<typeof decodeConnect>)
  | ({ command: 'CONNECT_RESP' } & ReturnType<typeof decodeConnectResp>)
  | ({ command: 'SUBMIT' } & ReturnType<typeof decodeSubmit>)
  | ({ command: 'SUBMIT_RESP' } & ReturnType<typeof decodeSubmitResp>)
  | ({ command: 'DELIVER' } & ReturnType<typeof decodeDeliver>)
  | ({ command: 'DELIVER_RESP' } & ReturnType<typeof decodeDeliverResp>)
  | ({ command: 'ACTIVE_TEST' | 'ACTIVE_TEST_RESP' | 'TERMINATE' | 'TERMINATE_RESP' } & CmppHeader)
  | ({ command: 'OTHER'; name: CmppCommand | undefined } & CmppHeader);

/**
 * Any whole packet (from CmppFrameSplitter) in the session's version; commands other than the
 * ones above come back as OTHER with their header (the caller answers or refuses them). Throws
 * CmppPduError.
 */
export function decodePacket(b: Buffer, v: CmppVersion): CmppPacket {
  const h = readHeader(b);
  switch (h.commandId) {
    case CMD.CONNECT:
      return { command: 'CONNECT', ...decodeConnect(b) };
    case CMD.CONNECT_RESP:
      return { command: 'CONNECT_RESP', ...decodeConnectResp(b) };
    case CMD.SUBMIT:
      return { command: 'SUBMIT', ...decodeSubmit(b, v) };
    case CMD.SUBMIT_RESP:
      return { command: 'SUBMIT_RESP', ...decodeSubmitResp(b) };
    case CMD.DELIVER:
      return { command: 'DELIVER', ...decodeDeliver(b, v) };
    case CMD.DELIVER_RESP:
      return { command: 'DELIVER_RESP', ...decodeDeliverResp(b) };
    case CMD.ACTIVE_TEST:
      return { command: 'ACTIVE_TEST', ...h };
    case CMD.ACTIVE_TEST_RESP:
      return { command: 'ACTIVE_TEST_RESP', ...h };
    case CMD.TERMINATE:
      return { command: 'TERMINATE', ...h };
    case CMD.TERMINATE_RESP:
      return { command: 'TERMINATE_RESP', ...h };
    default:
      return { command: 'OTHER', name: commandName(h.commandId), ...h };
  }
}

// ---------------------------------------------------------------- text

/** Msg_Content holds at most this many octets (UDH included) */
export const CONTENT_MAX = 140;

const ASCII_SAFE = /^[\x20-\x7e\r\n]*$/;

/** ASCII (Msg_Fmt 0) when every character is printable ASCII, else UCS2 (8, UTF-16BE) */
export function encodeCmppText(text: string): { msgFmt: number; octets: Buffer } {
  if (ASCII_SAFE.test(text)) return { msgFmt: MSG_FMT.ASCII, octets: Buffer.from(text, 'latin1') };
  return { msgFmt: MSG_FMT.UCS2, octets: Buffer.from(text, 'utf16le').swap16() };
}

let gb: TextDecoder | null | undefined;
function gbDecoder(): TextDecoder | null {
  if (gb === undefined) {
    try {
      gb = new TextDecoder('gb18030');
    } catch {
      gb = null;
    }
  }
  return gb;
}

/** the text of Msg_Content octets (without a UDH): 8 UCS2, 15 GB18030 / GBK, anything else Latin-1 */
export function decodeCmppText(octets: Buffer, msgFmt: number): string {
  if (msgFmt === MSG_FMT.UCS2) {
    const even = Buffer.from(octets.subarray(0, octets.length & ~1));
    return even.swap16().toString('utf16le');
  }
  if (msgFmt === MSG_FMT.GB) {
    const d = gbDecoder();
    if (d) return d.decode(octets);
  }
  return octets.toString('latin1');
}

export interface Concat {
  /** 8-bit (IEI 0x00) or 16-bit (IEI 0x08) reference */
  ref: number;
  total: number;
  number: number;
}

/**
 * Msg_Content with TP_udhi 1: its concatenation element (6-octet `05 00 03 ref total number` or
 * 7-octet `06 08 04 ref ref total number` header), if any, and the text's octets after the UDH.
 * A UDH longer than the content: CmppPduError.
 */
export function splitUdh(content: Buffer): { concat: Concat | null; body: Buffer } {
  if (!content.length) throw new CmppPduError('field', 'TP_udhi 1 without a UDH');
  const udhl = content[0];
  if (1 + udhl > content.length) throw new CmppPduError('field', `UDH of ${udhl} octets in ${content.length}`);
  const body = content.subarray(1 + udhl);
  let concat: Concat | null = null;
  let o = 1;
  while (o + 2 <= 1 + udhl) {
    const iei = content[o];
    const len = content[o + 1];
    if (o + 2 + len > 1 + udhl) break;
    const e = content.subarray(o + 2, o + 2 + len);
    if (iei === 0x00 && len === 3) concat = { ref: e[0], total: e[1], number: e[2] };
    else if (iei === 0x08 && len === 4) concat = { ref: e.readUInt16BE(0), total: e[2], number: e[3] };
    o += 2 + len;
  }
  return { concat, body };
}

export interface CmppParts {
  msgFmt: number;
  /** each part's Msg_Content; with the 6-octet UDH when there are several */
  contents: Buffer[];
}

/**
 * The text as the Msg_Content of each submit: one when it fits one SMS (70 UCS2 characters or 140
 * ASCII octets), else parts of 67 UCS2 characters (a surrogate pair never split) or 134 octets,
 * each after `05 00 03 ref total number` (TP_udhi 1, Pk_total / Pk_number = total / number).
 * RangeError over 255 parts.
 */
export function splitCmppText(text: string, ref: number): CmppParts {
  const { dataCoding, parts } = splitText(text, 'ia5', 'udh');
  const msgFmt = dataCoding === DC_UCS2 ? MSG_FMT.UCS2 : MSG_FMT.ASCII;
  if (parts.length === 1) return { msgFmt, contents: [Buffer.from(parts[0])] };
  return { msgFmt, contents: parts.map((p, i) => Buffer.concat([concatUdh(ref, parts.length, i + 1), p])) };
}

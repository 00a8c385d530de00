/**
 * SGIP 1.2 (China Unicom's Short message Gateway Interface Protocol) packets as pure functions,
 * shared by the carrier link (server/modules/smsc/sgip-client.ts), its simulator and the customers'
 * SGIP door. Written from the protocol's description (SGIP 1.2, 中国联通短消息网关系统接口协议);
 * rules in docs/api-dispatch.md "SGIP link" and docs/api-sgip.md.
 *
 * - A packet: Message Length(4) Command ID(4) Sequence Number(12), big-endian, then the body. The
 *   sequence number is three unsigned 32-bit numbers: the sender's node id, MMDDHHMMSS (a decimal
 *   number) and a running number. Its text form `node-time-number` names a submit (Receipt.msgId,
 *   SubmitResult.msgId): an SGIP_REPORT names the submit it is for by it.
 * - Strings are fixed-width Octet Strings, left-aligned and padded with NUL octets.
 * - SgipFrameSplitter cuts a byte stream into whole packets; a Message Length below 20 or above
 *   `max` (4 KB by default) is an error (the caller closes the connection), never a wait.
 * - Every decoder is total: a truncated, oversized or otherwise malformed packet throws
 *   SgipPduError (never reads past the buffer, never loops on input), so the caller can close.
 * - Text: MessageCoding 0 ASCII, 8 UCS2, 15 GBK / GB18030 (the values and the long-message parts
 *   of CMPP: `05 00 03 ref total number` with TP_udhi 1; cmpp-pdu.ts has the text functions).
 */
import {
  cmppTimestamp,
  decodeCmppText,
  encodeCmppText,
  splitCmppText,
  splitUdh,
  type CmppParts,
  type Concat,
} from './cmpp-pdu';

export const HEADER_LENGTH = 20;
/** SGIP packets are small (a submit to 100 numbers is under 2.4 KB plus its content) */
export const MAX_PACKET = 4096;

export const CMD = {
  BIND: 0x00000001,
  BIND_RESP: 0x80000001,
  UNBIND: 0x00000002,
  UNBIND_RESP: 0x80000002,
  SUBMIT: 0x00000003,
  SUBMIT_RESP: 0x80000003,
  DELIVER: 0x00000004,
  DELIVER_RESP: 0x80000004,
  REPORT: 0x00000005,
  REPORT_RESP: 0x80000005,
  ADDSP: 0x00000006,
  ADDSP_RESP: 0x80000006,
  MODIFYSP: 0x00000007,
  MODIFYSP_RESP: 0x80000007,
  DELETESP: 0x00000008,
  DELETESP_RESP: 0x80000008,
  QUERYROUTE: 0x00000009,
  QUERYROUTE_RESP: 0x80000009,
  ADDTELESEG: 0x0000000a,
  ADDTELESEG_RESP: 0x8000000a,
  MODIFYTELESEG: 0x0000000b,
  MODIFYTELESEG_RESP: 0x8000000b,
  DELETETELESEG: 0x0000000c,
  DELETETELESEG_RESP: 0x8000000c,
  ADDSMG: 0x0000000d,
  ADDSMG_RESP: 0x8000000d,
  MODIFYSMG: 0x0000000e,
  MODIFYSMG_RESP: 0x8000000e,
  DELETESMG: 0x0000000f,
  DELETESMG_RESP: 0x8000000f,
  CHECKUSER: 0x00000010,
  CHECKUSER_RESP: 0x80000010,
  USERRPT: 0x00000011,
  USERRPT_RESP: 0x80000011,
  TRACE: 0x00001000,
  TRACE_RESP: 0x80001000,
} as const;
export type SgipCommand = keyof typeof CMD;
const NAMES = new Map<number, SgipCommand>(Object.entries(CMD).map(([k, v]) => [v, k as SgipCommand]));
/** BIND, SUBMIT_RESP …; undefined for an id SGIP does not define */
export const commandName = (id: number): SgipCommand | undefined => NAMES.get(id >>> 0);
export const isResponse = (id: number) => (id & 0x80000000) !== 0;

/** Login Type of SGIP_BIND: 1 an SP binds to the SMG, 2 the SMG binds to the SP (bind-back) */
export const LOGIN_TYPE = {
  SP_TO_SMG: 1,
  SMG_TO_SP: 2,
  SMG_TO_SMG: 3,
  SMG_TO_GNS: 4,
  GNS_TO_SMG: 5,
  GNS_TO_GNS: 6,
  TEST: 11,
} as const;

/** Result of the responses (SGIP 1.2 §4.2.4 错误代码) */
export const RESULT = {
  OK: 0,
  /** 非法登录: login name or password wrong */
  BAD_LOGIN: 1,
  REPEATED_LOGIN: 2,
  TOO_MANY_CONNECTIONS: 3,
  BAD_LOGIN_TYPE: 4,
  BAD_PARAMETER: 5,
  BAD_USER_NUMBER: 6,
  BAD_MESSAGE_ID: 7,
  BAD_MESSAGE_LENGTH: 8,
  BAD_SEQUENCE: 9,
  BAD_GNS_OPERATION: 10,
  NODE_BUSY: 11,
  UNREACHABLE: 21,
  ROUTE_ERROR: 22,
  NO_ROUTE: 23,
  BAD_CHARGE_NUMBER: 24,
  USER_CANNOT_COMMUNICATE: 25,
  PHONE_MEMORY_FULL: 26,
  NO_SMS_SUPPORT: 27,
  RECEIVE_ERROR: 28,
  UNKNOWN_USER: 29,
  NOT_PROVIDED: 30,
  BAD_DEVICE: 31,
  SYSTEM_FAILURE: 32,
  QUEUE_FULL: 33,
} as const;

/** SGIP_REPORT State */
export const REPORT_STATE = { DELIVERED: 0, WAITING: 1, FAILED: 2 } as const;
/** SGIP_SUBMIT ReportFlag */
export const REPORT_FLAG = { FAILURES: 0, ALWAYS: 1, NEVER: 2, CHARGE_ONLY: 3 } as const;

export const MESSAGE_CODING = { ASCII: 0, WRITE_CARD: 3, BINARY: 4, UCS2: 8, GB: 15 } as const;

export type SgipErrorReason = 'length' | 'truncated' | 'field' | 'command';

/** a packet that cannot be read: the connection it came on is closed */
export class SgipPduError extends Error {
  constructor(
    readonly reason: SgipErrorReason,
    message: string,
  ) {
    super(`SGIP: ${message}`);
    this.name = 'SgipPduError';
  }
}

// ---------------------------------------------------------------- sequence numbers

/** the 12-octet Sequence Number: node id, MMDDHHMMSS, running number */
export interface SgipSeq {
  node: number;
  time: number;
  number: number;
}

/** `node-time-number`, each in decimal as it is (January's times have 9 digits: what other implementations print) */
export function seqString(s: SgipSeq): string {
  return `${s.node >>> 0}-${s.time >>> 0}-${s.number >>> 0}`;
}

/** the text form back; null when it is not one */
export function parseSeq(text: string): SgipSeq | null {
  const m = typeof text === 'string' ? /^(\d{1,10})-(\d{1,10})-(\d{1,10})$/.exec(text) : null;
  if (!m) return null;
  const [node, time, number] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (node > 0xffffffff || time > 0xffffffff || number > 0xffffffff) return null;
  return { node, time, number };
}

export const sameSeq = (a: SgipSeq, b: SgipSeq) => a.node === b.node && a.time === b.time && a.number === b.number;

/**
 * Sequence numbers of one node: MMDDHHMMSS of `now` (tz, Beijing by default) and a running
 * number that wraps at 2^32 (it starts at a random point so a restarted process does not repeat
 * the numbers of the same second).
 */
export class SeqSource {
  private n: number;
  constructor(
    readonly node: number,
    private readonly tzMinutes = 480,
    start = Math.floor(Math.random() * 0x7fffffff),
  ) {
    this.n = start >>> 0;
  }
  next(now = new Date()): SgipSeq {
    this.n = this.n >= 0xffffffff ? 1 : this.n + 1;
    return { node: this.node >>> 0, time: Number(cmppTimestamp(now, this.tzMinutes)), number: this.n };
  }
}

// ---------------------------------------------------------------- framing

export interface SgipHeader {
  length: number;
  commandId: number;
  seq: SgipSeq;
}

/** the header of a whole packet (its Message Length must be the buffer's length) */
export function readHeader(b: Buffer): SgipHeader {
  if (b.length < HEADER_LENGTH) throw new SgipPduError('truncated', `packet of ${b.length} octets`);
  const length = b.readUInt32BE(0);
  if (length !== b.length) throw new SgipPduError('length', `Message Length ${length} for ${b.length} octets`);
  return {
    length,
    commandId: b.readUInt32BE(4),
    seq: { node: b.readUInt32BE(8), time: b.readUInt32BE(12), number: b.readUInt32BE(16) },
  };
}

/**
 * Bytes in, whole packets out. push() throws SgipPduError when a Message Length is below 20 or
 * above `max`: the stream cannot be resynchronised, the connection is to be closed. Holds at most
 * one incomplete packet (≤ max octets).
 */
export class SgipFrameSplitter {
  private buf: Buffer = Buffer.alloc(0);
  private failed = false;
  constructor(readonly max = MAX_PACKET) {}

  get pending(): number {
    return this.buf.length;
  }

  push(chunk: Buffer): Buffer[] {
    if (this.failed) throw new SgipPduError('length', 'stream already failed');
    let b = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const out: Buffer[] = [];
    while (b.length >= 4) {
      const len = b.readUInt32BE(0);
      if (len < HEADER_LENGTH || len > this.max) {
        this.failed = true;
        this.buf = Buffer.alloc(0);
        throw new SgipPduError('length', `Message Length ${len} (expected ${HEADER_LENGTH}-${this.max})`);
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
    if (n < 0 || this.o + n > this.b.length)
      throw new SgipPduError('truncated', `${what}: ${n} octets needed at ${this.o}, packet of ${this.b.length}`);
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
  seq(what: string): SgipSeq {
    this.need(12, what);
    const s = {
      node: this.b.readUInt32BE(this.o),
      time: this.b.readUInt32BE(this.o + 4),
      number: this.b.readUInt32BE(this.o + 8),
    };
    this.o += 12;
    return s;
  }
  end(what: string) {
    if (this.o !== this.b.length)
      throw new SgipPduError('length', `${what}: ${this.b.length - this.o} octets left over`);
  }
}

class Writer {
  o = HEADER_LENGTH;
  readonly b: Buffer;
  constructor(len: number, commandId: number, seq: SgipSeq) {
    this.b = Buffer.alloc(len);
    this.b.writeUInt32BE(len, 0);
    this.b.writeUInt32BE(commandId >>> 0, 4);
    this.b.writeUInt32BE(seq.node >>> 0, 8);
    this.b.writeUInt32BE(seq.time >>> 0, 12);
    this.b.writeUInt32BE(seq.number >>> 0, 16);
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
  seq(s: SgipSeq) {
    this.u32(s.node);
    this.u32(s.time);
    this.u32(s.number);
  }
  done(): Buffer {
    if (this.o !== this.b.length) throw new Error(`SGIP encoder: wrote ${this.o} of ${this.b.length}`);
    return this.b;
  }
}

function headerOf(b: Buffer, commandId: number): SgipHeader {
  const h = readHeader(b);
  if (h.commandId !== commandId)
    throw new SgipPduError(
      'command',
      `Command ID 0x${h.commandId.toString(16)} where ${commandName(commandId)} was expected`,
    );
  return h;
}

/** a header-only packet: UNBIND, UNBIND_RESP */
export function encodeHeaderOnly(commandId: number, seq: SgipSeq): Buffer {
  return new Writer(HEADER_LENGTH, commandId, seq).done();
}
export const encodeUnbind = (seq: SgipSeq) => encodeHeaderOnly(CMD.UNBIND, seq);
export const encodeUnbindResp = (seq: SgipSeq) => encodeHeaderOnly(CMD.UNBIND_RESP, seq);

// ---------------------------------------------------------------- BIND

export interface SgipBind {
  loginType: number;
  /** 16 octets each */
  loginName: string;
  loginPassword: string;
  /** 8 octets */
  reserve: string;
}

export const BIND_LENGTH = HEADER_LENGTH + 1 + 16 + 16 + 8;

export function encodeBind(seq: SgipSeq, b: Omit<SgipBind, 'reserve'> & { reserve?: string }): Buffer {
  const w = new Writer(BIND_LENGTH, CMD.BIND, seq);
  w.u8(b.loginType);
  w.str(b.loginName, 16, 'Login_Name');
  w.str(b.loginPassword, 16, 'Login_Password');
  w.str(b.reserve ?? '', 8, 'Reserve');
  return w.done();
}

export function decodeBind(b: Buffer): SgipBind & SgipHeader {
  const h = headerOf(b, CMD.BIND);
  const r = new Reader(b);
  const out = {
    ...h,
    loginType: r.u8('Login_Type'),
    loginName: r.str(16, 'Login_Name'),
    loginPassword: r.str(16, 'Login_Password'),
    reserve: r.str(8, 'Reserve'),
  };
  r.end('BIND');
  return out;
}

// ---------------------------------------------------------------- the responses: Result(1) Reserve(8)

export const RESP_LENGTH = HEADER_LENGTH + 1 + 8;
/** the commands whose response is Result + Reserve (every one but UNBIND_RESP, CHECKUSER_RESP, TRACE_RESP) */
const RESULT_RESPONSES: ReadonlySet<number> = new Set([
  CMD.BIND_RESP,
  CMD.SUBMIT_RESP,
  CMD.DELIVER_RESP,
  CMD.REPORT_RESP,
  CMD.ADDSP_RESP,
  CMD.MODIFYSP_RESP,
  CMD.DELETESP_RESP,
  CMD.ADDTELESEG_RESP,
  CMD.MODIFYTELESEG_RESP,
  CMD.DELETETELESEG_RESP,
  CMD.ADDSMG_RESP,
  CMD.MODIFYSMG_RESP,
  CMD.DELETESMG_RESP,
  CMD.USERRPT_RESP,
]);

export interface SgipResp {
  result: number;
}

/** a Result + Reserve response (BIND_RESP, SUBMIT_RESP, DELIVER_RESP, REPORT_RESP, …) */
export function encodeResp(commandId: number, seq: SgipSeq, result: number): Buffer {
  if (!RESULT_RESPONSES.has(commandId)) throw new RangeError(`0x${commandId.toString(16)} is not a Result response`);
  const w = new Writer(RESP_LENGTH, commandId, seq);
  w.u8(result);
  w.str('', 8, 'Reserve');
  return w.done();
}

export function decodeResp(b: Buffer, commandId: number): SgipResp & SgipHeader {
  const h = headerOf(b, commandId);
  const r = new Reader(b);
  const result = r.u8('Result');
  r.str(8, 'Reserve');
  r.end(commandName(commandId) ?? 'response');
  return { ...h, result };
}

export const encodeBindResp = (seq: SgipSeq, result: number) => encodeResp(CMD.BIND_RESP, seq, result);
export const encodeSubmitResp = (seq: SgipSeq, result: number) => encodeResp(CMD.SUBMIT_RESP, seq, result);
export const encodeDeliverResp = (seq: SgipSeq, result: number) => encodeResp(CMD.DELIVER_RESP, seq, result);
export const encodeReportResp = (seq: SgipSeq, result: number) => encodeResp(CMD.REPORT_RESP, seq, result);

// ---------------------------------------------------------------- SUBMIT

export interface SgipSubmit {
  /** 21 octets: the SP's number (+ extension) */
  spNumber: string;
  /** 21: who pays; `000000000000000000000` the SP, empty the user */
  chargeNumber: string;
  /** 1-100 numbers of 21 octets, with 86 */
  userNumbers: string[];
  /** 5 */
  corpId: string;
  /** 10 */
  serviceType: string;
  feeType: number;
  /** 6 each */
  feeValue: string;
  givenValue: string;
  agentFlag: number;
  morelatetoMtFlag: number;
  priority: number;
  /** 16 each */
  expireTime: string;
  scheduleTime: string;
  reportFlag: number;
  tpPid: number;
  tpUdhi: number;
  messageCoding: number;
  messageType: number;
  messageContent: Buffer;
  /** 8 */
  reserve: string;
}

export const SUBMIT_DEFAULTS: Omit<SgipSubmit, 'spNumber' | 'userNumbers' | 'corpId' | 'messageContent'> = {
  chargeNumber: '000000000000000000000',
  serviceType: '',
  feeType: 1,
  feeValue: '0',
  givenValue: '0',
  agentFlag: 0,
  morelatetoMtFlag: 2,
  priority: 0,
  expireTime: '',
  scheduleTime: '',
  reportFlag: REPORT_FLAG.ALWAYS,
  tpPid: 0,
  tpUdhi: 0,
  messageCoding: MESSAGE_CODING.ASCII,
  messageType: 0,
  reserve: '',
};

export const MAX_USERS = 100;
/** the MessageContent octets a submit or deliver may carry (a packet stays within MAX_PACKET) */
export const MAX_CONTENT = 1024;

export const submitLength = (users: number, content: number) =>
  HEADER_LENGTH + 21 + 21 + 1 + 21 * users + 5 + 10 + 1 + 6 + 6 + 3 + 16 + 16 + 5 + 4 + content + 8;

/** RangeError when a field does not fit (content over MAX_CONTENT, 0 or over 100 numbers, a string too long) */
export function encodeSubmit(seq: SgipSeq, s: SgipSubmit): Buffer {
  if (s.messageContent.length > MAX_CONTENT) throw new RangeError(`MessageContent over ${MAX_CONTENT} octets`);
  if (s.userNumbers.length < 1 || s.userNumbers.length > MAX_USERS) throw new RangeError(`1-${MAX_USERS} UserNumber`);
  const w = new Writer(submitLength(s.userNumbers.length, s.messageContent.length), CMD.SUBMIT, seq);
  w.str(s.spNumber, 21, 'SPNumber');
  w.str(s.chargeNumber, 21, 'ChargeNumber');
  w.u8(s.userNumbers.length);
  for (const u of s.userNumbers) w.str(u, 21, 'UserNumber');
  w.str(s.corpId, 5, 'CorpId');
  w.str(s.serviceType, 10, 'ServiceType');
  w.u8(s.feeType);
  w.str(s.feeValue, 6, 'FeeValue');
  w.str(s.givenValue, 6, 'GivenValue');
  w.u8(s.agentFlag);
  w.u8(s.morelatetoMtFlag);
  w.u8(s.priority);
  w.str(s.expireTime, 16, 'ExpireTime');
  w.str(s.scheduleTime, 16, 'ScheduleTime');
  w.u8(s.reportFlag);
  w.u8(s.tpPid);
  w.u8(s.tpUdhi);
  w.u8(s.messageCoding);
  w.u8(s.messageType);
  w.u32(s.messageContent.length);
  w.bytes(s.messageContent);
  w.str(s.reserve, 8, 'Reserve');
  return w.done();
}

export function decodeSubmit(b: Buffer): SgipSubmit & SgipHeader {
  const h = headerOf(b, CMD.SUBMIT);
  const r = new Reader(b);
  const spNumber = r.str(21, 'SPNumber');
  const chargeNumber = r.str(21, 'ChargeNumber');
  const n = r.u8('UserCount');
  if (n < 1 || n > MAX_USERS) throw new SgipPduError('field', `UserCount ${n}`);
  r.need(n * 21, 'UserNumber');
  const userNumbers: string[] = [];
  for (let i = 0; i < n; i++) userNumbers.push(r.str(21, 'UserNumber'));
  const corpId = r.str(5, 'CorpId');
  const serviceType = r.str(10, 'ServiceType');
  const feeType = r.u8('FeeType');
  const feeValue = r.str(6, 'FeeValue');
  const givenValue = r.str(6, 'GivenValue');
  const agentFlag = r.u8('AgentFlag');
  const morelatetoMtFlag = r.u8('MorelatetoMTFlag');
  const priority = r.u8('Priority');
  const expireTime = r.str(16, 'ExpireTime');
  const scheduleTime = r.str(16, 'ScheduleTime');
  const reportFlag = r.u8('ReportFlag');
  const tpPid = r.u8('TP_pid');
  const tpUdhi = r.u8('TP_udhi');
  const messageCoding = r.u8('MessageCoding');
  const messageType = r.u8('MessageType');
  const len = r.u32('MessageLength');
  if (len > MAX_CONTENT) throw new SgipPduError('field', `MessageLength ${len}`);
  const messageContent = r.bytes(len, 'MessageContent');
  const reserve = r.str(8, 'Reserve');
  r.end('SUBMIT');
  return {
    ...h,
    spNumber,
    chargeNumber,
    userNumbers,
    corpId,
    serviceType,
    feeType,
    feeValue,
    givenValue,
    agentFlag,
    morelatetoMtFlag,
    priority,
    expireTime,
    scheduleTime,
    reportFlag,
    tpPid,
    tpUdhi,
    messageCoding,
    messageType,
    messageContent,
    reserve,
  };
}

// ---------------------------------------------------------------- DELIVER (an uplink)

export interface SgipDeliver {
  /** 21: the sender, with 86 */
  userNumber: string;
  /** 21: the SP's number (+ extension) it was sent to */
  spNumber: string;
  tpPid: number;
  tpUdhi: number;
  messageCoding: number;
  messageContent: Buffer;
  reserve: string;
}

export const deliverLength = (content: number) => HEADER_LENGTH + 21 + 21 + 3 + 4 + content + 8;

export function encodeDeliver(seq: SgipSeq, d: Omit<SgipDeliver, 'reserve'> & { reserve?: string }): Buffer {
  if (d.messageContent.length > MAX_CONTENT) throw new RangeError(`MessageContent over ${MAX_CONTENT} octets`);
  const w = new Writer(deliverLength(d.messageContent.length), CMD.DELIVER, seq);
  w.str(d.userNumber, 21, 'UserNumber');
  w.str(d.spNumber, 21, 'SPNumber');
  w.u8(d.tpPid);
  w.u8(d.tpUdhi);
  w.u8(d.messageCoding);
  w.u32(d.messageContent.length);
  w.bytes(d.messageContent);
  w.str(d.reserve ?? '', 8, 'Reserve');
  return w.done();
}

export function decodeDeliver(b: Buffer): SgipDeliver & SgipHeader {
  const h = headerOf(b, CMD.DELIVER);
  const r = new Reader(b);
  const userNumber = r.str(21, 'UserNumber');
  const spNumber = r.str(21, 'SPNumber');
  const tpPid = r.u8('TP_pid');
  const tpUdhi = r.u8('TP_udhi');
  const messageCoding = r.u8('MessageCoding');
  const len = r.u32('MessageLength');
  if (len > MAX_CONTENT) throw new SgipPduError('field', `MessageLength ${len}`);
  const messageContent = r.bytes(len, 'MessageContent');
  const reserve = r.str(8, 'Reserve');
  r.end('DELIVER');
  return { ...h, userNumber, spNumber, tpPid, tpUdhi, messageCoding, messageContent, reserve };
}

// ---------------------------------------------------------------- REPORT

export interface SgipReport {
  /** the submit's (ReportType 0) or deliver's (1) sequence number */
  submitSeq: SgipSeq;
  reportType: number;
  /** 21, with 86 */
  userNumber: string;
  /** 0 delivered, 1 waiting, 2 failed */
  state: number;
  errorCode: number;
  reserve: string;
}

export const REPORT_LENGTH = HEADER_LENGTH + 12 + 1 + 21 + 1 + 1 + 8;

export function encodeReport(seq: SgipSeq, r: Omit<SgipReport, 'reserve'> & { reserve?: string }): Buffer {
  const w = new Writer(REPORT_LENGTH, CMD.REPORT, seq);
  w.seq(r.submitSeq);
  w.u8(r.reportType);
  w.str(r.userNumber, 21, 'UserNumber');
  w.u8(r.state);
  w.u8(r.errorCode);
  w.str(r.reserve ?? '', 8, 'Reserve');
  return w.done();
}

export function decodeReport(b: Buffer): SgipReport & SgipHeader {
  const h = headerOf(b, CMD.REPORT);
  const r = new Reader(b);
  const out = {
    ...h,
    submitSeq: r.seq('SubmitSequenceNumber'),
    reportType: r.u8('ReportType'),
    userNumber: r.str(21, 'UserNumber'),
    state: r.u8('State'),
    errorCode: r.u8('ErrorCode'),
    reserve: r.str(8, 'Reserve'),
  };
  r.end('REPORT');
  return out;
}

// ---------------------------------------------------------------- USERRPT, CHECKUSER, TRACE (SMG ↔ SP / SMG side)

export interface SgipUserRpt {
  spNumber: string;
  userNumber: string;
  /** 0 active, 1 suspended for arrears, 2 stopped */
  userCondition: number;
}
export const USERRPT_LENGTH = HEADER_LENGTH + 21 + 21 + 1 + 8;
export function encodeUserRpt(seq: SgipSeq, u: SgipUserRpt): Buffer {
  const w = new Writer(USERRPT_LENGTH, CMD.USERRPT, seq);
  w.str(u.spNumber, 21, 'SPNumber');
  w.str(u.userNumber, 21, 'UserNumber');
  w.u8(u.userCondition);
  w.str('', 8, 'Reserve');
  return w.done();
}
export function decodeUserRpt(b: Buffer): SgipUserRpt & SgipHeader {
  const h = headerOf(b, CMD.USERRPT);
  const r = new Reader(b);
  const out = {
    ...h,
    spNumber: r.str(21, 'SPNumber'),
    userNumber: r.str(21, 'UserNumber'),
    userCondition: r.u8('UserCondition'),
  };
  r.str(8, 'Reserve');
  r.end('USERRPT');
  return out;
}

export interface SgipCheckUser {
  userName: string;
  password: string;
  userNumber: string;
}
export const CHECKUSER_LENGTH = HEADER_LENGTH + 16 + 16 + 21 + 8;
export function encodeCheckUser(seq: SgipSeq, c: SgipCheckUser): Buffer {
  const w = new Writer(CHECKUSER_LENGTH, CMD.CHECKUSER, seq);
  w.str(c.userName, 16, 'UserName');
  w.str(c.password, 16, 'Password');
  w.str(c.userNumber, 21, 'UserNumber');
  w.str('', 8, 'Reserve');
  return w.done();
}
export function decodeCheckUser(b: Buffer): SgipCheckUser & SgipHeader {
  const h = headerOf(b, CMD.CHECKUSER);
  const r = new Reader(b);
  const out = {
    ...h,
    userName: r.str(16, 'UserName'),
    password: r.str(16, 'Password'),
    userNumber: r.str(21, 'UserNumber'),
  };
  r.str(8, 'Reserve');
  r.end('CHECKUSER');
  return out;
}
export const CHECKUSER_RESP_LENGTH = HEADER_LENGTH + 1 + 1 + 8;
export function encodeCheckUserResp(seq: SgipSeq, result: number, status: number): Buffer {
  const w = new Writer(CHECKUSER_RESP_LENGTH, CMD.CHECKUSER_RESP, seq);
  w.u8(result);
  w.u8(status);
  w.str('', 8, 'Reserve');
  return w.done();
}
export function decodeCheckUserResp(b: Buffer): { result: number; status: number } & SgipHeader {
  const h = headerOf(b, CMD.CHECKUSER_RESP);
  const r = new Reader(b);
  const out = { ...h, result: r.u8('Result'), status: r.u8('Status') };
  r.str(8, 'Reserve');
  r.end('CHECKUSER_RESP');
  return out;
}

export interface SgipTrace {
  submitSeq: SgipSeq;
  userNumber: string;
}
export const TRACE_LENGTH = HEADER_LENGTH + 12 + 21 + 8;
export function encodeTrace(seq: SgipSeq, t: SgipTrace): Buffer {
  const w = new Writer(TRACE_LENGTH, CMD.TRACE, seq);
  w.seq(t.submitSeq);
  w.str(t.userNumber, 21, 'UserNumber');
  w.str('', 8, 'Reserve');
  return w.done();
}
export function decodeTrace(b: Buffer): SgipTrace & SgipHeader {
  const h = headerOf(b, CMD.TRACE);
  const r = new Reader(b);
  const out = { ...h, submitSeq: r.seq('SubmitSequenceNumber'), userNumber: r.str(21, 'UserNumber') };
  r.str(8, 'Reserve');
  r.end('TRACE');
  return out;
}
/**
 * One node of SGIP_TRACE_RESP (SGIP 1.2 §4.2.3.12): Count, then per node Result(1) NodeId(6)
 * ReceiveTime(16) SendTime(16) Reserve(8), the Reserve repeated with each node (as the reference
 * implementations write it; with one node, the layout of a single Reserve at the end is the same).
 */
export interface SgipTraceHop {
  /** TRACE_RESULT: 0 the message reached this node, 1 it did not */
  result: number;
  /** 6 octets */
  nodeId: string;
  /** 16 octets each, YYMMDDHHMMSS ('' unknown / not yet) */
  receiveTime: string;
  sendTime: string;
}
/** a hop's Result */
export const TRACE_RESULT = { ARRIVED: 0, NOT_ARRIVED: 1 } as const;
export const TRACE_HOP_LENGTH = 1 + 6 + 16 + 16 + 8;
export const traceRespLength = (hops: number) => HEADER_LENGTH + 1 + hops * TRACE_HOP_LENGTH;
/** the most hops a TRACE_RESP within MAX_PACKET carries */
export const MAX_TRACE_HOPS = Math.floor((MAX_PACKET - HEADER_LENGTH - 1) / TRACE_HOP_LENGTH);
export function encodeTraceResp(seq: SgipSeq, hops: SgipTraceHop[]): Buffer {
  if (hops.length > MAX_TRACE_HOPS) throw new RangeError(`over ${MAX_TRACE_HOPS} hops`);
  const w = new Writer(traceRespLength(hops.length), CMD.TRACE_RESP, seq);
  w.u8(hops.length);
  for (const h of hops) {
    w.u8(h.result);
    w.str(h.nodeId, 6, 'NodeId');
    w.str(h.receiveTime, 16, 'ReceiveTime');
    w.str(h.sendTime, 16, 'SendTime');
    w.str('', 8, 'Reserve');
  }
  return w.done();
}
export function decodeTraceResp(b: Buffer): { hops: SgipTraceHop[] } & SgipHeader {
  const h = headerOf(b, CMD.TRACE_RESP);
  const r = new Reader(b);
  const n = r.u8('Count');
  r.need(n * TRACE_HOP_LENGTH, 'hops');
  const hops: SgipTraceHop[] = [];
  for (let i = 0; i < n; i++) {
    hops.push({
      result: r.u8('Result'),
      nodeId: r.str(6, 'NodeId'),
      receiveTime: r.str(16, 'ReceiveTime'),
      sendTime: r.str(16, 'SendTime'),
    });
    r.str(8, 'Reserve');
  }
  r.end('TRACE_RESP');
  return { ...h, hops };
}

/** a TRACE_RESP time: YYMMDDHHMMSS of `d` (tz, Beijing by default); '' for none */
export function traceTime(d: Date | string | null | undefined, tzMinutes = 480): string {
  if (d === null || d === undefined) return '';
  const at = d instanceof Date ? d : new Date(d);
  if (Number.isNaN(at.getTime())) return '';
  const yy = String(new Date(at.getTime() + tzMinutes * 60_000).getUTCFullYear() % 100).padStart(2, '0');
  return `${yy}${cmppTimestamp(at, tzMinutes)}`;
}

/** a TRACE_RESP NodeId (6 octets) for a node id: its last 6 decimal digits (SGIP's 10-digit node ids do not fit) */
export const traceNodeId = (node: number) => String(node >>> 0).slice(-6);

// ---------------------------------------------------------------- any packet

export type SgipPacket =
  | ({ command: 'BIND' } & ReturnType<typeof decodeBind>)
  | ({ command: 'SUBMIT' } & ReturnType<typeof decodeSubmit>)
  | ({ command: 'DELIVER' } & ReturnType<typeof decodeDeliver>)
  | ({ command: 'REPORT' } & ReturnType<typeof decodeReport>)
  | ({ command: 'USERRPT' } & ReturnType<typeof decodeUserRpt>)
  | ({ command: 'CHECKUSER' } & ReturnType<typeof decodeCheckUser>)
  | ({ command: 'TRACE' } & ReturnType<typeof decodeTrace>)
  | ({ command: 'CHECKUSER_RESP' } & ReturnType<typeof decodeCheckUserResp>)
  | ({ command: 'TRACE_RESP' } & ReturnType<typeof decodeTraceResp>)
  | ({ command: 'BIND_RESP' | 'SUBMIT_RESP' | 'DELIVER_RESP' | 'REPORT_RESP' | 'USERRPT_RESP' } & SgipResp & SgipHeader)
  | ({ command: 'UNBIND' | 'UNBIND_RESP' } & SgipHeader)
  | ({ command: 'OTHER'; name: SgipCommand | undefined } & SgipHeader);

/**
 * Any whole packet (from SgipFrameSplitter); the management commands (ADDSP … DELETESMG,
 * QUERYROUTE: between an SMG and the GNS, never on an SP's connection), their answers and ids SGIP
 * does not define come back as OTHER with their header (the caller answers or refuses them).
 * Throws SgipPduError.
 */
export function decodePacket(b: Buffer): SgipPacket {
  const h = readHeader(b);
  switch (h.commandId) {
    case CMD.BIND:
      return { command: 'BIND', ...decodeBind(b) };
    case CMD.SUBMIT:
      return { command: 'SUBMIT', ...decodeSubmit(b) };
    case CMD.DELIVER:
      return { command: 'DELIVER', ...decodeDeliver(b) };
    case CMD.REPORT:
      return { command: 'REPORT', ...decodeReport(b) };
    case CMD.USERRPT:
      return { command: 'USERRPT', ...decodeUserRpt(b) };
    case CMD.CHECKUSER:
      return { command: 'CHECKUSER', ...decodeCheckUser(b) };
    case CMD.TRACE:
      return { command: 'TRACE', ...decodeTrace(b) };
    case CMD.CHECKUSER_RESP:
      return { command: 'CHECKUSER_RESP', ...decodeCheckUserResp(b) };
    case CMD.TRACE_RESP:
      return { command: 'TRACE_RESP', ...decodeTraceResp(b) };
    case CMD.BIND_RESP:
    case CMD.SUBMIT_RESP:
    case CMD.DELIVER_RESP:
    case CMD.REPORT_RESP:
    case CMD.USERRPT_RESP:
      return { command: commandName(h.commandId) as 'BIND_RESP', ...decodeResp(b, h.commandId) };
    case CMD.UNBIND:
      return { command: 'UNBIND', ...h };
    case CMD.UNBIND_RESP:
      return { command: 'UNBIND_RESP', ...h };
    default:
      return { command: 'OTHER', name: commandName(h.commandId), ...h };
  }
}

// ---------------------------------------------------------------- numbers and text

/** a mobile number as SGIP carries it: with the country code 86 (a leading + dropped; 86… kept) */
export function withCountryCode(phone: string): string {
  const p = phone.startsWith('+') ? phone.slice(1) : phone;
  return p.startsWith('86') && p.length > 11 ? p : `86${p}`;
}

/** the number without 86 (the platform's form of a Chinese mobile number) */
export function withoutCountryCode(phone: string): string {
  const p = phone.startsWith('+') ? phone.slice(1) : phone;
  return p.startsWith('86') && p.length === 13 ? p.slice(2) : p;
}

/** the ASCII / UCS2 choice and decoding of CMPP (the same MessageCoding values) */
export const encodeSgipText = (text: string): { messageCoding: number; octets: Buffer } => {
  const e = encodeCmppText(text);
  return { messageCoding: e.msgFmt, octets: e.octets };
};
export const decodeSgipText = decodeCmppText;

export type SgipParts = CmppParts;
/** a text as the MessageContent of each submit (one SMS, or parts of 67 UCS2 / 134 ASCII after `05 00 03 ref total number`) */
export const splitSgipText = splitCmppText;

/** MessageContent with TP_udhi 1: its concatenation element and the text after the UDH; SgipPduError when the UDH does not fit */
export function splitSgipUdh(content: Buffer): { concat: Concat | null; body: Buffer } {
  try {
    return splitUdh(content);
  } catch (e) {
    throw new SgipPduError('field', (e as Error).message.replace(/^CMPP: /, ''));
  }
}

/** SGIP_REPORT State / ErrorCode → the receipt's stat (DELIVRD, UNDELIV, ACCEPTD) */
export function reportStat(state: number): string {
  return state === REPORT_STATE.DELIVERED ? 'DELIVRD' : state === REPORT_STATE.WAITING ? 'ACCEPTD' : 'UNDELIV';
}

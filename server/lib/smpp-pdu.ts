/**
 * SMPP encoding rules shared by the carrier link (server/modules/smsc/client.ts), the simulator
 * (smsc/simulator.ts) and the customers' SMPP listener (server/modules/smpp-server): text
 * encoding, the vendor TLV carrying our ref, receipt texts. Rules: docs/api-dispatch.md.
 */
import smpp, { type PDU } from 'smpp';

/** short_message holds at most this many octets; longer texts go in the message_payload TLV */
export const SHORT_MESSAGE_MAX = 140;
/** longest encoded text we submit (a 500-character UCS2 text is 1,000 octets) */
export const PAYLOAD_MAX = 8000;

export const DC_IA5 = 0x01;
export const DC_LATIN1 = 0x03;
export const DC_UCS2 = 0x08;
export const DC_GBK = 0x0f;

/**
 * Characters GSM 03.38 and ASCII encode with the same octet (the library decodes data_coding 0/1
 * with the GSM table): such texts go as IA5 (0x01), octet = ASCII code. Anything else
 * (Chinese, 【】, [], @, $, _ ...) goes as UCS2 (0x08, UTF-16BE; characters outside the BMP as
 * surrogate pairs).
 */
const SAME_IN_GSM_AND_ASCII = /^[A-Za-z0-9 !"#%&'()*+,\-./:;<=>?\r\n]*$/;

export function encodeText(text: string, coding: LinkCoding = 'ia5'): { dataCoding: number; octets: Buffer } {
  if (coding === 'ia5' && SAME_IN_GSM_AND_ASCII.test(text))
    return { dataCoding: DC_IA5, octets: Buffer.from(text, 'latin1') };
  if (coding === 'gsm7') {
    const septets = gsm7Septets(text);
    if (septets) return { dataCoding: DC_GSM7, octets: septets };
  }
  if (coding === 'latin1' && gsm7Septets(text) && latin1Only(text))
    return { dataCoding: DC_LATIN1, octets: Buffer.from(text, 'latin1') };
  return { dataCoding: DC_UCS2, octets: Buffer.from(text, 'utf16le').swap16() };
}

// ---------------------------------------------------------------- codings and long messages

/** link option `coding`: the data_coding of texts that fit GSM 03.38 (UCS2 otherwise) */
export type LinkCoding = 'gsm7' | 'ia5' | 'latin1';
/** link option `long`: how a text longer than one SMS goes (docs/api-dispatch.md "Long messages") */
export type LongMode = 'udh' | 'sar' | 'payload';

export const DC_GSM7 = 0x00;
const latin1Only = (text: string) => {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return false;
  return true;
};

/** GSM 03.38 default alphabet: septet = index (0x1B is the escape to the extension table) */
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\x1bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** the extension table: character → septet after 0x1B */
const GSM_EXT: Record<string, number> = {
  '\f': 0x0a,
  '^': 0x14,
  '{': 0x28,
  '}': 0x29,
  '\\': 0x2f,
  '[': 0x3c,
  '~': 0x3d,
  ']': 0x3e,
  '|': 0x40,
  '€': 0x65,
};
const GSM_CODE = new Map<string, number>();
for (let i = 0; i < GSM_BASIC.length; i++) if (i !== 0x1b) GSM_CODE.set(GSM_BASIC[i], i);

/** The text as unpacked GSM 03.38 septets (one an octet; extension characters as 0x1B + code), or null when it does not fit. */
export function gsm7Septets(text: string): Buffer | null {
  const out: number[] = [];
  for (const ch of text) {
    const c = GSM_CODE.get(ch);
    if (c !== undefined) out.push(c);
    else {
      const e = GSM_EXT[ch];
      if (e === undefined) return null;
      out.push(0x1b, e);
    }
  }
  return Buffer.from(out);
}

/** one SMS: octets (8-bit codings, UCS2) or septets (GSM 7-bit); a part of a long one: the UDH's 6 octets less */
export const SINGLE_OCTETS = 140;
export const PART_OCTETS = 134;
export const SINGLE_SEPTETS = 160;
export const PART_SEPTETS = 153;
/** an 8-bit reference UDH counts at most 255 parts */
export const MAX_PARTS = 255;

export interface SplitText {
  dataCoding: number;
  parts: Buffer[];
}

/**
 * The text's octets in the parts a carrier counts (docs/api-dispatch.md "Long messages"): UCS2 70
 * characters in one SMS, else 67 per part (a surrogate pair never split); GSM 7-bit 160 septets,
 * else 153 (an escape pair never split); IA5 / Latin-1 140 octets, else 134. `long=payload`: the
 * whole text as one part (it goes in message_payload when over one SMS). Throws RangeError over
 * 255 parts.
 */
export function splitText(text: string, coding: LinkCoding, long: LongMode): SplitText {
  const { dataCoding, octets } = encodeText(text, coding);
  const gsm = dataCoding === DC_GSM7;
  const single = gsm ? SINGLE_SEPTETS : SINGLE_OCTETS;
  if (long === 'payload' || octets.length <= single) return { dataCoding, parts: [octets] };
  const size = gsm ? PART_SEPTETS : PART_OCTETS;
  const parts: Buffer[] = [];
  let o = 0;
  while (o < octets.length) {
    let end = Math.min(octets.length, o + size);
    if (end < octets.length) {
      if (dataCoding === DC_UCS2) {
        const last = octets.readUInt16BE(end - 2);
        if (last >= 0xd800 && last <= 0xdbff) end -= 2; // a high surrogate: its pair goes with it
      } else if (gsm) {
        // 0x1B is only ever an escape here (no character's septet nor extension code is 0x1B): it goes with its character
        if (octets[end - 1] === 0x1b) end -= 1;
      }
    }
    parts.push(octets.subarray(o, end));
    o = end;
  }
  if (parts.length > MAX_PARTS) throw new RangeError(`over ${MAX_PARTS} parts`);
  return { dataCoding, parts };
}

export const TLV_SAR_MSG_REF_NUM = 0x020c;
export const TLV_SAR_TOTAL_SEGMENTS = 0x020e;
export const TLV_SAR_SEGMENT_SEQNUM = 0x020f;
export const ESM_UDHI = 0x40;

/** the 8-bit reference concatenation UDH (IEI 0x00): UDHL 5, IEI, IEDL 3, ref, total, seq */
export function concatUdh(ref: number, total: number, seq: number): Buffer {
  return Buffer.from([0x05, 0x00, 0x03, ref & 0xff, total, seq]);
}

/** the three SAR TLVs of a part */
export function sarTlvs(ref: number, total: number, seq: number): [number, Buffer][] {
  const r = Buffer.alloc(2);
  r.writeUInt16BE(ref & 0xffff, 0);
  return [
    [TLV_SAR_MSG_REF_NUM, r],
    [TLV_SAR_TOTAL_SEGMENTS, Buffer.from([total])],
    [TLV_SAR_SEGMENT_SEQNUM, Buffer.from([seq])],
  ];
}

/**
 * The library decodes data_coding 0/1 text through the GSM 03.38 table with a fresh RegExp and
 * an Object.keys of the table per call (~15 µs for a receipt). Octets that mean the same in GSM
 * and ASCII (what receipts are made of) are read directly; anything else goes the library's way.
 */
const SAME_OCTET = new Uint8Array(256);
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 !"#%&\'()*+,-./:;<=>?\r\n')
  SAME_OCTET[ch.charCodeAt(0)] = 1;
const gsmDecode = smpp.encodings.ASCII.decode.bind(smpp.encodings.ASCII);
smpp.encodings.ASCII.decode = (value: Buffer) => {
  for (let i = 0; i < value.length; i++) if (!SAME_OCTET[value[i]]) return gsmDecode(value);
  return value.toString('latin1');
};

let gbk: TextDecoder | null | undefined;

/** The text of a decoded deliver_sm / submit_sm field (the library decodes IA5/GSM, Latin-1, UCS2). */
export function fieldText(value: unknown, dataCoding: number): string {
  let v = value;
  if (v && typeof v === 'object' && !Buffer.isBuffer(v) && 'message' in v) v = v.message;
  if (typeof v === 'string') return v;
  if (Buffer.isBuffer(v)) {
    if ((dataCoding & 0x0f) === DC_GBK) {
      if (gbk === undefined) {
        try {
          gbk = new TextDecoder('gbk');
        } catch {
          gbk = null;
        }
      }
      if (gbk) return gbk.decode(v);
    }
    return v.toString('latin1');
  }
  return '';
}

/** The text of a PDU: short_message, else message_payload. */
export function pduText(pdu: PDU): string {
  const dc = Number(pdu.data_coding ?? 0);
  const short = fieldText(pdu.short_message, dc);
  if (short) return short;
  return pdu.message_payload !== undefined ? fieldText(pdu.message_payload, dc) : '';
}

const registered = new Map<number, string>();

/** Registers (once) the vendor TLV `tag` in the library's TLV registry; returns its name. */
export function refTlvName(tag: number): string {
  let name = registered.get(tag);
  if (!name) {
    name = `vendor_ref_${tag.toString(16)}`;
    smpp.addTLV(name, { id: tag, type: smpp.types.tlv.cstring });
    registered.set(tag, name);
  }
  return name;
}

export function hexCode(status: number): string {
  return `0x${(status >>> 0).toString(16).toUpperCase().padStart(8, '0')}`;
}

export const STATUS = {
  OK: 0x00,
  INVMSGLEN: 0x01,
  INVBNDSTS: 0x04,
  SYSERR: 0x08,
  INVSRCADR: 0x0a,
  INVDSTADR: 0x0b,
  BINDFAIL: 0x0d,
  INVPASWD: 0x0e,
  INVSYSID: 0x0f,
  MSGQFUL: 0x14,
  THROTTLED: 0x58,
  X_T_APPN: 0x64,
  /** ESME_ROPTPARNOTALLWD: an optional parameter the SMSC does not take */
  OPTPARNOTALLWD: 0xc1,
} as const;

/**
 * How a receipt's message id is read against the submit_sm_resp ids (link option `receipt_id`):
 * `exact` as written only; `dec` the receipt gives in decimal what the submit_sm_resp gave in hex
 * (a known carrier habit: Kannel's msg-id-type, Jasmin's dlr_msgid); `hex` the reverse; `auto`
 * (default) both, tried only when the id as written matches no message in flight.
 */
export type ReceiptIdMode = 'auto' | 'exact' | 'hex' | 'dec';

const DECIMAL_ID = /^\d{1,20}$/;
const HEX_ID = /^[0-9a-f]{1,16}$/i;

/**
 * The other readings of a receipt's message id (never the id itself): a decimal id as hex (lower
 * and upper case), a hex id as decimal; ids too long for 64 bits or of other characters have
 * none. Bounded: at most 3 readings of a 20-character id.
 */
export function idReadings(id: string, mode: ReceiptIdMode): string[] {
  if (mode === 'exact' || !id) return [];
  const out = new Set<string>();
  if ((mode === 'auto' || mode === 'dec') && DECIMAL_ID.test(id)) {
    const n = BigInt(id);
    if (n < 2n ** 64n) {
      const hex = n.toString(16);
      out.add(hex);
      out.add(hex.toUpperCase());
    }
  }
  if ((mode === 'auto' || mode === 'hex') && HEX_ID.test(id)) out.add(BigInt(`0x${id}`).toString(10));
  out.delete(id);
  return [...out];
}

export const ESM_RECEIPT = 0x04;
export const ESM_TYPE_MASK = 0x3c;

/** SMPP message_state → receipt stat word */
export const STATE_STAT: Record<number, string> = {
  0: 'SCHEDUL',
  1: 'ENROUTE',
  2: 'DELIVRD',
  3: 'EXPIRED',
  4: 'DELETED',
  5: 'UNDELIV',
  6: 'ACCEPTD',
  7: 'UNKNOWN',
  8: 'REJECTD',
  9: 'SKIPPED',
};
export const STAT_STATE: Record<string, number> = Object.fromEntries(
  Object.entries(STATE_STAT).map(([k, v]) => [v, Number(k)]),
);

/** YYMMDDhhmm in the given UTC offset */
export function receiptDate(d: Date, tzMinutes: number): string {
  const t = new Date(d.getTime() + tzMinutes * 60_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(t.getUTCFullYear() % 100)}${p(t.getUTCMonth() + 1)}${p(t.getUTCDate())}${p(t.getUTCHours())}${p(t.getUTCMinutes())}`;
}

/** The SMPP 3.4 Appendix B receipt text (IA5 only: the text field keeps the first 20 plain characters). */
export function receiptText(r: {
  msgId: string;
  stat: string;
  err: string;
  submitAt: Date;
  doneAt: Date;
  text: string;
  tzMinutes: number;
}): string {
  const dlvrd = r.stat === 'DELIVRD' ? '001' : '000';
  return `id:${r.msgId} sub:001 dlvrd:${dlvrd} submit date:${receiptDate(r.submitAt, r.tzMinutes)} done date:${receiptDate(r.doneAt, r.tzMinutes)} stat:${r.stat} err:${r.err} text:${r.text.replace(/[^A-Za-z0-9 ]/g, '').slice(0, 20)}`;
}

export interface ParsedReceipt {
  id: string;
  stat: string;
  err: string;
  done: Date | null;
}

/** Reads `id:... stat:... err:... done date:...` (bounded: at most 1,000 characters looked at). */
export function parseReceiptText(text: string, tzMinutes: number): ParsedReceipt {
  const t = text.slice(0, 1000);
  const id = /(?:^|\s)id:(\S{1,65})/i.exec(t)?.[1] ?? '';
  const stat = /(?:^|\s)stat:(\S{1,16})/i.exec(t)?.[1]?.toUpperCase() ?? '';
  const err = /(?:^|\s)err:(\S{1,16})/i.exec(t)?.[1] ?? '';
  const dm = /done date:(\d{10}(?:\d{2})?)/i.exec(t)?.[1];
  let done: Date | null = null;
  if (dm) {
    const n = (i: number) => Number(dm.slice(i, i + 2));
    const ms = Date.UTC(2000 + n(0), n(2) - 1, n(4), n(6), n(8), dm.length === 12 ? n(10) : 0) - tzMinutes * 60_000;
    const ok = n(2) >= 1 && n(2) <= 12 && n(4) >= 1 && n(4) <= 31 && n(6) < 24 && n(8) < 60;
    if (ok && Number.isFinite(ms)) done = new Date(ms);
  }
  return { id, stat, err, done };
}

// ---------------------------------------------------------------- hand-encoded hot-path PDUs
// The library builds a PDU by walking every parameter and filter (~25-80 µs each on this
// machine); submit_sm / deliver_sm and their responses are encoded here directly (SMPP 3.4
// 4.4.1 / 4.6.1 layouts) and handed to Session.send, which only needs isResponse(),
// sequence_number and toBuffer(). Parsing stays the library's.

export const TLV_MESSAGE_PAYLOAD = 0x0424;
export const TLV_RECEIPTED_MESSAGE_ID = 0x001e;
export const TLV_MESSAGE_STATE = 0x0427;

export const CMD = {
  submit_sm: 0x00000004,
  submit_sm_resp: 0x80000004,
  deliver_sm: 0x00000005,
  deliver_sm_resp: 0x80000005,
} as const;

export interface SmFields {
  sourceTon: number;
  sourceNpi: number;
  source: string;
  destTon: number;
  destNpi: number;
  dest: string;
  esmClass: number;
  registeredDelivery: number;
  dataCoding: number;
  /** at most 254 octets */
  shortMessage: Buffer;
  /** optional parameters: tag → value octets */
  tlvs?: [number, Buffer][];
}

/** cstring TLV value (with its NUL) */
export const cstr = (s: string) => Buffer.from(`${s}\0`, 'latin1');

/** A ready-made PDU for Session.send: the sequence number is written when it is sent. */
export class RawPdu {
  sequence_number: number;
  constructor(
    readonly command: string,
    private readonly buf: Buffer,
    readonly response = false,
    sequence = 0,
  ) {
    this.sequence_number = sequence;
  }
  isResponse() {
    return this.response;
  }
  toBuffer() {
    this.buf.writeUInt32BE(this.sequence_number >>> 0, 12);
    return this.buf;
  }
}

/** submit_sm / deliver_sm body; throws RangeError when a field does not fit */
export function encodeSm(command: 'submit_sm' | 'deliver_sm', f: SmFields): RawPdu {
  if (f.shortMessage.length > 254) throw new RangeError('short_message over 254 octets');
  const src = Buffer.from(f.source, 'latin1');
  const dst = Buffer.from(f.dest, 'latin1');
  if (src.length > 20 || dst.length > 20) throw new RangeError('address over 20 characters');
  let len = 16 + 1 + 2 + src.length + 1 + 2 + dst.length + 1 + 3 + 1 + 1 + 5 + f.shortMessage.length;
  for (const [, v] of f.tlvs ?? []) {
    if (v.length > 0xffff) throw new RangeError('TLV too long');
    len += 4 + v.length;
  }
  const b = Buffer.allocUnsafe(len);
  b.writeUInt32BE(len, 0);
  b.writeUInt32BE(CMD[command], 4);
  b.writeUInt32BE(0, 8);
  b.writeUInt32BE(0, 12);
  let o = 16;
  b[o++] = 0; // service_type ''
  b[o++] = f.sourceTon;
  b[o++] = f.sourceNpi;
  o += src.copy(b, o);
  b[o++] = 0;
  b[o++] = f.destTon;
  b[o++] = f.destNpi;
  o += dst.copy(b, o);
  b[o++] = 0;
  b[o++] = f.esmClass;
  b[o++] = 0; // protocol_id
  b[o++] = 0; // priority_flag
  b[o++] = 0; // schedule_delivery_time ''
  b[o++] = 0; // validity_period ''
  b[o++] = f.registeredDelivery;
  b[o++] = 0; // replace_if_present_flag
  b[o++] = f.dataCoding;
  b[o++] = 0; // sm_default_msg_id
  b[o++] = f.shortMessage.length;
  o += f.shortMessage.copy(b, o);
  for (const [tag, v] of f.tlvs ?? []) {
    b.writeUInt16BE(tag, o);
    b.writeUInt16BE(v.length, o + 2);
    o += 4;
    o += v.copy(b, o);
  }
  return new RawPdu(command, b);
}

/** submit_sm_resp / deliver_sm_resp: message_id when status is 0, header only otherwise */
export function encodeResp(
  command: 'submit_sm_resp' | 'deliver_sm_resp',
  sequence: number,
  status: number,
  messageId = '',
): RawPdu {
  const id = status === STATUS.OK ? Buffer.from(messageId, 'latin1') : null;
  const len = 16 + (id ? id.length + 1 : 0);
  const b = Buffer.allocUnsafe(len);
  b.writeUInt32BE(len, 0);
  b.writeUInt32BE(CMD[command], 4);
  b.writeUInt32BE(status >>> 0, 8);
  b.writeUInt32BE(sequence >>> 0, 12);
  if (id) {
    id.copy(b, 16);
    b[16 + id.length] = 0;
  }
  return new RawPdu(command, b, true, sequence);
}

const corked = new WeakSet<object>();

/** Coalesces the writes made to `socket` during this tick into one (answers to a burst of PDUs). */
export function corkForTick(socket: { cork(): void; uncork(): void }) {
  if (corked.has(socket)) return;
  corked.add(socket);
  socket.cork();
  process.nextTick(() => {
    corked.delete(socket);
    socket.uncork();
  });
}

// ---------------------------------------------------------------- fast path for the hot PDUs (reading)
// The library reads every PDU through a generic walk plus a `for … in` filter pass (~45 µs for a
// submit_sm or a receipt here). submit_sm / deliver_sm (without time fields, filtered TLVs or a
// national-language shift UDH; the parts of long messages included) and their responses are read here into the same shape (same prototype, same
// property names and values); anything else — or anything odd — goes the library's way.
// tests/server/smsc.test.ts compares both readers field by field.

interface TlvDef {
  id: number;
  tag: string;
  type: { read(b: Buffer, o: number, l: number): unknown };
  multiple?: boolean;
  filter?: unknown;
}
const lib = smpp as unknown as {
  PDU: { prototype: object; fromStream(stream: { read(n: number): Buffer | null }, len: number): unknown };
  tlvsById: Record<number, TlvDef>;
  consts: { ENCODING: Record<string, number> };
  encodings: Record<string, { decode(b: Buffer): string }> & { default: string };
};
const SM_PARAMS_ORDER = [
  'service_type',
  'source_addr_ton',
  'source_addr_npi',
  'source_addr',
  'dest_addr_ton',
  'dest_addr_npi',
  'destination_addr',
  'esm_class',
  'protocol_id',
  'priority_flag',
  'schedule_delivery_time',
  'validity_period',
  'registered_delivery',
  'replace_if_present_flag',
  'data_coding',
  'sm_default_msg_id',
  'short_message',
] as const;
const CSTRING_PARAMS = new Set([
  'service_type',
  'source_addr',
  'destination_addr',
  'schedule_delivery_time',
  'validity_period',
]);
const COMMAND_NAMES: Record<number, string> = {
  0x00000004: 'submit_sm',
  0x80000004: 'submit_sm_resp',
  0x00000005: 'deliver_sm',
  0x80000005: 'deliver_sm_resp',
};

function encodingKey(dc: number): string | undefined {
  const enc = dc & 0x0f;
  if (!enc) return lib.encodings.default;
  for (const key in lib.consts.ENCODING) if (lib.consts.ENCODING[key] === enc) return key;
  return undefined;
}

function decodeMessage(value: Buffer, dc: number): { message: string | Buffer } {
  const key = encodingKey(dc);
  const e = key !== undefined ? lib.encodings[key] : undefined;
  return { message: e ? e.decode(value) : value };
}

/** the information elements of a UDH (its length octet first), cut as the library cuts them */
function udhElements(b: Buffer): Buffer[] {
  if (b.length <= 1) return [];
  const out: Buffer[] = [];
  let o = 1;
  do {
    const n = (b[o + 1] ?? 0) + 2;
    out.push(b.subarray(o, o + n));
    o += n;
  } while (o < b.length);
  return out;
}

/**
 * The PDUs this reader makes: the library's prototype, and a constructor that gives V8 a fixed
 * shape to grow. An object from Object.create(prototype) that gains a deliver_sm's 22 properties
 * one by one went to dictionary mode: 3.3 KB allocated per receipt, against 0.8 KB now (the most
 * garbage the dispatcher made per message in bench/send-e2e.ts).
 */
function FastPdu(this: Record<string, unknown>) {
  this.command_length = 0;
  this.command_id = 0;
  this.command_status = 0;
  this.sequence_number = 0;
  this.command = '';
}
FastPdu.prototype = lib.PDU.prototype;

/** null: not a PDU this reader handles (the library reads it) */
export function fastReadPdu(b: Buffer): PDU | null {
  const len = b.length;
  if (len < 16 || b.readUInt32BE(0) !== len) return null;
  const id = b.readUInt32BE(4);
  const command = COMMAND_NAMES[id];
  if (!command) return null;
  const status = b.readUInt32BE(8);
  const p = new (FastPdu as unknown as new () => Record<string, unknown>)();
  p.command_length = len;
  p.command_id = id;
  p.command_status = status;
  p.sequence_number = b.readUInt32BE(12);
  p.command = command;
  let o = 16;
  if (id & 0x80000000) {
    if (o < len) {
      const end = b.indexOf(0, o);
      if (end !== len - 1) return null; // no NUL, or TLVs in a response: the library's way
      p.message_id = b.toString('ascii', o, end);
    }
    return p as unknown as PDU;
  }
  for (const name of SM_PARAMS_ORDER) {
    if (o >= len) break;
    if (CSTRING_PARAMS.has(name)) {
      const end = b.indexOf(0, o);
      if (end < 0) return null;
      const s = b.toString('ascii', o, end);
      o = end + 1;
      if (s && (name === 'schedule_delivery_time' || name === 'validity_period')) return null; // times: the library's filter
      p[name] = s;
    } else if (name === 'short_message') {
      const n = b[o];
      if (o + 1 + n > len) return null;
      p.short_message = b.subarray(o + 1, o + 1 + n);
      o += 1 + n;
    } else p[name] = b[o++];
  }
  const udhi = (Number(p.esm_class ?? 0) & ESM_UDHI) !== 0;
  while (o + 4 <= len) {
    const tag = b.readUInt16BE(o);
    const n = b.readUInt16BE(o + 2);
    o += 4;
    if (o + n > len) return null;
    const def = lib.tlvsById[tag];
    if (!def) p[tag] = b.subarray(o, o + n);
    else {
      if (def.multiple || (def.filter && def.tag !== 'message_payload')) return null;
      p[def.tag] = def.type.read(b, o, n);
    }
    o += n;
  }
  if (o !== len) return null;
  const dc = Number(p.data_coding ?? 0);
  if (udhi && (p.message_payload !== undefined || !('data_coding' in p))) return null; // the library's way
  if ('data_coding' in p) {
    const sm = p.short_message;
    if (Buffer.isBuffer(sm) && udhi && sm.length) {
      // the parts of long messages: the UDH's information elements apart, the rest decoded (as the library reads them)
      const udh = udhElements(sm.subarray(0, sm[0] + 1));
      if (udh.some((ie) => ie[0] === 0x24 || ie[0] === 0x25)) return null; // national language shift tables: the library's way
      p.short_message = { udh, message: decodeMessage(sm.subarray(sm[0] + 1), dc).message };
    } else if (Buffer.isBuffer(sm)) p.short_message = decodeMessage(sm, dc);
    if (Buffer.isBuffer(p.message_payload)) p.message_payload = decodeMessage(p.message_payload, dc);
  }
  return p as unknown as PDU;
}

const libFromStream = lib.PDU.fromStream;
lib.PDU.fromStream = function fromStream(stream, commandLength) {
  const body = stream.read(commandLength - 4);
  if (!body) return false;
  const b = Buffer.allocUnsafe(commandLength);
  b.writeUInt32BE(commandLength, 0);
  body.copy(b, 4);
  let fast: PDU | null;
  try {
    fast = fastReadPdu(b);
  } catch {
    fast = null;
  }
  return fast ?? new smpp.PDU(b);
};
export const libraryFromStream = libFromStream;

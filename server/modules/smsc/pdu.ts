/**
 * SMPP encoding rules shared by the link (client.ts) and the simulator (simulator.ts): text
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

export function encodeText(text: string): { dataCoding: number; octets: Buffer } {
  if (SAME_IN_GSM_AND_ASCII.test(text)) return { dataCoding: DC_IA5, octets: Buffer.from(text, 'latin1') };
  return { dataCoding: DC_UCS2, octets: Buffer.from(text, 'utf16le').swap16() };
}

let gbk: TextDecoder | null | undefined;

/** The text of a decoded deliver_sm / submit_sm field (the library decodes IA5/GSM, Latin-1, UCS2). */
export function fieldText(value: unknown, dataCoding: number): string {
  let v = value;
  if (v && typeof v === 'object' && !Buffer.isBuffer(v) && 'message' in v) v = (v as { message: unknown }).message;
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
} as const;

export const ESM_RECEIPT = 0x04;
export const ESM_TYPE_MASK = 0x3c;

/** SMPP message_state → receipt stat word */
export const STATE_STAT: Record<number, string> = {
  0: 'SCHEDUL', 1: 'ENROUTE', 2: 'DELIVRD', 3: 'EXPIRED', 4: 'DELETED', 5: 'UNDELIV', 6: 'ACCEPTD', 7: 'UNKNOWN', 8: 'REJECTD', 9: 'SKIPPED',
};
export const STAT_STATE: Record<string, number> = Object.fromEntries(Object.entries(STATE_STAT).map(([k, v]) => [v, Number(k)]));

/** YYMMDDhhmm in the given UTC offset */
export function receiptDate(d: Date, tzMinutes: number): string {
  const t = new Date(d.getTime() + tzMinutes * 60_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(t.getUTCFullYear() % 100)}${p(t.getUTCMonth() + 1)}${p(t.getUTCDate())}${p(t.getUTCHours())}${p(t.getUTCMinutes())}`;
}

/** The SMPP 3.4 Appendix B receipt text (IA5 only: the text field keeps the first 20 plain characters). */
export function receiptText(r: { msgId: string; stat: string; err: string; submitAt: Date; doneAt: Date; text: string; tzMinutes: number }): string {
  const dlvrd = r.stat === 'DELIVRD' ? '001' : '000';
  return `id:${r.msgId} sub:001 dlvrd:${dlvrd} submit date:${receiptDate(r.submitAt, r.tzMinutes)} done date:${receiptDate(r.doneAt, r.tzMinutes)} stat:${r.stat} err:${r.err} text:${r.text.replace(/[^A-Za-z0-9 ]/g, '').slice(0, 20)}`;
}

export interface ParsedReceipt { id: string; stat: string; err: string; done: Date | null }

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

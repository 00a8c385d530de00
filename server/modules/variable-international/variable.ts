/**
 * Variable SMS files (docs/api-variable-international.md "Variable SMS"): an .xlsx whose first
 * column is the mobile number and whose further columns are the template's variables, one column
 * per variable marker in order. Read as a bounded stream (server/lib/spreadsheet.ts), never as a
 * whole workbook. Each row is checked on its own; a row breaking a rule goes to the error file
 * with its reason, every other row to the send file (tab-separated: mobile, variables) that the
 * screening and the send read.
 *
 * Row rules, in this order (the first broken one is the reason):
 *   more than 30 variable cells → 变量个数不能超过30个; not a Chinese mobile → 手机号码格式不正确;
 *   a number seen in an earlier good row → 手机号码重复 (counted in repeatNum); variable cells ≠ the
 *   template's markers → 变量个数与模板不一致; an empty variable → 变量不能为空; a variable of 20 bytes
 *   or more (UTF-8) → 变量长度不能超过20字节; the filled template + sign + 2 over 500 → 合计不能超过500.
 * A first row without a digit in its first cell is a header and skipped. At most 1,000,000 rows.
 */
import { safeRow } from '../../lib/export-columns';
import { NUMBER_HEADER } from '../send';
import fs from 'node:fs';
import os from 'node:os';
import { isUtf8 } from 'node:buffer';
import { performance } from 'node:perf_hooks';
import { once } from 'node:events';
import ExcelJS from 'exceljs';
import { readSheetBatches, SpreadsheetError } from '../../lib/spreadsheet';
import { ApiError } from '../../http/errors';
import { isChineseMobile, NumberSet } from '../../../common/sms/numbers';
import { carrierOf, carrierTable } from '../../../common/sms/segments';
import { isAscii, MAX_MESSAGE_CHARS, messageChars, piecesFor, signPrefix } from '../../../common/sms/pieces';
import type { TemplateWordCheck } from '../content';
import { VARIABLE_PATTERN } from '../../../common/template/rules';
import variableForm from '../../../schemas/forms/send-variable.json';

export const VX = variableForm['x-messages'];
export const MAX_VARIABLE_ROWS = 1_000_000;
export const MAX_VARIABLES = 30;
/** a variable must be under this many bytes (UTF-8) */
export const VARIABLE_MAX_BYTES = 20;
export const VARIABLE_FILE_MAX_BYTES = 300 * 1024 * 1024;
export const VARIABLE_FILE_NAME_MAX = 50;

/** A template's literal parts around its variable markers: literals.length = markers + 1. */
export function templateParts(content: string): string[] {
  const parts = content.split(new RegExp(VARIABLE_PATTERN.source, 'u'));
  return parts.filter((_, i) => i % 2 === 0);
}

/** The template filled with the row's variables (literals[0] v0 literals[1] v1 ...). */
export function fillTemplate(literals: readonly string[], vars: readonly string[]): string {
  let s = literals[0];
  for (let i = 1; i < literals.length; i++) s += vars[i - 1] + literals[i];
  return s;
}

export interface VariableRowCheck {
  literals: readonly string[];
  sign: string;
}

/** The reason a row cannot be sent, or null (repeats are judged by the caller). */
export function rowProblem(phone: string, vars: readonly string[], t: VariableRowCheck): string | null {
  if (vars.length > MAX_VARIABLES) return VX.tooManyVariables;
  if (!isChineseMobile(phone)) return VX.rowBadMobile;
  return varsProblem(vars, t);
}

/** Buffer.byteLength(v) >= VARIABLE_MAX_BYTES, without counting when the length decides (1 to 3 bytes a UTF-16 unit) */
function tooManyBytes(v: string): boolean {
  if (v.length >= VARIABLE_MAX_BYTES) return true;
  if (v.length * 3 < VARIABLE_MAX_BYTES) return false;
  return Buffer.byteLength(v, 'utf8') >= VARIABLE_MAX_BYTES;
}

function varsProblem(vars: readonly string[], t: VariableRowCheck): string | null {
  if (vars.length !== t.literals.length - 1) return VX.rowVariableCount;
  // the filled template's length (fillTemplate's), without building it
  let chars = 0;
  for (const l of t.literals) chars += l.length;
  for (const v of vars) {
    if (!v) return VX.rowEmptyVariable;
    if (tooManyBytes(v)) return VX.rowVariableTooLong;
    chars += v.length;
  }
  if (messageChars(chars, t.sign) > MAX_MESSAGE_CHARS) return VX.rowTooLong;
  return null;
}

export interface VariableParse {
  fileName: string;
  /** data rows of the file (header excluded) */
  totalNum: number;
  /** rows to send */
  submitTotal: number;
  /** rows refused (repeats not included) */
  errNum: number;
  repeatNum: number;
  mobileNum: number;
  unicomNum: number;
  telecomNum: number;
  variateNum: number;
  /** the good rows (working path), for the screening and the send */
  sendFilePath: string;
  /** the refused rows with their reasons (working path), or '' when none */
  errorFilePath: string;
  /** the first good rows (at most PREVIEW_ROWS) with the template filled, sign not included: the send page's preview */
  preview: { phone: string; content: string }[];
}

/** good rows a parse gives back filled in, for the send page's preview */
export const PREVIEW_ROWS = 3;

/** String.prototype.trim's white space and line terminators */
const trimmed = (c: number) =>
  c <= 0x20
    ? c === 0x20 || (c >= 0x09 && c <= 0x0d)
    : c >= 0xa0 &&
      (c === 0xa0 ||
        c === 0x1680 ||
        (c >= 0x2000 && c <= 0x200a) ||
        c === 0x2028 ||
        c === 0x2029 ||
        c === 0x202f ||
        c === 0x205f ||
        c === 0x3000 ||
        c === 0xfeff);

/** a cell as the files keep it: tabs and line breaks as spaces, trimmed (most cells are kept as they are) */
const clean = (v: string) => {
  const n = v.length;
  if (n === 0 || trimmed(v.charCodeAt(0)) || trimmed(v.charCodeAt(n - 1))) return v.replace(/[\t\r\n]/g, ' ').trim();
  for (let i = 1; i < n - 1; i++) {
    const c = v.charCodeAt(i);
    if (c === 0x09 || c === 0x0a || c === 0x0d) return v.replace(/[\t\r\n]/g, ' ').trim();
  }
  return v;
};

/**
 * Parses a variable file at `src` into the good-rows file `goodPath` (tsv) and the error file
 * `errorPath` (xlsx, written only when a row is refused; removed otherwise).
 */
export async function parseVariableFile(
  src: string,
  t: VariableRowCheck,
  out: { goodPath: string; errorPath: string },
): Promise<Omit<VariableParse, 'fileName' | 'sendFilePath' | 'errorFilePath'> & { hasErrors: boolean }> {
  const good = fs.createWriteStream(out.goodPath);
  let errWb: ExcelJS.stream.xlsx.WorkbookWriter | undefined;
  let errWs: ExcelJS.Worksheet | undefined;
  let errDone: Promise<unknown> | undefined;
  const varCount = t.literals.length - 1;
  const addError = (cells: string[], reason: string) => {
    if (!errWb) {
      const stream = fs.createWriteStream(out.errorPath);
      errDone = once(stream, 'finish');
      errWb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: false, useSharedStrings: false });
      errWs = errWb.addWorksheet('错误数据');
      errWs
        .addRow([NUMBER_HEADER, ...Array.from({ length: varCount }, (_, i) => `变量${i + 1}`), VX.errorHeader])
        .commit();
    }
    const row = cells.slice(0, MAX_VARIABLES + 2).map((c) => c.slice(0, 200));
    while (row.length < varCount + 1) row.push('');
    errWs!.addRow(safeRow([...row, reason])).commit();
  };
  // the good rows' numbers (valid mobiles): as (segment, last 7 digits), see NumberSet
  const seen = new NumberSet(1 << 16);
  const counts = {
    totalNum: 0,
    submitTotal: 0,
    errNum: 0,
    repeatNum: 0,
    mobileNum: 0,
    unicomNum: 0,
    telecomNum: 0,
    variateNum: varCount,
  };
  const preview: VariableParse['preview'] = [];
  let buf = '';
  let first = true;
  try {
    for await (const rows of readSheetBatches(
      { path: src },
      { maxRows: MAX_VARIABLE_ROWS + 1, maxColumns: 256, maxCellsPerRow: 256, maxCellChars: 2000 },
    )) {
      for (const row of rows) {
        const cells = row.cells;
        for (let i = 0; i < cells.length; i++) cells[i] = clean(cells[i]);
        if (first) {
          first = false;
          if (!/[0-9]/.test(cells[0] ?? '')) continue;
        }
        counts.totalNum++;
        if (counts.totalNum > MAX_VARIABLE_ROWS) throw new ApiError(400, VX.tooManyRows);
        let last = cells.length;
        while (last > 1 && cells[last - 1] === '') last--;
        const phone = cells[0] ?? '';
        const vars = cells.slice(1, last);
        const reason = rowProblem(phone, vars, t);
        if (reason) {
          counts.errNum++;
          addError(cells.slice(0, last), reason);
          continue;
        }
        let rest = 0;
        for (let i = 4; i < 11; i++) rest = rest * 10 + phone.charCodeAt(i) - 48;
        if (
          !seen.add((phone.charCodeAt(1) - 48) * 100 + (phone.charCodeAt(2) - 48) * 10 + phone.charCodeAt(3) - 48, rest)
        ) {
          counts.repeatNum++;
          addError(cells.slice(0, last), VX.rowRepeat);
          continue;
        }
        counts.submitTotal++;
        if (preview.length < PREVIEW_ROWS) preview.push({ phone, content: fillTemplate(t.literals, vars) });
        const c = carrierOf(phone);
        if (c === 1) counts.mobileNum++;
        else if (c === 2) counts.unicomNum++;
        else if (c === 3) counts.telecomNum++;
        buf += `${phone}\t${vars.join('\t')}\n`;
        if (buf.length > 1 << 16) {
          if (!good.write(buf)) await once(good, 'drain');
          buf = '';
        }
      }
    }
  } catch (e) {
    good.destroy();
    if (errWb) await errWb.commit().catch(() => undefined);
    if (e instanceof SpreadsheetError)
      throw new ApiError(
        400,
        e.reason === 'tooManyRows' ? VX.tooManyRows : e.reason === 'notXlsx' ? '文件解析失败' : e.message,
      );
    throw e;
  }
  good.end(buf);
  await once(good, 'finish');
  if (errWb) {
    await errWb.commit();
    await errDone;
  }
  return { ...counts, preview, hasErrors: !!errWb };
}

export interface VariableRow {
  phone: string;
  vars: string[];
}

/**
 * A variable template compiled for many rows (the send's re-check of a send file, readSendRows):
 * its literal parts and the sign's two bracket forms as UTF-8 bytes, and the part of every row's
 * counter (common/sms/pieces) the template makes.
 */
export class FilledTemplate {
  readonly varCount: number;
  /** literal characters + sign + 2 (with a sign): the template's part of every row's counter */
  readonly fixedChars: number;
  /** literals and sign all ASCII: a row is English when its variables are too */
  readonly fixedAscii: boolean;
  readonly prefixEn: string;
  readonly prefixZh: string;
  /** the sign's brackets + the first literal as UTF-16 units: Chinese and English form (as long as each other) */
  readonly headZh: Uint16Array;
  readonly headEn: Uint16Array;
  /** the literals after each variable, as UTF-16 units */
  readonly tails: Uint16Array[];

  constructor(
    readonly literals: readonly string[],
    readonly sign: string,
  ) {
    this.varCount = literals.length - 1;
    this.fixedChars = literals.reduce((n, l) => n + l.length, 0) + sign.length + (sign ? 2 : 0);
    this.fixedAscii = literals.every(isAscii) && isAscii(sign);
    this.prefixEn = signPrefix(sign, true);
    this.prefixZh = signPrefix(sign, false);
    this.headZh = units(this.prefixZh + literals[0]);
    this.headEn = units(this.prefixEn + literals[0]);
    this.tails = literals.slice(1).map(units);
  }
}

const units = (s: string) => Uint16Array.from({ length: s.length }, (_, i) => s.charCodeAt(i));

/** The rows of a send file, checked and filled: what the acceptance inserts and charges. */
export interface SendRows {
  /** distinct good rows, in file order */
  phones: string[];
  carriers: Uint8Array;
  pieces: Uint16Array;
  /** each row's text as sent: the sign's brackets and the template filled with its variables */
  texts: string[];
  repeatNum: number;
  /** a row's text holds a sensitive word */
  hit: boolean;
  /** time reading and splitting the file (ms); checking the rows, filling their texts, counting their pieces and the words */
  readMs: number;
  checkMs: number;
}

class Ints {
  a = new Int32Array(1 << 12);
  n = 0;
  push(v: number) {
    if (this.n === this.a.length) {
      const b = new Int32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
}

const grow = <T extends Uint8Array | Uint16Array>(a: T, n: number): T => {
  if (n < a.length) return a;
  const b = new (a.constructor as new (n: number) => T)(Math.max(1024, a.length * 2));
  b.set(a);
  return b;
};

const NO_MASK = new Uint8Array(65536);
const BIG_ENDIAN = os.endianness() === 'BE';
const TAB = 9;
const LF = 10;

/**
 * Reads a send file (tsv written by parseVariableFile or the screening: mobile, then the
 * variables; empty lines skipped) 1 MB at a time, as bytes. Each chunk's complete lines are split
 * (fields, the number's check, repeats), then checked row by row: a bad row throws
 * `第N行：<reason>` (N counts the non-empty lines), a repeated number is counted and skipped,
 * every other row gets its text and pieces. The same answers as sendRowProblem, then
 * countPieces({ content: fillTemplate(literals, vars), sign }) on the file read as text (tested),
 * without a string per variable: a variable's UTF-8 bytes are its length rule, its characters are
 * counted from them, and the rows' texts are written as bytes and decoded once per chunk.
 * `words`: the sensitive-word checks of the template with the Chinese and the English sign
 * brackets (the same one when the template cannot be English); once a row hits, the others are
 * not checked.
 */
export async function readSendRows(
  path: string,
  t: FilledTemplate,
  words: { zh: TemplateWordCheck; en: TemplateWordCheck },
  /** bytes read at a time (tests use small ones) */
  chunkBytes = 1 << 20,
): Promise<SendRows> {
  const phones: string[] = [];
  const texts: string[] = [];
  let carriers = new Uint8Array(1024);
  let pieces = new Uint16Array(1024);
  let count = 0;
  let repeatNum = 0;
  let hit = words.zh.fixedHit && (!t.fixedAscii || words.en.fixedHit);
  // the same for both bracket forms: it depends on the list and on the template's literals and sign
  const mask = words.zh.mask;
  const seen = new NumberSet(1 << 16);
  const table = carrierTable();
  const varCount = t.varCount;
  // one chunk's rows: where each line starts, the end of each of its fields, the number's carrier (0: not a mobile), repeated
  const lineStart = new Ints();
  const fieldFrom = new Ints();
  const ends = new Ints();
  let rowCarrier = new Uint8Array(1 << 12);
  let rowRepeat = new Uint8Array(1 << 12);
  // one chunk's good rows: characters of the text, rows to check for words
  const chars = new Ints();
  const toCheck = new Ints();
  let out = new Uint16Array(1 << 20);
  let line = 0;
  let readMs = 0;
  let checkMs = 0;

  const split = (buf: Buffer, end: number) => {
    lineStart.n = 0;
    fieldFrom.n = 0;
    ends.n = 0;
    let p = 0;
    while (p < end) {
      let i = p;
      let c = 0;
      while (i < end && (c = buf[i]) !== LF && c !== TAB) i++;
      if (i === p && (i === end || c === LF)) {
        // an empty line
        p = i + 1;
        continue;
      }
      const r = lineStart.n;
      lineStart.push(p);
      fieldFrom.push(ends.n);
      ends.push(i);
      // the number: 11 digits, a known segment
      let carrier = 0;
      let n = 0;
      if (i - p === 11 && buf[p] === 0x31) {
        carrier = 1;
        for (let k = p; k < i; k++) {
          const d = buf[k] - 48;
          if (d < 0 || d > 9) carrier = 0;
          n = n * 10 + d;
        }
        if (carrier) carrier = table[(buf[p + 1] - 48) * 100 + (buf[p + 2] - 48) * 10 + buf[p + 3] - 48];
      }
      if (r === rowCarrier.length) {
        rowCarrier = grow(rowCarrier, r);
        rowRepeat = grow(rowRepeat, r);
      }
      rowCarrier[r] = carrier;
      rowRepeat[r] = carrier && !seen.add(Math.floor(n / 1e7) % 1000, n % 1e7) ? 1 : 0;
      while (i < end && c === TAB) {
        i++;
        while (i < end && (c = buf[i]) !== LF && c !== TAB) i++;
        ends.push(i);
      }
      p = i + 1;
    }
    fieldFrom.push(ends.n);
  };

  const check = (buf: Buffer, latin: string) => {
    const rows = lineStart.n;
    // a row's text: at most the template's units and one per byte of its variables
    const need = rows * t.fixedChars + buf.length;
    if (out.length < need) out = new Uint16Array(Math.max(need, out.length * 2));
    const o16 = out;
    const headLen = t.headZh.length;
    let o = 0;
    chars.n = 0;
    toCheck.n = 0;
    const first = count;
    const ls = lineStart.a;
    const ff = fieldFrom.a;
    const fe = ends.a;
    const tails = t.tails;
    for (let r = 0; r < rows; r++) {
      line++;
      const carrier = rowCarrier[r];
      const f0 = ff[r];
      const f1 = ff[r + 1];
      let problem: string | null = null;
      let ascii = t.fixedAscii;
      let masked = false;
      const m = hit ? NO_MASK : mask;
      // the variables' units and the literals after them go where the row's text will be
      let w = o + headLen;
      if (carrier === 0) problem = VX.rowBadMobile;
      else if (f1 - f0 - 1 !== varCount) problem = VX.rowVariableCount;
      else {
        for (let f = f0 + 1; f < f1; f++) {
          const a = fe[f - 1] + 1;
          const b = fe[f];
          const bytes = b - a;
          if (bytes === 0) {
            problem = VX.rowEmptyVariable;
            break;
          }
          if (bytes >= VARIABLE_MAX_BYTES) {
            problem = VX.rowVariableTooLong;
            break;
          }
          for (let i = a; i < b; i++) {
            const c = buf[i];
            let u: number;
            if (c < 0x80) u = c;
            else if (c < 0xe0) {
              u = ((c & 0x1f) << 6) | (buf[++i] & 0x3f);
              ascii = false;
            } else if (c < 0xf0) {
              u = ((c & 0x0f) << 12) | ((buf[i + 1] & 0x3f) << 6) | (buf[i + 2] & 0x3f);
              i += 2;
              ascii = false;
            } else {
              const cp =
                (((c & 0x07) << 18) | ((buf[i + 1] & 0x3f) << 12) | ((buf[i + 2] & 0x3f) << 6) | (buf[i + 3] & 0x3f)) -
                0x10000;
              i += 3;
              ascii = false;
              const hi = 0xd800 + (cp >> 10);
              if (m[hi] === 1) masked = true;
              o16[w++] = hi;
              u = 0xdc00 + (cp & 0x3ff);
            }
            if (m[u] === 1) masked = true;
            o16[w++] = u;
          }
          const tail = tails[f - f0 - 1];
          for (let i = 0; i < tail.length; i++) o16[w++] = tail[i];
        }
        if (!problem && w - o > MAX_MESSAGE_CHARS) problem = VX.rowTooLong;
      }
      if (problem) throw new ApiError(400, `第${line}行：${problem}`);
      if (rowRepeat[r]) {
        repeatNum++;
        continue;
      }
      const head = ascii ? t.headEn : t.headZh;
      for (let i = 0; i < headLen; i++) o16[o + i] = head[i];
      const n = w - o;
      o = w;
      if (!hit) {
        const ws = ascii ? words.en : words.zh;
        if (ws.fixedHit) hit = true;
        else if (masked) toCheck.push(count - first);
      }
      if (count === carriers.length) {
        carriers = grow(carriers, count);
        pieces = grow(pieces, count);
      }
      carriers[count] = carrier;
      pieces[count] = piecesFor(n, ascii);
      phones.push(latin.slice(ls[r], ls[r] + 11));
      chars.push(n);
      count++;
    }
    // the rows' texts, one string per chunk (UTF-16 as it is): a row's text is as long as its counter
    const bytes = Buffer.from(o16.buffer, o16.byteOffset, o * 2);
    if (BIG_ENDIAN) bytes.swap16();
    const all = bytes.toString('ucs2');
    let pos = 0;
    for (let k = 0; k < chars.n; k++) {
      texts.push(all.slice(pos, pos + chars.a[k]));
      pos += chars.a[k];
    }
    for (let k = 0; k < toCheck.n && !hit; k++) if (words.zh.contains(texts[first + toCheck.a[k]])) hit = true;
  };

  const chunk = (buf: Buffer, end: number) => {
    // what is read as text reads invalid UTF-8 as U+FFFD: the same bytes for the rest
    if (!isUtf8(buf.subarray(0, end))) {
      buf = Buffer.from(buf.toString('utf8', 0, end));
      end = buf.length;
    }
    split(buf, end);
    const t1 = performance.now();
    check(buf, buf.toString('latin1', 0, end));
    return t1;
  };

  let carry: Buffer = Buffer.alloc(0);
  let t0 = performance.now();
  for await (const data of fs.createReadStream(path, { highWaterMark: chunkBytes })) {
    const buf = carry.length ? Buffer.concat([carry, data as Buffer]) : (data as Buffer);
    const last = buf.lastIndexOf(LF);
    if (last < 0) {
      carry = buf;
      continue;
    }
    carry = Buffer.from(buf.subarray(last + 1));
    const t1 = chunk(buf, last);
    readMs += t1 - t0;
    t0 = performance.now();
    checkMs += t0 - t1;
  }
  const t1 = chunk(carry, carry.length);
  readMs += t1 - t0;
  checkMs += performance.now() - t1;
  return {
    phones,
    carriers: carriers.subarray(0, count),
    pieces: pieces.subarray(0, count),
    texts,
    repeatNum,
    hit,
    readMs,
    checkMs,
  };
}

/** The variable template download: mobile + one column per variable of a sample template. */
export async function variableTemplateXlsx(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('变量短信');
  ws.columns = [
    { header: NUMBER_HEADER, key: 'phone', width: 16 },
    { header: '变量1', key: 'v1', width: 14 },
    { header: '变量2', key: 'v2', width: 14 },
  ];
  ws.addRow({ phone: '13800138000', v1: '张先生', v2: '2026-12-01' });
  ws.addRow({ phone: '13900139000', v1: '李女士', v2: '2026-12-02' });
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** rows with the check of the send (the template or sign may differ from the parse's): the problem of the first bad row, or null */
export function sendRowProblem(r: VariableRow, t: VariableRowCheck): string | null {
  if (!isChineseMobile(r.phone)) return VX.rowBadMobile;
  return varsProblem(r.vars, t);
}

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
import { NUMBER_HEADER } from '../send/import';
import fs from 'node:fs';
import { once } from 'node:events';
import ExcelJS from 'exceljs';
import { readSheetBatches, SpreadsheetError } from '../../lib/spreadsheet';
import { ApiError } from '../../http/errors';
import { isChineseMobile, NumberSet } from '../../../common/sms/numbers';
import { carrierOf } from '../../../common/sms/segments';
import { MAX_MESSAGE_CHARS, messageChars } from '../../../common/sms/pieces';
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
}

/** String.prototype.trim's white space and line terminators */
const trimmed = (c: number) =>
  c <= 0x20
    ? c === 0x20 || (c >= 0x09 && c <= 0x0d)
    : c >= 0xa0 && (c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff);

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
      errWs.addRow([NUMBER_HEADER, ...Array.from({ length: varCount }, (_, i) => `变量${i + 1}`), VX.errorHeader]).commit();
    }
    const row = cells.slice(0, MAX_VARIABLES + 2).map((c) => c.slice(0, 200));
    while (row.length < varCount + 1) row.push('');
    errWs!.addRow([...row, reason]).commit();
  };
  // the good rows' numbers (valid mobiles): as (segment, last 7 digits), see NumberSet
  const seen = new NumberSet(1 << 16);
  const counts = { totalNum: 0, submitTotal: 0, errNum: 0, repeatNum: 0, mobileNum: 0, unicomNum: 0, telecomNum: 0, variateNum: varCount };
  let buf = '';
  let first = true;
  try {
    for await (const rows of readSheetBatches({ path: src }, { maxRows: MAX_VARIABLE_ROWS + 1, maxColumns: 256, maxCellsPerRow: 256, maxCellChars: 2000 })) {
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
        if (!seen.add((phone.charCodeAt(1) - 48) * 100 + (phone.charCodeAt(2) - 48) * 10 + phone.charCodeAt(3) - 48, rest)) {
          counts.repeatNum++;
          addError(cells.slice(0, last), VX.rowRepeat);
          continue;
        }
        counts.submitTotal++;
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
    if (e instanceof SpreadsheetError) throw new ApiError(400, e.reason === 'tooManyRows' ? VX.tooManyRows : e.reason === 'notXlsx' ? '文件解析失败' : e.message);
    throw e;
  }
  good.end(buf);
  await once(good, 'finish');
  if (errWb) {
    await errWb.commit();
    await errDone;
  }
  return { ...counts, hasErrors: !!errWb };
}

export interface VariableRow {
  phone: string;
  vars: string[];
}

/** The rows of a send file (tsv written by parseVariableFile or the screening), streamed. */
export async function* sendFileRows(path: string): AsyncGenerator<VariableRow> {
  let carry = '';
  for await (const chunk of fs.createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    const lines = (carry + chunk).split('\n');
    carry = lines.pop() ?? '';
    for (const l of lines) {
      if (!l) continue;
      const cells = l.split('\t');
      yield { phone: cells[0], vars: cells.slice(1) };
    }
  }
  if (carry) {
    const cells = carry.split('\t');
    yield { phone: cells[0], vars: cells.slice(1) };
  }
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

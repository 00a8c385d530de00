/**
 * /send/importMobiles: the numbers of a txt / csv / xlsx file, read as a stream with bounds: at
 * most IMPORT_MAX_BYTES, at most MAX_NUMBERS numbers (号码不能大于60000个, found while reading,
 * the rest of the file is not parsed). In a txt or csv every non-digit separates numbers (the
 * manual-input rule); in an xlsx every cell of the first sheet counts (a header without digits is
 * ignored). The result is the manual-input check of the numbers found (common/sms/numbers).
 */
import type { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { ApiError } from '../../http/errors';
import { IMPORT_SHEET_LIMITS, readSheetRows, SpreadsheetError } from '../../lib/spreadsheet';
import { checkNumbers, MAX_NUMBERS, NUMBER_MESSAGES } from '../../../common/sms/numbers';
import type { NumberImport } from '../../../common/generated/schemas';

export const IMPORT_MAX_BYTES = 8 * 1024 * 1024;
export const IMPORT_MSG = {
  noFile: '请上传号码文件',
  badType: '请上传txt,csv,xlxs格式文件',
  tooLarge: `单个文件大小不能超过${IMPORT_MAX_BYTES / 1024 / 1024}M`,
  parseFailed: '文件解析失败',
  empty: '导入文件的有效号码个数为0',
} as const;

export type ImportKind = 'txt' | 'csv' | 'xlsx';

export function importKindOf(fileName: string): ImportKind | null {
  const m = /\.(txt|csv|xlsx)$/i.exec(fileName.trim());
  return m ? (m[1].toLowerCase() as ImportKind) : null;
}

/** entities/number-import.json */
export type ImportResult = NumberImport;

/** Tokens of a text stream (digit runs), stopping after `max + 1`. */
export async function textTokens(stream: Readable, max = MAX_NUMBERS): Promise<string[]> {
  const tokens: string[] = [];
  let carry = '';
  for await (const chunk of stream) {
    const text = carry + (chunk as Buffer).toString('latin1');
    const parts = text.split(/[^0-9]+/);
    carry = parts.pop() ?? '';
    for (const p of parts) if (p) tokens.push(p.length > 20 ? p.slice(0, 20) : p);
    if (carry.length > 20) carry = carry.slice(0, 20);
    if (tokens.length > max) {
      stream.resume();
      return tokens;
    }
  }
  if (carry) tokens.push(carry);
  return tokens;
}

export async function xlsxTokens(buf: Buffer, max = MAX_NUMBERS): Promise<string[]> {
  const tokens: string[] = [];
  try {
    for await (const row of readSheetRows(buf, {
      ...IMPORT_SHEET_LIMITS,
      maxRows: max + 10,
      maxCellsPerRow: 64,
      maxColumns: 64,
    })) {
      for (const cell of row.cells) for (const p of cell.split(/[^0-9]+/)) if (p) tokens.push(p.slice(0, 20));
      if (tokens.length > max) break;
    }
  } catch (e) {
    if (e instanceof SpreadsheetError)
      throw new ApiError(400, e.reason === 'tooManyRows' ? NUMBER_MESSAGES.tooMany : IMPORT_MSG.parseFailed);
    throw e;
  }
  return tokens;
}

export function importResult(fileName: string, tokens: string[]): ImportResult {
  if (tokens.length > MAX_NUMBERS) throw new ApiError(400, NUMBER_MESSAGES.tooMany);
  const c = checkNumbers(tokens);
  if (c.valid === 0) throw new ApiError(400, IMPORT_MSG.empty);
  return {
    fileName,
    submitTotal: c.total,
    errNum: c.invalid,
    repeatNum: c.repeat,
    mobiles: c.unique.join(','),
    mobileNum: c.carriers[1],
    unicomNum: c.carriers[2],
    telecomNum: c.carriers[3],
  };
}

const SAMPLE = ['13800138000', '13900139000', '18600186000'];
/** the number column's header of the import templates (and of the variable SMS files) */
export const NUMBER_HEADER = '手机号码';
const HEADER = NUMBER_HEADER;

export async function templateXlsx(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('号码');
  ws.columns = [{ header: HEADER, key: 'phone', width: 18 }];
  for (const p of SAMPLE) ws.addRow({ phone: p });
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export const templateCsv = () => Buffer.from(`\ufeff${HEADER}\r\n${SAMPLE.join('\r\n')}\r\n`);
export const templateTxt = () => Buffer.from(`${SAMPLE.join('\r\n')}\r\n`);

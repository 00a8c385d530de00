/**
 * Number files of any size (POST /send/parsefile, and the send routes' `importFilePath`): an
 * uploaded txt / csv / xlsx (server/modules/files) read as a stream — the text files in 1 MB
 * pieces, the workbook through the bounded streaming reader (server/lib/spreadsheet) — and
 * counted with the shared number rules (common/sms/numbers: every non-digit separates numbers; a
 * valid number is a Chinese mobile of a known segment; repeats are later occurrences of a valid
 * number). Never the whole file in memory: only the distinct numbers when the caller keeps them
 * (a send), as a compact set otherwise.
 *
 * International files (`international`): a number is 6 to 15 digits not starting with 0 (the
 * country code included); the country of each is the international module's business.
 */
import fs from 'node:fs';
import { ApiError } from '../../http/errors';
import { readSheetBatches, SpreadsheetError, type SpreadsheetLimits } from '../../lib/spreadsheet';
import { carrierTable } from '../../../common/sms/segments';
import { NumberSet, type NumberCheck } from '../../../common/sms/numbers';
import { MESSAGES } from '../../../common/schema/messages';
import type { ResolvedUpload } from './service';
import type { FileParse } from '../../../common/generated/schemas';

/** numbers (every token) a file may hold */
export const FILE_MAX_NUMBERS = 1_000_000;
export const PARSE_TIMEOUT_MS = 120_000;

export const PARSE_MESSAGES = {
  timeout: MESSAGES.fileParseTimeout,
  failed: '文件解析失败',
  empty: '导入文件的有效号码个数为0',
  tooMany: `文件号码不能超过${FILE_MAX_NUMBERS}个`,
  tooLarge: '文件内容过大',
} as const;

/**
 * What a 300 MB upload may unpack to: a 1,000,000-row sheet of numbers is ~60 MB of XML; shared
 * strings (numbers stored as text) ~30 MB. Zip bombs are stopped by the ratio and size checks.
 */
export const FILE_SHEET_LIMITS: Partial<SpreadsheetLimits> = {
  maxEntries: 2000,
  maxTotalBytes: 1024 * 1024 * 1024,
  maxSheetBytes: 512 * 1024 * 1024,
  maxSharedStringsBytes: 128 * 1024 * 1024,
  maxSharedStrings: FILE_MAX_NUMBERS + 1000,
  maxRows: FILE_MAX_NUMBERS + 10,
  maxCellsPerRow: 64,
  maxColumns: 64,
  maxCellChars: 1000,
};

/** /send/parsefile's answer (schemas/entities/file-parse.json) */
export type FileParseResult = FileParse;

export interface ParseOptions {
  international?: boolean;
  /** keep the distinct valid numbers (a send needs them), else only count */
  keep?: boolean;
  /** keep at most this many invalid tokens (the error-number download) */
  keepInvalid?: number;
  maxNumbers?: number;
  timeoutMs?: number;
}

export interface ParsedNumbers {
  result: FileParseResult;
  /** with `keep`: the same shape as the manual input's check, for the send code */
  check: NumberCheck;
}

/** Counts tokens as checkNumbers does, one at a time. */
class Tally {
  total = 0;
  invalid = 0;
  repeat = 0;
  carriers: Record<1 | 2 | 3, number> = { 1: 0, 2: 0, 3: 0 };
  intl = 0;
  unique: string[] = [];
  uniqueCarriers: number[] = [];
  invalidNumbers: string[] = [];
  private readonly table = carrierTable();
  private readonly seen = new NumberSet(1 << 16);
  private readonly seenIntl = new Set<number>();
  constructor(private readonly o: ParseOptions) {}

  add(t: string) {
    this.total++;
    if (this.o.international) {
      if (t.length < 6 || t.length > 15 || t.charCodeAt(0) === 48) return this.bad(t);
      if (this.seenIntl.has(+t)) return void this.repeat++;
      this.seenIntl.add(+t);
      this.intl++;
      if (this.o.keep) {
        this.unique.push(t);
        this.uniqueCarriers.push(4);
      }
      return;
    }
    let carrier = 0;
    let segment = 0;
    if (t.length === 11 && t.charCodeAt(0) === 49) {
      segment = (t.charCodeAt(1) - 48) * 100 + (t.charCodeAt(2) - 48) * 10 + (t.charCodeAt(3) - 48);
      carrier = this.table[segment];
    }
    if (!carrier) return this.bad(t);
    // the last 7 digits as a number (a token is all digits)
    let rest = 0;
    for (let i = 4; i < 11; i++) rest = rest * 10 + t.charCodeAt(i) - 48;
    if (!this.seen.add(segment, rest)) return void this.repeat++;
    this.carriers[carrier as 1 | 2 | 3]++;
    if (this.o.keep) {
      this.unique.push(t);
      this.uniqueCarriers.push(carrier);
    }
  }

  private bad(t: string) {
    this.invalid++;
    if (this.invalidNumbers.length < (this.o.keepInvalid ?? 0)) this.invalidNumbers.push(t);
  }

  get distinct() {
    return this.o.international ? this.intl : this.carriers[1] + this.carriers[2] + this.carriers[3];
  }
}

/** digit runs of a text, a run longer than 20 kept as its first 20 digits (never valid) */
function digitRuns(text: string, out: (t: string) => void): string {
  const parts = text.split(/[^0-9]+/);
  const carry = parts.pop() ?? '';
  for (const p of parts) if (p) out(p.length > 20 ? p.slice(0, 20) : p);
  return carry.length > 20 ? carry.slice(0, 20) : carry;
}

/** the numbers of one cell: usually the cell is one number, else its digit runs */
function cellNumbers(cell: string, out: (t: string) => void) {
  const n = cell.length;
  let i = 0;
  while (i < n) {
    const c = cell.charCodeAt(i);
    if (c < 48 || c > 57) break;
    i++;
  }
  if (i === n) out(n > 20 ? cell.slice(0, 20) : cell);
  else digitRuns(`${cell},`, out);
}

/**
 * Reads the file and counts its numbers. Refuses 文件解析超时 (over `timeoutMs`), 文件解析失败 (not
 * readable as its type), 文件内容过大 (a workbook beyond the limits: zip bombs), more than
 * `maxNumbers` numbers, and a file without one valid number (导入文件的有效号码个数为0).
 */
export async function parseNumberFile(f: ResolvedUpload, o: ParseOptions = {}): Promise<ParsedNumbers> {
  const max = o.maxNumbers ?? FILE_MAX_NUMBERS;
  const deadline = Date.now() + (o.timeoutMs ?? PARSE_TIMEOUT_MS);
  const tally = new Tally(o);
  const add = (t: string) => {
    tally.add(t);
    if (tally.total > max) throw new ApiError(400, PARSE_MESSAGES.tooMany);
  };
  const inTime = () => {
    if (Date.now() > deadline) throw new ApiError(400, PARSE_MESSAGES.timeout);
  };
  try {
    if (f.kind === 'xlsx') {
      for await (const rows of readSheetBatches({ path: f.path }, FILE_SHEET_LIMITS)) {
        for (const row of rows) for (const cell of row.cells) if (cell) cellNumbers(cell, add);
        inTime();
      }
    } else {
      let carry = '';
      for await (const piece of fs.createReadStream(f.path, { highWaterMark: 1024 * 1024 })) {
        carry = digitRuns(carry + (piece as Buffer).toString('latin1'), add);
        inTime();
      }
      if (carry) add(carry);
    }
  } catch (e) {
    if (e instanceof ApiError) throw e;
    if (e instanceof SpreadsheetError) {
      if (e.reason === 'tooManyRows') throw new ApiError(400, PARSE_MESSAGES.tooMany);
      if (e.reason === 'tooLarge' || e.reason === 'tooManyCells' || e.reason === 'tooManyStrings')
        throw new ApiError(400, PARSE_MESSAGES.tooLarge);
    }
    throw new ApiError(400, PARSE_MESSAGES.failed);
  }
  if (tally.distinct === 0) throw new ApiError(400, PARSE_MESSAGES.empty);
  const result: FileParseResult = {
    fileName: f.fileName,
    importFilePath: f.importFilePath,
    submitTotal: tally.total,
    errNum: tally.invalid,
    repeatNum: tally.repeat,
    sendNum: tally.distinct,
    mobileNum: tally.carriers[1],
    unicomNum: tally.carriers[2],
    telecomNum: tally.carriers[3],
    internationalNum: tally.intl,
  };
  const check: NumberCheck = {
    total: tally.total,
    valid: tally.distinct,
    invalid: tally.invalid,
    repeat: tally.repeat,
    unique: tally.unique,
    invalidNumbers: tally.invalidNumbers,
    carriers: tally.carriers,
    uniqueCarriers: Uint8Array.from(tally.uniqueCarriers),
  };
  return { result, check };
}

/**
 * The rows whose number is not valid, as `row,number` lines (at most FILE_MAX_NUMBERS): the first
 * column of an xlsx (the variable file's mobile column; a header row without digits is skipped),
 * the first comma / tab / semicolon separated field of each line of a txt or csv. `all`: every
 * invalid token of the line instead (a number file).
 */
export async function firstColumnErrors(
  f: ResolvedUpload,
  o: { international?: boolean; all?: boolean; timeoutMs?: number } = {},
): Promise<string[]> {
  const deadline = Date.now() + (o.timeoutMs ?? PARSE_TIMEOUT_MS);
  const table = carrierTable();
  const valid = (t: string) => {
    if (o.international) return /^[1-9][0-9]{5,14}$/.test(t);
    return t.length === 11 && /^1[0-9]{10}$/.test(t) && table[+t.slice(1, 4)] !== 0;
  };
  const out: string[] = [];
  const take = (row: number, field: string) => {
    const t = field.trim();
    if (!t || (row === 1 && !/[0-9]/.test(t))) return;
    if (o.all) {
      for (const p of t.split(/[^0-9]+/)) if (p && !valid(p)) out.push(`${row},${p.slice(0, 20)}`);
    } else if (!valid(t)) out.push(`${row},${t.slice(0, 40).replace(/[\r\n,]/g, ' ')}`);
    if (out.length > FILE_MAX_NUMBERS) throw new ApiError(400, PARSE_MESSAGES.tooMany);
  };
  try {
    if (f.kind === 'xlsx') {
      for await (const rows of readSheetBatches({ path: f.path }, FILE_SHEET_LIMITS)) {
        for (const r of rows) take(r.row, o.all ? r.cells.join(',') : (r.cells[0] ?? ''));
        if (Date.now() > deadline) throw new ApiError(400, PARSE_MESSAGES.timeout);
      }
    } else {
      let carry = '';
      let row = 0;
      for await (const piece of fs.createReadStream(f.path, { highWaterMark: 1024 * 1024, encoding: 'utf8' })) {
        const lines = (carry + (piece as string)).split('\n');
        carry = lines.pop() ?? '';
        if (carry.length > 64 * 1024) carry = carry.slice(0, 64 * 1024);
        for (const line of lines) take(++row, o.all ? line : (line.split(/[,\t;，]/)[0] ?? ''));
        if (Date.now() > deadline) throw new ApiError(400, PARSE_MESSAGES.timeout);
      }
      if (carry) take(++row, o.all ? carry : (carry.split(/[,\t;，]/)[0] ?? ''));
    }
  } catch (e) {
    if (e instanceof ApiError) throw e;
    if (
      e instanceof SpreadsheetError &&
      (e.reason === 'tooLarge' || e.reason === 'tooManyCells' || e.reason === 'tooManyStrings')
    )
      throw new ApiError(400, PARSE_MESSAGES.tooLarge);
    throw new ApiError(400, PARSE_MESSAGES.failed);
  }
  return out;
}

/**
 * Bounded, streaming .xlsx reading: an async iterator over the first worksheet's rows (or batches
 * of rows) that never holds a whole workbook in memory and stops at the first excess.
 *
 * How a hostile file is stopped:
 *   1. the zip's central directory is checked before anything is inflated: number of entries,
 *      declared uncompressed size of every part we read and of the whole archive, compression
 *      ratio, encryption / unknown compression, path names (yauzl refuses absolute paths, `..`
 *      and backslashes; we refuse entries in the wrong place);
 *   2. only the parts needed are inflated (workbook.xml, its rels, sharedStrings.xml, the first
 *      worksheet), one at a time, as streams (yauzl reads the raw bytes, we inflate them): a part
 *      inflating to more than it declares is stopped there, one read to its end that inflates to
 *      less is refused, and the inflated bytes are counted against the part's limit too;
 *   3. the XML of every part goes chunk by chunk into one streaming tokenizer (./xml-scan, where
 *      the XML rules live) with limits on rows, cells per row, column index, characters per cell
 *      and shared strings; a document type declaration (DTD / XXE) is refused, and so is any
 *      single node (a text, a tag, a comment) larger than `maxNodeBytes`, so the tokenizer never
 *      buffers more than that, and so is an element nested deeper than `maxXmlDepth`;
 *   4. the work yields to the event loop every few milliseconds, so other requests keep being
 *      answered while a large file is read.
 *
 * Cell values are strings: shared and inline strings (rich text runs joined, phonetic runs left
 * out, `_xHHHH_` escapes decoded), numbers as JavaScript prints them, booleans `true` / `false`,
 * formulas by their cached result, empty cells ''. Rows without any non-empty cell are skipped.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import path from 'node:path/posix';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { XmlError, XmlScanner, type ScanSink } from './xml-scan';
import { MESSAGES } from '../../common/schema/messages';

export type SpreadsheetErrorReason =
  /** not a zip, not a workbook, encrypted, unknown compression, bad path names */
  | 'notXlsx'
  /** declared or actual uncompressed size, compression ratio, entry count, node size, columns */
  | 'tooLarge'
  /** more non-empty rows than `maxRows` */
  | 'tooManyRows'
  /** more cells in one row than `maxCellsPerRow` */
  | 'tooManyCells'
  /** more shared strings than `maxSharedStrings` */
  | 'tooManyStrings'
  /** malformed XML, a DTD, a broken deflate stream */
  | 'parseFailed';

const DEFAULT_MESSAGES: Record<SpreadsheetErrorReason, string> = {
  notXlsx: MESSAGES.notXlsx,
  tooLarge: '文件内容过大',
  tooManyRows: '文件行数过多',
  tooManyCells: '文件内容过大',
  tooManyStrings: '文件内容过大',
  parseFailed: '文件解析失败',
};

export class SpreadsheetError extends Error {
  constructor(
    readonly reason: SpreadsheetErrorReason,
    readonly detail = '',
  ) {
    super(DEFAULT_MESSAGES[reason]);
    this.name = 'SpreadsheetError';
  }
}

export interface SpreadsheetLimits {
  /** entries in the zip's central directory */
  maxEntries: number;
  /** declared uncompressed size of all entries together */
  maxTotalBytes: number;
  /** uncompressed bytes of the worksheet part (declared, then counted while inflating) */
  maxSheetBytes: number;
  /** uncompressed bytes of the shared strings part */
  maxSharedStringsBytes: number;
  /** uncompressed bytes of each small part (workbook.xml, its rels) */
  maxPartBytes: number;
  /** uncompressed / compressed, for entries declaring more than `ratioFloorBytes` */
  maxRatio: number;
  ratioFloorBytes: number;
  /** non-empty rows yielded */
  maxRows: number;
  /** cells (`<c>` elements) in one row */
  maxCellsPerRow: number;
  /** highest column (1-based); Excel's own limit is 16384 (XFD) */
  maxColumns: number;
  /** entries of the shared string table */
  maxSharedStrings: number;
  /** characters of one cell or shared string (Excel's own limit is 32767) */
  maxCellChars: number;
  /** bytes the XML parser may see without completing a node (bounds its internal buffering) */
  maxNodeBytes: number;
  /** elements open at once in a part (bounds the parser's stack; a worksheet needs about 10) */
  maxXmlDepth: number;
  /** continuous work before yielding to the event loop, in ms */
  sliceMs: number;
}

export const DEFAULT_SPREADSHEET_LIMITS: SpreadsheetLimits = {
  maxEntries: 10_000,
  maxTotalBytes: 2 * 1024 * 1024 * 1024,
  maxSheetBytes: 1024 * 1024 * 1024,
  maxSharedStringsBytes: 256 * 1024 * 1024,
  maxPartBytes: 8 * 1024 * 1024,
  maxRatio: 250,
  ratioFloorBytes: 4 * 1024 * 1024,
  maxRows: 1_048_576,
  maxCellsPerRow: 16_384,
  maxColumns: 16_384,
  maxSharedStrings: 2_000_000,
  maxCellChars: 32_767,
  maxNodeBytes: 1024 * 1024,
  maxXmlDepth: 256,
  sliceMs: 10,
};

/**
 * What reading an uploaded import file (signs, templates: 5 MB, a few thousand rows) may cost: far
 * above what such a file unpacks to (5,000 rows of three columns are about 1 MB), far below what
 * would hurt the server.
 */
export const IMPORT_SHEET_LIMITS: Partial<SpreadsheetLimits> = {
  maxEntries: 2000,
  maxTotalBytes: 256 * 1024 * 1024,
  maxSheetBytes: 32 * 1024 * 1024,
  maxSharedStringsBytes: 16 * 1024 * 1024,
  maxSharedStrings: 200_000,
  maxCellsPerRow: 1024,
  maxColumns: 1024,
};

export interface SheetRow {
  /** the row number in the sheet (1-based, as Excel shows it) */
  row: number;
  /** cell texts by column (index 0 is column A); missing cells are '' */
  cells: string[];
}

/** An .xlsx in memory (a bounded upload) or on disk (a spooled upload). */
export type SpreadsheetSource = Buffer | { path: string };

/**
 * The first worksheet's non-empty rows, in order, a batch at a time (the rows of one inflated
 * piece of the sheet, a few thousand): what large files are read with, as awaiting each row
 * costs more than reading it. Throws SpreadsheetError at the first excess or defect; breaking out
 * of the loop early releases everything. A batch belongs to the caller.
 */
export async function* readSheetBatches(
  source: SpreadsheetSource,
  limits: Partial<SpreadsheetLimits> = {},
): AsyncGenerator<SheetRow[], void, undefined> {
  const lim: SpreadsheetLimits = { ...DEFAULT_SPREADSHEET_LIMITS, ...limits };
  const zip = await openZip(source);
  const clock = new Slicer(lim.sliceMs);
  try {
    const entries = await centralDirectory(zip, lim);
    const { sheet, sharedStrings } = await locateParts(zip, entries, lim, clock);
    const strings = sharedStrings ? await readSharedStrings(zip, sharedStrings, lim, clock) : [];
    yield* parseSheet(zip, sheet, strings, lim, clock);
  } finally {
    zip.close();
  }
}

/** The first worksheet's non-empty rows one by one (readSheetBatches for small files). */
export async function* readSheetRows(
  source: SpreadsheetSource,
  limits: Partial<SpreadsheetLimits> = {},
): AsyncGenerator<SheetRow, void, undefined> {
  for await (const batch of readSheetBatches(source, limits)) for (const row of batch) yield row;
}

// ---------------------------------------------------------------- zip

async function openZip(source: SpreadsheetSource): Promise<ZipFile> {
  const opts = {
    lazyEntries: true,
    autoClose: false,
    decodeStrings: true,
    validateEntrySizes: true,
    strictFileNames: true,
  };
  try {
    return Buffer.isBuffer(source)
      ? await yauzl.fromBufferPromise(source, opts)
      : await yauzl.openPromise(source.path, opts);
  } catch (e) {
    throw new SpreadsheetError('notXlsx', (e as Error).message);
  }
}

/** Every entry's metadata, checked before anything is inflated. */
async function centralDirectory(zip: ZipFile, lim: SpreadsheetLimits): Promise<Map<string, Entry>> {
  if (zip.entryCount > lim.maxEntries) throw new SpreadsheetError('tooLarge', `${zip.entryCount} entries`);
  const entries = new Map<string, Entry>();
  let total = 0;
  try {
    for await (const e of zip.eachEntry()) {
      if (entries.size >= lim.maxEntries) throw new SpreadsheetError('tooLarge', 'too many entries');
      total += e.uncompressedSize;
      if (total > lim.maxTotalBytes) throw new SpreadsheetError('tooLarge', 'declared total size');
      if (
        e.uncompressedSize > lim.ratioFloorBytes &&
        e.uncompressedSize / Math.max(1, e.compressedSize) > lim.maxRatio
      ) {
        throw new SpreadsheetError('tooLarge', `compression ratio of ${e.fileName}`);
      }
      if (entries.has(e.fileName)) throw new SpreadsheetError('notXlsx', `duplicate entry ${e.fileName}`);
      entries.set(e.fileName, e);
    }
  } catch (e) {
    if (e instanceof SpreadsheetError) throw e;
    // yauzl: malformed central directory, unsafe file names (absolute, `..`, backslashes)
    throw new SpreadsheetError('notXlsx', (e as Error).message);
  }
  return entries;
}

/** inflated piece size: zlib's default (16 KB) costs three times the CPU on a large sheet */
const INFLATE_CHUNK = 256 * 1024;

/**
 * The inflated bytes of one entry, counted against `max` and against the entry's declared size
 * (more is a part lying about its size: tooLarge; less: parseFailed), as yauzl's
 * validateEntrySizes would; inflated here to choose the piece size.
 */
async function* inflate(zip: ZipFile, entry: Entry, max: number): AsyncGenerator<Buffer> {
  if (entry.isEncrypted() || !entry.canDecodeFileData())
    throw new SpreadsheetError('notXlsx', `cannot decode ${entry.fileName}`);
  if (entry.uncompressedSize > max)
    throw new SpreadsheetError('tooLarge', `${entry.fileName} declares ${entry.uncompressedSize} bytes`);
  let raw: Readable;
  try {
    raw = await zip.openReadStreamPromise(entry, { decodeFileData: false });
  } catch (e) {
    throw new SpreadsheetError('parseFailed', (e as Error).message);
  }
  let stream: Readable = raw;
  if (entry.compressionMethod === 8) {
    const inflater = zlib.createInflateRaw({ chunkSize: INFLATE_CHUNK });
    raw.on('error', (e) => inflater.destroy(e));
    stream = raw.pipe(inflater);
  }
  const declared = entry.uncompressedSize;
  let n = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      n += chunk.length;
      if (n > declared)
        throw new SpreadsheetError('tooLarge', `${entry.fileName}: too many bytes in the stream, declared ${declared}`);
      if (n > max) throw new SpreadsheetError('tooLarge', `${entry.fileName} inflates past ${max} bytes`);
      yield chunk;
    }
    if (n < declared)
      throw new SpreadsheetError(
        'parseFailed',
        `${entry.fileName}: not enough bytes in the stream, declared ${declared}`,
      );
  } catch (e) {
    if (e instanceof SpreadsheetError) throw e;
    // zlib errors, a read error
    throw new SpreadsheetError('parseFailed', (e as Error).message ?? '');
  } finally {
    raw.unpipe();
    raw.destroy();
    stream.destroy();
  }
}

/** Yields to the event loop after `ms` of continuous work. */
class Slicer {
  private since = performance.now();
  constructor(private readonly ms: number) {}
  async maybeYield() {
    if (performance.now() - this.since < this.ms) return;
    await yieldToLoop();
    this.since = performance.now();
  }
}

// ---------------------------------------------------------------- XML plumbing

/**
 * Reads a small part (workbook.xml, its rels) to its end or until `done`: `open` gets the
 * element's vocabulary index and the scanner (for the watched attributes); texts are only checked.
 */
function readPart(
  zip: ZipFile,
  entry: Entry,
  lim: SpreadsheetLimits,
  clock: Slicer,
  vocabulary: readonly string[],
  watch: Readonly<Record<string, readonly string[]>>,
  h: { open(el: number, sc: XmlScanner): void; close?(el: number): void; done?(): boolean },
): Promise<void> {
  const sc: XmlScanner = new XmlScanner(
    { wantsText: false, open: (el) => h.open(el, sc), close: (el) => h.close?.(el), text() {} },
    vocabulary,
    watch,
    lim.maxNodeBytes,
    lim.maxXmlDepth,
  );
  return drain(pump(zip, entry, lim.maxPartBytes, clock, sc, h.done));
}

/** Inflates one entry into the scanner chunk by chunk, yielding after each (and to the event loop when due). */
async function* pump(
  zip: ZipFile,
  entry: Entry,
  max: number,
  clock: Slicer,
  xml: { write(s: string): void; end(): void },
  done?: () => boolean,
): AsyncGenerator<void> {
  const decoder = new TextDecoder('utf-8');
  try {
    for await (const chunk of inflate(zip, entry, max)) {
      xml.write(decoder.decode(chunk, { stream: true }));
      yield;
      if (done?.()) return;
      await clock.maybeYield();
    }
    xml.write(decoder.decode());
    xml.end();
  } catch (e) {
    if (e instanceof XmlError)
      throw new SpreadsheetError(e.kind === 'tooLarge' ? 'tooLarge' : 'parseFailed', `${entry.fileName}: ${e.message}`);
    throw e;
  }
  yield;
}

/** Drives a parse to its end (parts with no rows to hand out). */
async function drain(gen: AsyncGenerator<void>) {
  for await (const _ of gen) {
    /* parse */
  }
}

// ---------------------------------------------------------------- workbook structure

const OFFICE_REL = /\/officeDocument\/2006\/relationships\/(worksheet|sharedStrings)$/;

/** workbook.xml: the first `<sheet>` in `<sheets>`, its relationship id (`r:id`, whatever the prefix) */
const WORKBOOK_ELEMENTS = ['sheets', 'sheet'];
const [WB_SHEETS, WB_SHEET] = [0, 1];
const WORKBOOK_ATTRS = { sheet: ['*:id'] };
const A_SHEET_REL = 0;
/** the workbook's rels: `<Relationship Id Type Target>` */
const RELS_ELEMENTS = ['Relationship'];
const RELATIONSHIP = 0;
const RELS_ATTRS = { Relationship: ['Id', 'Type', 'Target'] };
const [A_REL_ID, A_REL_TYPE, A_REL_TARGET] = [0, 1, 2];

/** The first sheet (workbook order) and the shared strings part, from workbook.xml and its rels. */
async function locateParts(
  zip: ZipFile,
  entries: Map<string, Entry>,
  lim: SpreadsheetLimits,
  clock: Slicer,
): Promise<{ sheet: Entry; sharedStrings?: Entry }> {
  const find = (name: string) =>
    entries.get(name) ?? [...entries.values()].find((e) => e.fileName.toLowerCase() === name.toLowerCase());
  const workbook = find('xl/workbook.xml');
  if (!workbook || !find('[Content_Types].xml')) throw new SpreadsheetError('notXlsx', 'no workbook');

  let firstSheetRel: string | undefined;
  let inSheets = false;
  await readPart(zip, workbook, lim, clock, WORKBOOK_ELEMENTS, WORKBOOK_ATTRS, {
    open(el, sc) {
      if (el === WB_SHEETS) inSheets = true;
      else if (el === WB_SHEET && inSheets && firstSheetRel === undefined)
        firstSheetRel = sc.attrValue(A_SHEET_REL) ?? '';
    },
    close(el) {
      if (el === WB_SHEETS) inSheets = false;
    },
    done: () => firstSheetRel !== undefined,
  });

  const targets = new Map<string, string>();
  let sharedTarget: string | undefined;
  const rels = find('xl/_rels/workbook.xml.rels');
  if (rels) {
    await readPart(zip, rels, lim, clock, RELS_ELEMENTS, RELS_ATTRS, {
      open(el, sc) {
        if (el !== RELATIONSHIP) return;
        const target = sc.attrValue(A_REL_TARGET);
        if (!target) return;
        const id = sc.attrValue(A_REL_ID);
        if (id) targets.set(id, target);
        if (OFFICE_REL.exec(sc.attrValue(A_REL_TYPE) ?? '')?.[1] === 'sharedStrings') sharedTarget = target;
      },
    });
  }
  const resolve = (target: string | undefined) => {
    if (!target) return undefined;
    const p = target.startsWith('/') ? target.slice(1) : path.normalize(path.join('xl', target));
    if (p.startsWith('../') || p.startsWith('/'))
      throw new SpreadsheetError('notXlsx', `part outside the package: ${target}`);
    return find(p);
  };
  const sheet = resolve(firstSheetRel ? targets.get(firstSheetRel) : undefined) ?? find('xl/worksheets/sheet1.xml');
  if (!sheet) throw new SpreadsheetError('notXlsx', 'no worksheet');
  return { sheet, sharedStrings: resolve(sharedTarget) ?? find('xl/sharedStrings.xml') };
}

// ---------------------------------------------------------------- strings

/** OOXML escapes characters XML cannot carry as `_xHHHH_` */
const ESCAPED = /_x([0-9A-Fa-f]{4})_/g;
const unescapeOoxml = (s: string) =>
  s.includes('_x') ? s.replace(ESCAPED, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))) : s;

const SI = 0;
const SI_T = 1;
const SI_RPH = 2;

/** The shared string table: `<si>` entries, their `<t>` texts joined (rich text runs), phonetic runs (`<rPh>`) left out. */
class SharedStringsSink implements ScanSink {
  readonly strings: string[] = [];
  wantsText = false;
  private cur = '';
  private curChars = 0;
  private inSi = false;
  private phonetic = 0;
  constructor(private readonly lim: SpreadsheetLimits) {}

  open(el: number) {
    if (el === SI) {
      this.inSi = true;
      this.cur = '';
      this.curChars = 0;
    } else if (el === SI_T) this.wantsText = this.inSi && this.phonetic === 0;
    else if (el === SI_RPH) this.phonetic++;
  }

  close(el: number) {
    if (el === SI_T) this.wantsText = false;
    else if (el === SI_RPH) this.phonetic--;
    else if (el === SI) {
      this.inSi = false;
      if (this.strings.length >= this.lim.maxSharedStrings) throw new SpreadsheetError('tooManyStrings');
      this.strings.push(unescapeOoxml(this.cur));
    }
  }

  text(t: string) {
    this.curChars += t.length;
    if (this.curChars > this.lim.maxCellChars) throw new SpreadsheetError('tooLarge', 'shared string too long');
    this.cur += t;
  }
}

async function readSharedStrings(zip: ZipFile, entry: Entry, lim: SpreadsheetLimits, clock: Slicer): Promise<string[]> {
  const sink = new SharedStringsSink(lim);
  await drain(
    pump(
      zip,
      entry,
      lim.maxSharedStringsBytes,
      clock,
      new XmlScanner(sink, ['si', 't', 'rPh'], {}, lim.maxNodeBytes, lim.maxXmlDepth),
    ),
  );
  return sink.strings;
}

// ---------------------------------------------------------------- the sheet

/** 1-based column of a cell reference ("B7" -> 2) at s[from, to); 0 when there is none */
function columnAt(s: string, from: number, to: number): number {
  let col = 0;
  for (let i = from; i < to && i < from + 4; i++) {
    const c = s.charCodeAt(i) | 0x20; // lower case
    if (c < 0x61 || c > 0x7a) break;
    col = col * 26 + (c - 0x60);
  }
  return col;
}

/** cell types (the `t` attribute) */
const T_NUMBER = 0; // absent, `n`, or unknown
const T_SHARED = 1; // s
const T_INLINE = 2; // inlineStr
const T_BOOL = 3; // b
const T_TEXT = 4; // str, e, d

function cellType(t: string | undefined): number {
  switch (t) {
    case 's':
      return T_SHARED;
    case 'inlineStr':
      return T_INLINE;
    case 'b':
      return T_BOOL;
    case 'str':
    case 'e':
    case 'd':
      return T_TEXT;
    default:
      return T_NUMBER;
  }
}

/**
 * A number as JavaScript prints it (String(Number(v))). A plain decimal of at most 15 significant
 * digits prints as itself when written the shortest way: no leading zero, no trailing zero in
 * its fraction, not below 1e-6 (printed with an exponent) and not -0; every 15-digit decimal
 * survives the trip through a double (DBL_DIG). Anything else is converted.
 */
function numberText(v: string): string {
  const n = v.length;
  if (n > 0 && n <= 16) {
    let i = v.charCodeAt(0) === 0x2d /* - */ ? 1 : 0;
    const neg = i;
    const intStart = i;
    while (i < n && isDigit(v.charCodeAt(i))) i++;
    const intDigits = i - intStart;
    const zeroInt = intDigits === 1 && v.charCodeAt(intStart) === 0x30;
    if (intDigits > 0 && (zeroInt || v.charCodeAt(intStart) !== 0x30)) {
      if (i === n) {
        if (intDigits <= 15 && !(neg && zeroInt)) return v;
      } else if (v.charCodeAt(i) === 0x2e /* . */ && i + 1 < n) {
        const fracStart = ++i;
        while (i < n && isDigit(v.charCodeAt(i))) i++;
        if (i === n && v.charCodeAt(n - 1) !== 0x30) {
          let significant = (zeroInt ? 0 : intDigits) + (n - fracStart);
          let lead = 0;
          if (zeroInt) while (v.charCodeAt(fracStart + lead) === 0x30) lead++;
          significant -= lead;
          if (significant <= 15 && lead <= 5) return v;
        }
      }
    }
  }
  const x = Number(v);
  return Number.isFinite(x) ? String(x) : v;
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

function cellValue(type: number, v: string, inline: string, strings: string[]): string {
  switch (type) {
    case T_SHARED: {
      if (v.length > 0 && v.length <= 9) {
        let k = 0;
        for (let j = 0; j < v.length && k >= 0; j++) {
          const d = v.charCodeAt(j) - 0x30;
          k = d >= 0 && d <= 9 ? k * 10 + d : -1;
        }
        if (k >= 0) return k < strings.length ? strings[k] : '';
      }
      const i = Number(v);
      return Number.isInteger(i) && i >= 0 && i < strings.length ? strings[i] : '';
    }
    case T_INLINE:
      return unescapeOoxml(inline);
    case T_BOOL:
      return v === '' ? '' : v === '1' || v.toLowerCase() === 'true' ? 'true' : 'false';
    case T_TEXT:
      return v;
    default:
      return v === '' ? '' : numberText(v);
  }
}

/** element vocabulary of the sheet, and the attributes read */
const SHEET_ELEMENTS = ['sheetData', 'row', 'c', 'v', 'is', 't', 'rPh'] as const;
const [SHEET_DATA, ROW, CELL, V, IS, T, RPH] = [0, 1, 2, 3, 4, 5, 6];
const SHEET_ATTRS = { row: ['r'], c: ['r', 't'] };
const A_R = 0;
const A_T = 1;

/** The sheet's rows as the scanner reads them; complete rows wait in `ready`. */
class SheetSink implements ScanSink {
  ready: SheetRow[] = [];
  finished = false;
  wantsText = false;
  scanner!: XmlScanner;
  private rowsOut = 0;
  private inData = false;
  // the current row
  private rowNum = 0;
  private cells: string[] = [];
  private cellCount = 0;
  private nonEmpty = false;
  private nextCol = 1;
  // the current cell
  private inCell = false;
  private type = T_NUMBER;
  private cellCol = 0;
  private v = '';
  private inV = false;
  private inline = '';
  private inIs = false;
  private inT = false;
  private phonetic = 0;

  constructor(
    private readonly strings: string[],
    private readonly lim: SpreadsheetLimits,
  ) {}

  open(el: number) {
    if (!this.inData) {
      if (el === SHEET_DATA) this.inData = true;
      return;
    }
    switch (el) {
      case ROW: {
        const r = this.rowAttr();
        this.rowNum = Number.isInteger(r) && r > 0 ? r : this.rowNum + 1;
        this.cells = [];
        this.cellCount = 0;
        this.nonEmpty = false;
        this.nextCol = 1;
        break;
      }
      case CELL: {
        if (++this.cellCount > this.lim.maxCellsPerRow) throw new SpreadsheetError('tooManyCells');
        const sc = this.scanner;
        let col: number;
        if (sc.attrStart[A_R] < 0) col = 0;
        else if (sc.attrAmp[A_R]) {
          const ref = sc.attrValue(A_R)!;
          col = columnAt(ref, 0, ref.length);
        } else col = columnAt(sc.buf, sc.attrStart[A_R], sc.attrEnd[A_R]);
        this.cellCol = col || this.nextCol;
        if (this.cellCol > this.lim.maxColumns) throw new SpreadsheetError('tooLarge', `column ${this.cellCol}`);
        this.type = this.typeAttr();
        this.inCell = true;
        this.v = '';
        this.inline = '';
        break;
      }
      case V:
        this.inV = this.inCell;
        break;
      case IS:
        this.inIs = this.inCell;
        break;
      case T:
        this.inT = this.inIs && this.phonetic === 0;
        break;
      case RPH:
        this.phonetic++;
        break;
    }
    this.wantsText = this.inV || this.inT;
  }

  close(el: number) {
    if (!this.inData) return;
    switch (el) {
      case V:
        this.inV = false;
        break;
      case T:
        this.inT = false;
        break;
      case RPH:
        this.phonetic--;
        break;
      case IS:
        this.inIs = false;
        break;
      case CELL: {
        this.inCell = false;
        const value = cellValue(this.type, this.v, this.inline, this.strings);
        if (value !== '') {
          const cells = this.cells;
          while (cells.length < this.cellCol - 1) cells.push('');
          cells[this.cellCol - 1] = value;
          this.nonEmpty = true;
        }
        this.nextCol = this.cellCol + 1;
        break;
      }
      case ROW:
        if (this.nonEmpty) {
          if (++this.rowsOut > this.lim.maxRows) throw new SpreadsheetError('tooManyRows');
          const cells = this.cells;
          for (let i = 0; i < cells.length; i++) if (cells[i] === undefined) cells[i] = '';
          this.ready.push({ row: this.rowNum, cells });
        }
        break;
      case SHEET_DATA:
        this.inData = false;
        this.finished = true;
        break;
    }
    this.wantsText = this.inV || this.inT;
  }

  text(t: string) {
    if (this.inV) this.v += t;
    else if (this.inT) this.inline += t;
    else return;
    if (this.v.length + this.inline.length > this.lim.maxCellChars)
      throw new SpreadsheetError('tooLarge', 'cell too long');
  }

  /** the row's `r` as Number() reads it (NaN when absent) */
  private rowAttr(): number {
    const sc = this.scanner;
    const from = sc.attrStart[A_R];
    if (from < 0) return NaN;
    const to = sc.attrEnd[A_R];
    if (!sc.attrAmp[A_R] && to - from > 0 && to - from <= 9) {
      let r = 0;
      let i = from;
      for (; i < to; i++) {
        const c = sc.buf.charCodeAt(i) - 0x30;
        if (c < 0 || c > 9) break;
        r = r * 10 + c;
      }
      if (i === to) return r;
    }
    return Number(sc.attrValue(A_R));
  }

  private typeAttr(): number {
    const sc = this.scanner;
    const from = sc.attrStart[A_T];
    if (from < 0) return T_NUMBER;
    if (!sc.attrAmp[A_T] && sc.attrEnd[A_T] - from === 1) {
      const c = sc.buf.charCodeAt(from);
      if (c === 0x73 /* s */) return T_SHARED;
      if (c === 0x6e /* n */) return T_NUMBER;
    }
    return cellType(sc.attrValue(A_T));
  }
}

async function* parseSheet(
  zip: ZipFile,
  entry: Entry,
  strings: string[],
  lim: SpreadsheetLimits,
  clock: Slicer,
): AsyncGenerator<SheetRow[]> {
  const sink = new SheetSink(strings, lim);
  sink.scanner = new XmlScanner(sink, SHEET_ELEMENTS, SHEET_ATTRS, lim.maxNodeBytes, lim.maxXmlDepth);
  for await (const _ of pump(zip, entry, lim.maxSheetBytes, clock, sink.scanner, () => sink.finished)) {
    if (sink.ready.length) {
      const batch = sink.ready;
      sink.ready = [];
      yield batch;
    }
  }
}

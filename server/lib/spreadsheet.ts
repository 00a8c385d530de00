/**
 * Bounded, streaming .xlsx reading: an async iterator over the first worksheet's rows that never
 * holds a whole workbook in memory and stops at the first excess.
 *
 * How a hostile file is stopped:
 *   1. the zip's central directory is checked before anything is inflated: number of entries,
 *      declared uncompressed size of every part we read and of the whole archive, compression
 *      ratio, encryption / unknown compression, path names (yauzl refuses absolute paths, `..`
 *      and backslashes; we refuse entries in the wrong place);
 *   2. only the parts needed are inflated (workbook.xml, its rels, sharedStrings.xml, the first
 *      worksheet), one at a time, as streams: yauzl fails a part whose actual size differs from its
 *      declared size, and we count the inflated bytes ourselves against the part's limit too;
 *   3. the XML goes chunk by chunk into a streaming tokenizer (./xml-stream) with limits on rows,
 *      cells per row, column index, characters per cell and shared strings; a document type
 *      declaration (DTD / XXE) is refused, and so is any single node (a text, a tag, a comment)
 *      larger than `maxNodeBytes`, so the tokenizer never buffers more than that;
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
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { XmlError, XmlTokenizer } from './xml-stream';
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
 * The first worksheet's non-empty rows, in order. Throws SpreadsheetError at the first excess or
 * defect; breaking out of the loop early releases everything.
 */
export async function* readSheetRows(source: SpreadsheetSource, limits: Partial<SpreadsheetLimits> = {}): AsyncGenerator<SheetRow, void, undefined> {
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

// ---------------------------------------------------------------- zip

async function openZip(source: SpreadsheetSource): Promise<ZipFile> {
  const opts = { lazyEntries: true, autoClose: false, decodeStrings: true, validateEntrySizes: true, strictFileNames: true };
  try {
    return Buffer.isBuffer(source) ? await yauzl.fromBufferPromise(source, opts) : await yauzl.openPromise(source.path, opts);
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
      if (e.uncompressedSize > lim.ratioFloorBytes && e.uncompressedSize / Math.max(1, e.compressedSize) > lim.maxRatio) {
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

/** The inflated bytes of one entry, counted against `max` (besides yauzl's declared-size check). */
async function* inflate(zip: ZipFile, entry: Entry, max: number): AsyncGenerator<Buffer> {
  if (entry.isEncrypted() || !entry.canDecodeFileData()) throw new SpreadsheetError('notXlsx', `cannot decode ${entry.fileName}`);
  if (entry.uncompressedSize > max) throw new SpreadsheetError('tooLarge', `${entry.fileName} declares ${entry.uncompressedSize} bytes`);
  let stream: Readable;
  try {
    stream = await zip.openReadStreamPromise(entry);
  } catch (e) {
    throw new SpreadsheetError('parseFailed', (e as Error).message);
  }
  let n = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      n += chunk.length;
      if (n > max) throw new SpreadsheetError('tooLarge', `${entry.fileName} inflates past ${max} bytes`);
      yield chunk;
    }
  } catch (e) {
    if (e instanceof SpreadsheetError) throw e;
    // yauzl: "too many bytes in the stream" (a part lying about its size), zlib errors
    const msg = (e as Error).message ?? '';
    throw new SpreadsheetError(/too many bytes|too few bytes/.test(msg) ? 'tooLarge' : 'parseFailed', msg);
  } finally {
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

const local = (name: string) => {
  const i = name.indexOf(':');
  return i < 0 ? name : name.slice(i + 1);
};

interface XmlHandlers {
  open(name: string, attrs: Record<string, string>): void;
  close(name: string): void;
  text(t: string): void;
  /** true once the handler has all it needs: the rest of the part is not read */
  done?(): boolean;
}

/**
 * Streams one entry through the XML tokenizer, yielding after each chunk (the rows parsed so far
 * are handed out there); parse errors, a DTD and oversized nodes throw SpreadsheetError.
 */
async function* parseXml(zip: ZipFile, entry: Entry, max: number, lim: SpreadsheetLimits, clock: Slicer, h: XmlHandlers): AsyncGenerator<void> {
  const xml = new XmlTokenizer(
    {
      open: (name, attrs) => h.open(local(name), attrs),
      close: (name) => h.close(local(name)),
      text: (t) => h.text(t),
    },
    lim.maxNodeBytes,
  );
  const decoder = new TextDecoder('utf-8');
  try {
    for await (const chunk of inflate(zip, entry, max)) {
      xml.write(decoder.decode(chunk, { stream: true }));
      yield;
      if (h.done?.()) return;
      await clock.maybeYield();
    }
    xml.write(decoder.decode());
    xml.end();
  } catch (e) {
    if (e instanceof XmlError) throw new SpreadsheetError(e.kind === 'tooLarge' ? 'tooLarge' : 'parseFailed', `${entry.fileName}: ${e.message}`);
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

/** The first sheet (workbook order) and the shared strings part, from workbook.xml and its rels. */
async function locateParts(zip: ZipFile, entries: Map<string, Entry>, lim: SpreadsheetLimits, clock: Slicer): Promise<{ sheet: Entry; sharedStrings?: Entry }> {
  const find = (name: string) => entries.get(name) ?? [...entries.values()].find((e) => e.fileName.toLowerCase() === name.toLowerCase());
  const workbook = find('xl/workbook.xml');
  if (!workbook || !find('[Content_Types].xml')) throw new SpreadsheetError('notXlsx', 'no workbook');

  let firstSheetRel: string | undefined;
  let inSheets = false;
  await drain(
    parseXml(zip, workbook, lim.maxPartBytes, lim, clock, {
      open(name, attrs) {
        if (name === 'sheets') inSheets = true;
        else if (name === 'sheet' && inSheets && firstSheetRel === undefined) {
          const key = Object.keys(attrs).find((k) => k !== 'id' && local(k) === 'id');
          firstSheetRel = key ? attrs[key] : '';
        }
      },
      close(name) {
        if (name === 'sheets') inSheets = false;
      },
      text() {},
      done: () => firstSheetRel !== undefined,
    }),
  );

  const targets = new Map<string, string>();
  let sharedTarget: string | undefined;
  const rels = find('xl/_rels/workbook.xml.rels');
  if (rels) {
    await drain(
      parseXml(zip, rels, lim.maxPartBytes, lim, clock, {
        open(name, attrs) {
          if (name !== 'Relationship' || !attrs.Target) return;
          const kind = OFFICE_REL.exec(attrs.Type ?? '')?.[1];
          if (attrs.Id) targets.set(attrs.Id, attrs.Target);
          if (kind === 'sharedStrings') sharedTarget = attrs.Target;
        },
        close() {},
        text() {},
      }),
    );
  }
  const resolve = (target: string | undefined) => {
    if (!target) return undefined;
    const p = target.startsWith('/') ? target.slice(1) : path.normalize(path.join('xl', target));
    if (p.startsWith('../') || p.startsWith('/')) throw new SpreadsheetError('notXlsx', `part outside the package: ${target}`);
    return find(p);
  };
  const sheet = resolve(firstSheetRel ? targets.get(firstSheetRel) : undefined) ?? find('xl/worksheets/sheet1.xml');
  if (!sheet) throw new SpreadsheetError('notXlsx', 'no worksheet');
  return { sheet, sharedStrings: resolve(sharedTarget) ?? find('xl/sharedStrings.xml') };
}

// ---------------------------------------------------------------- strings

/** OOXML escapes characters XML cannot carry as `_xHHHH_` */
const ESCAPED = /_x([0-9A-Fa-f]{4})_/g;
const unescapeOoxml = (s: string) => (s.includes('_x') ? s.replace(ESCAPED, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))) : s);

async function readSharedStrings(zip: ZipFile, entry: Entry, lim: SpreadsheetLimits, clock: Slicer): Promise<string[]> {
  const strings: string[] = [];
  let cur: string[] = [];
  let curChars = 0;
  let inSi = false;
  let inT = false;
  let phonetic = 0;
  await drain(
    parseXml(zip, entry, lim.maxSharedStringsBytes, lim, clock, {
      open(name) {
        if (name === 'si') {
          inSi = true;
          cur = [];
          curChars = 0;
        } else if (name === 't') inT = inSi && phonetic === 0;
        else if (name === 'rPh') phonetic++;
      },
      close(name) {
        if (name === 't') inT = false;
        else if (name === 'rPh') phonetic--;
        else if (name === 'si') {
          inSi = false;
          if (strings.length >= lim.maxSharedStrings) throw new SpreadsheetError('tooManyStrings');
          strings.push(unescapeOoxml(cur.length === 1 ? cur[0] : cur.join('')));
        }
      },
      text(t) {
        if (!inT) return;
        curChars += t.length;
        if (curChars > lim.maxCellChars) throw new SpreadsheetError('tooLarge', 'shared string too long');
        cur.push(t);
      },
    }),
  );
  return strings;
}

// ---------------------------------------------------------------- the sheet

/** 1-based column of a cell reference ("B7" -> 2); 0 when there is none */
function columnOf(ref: string | undefined): number {
  if (!ref) return 0;
  let col = 0;
  for (let i = 0; i < ref.length && i < 4; i++) {
    const c = ref.charCodeAt(i) | 0x20; // lower case
    if (c < 0x61 || c > 0x7a) break;
    col = col * 26 + (c - 0x60);
  }
  return col;
}

function cellValue(type: string | undefined, v: string, inline: string, strings: string[]): string {
  switch (type) {
    case 's': {
      const i = Number(v);
      return Number.isInteger(i) && i >= 0 && i < strings.length ? strings[i] : '';
    }
    case 'inlineStr':
      return unescapeOoxml(inline);
    case 'b':
      return v === '' ? '' : v === '1' || v.toLowerCase() === 'true' ? 'true' : 'false';
    case 'str':
    case 'e':
    case 'd':
      return v;
    default: {
      if (v === '') return '';
      const n = Number(v);
      return Number.isFinite(n) ? String(n) : v;
    }
  }
}

async function* parseSheet(zip: ZipFile, entry: Entry, strings: string[], lim: SpreadsheetLimits, clock: Slicer): AsyncGenerator<SheetRow> {
  const ready: SheetRow[] = [];
  let rowsOut = 0;
  let inData = false;
  let finished = false;
  // the current row
  let rowNum = 0;
  let cells: string[] = [];
  let cellCount = 0;
  let nonEmpty = false;
  let nextCol = 1;
  // the current cell
  let inCell = false;
  let cellType: string | undefined;
  let cellCol = 0;
  let v = '';
  let inV = false;
  let inline = '';
  let inIs = false;
  let inT = false;
  let phonetic = 0;

  const parts = parseXml(zip, entry, lim.maxSheetBytes, lim, clock, {
    open(name, attrs) {
      if (!inData) {
        if (name === 'sheetData') inData = true;
        return;
      }
      switch (name) {
        case 'row': {
          const r = attrs.r ? Number(attrs.r) : rowNum + 1;
          rowNum = Number.isInteger(r) && r > 0 ? r : rowNum + 1;
          cells = [];
          cellCount = 0;
          nonEmpty = false;
          nextCol = 1;
          break;
        }
        case 'c': {
          if (++cellCount > lim.maxCellsPerRow) throw new SpreadsheetError('tooManyCells');
          cellCol = columnOf(attrs.r) || nextCol;
          if (cellCol > lim.maxColumns) throw new SpreadsheetError('tooLarge', `column ${cellCol}`);
          cellType = attrs.t;
          inCell = true;
          v = '';
          inline = '';
          break;
        }
        case 'v':
          inV = inCell;
          break;
        case 'is':
          inIs = inCell;
          break;
        case 't':
          inT = inIs && phonetic === 0;
          break;
        case 'rPh':
          phonetic++;
          break;
      }
    },
    close(name) {
      if (!inData) return;
      switch (name) {
        case 'v':
          inV = false;
          break;
        case 't':
          inT = false;
          break;
        case 'rPh':
          phonetic--;
          break;
        case 'is':
          inIs = false;
          break;
        case 'c': {
          inCell = false;
          const value = cellValue(cellType, v, inline, strings);
          if (value !== '') {
            while (cells.length < cellCol - 1) cells.push('');
            cells[cellCol - 1] = value;
            nonEmpty = true;
          }
          nextCol = cellCol + 1;
          break;
        }
        case 'row':
          if (nonEmpty) {
            if (++rowsOut > lim.maxRows) throw new SpreadsheetError('tooManyRows');
            for (let i = 0; i < cells.length; i++) if (cells[i] === undefined) cells[i] = '';
            ready.push({ row: rowNum, cells });
          }
          break;
        case 'sheetData':
          inData = false;
          finished = true;
          break;
      }
    },
    text(t) {
      if (inV) v += t;
      else if (inT) inline += t;
      else return;
      if (v.length + inline.length > lim.maxCellChars) throw new SpreadsheetError('tooLarge', 'cell too long');
    },
    done: () => finished,
  });
  for await (const _ of parts) {
    if (ready.length) {
      for (let i = 0; i < ready.length; i++) yield ready[i];
      ready.length = 0;
    }
  }
}

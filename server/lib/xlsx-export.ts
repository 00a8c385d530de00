/**
 * The one way the server writes a spreadsheet export: one sheet, the header row from the entity's
 * field titles (exportColumns), every row through safeRow, ExcelJS's streaming writer so that a
 * large export never sits in memory, and the rows read in keyset pages (newest first) by the
 * service that owns the query.
 */
import { PassThrough, type Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { SchemaRegistry } from '../../common/schema';
import { exportColumns, safeRow, type ExportColumn } from './export-columns';

export interface XlsxSheet {
  /** worksheet name (the console's page title: 签名报备, 黑名单, ...) */
  sheet: string;
  /** the entity whose field titles head the columns ('entities/sign') */
  entity: string;
  columns: ExportColumn[];
  /** the rows, as pages (keysetPages) or one list; each row an object keyed by the columns' keys */
  rows: AsyncIterable<readonly object[]> | Iterable<readonly object[]>;
}

/** Writes the sheet into `out` and resolves with the number of rows once the file is complete. */
export async function writeXlsx(registry: SchemaRegistry, out: Writable, spec: XlsxSheet): Promise<number> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const ws = wb.addWorksheet(spec.sheet);
  ws.columns = exportColumns(registry, spec.entity, spec.columns);
  ws.getRow(1).font = { bold: true };
  let n = 0;
  for await (const page of spec.rows) {
    for (const r of page) {
      ws.addRow(safeRow(r)).commit();
      n++;
    }
  }
  ws.commit();
  await wb.commit();
  return n;
}

/**
 * The sheet as a stream to answer with at once (the rows follow as they are read). A failure
 * while writing is logged under `what` and ends the stream with the error (the client sees a cut
 * download, never a 5xx after the headers).
 */
export function xlsxStream(
  ctx: { schemas: { registry: SchemaRegistry }; log: { error(o: object, msg: string): void } },
  what: string,
  spec: XlsxSheet,
): PassThrough {
  const out = new PassThrough();
  writeXlsx(ctx.schemas.registry, out, spec).catch((err: unknown) => {
    ctx.log.error({ err }, `${what} export failed`);
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  return out;
}

/**
 * Pages of a query read by keyset: `page(after, limit)` answers up to `limit` rows after the
 * position `after` (undefined: from the start), in the query's order; `keyOf` reads the position
 * of a page's last row. Ends at a short page, or once `max` rows were given (the last page cut).
 */
export async function* keysetPages<R, K>(
  page: (after: K | undefined, limit: number) => Promise<R[]>,
  keyOf: (last: R) => K,
  opts: { batch: number; max?: number },
): AsyncGenerator<R[]> {
  const max = opts.max ?? Infinity;
  let after: K | undefined;
  let given = 0;
  for (;;) {
    const rows = await page(after, opts.batch);
    const take = rows.length > max - given ? rows.slice(0, max - given) : rows;
    if (take.length) yield take;
    given += take.length;
    if (rows.length < opts.batch || given >= max) return;
    after = keyOf(rows[rows.length - 1]);
  }
}

/** Rows of every page mapped one by one (numbering rows across pages, labels, ...). */
export async function* mapPages<R, T>(pages: AsyncIterable<R[]>, toRow: (r: R) => T): AsyncGenerator<T[]> {
  for await (const rows of pages) yield rows.map(toRow);
}

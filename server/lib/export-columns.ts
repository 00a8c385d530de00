/**
 * Spreadsheet export columns whose header row is the entity's field titles (schemas/entities/*):
 * a label edited in the schema shows in the export with no code change.
 */
import type { SchemaRegistry } from '../../common/schema';

export interface ExportColumn {
  /** the row property written into the column */
  key: string;
  width: number;
  /** the entity field whose title heads the column, when not `key` (e.g. `status` for `status_str`) */
  field?: string;
}

/** The title of an entity's field ("entities/sign", "sign" -> 签名); throws when the entity has no such field. */
export function fieldTitle(registry: SchemaRegistry, entity: string, name: string): string {
  const f = registry.field(entity, name);
  if (!f) throw new Error(`${entity} has no field ${name}`);
  return f.title;
}

/** ExcelJS `columns` for an entity ("entities/sign"): header = the field's title. */
export function exportColumns(
  registry: SchemaRegistry,
  entity: string,
  columns: ExportColumn[],
): { header: string; key: string; width: number }[] {
  return columns.map((c) => ({ header: fieldTitle(registry, entity, c.field ?? c.key), key: c.key, width: c.width }));
}

/**
 * Spreadsheet formula injection: a cell whose text starts with `=`, `+`, `-`, `@`, a tab or a
 * carriage return may be taken as a formula by a spreadsheet (or when the sheet is saved as CSV and
 * opened again). Such text gets a single quote in front, as spreadsheets expect for text; plain
 * numbers (`-12.50`, `+8613800138000`) and a lone `-` cannot be formulas and are written as they are.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?\d+(?:\.\d+)?$/;

export function safeCell<T>(v: T): T | string {
  // a lone sign ('-' as "none") is no formula either
  return typeof v === 'string' && v.length > 1 && FORMULA_START.test(v) && !PLAIN_NUMBER.test(v) ? `'${v}` : v;
}

/**
 * The row every export writes (`ws.addRow(safeRow(row))`): each string cell passed through
 * `safeCell`. The one place exported cells are written; tests/server/export-cells.test.ts checks
 * that every addRow of the server goes through it.
 */
export function safeRow<T extends object>(row: T): T {
  if (Array.isArray(row)) return row.map((c: unknown) => safeCell(c)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k] = safeCell(v);
  return out as T;
}

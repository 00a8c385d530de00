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
export function exportColumns(registry: SchemaRegistry, entity: string, columns: ExportColumn[]): { header: string; key: string; width: number }[] {
  return columns.map((c) => ({ header: fieldTitle(registry, entity, c.field ?? c.key), key: c.key, width: c.width }));
}

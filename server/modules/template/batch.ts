/**
 * Batch import of templates from Excel (the signs' pattern): one template per row, checked by
 * exactly the rules of a single add; good rows are saved, refused rows are reported with their
 * row number and message. Columns are named by the header row: the template entity's field titles
 * (schemas/entities/template.json, see TEMPLATE_COLUMNS), the same words for the workbook handed out
 * and for the reader, so a title edit changes both together. The file is
 * read as a bounded stream (server/lib/spreadsheet.ts) with the sign import's limits.
 */
import ExcelJS from 'exceljs';
import { IMPORT_SHEET_LIMITS, readSheetRows, SpreadsheetError } from '../../lib/spreadsheet';
import { enumOptionsOf } from './labels';
import { fieldTitle } from '../../lib/export-columns';
import type { ServerSchemas } from '../../schemas';

/** The import's columns: a form field, headed by the entities/template field of the same name's title. */
export const TEMPLATE_COLUMNS: { field: string; enumName?: string; example: string; agentOnly?: boolean }[] = [
  { field: 'clientId', example: 'client1', agentOnly: true },
  { field: 'smsType', enumName: 'template-category', example: '行业' },
  { field: 'smstype', enumName: 'sms-type', example: '验证码' },
  { field: 'templateType', enumName: 'template-type', example: '变量模板' },
  { field: 'business', enumName: 'template-business', example: '国内' },
  { field: 'sign', example: '好易购' },
  { field: 'content', example: '您的验证码为{code}，5分钟内有效，请勿泄露。' },
];

/** What the import needs from the schemas: the enum options (labels) and the column headers (titles). */
export interface TemplateSheetSchemas {
  labels: (enumName: string) => { value: number; label: string }[];
  header: (field: string) => string;
}

export const templateSheetSchemas = (schemas: ServerSchemas): TemplateSheetSchemas => ({
  labels: enumOptionsOf(schemas),
  header: (field) => fieldTitle(schemas.registry, 'entities/template', field),
});

export const MAX_IMPORT_ROWS = 1000;

export interface ImportRow {
  row: number;
  values: Record<string, unknown>;
}

const BAD_FILE = '文件格式不正确，请使用模板文件（xlsx）';

/** A file the spreadsheet reader refused, in this import's words. */
function importMessage(e: SpreadsheetError): string {
  if (e.reason === 'notXlsx' || e.reason === 'parseFailed') return BAD_FILE;
  if (e.reason === 'tooManyRows') return `单次最多导入${MAX_IMPORT_ROWS}条模板`;
  return '文件内容过大';
}

/**
 * Reads the first sheet as a bounded stream (lib/spreadsheet, the sign import's limits); enum
 * columns take the Chinese label or the value. Throws a message on a bad file.
 */
export async function readTemplateSheet(
  buf: Buffer,
  { labels, header: headerOf }: TemplateSheetSchemas,
): Promise<ImportRow[]> {
  const colOf = new Map<string, number>();
  let header = false;
  const rows: ImportRow[] = [];
  try {
    for await (const r of readSheetRows(buf, { ...IMPORT_SHEET_LIMITS, maxRows: MAX_IMPORT_ROWS + 1 })) {
      if (!header) {
        header = true;
        if (r.row === 1) {
          const names = r.cells.map((v) => v.trim());
          for (const c of TEMPLATE_COLUMNS) {
            const i = names.indexOf(headerOf(c.field));
            if (i >= 0) colOf.set(c.field, i);
          }
        }
        if (!colOf.has('content') || !colOf.has('sign')) throw new Error(BAD_FILE);
        if (r.row === 1) continue;
      }
      const values: Record<string, unknown> = {};
      let any = false;
      for (const c of TEMPLATE_COLUMNS) {
        const i = colOf.get(c.field);
        if (i === undefined) continue;
        const text = (r.cells[i] ?? '').trim();
        if (!text) continue;
        any = true;
        if (c.enumName) {
          const opt = labels(c.enumName).find((o) => o.label === text || String(o.value) === text);
          values[c.field] = opt ? opt.value : text;
        } else values[c.field] = text;
      }
      if (any) rows.push({ row: r.row, values });
      if (rows.length > MAX_IMPORT_ROWS) throw new Error(`单次最多导入${MAX_IMPORT_ROWS}条模板`);
    }
  } catch (e) {
    if (e instanceof SpreadsheetError) throw new Error(importMessage(e), { cause: e });
    throw e;
  }
  if (!header) throw new Error(BAD_FILE);
  if (!rows.length) throw new Error('文件中没有数据');
  return rows;
}

/** The import template: headers, one example row, a note. */
export async function templateWorkbook(agent: boolean, { labels, header }: TemplateSheetSchemas): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('短信模板');
  const cols = TEMPLATE_COLUMNS.filter((c) => agent || !c.agentOnly);
  ws.columns = cols.map((c) => ({ header: header(c.field), key: c.field, width: c.field === 'content' ? 60 : 14 }));
  ws.addRow(Object.fromEntries(cols.map((c) => [c.field, c.example])));
  ws.getRow(1).font = { bold: true };
  const notes = wb.addWorksheet('填写说明');
  notes.addRow(['列', '可填写的值']);
  for (const c of cols)
    notes.addRow([
      header(c.field),
      c.enumName
        ? labels(c.enumName)
            .map((o) => o.label)
            .join(' / ')
        : c.field === 'content'
          ? '5-500个字符，变量以 {变量名} 标记，最多30个变量'
          : c.field === 'sign'
            ? '2-12个字符'
            : '本代理商的子账户',
    ]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export { enumOptionsOf };

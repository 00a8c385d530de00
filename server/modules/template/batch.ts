/**
 * Batch import of templates from Excel (the signs' pattern): one template per row, checked by
 * exactly the rules of a single add; good rows are saved, refused rows are reported with their
 * row number and message. Columns are named by the header row (see TEMPLATE_COLUMNS).
 */
import ExcelJS from 'exceljs';
import { enumOptionsOf } from './labels';

/** header -> form field; the first row of the sheet holds these headers */
export const TEMPLATE_COLUMNS: { header: string; field: string; enumName?: string; example: string; agentOnly?: boolean }[] = [
  { header: '子账户', field: 'clientId', example: 'client1', agentOnly: true },
  { header: '模板属性', field: 'smsType', enumName: 'template-category', example: '行业' },
  { header: '短信类型', field: 'smstype', enumName: 'sms-type', example: '验证码' },
  { header: '模板类型', field: 'templateType', enumName: 'template-type', example: '变量模板' },
  { header: '业务类型', field: 'business', enumName: 'template-business', example: '国内' },
  { header: '签名', field: 'sign', example: '好易购' },
  { header: '模板内容', field: 'content', example: '您的验证码为{code}，5分钟内有效，请勿泄露。' },
];

export const MAX_IMPORT_ROWS = 1000;

const cellText = (v: ExcelJS.CellValue): string => {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') {
    if ('richText' in v) return v.richText.map((r) => r.text).join('');
    if ('text' in v) return String(v.text);
    if ('result' in v) return String(v.result ?? '');
  }
  return String(v);
};

export interface ImportRow {
  row: number;
  values: Record<string, unknown>;
}

/** Reads the first sheet; enum columns take the Chinese label or the value. Throws a message on a bad file. */
export async function readTemplateSheet(buf: Buffer, labels: (enumName: string) => { value: number; label: string }[]): Promise<ImportRow[]> {
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(buf as any);
  } catch {
    throw new Error('文件格式不正确，请使用模板文件（xlsx）');
  }
  const ws = wb.worksheets[0];
  if (!ws) throw new Error('文件中没有数据');
  const header = (ws.getRow(1).values as ExcelJS.CellValue[]).map((v) => cellText(v).trim());
  const colOf = new Map<string, number>();
  for (const c of TEMPLATE_COLUMNS) {
    const i = header.indexOf(c.header);
    if (i > 0) colOf.set(c.field, i);
  }
  if (!colOf.has('content') || !colOf.has('sign')) throw new Error('文件格式不正确，请使用模板文件（xlsx）');
  const rows: ImportRow[] = [];
  ws.eachRow((r, n) => {
    if (n === 1) return;
    const values: Record<string, unknown> = {};
    let any = false;
    for (const c of TEMPLATE_COLUMNS) {
      const i = colOf.get(c.field);
      if (!i) continue;
      const text = cellText(r.getCell(i).value).trim();
      if (text) any = true;
      if (!text) continue;
      if (c.enumName) {
        const opt = labels(c.enumName).find((o) => o.label === text || String(o.value) === text);
        values[c.field] = opt ? opt.value : text;
      } else values[c.field] = text;
    }
    if (any) rows.push({ row: n, values });
  });
  if (!rows.length) throw new Error('文件中没有数据');
  if (rows.length > MAX_IMPORT_ROWS) throw new Error(`单次最多导入${MAX_IMPORT_ROWS}条模板`);
  return rows;
}

/** The import template: headers, one example row, a note. */
export async function templateWorkbook(agent: boolean, labels: (enumName: string) => { value: number; label: string }[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('短信模板');
  const cols = TEMPLATE_COLUMNS.filter((c) => agent || !c.agentOnly);
  ws.columns = cols.map((c) => ({ header: c.header, key: c.field, width: c.field === 'content' ? 60 : 14 }));
  ws.addRow(Object.fromEntries(cols.map((c) => [c.field, c.example])));
  ws.getRow(1).font = { bold: true };
  const notes = wb.addWorksheet('填写说明');
  notes.addRow(['列', '可填写的值']);
  for (const c of cols) notes.addRow([c.header, c.enumName ? labels(c.enumName).map((o) => o.label).join(' / ') : c.field === 'content' ? '5-500个字符，变量以 {变量名} 标记，最多30个变量' : c.field === 'sign' ? '2-12个字符' : '本代理商的子账户']);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export { enumOptionsOf };

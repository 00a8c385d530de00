/**
 * File calls of the sign screens: the export (POST, answers an .xlsx or a JSON error) and the
 * batch import (multipart, field `excel`).
 */
import { ApiError, type ApiBody } from '@/providers/http';
import { http, type RawRequestConfig } from '@/providers/httpRaw';
import { fileNameOf, saveBlob } from '@/lib/download';

export const TEMPLATE_URL = '/api/sign/downloadExcelTemplate';
export const IMPORT_FAILURES_URL = '/api/sign/exportImportResult';
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;

export interface ImportResult {
  importSuccess: number;
  importTotal: number;
  importFall: number;
}

export { fileNameOf, saveBlob } from '@/lib/download';

/** POST /sign/export with the list's filters; saves the file, or rejects with the server's answer. */
export async function exportSigns(filters: Record<string, unknown>): Promise<string> {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) if (v !== undefined && v !== null && v !== '') form.append(k, String(v));
  const res = await http.post<Blob>('/sign/export', form, { responseType: 'blob' });
  const type = String(res.headers['content-type'] ?? '');
  if (type.includes('json') || !type.includes('spreadsheet')) {
    let body: ApiBody = { code: -1, msg: '当前无法导出' };
    try {
      body = JSON.parse(await (res.data).text());
    } catch {
      /* keep the default */
    }
    throw new ApiError(body);
  }
  const name = fileNameOf(res.headers['content-disposition'] as string | undefined, '签名报备.xlsx');
  saveBlob(res.data, name);
  return name;
}

/** POST /api/sign/addsignBatch (multipart, field excel). Errors are not toasted: the dialog shows them. */
export async function importSigns(file: File | Blob, name = 'signs.xlsx'): Promise<ImportResult> {
  const form = new FormData();
  form.append('excel', file, (file as File).name ?? name);
  const res = await http.post<ApiBody<ImportResult>>('/sign/addsignBatch', form, { silent: true } as RawRequestConfig);
  return res.data.data as ImportResult;
}

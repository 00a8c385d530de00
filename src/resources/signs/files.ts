/**
 * File calls of the sign screens: the batch import (multipart, field `excel`); the export is the
 * shared ExportButton.
 */
import type { ApiBody } from '@/providers/http';
import { http, type RawRequestConfig } from '@/providers/httpRaw';

export const TEMPLATE_URL = '/api/sign/downloadExcelTemplate';
export const IMPORT_FAILURES_URL = '/api/sign/exportImportResult';
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;

export interface ImportResult {
  importSuccess: number;
  importTotal: number;
  importFall: number;
}

export { fileNameOf, saveBlob } from '@/lib/download';

/** POST /api/sign/addsignBatch (multipart, field excel). Errors are not toasted: the dialog shows them. */
export async function importSigns(file: File | Blob, name = 'signs.xlsx'): Promise<ImportResult> {
  const form = new FormData();
  form.append('excel', file, (file as File).name ?? name);
  const res = await http.post<ApiBody<ImportResult>>('/sign/addsignBatch', form, { silent: true } as RawRequestConfig);
  return res.data.data as ImportResult;
}

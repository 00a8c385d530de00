/** Template calls the resource registry does not cover (saves with their own error display, sub-accounts). */
import { get, postForm, type ApiBody } from '@/providers/http';
import { http, type RawRequestConfig } from '@/providers/httpRaw';
import type { TemplateFormValues } from './validation';

export interface TemplateAccount {
  clientid: string;
  name: string;
}

export const templateAccounts = (agentId?: string) =>
  get<TemplateAccount[]>('/autoTemplate/autoTemplateAccounts', agentId ? { agentId } : {});

/** POST /autoTemplate/add or /autoTemplate/edit; errors are not toasted (the dialog shows them). */
export function saveTemplate(values: TemplateFormValues): Promise<ApiBody> {
  return postForm(values.templateId ? '/autoTemplate/edit' : '/autoTemplate/add', values, { silent: true });
}

export interface ImportResult {
  importTotal: number;
  importSuccess: number;
  importFall: number;
  errors: { row: number; msg: string }[];
}

/** POST /autoTemplate/addBatch (file field `excel`); errors are shown by the dialog. */
export async function importTemplates(file: File | Blob, name = 'templates.xlsx'): Promise<ApiBody<ImportResult>> {
  const form = new FormData();
  form.append('excel', file, name);
  return (await http.post<ApiBody<ImportResult>>('/autoTemplate/addBatch', form, { silent: true } as RawRequestConfig))
    .data;
}

export const TEMPLATE_EXCEL_URL = '/api/autoTemplate/downloadExcelTemplate';

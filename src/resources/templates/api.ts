/** Template calls the resource registry does not cover (saves with their own error display, sub-accounts). */
import { get, postForm, type ApiBody } from '@/providers/http';
import type { TemplateFormValues } from './validation';

export interface TemplateAccount {
  clientid: string;
  name: string;
}

export const templateAccounts = (agentId?: string) => get<TemplateAccount[]>('/autoTemplate/autoTemplateAccounts', agentId ? { agentId } : {});

/** POST /autoTemplate/add or /autoTemplate/edit; errors are not toasted (the dialog shows them). */
export function saveTemplate(values: TemplateFormValues): Promise<ApiBody> {
  return postForm(values.templateId ? '/autoTemplate/edit' : '/autoTemplate/add', values, { silent: true });
}

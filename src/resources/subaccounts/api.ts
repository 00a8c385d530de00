/** Calls of the sub-account area (server/modules/subaccount). Every answer is { code, msg, data }. */
import { get, postForm } from '@/providers/http';
import { http } from '@/providers/httpRaw';
import type { SubAccountStats, TestAccountCreated } from '@/generated/schemas';

/** GET /client/stat (schemas/responses/sub-account-stats.json) */
export type SubAccountStat = SubAccountStats;

export interface TransferResult {
  clientId: string;
  amount: string;
  balance: string;
  agentBalance: string;
}

/** one id per dialog submission: a retried request is applied once by the server */
export const newRequestId = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`;

export const subAccountApi = {
  stat: () => get<SubAccountStat>('/client/stat'),
  detail: (clientId: string) => get('/client/account/detail', { client_id: clientId }),
  freeze: (clientId: string) => postForm('/client/account/freeze', { clientId }),
  unfreeze: (clientId: string) => postForm('/client/account/unfreeze', { clientId }),
  remark: (clientId: string, remarks: string) =>
    postForm('/client/account/remark', { clientId, remarks }, { silent: true }),
  accountInfo: (clientId: string) => postForm('/account/getAccountInfo', { clientId }),
  resetPassword: (p: {
    clientId: string;
    way: 'email' | 'password';
    email?: string;
    password?: string;
    confirmPassword?: string;
  }) => postForm('/client/account/resetPsd', p, { silent: true }),
  validateMobile: (mobile: string) => get('/client/account/validate/mobile', { mobile }, { silent: true }),
  open: (p: Record<string, unknown>) =>
    postForm<{ clientid: string; password: string; mobile: string; email: string }>('/client/account/addUser', p),
  update: (p: Record<string, unknown>) => postForm('/account/updateClient', p),
  recharge: (p: { clientId: string; amount: string; remark?: string; requestId: string }) =>
    postForm<TransferResult>('/client/recharge', p, { silent: true }),
  rollback: (p: { clientId: string; amount: string; remark?: string; requestId: string }) =>
    postForm<TransferResult>('/client/rollback', p, { silent: true }),
  price: (p: Record<string, unknown>) => postForm('/client/price', p, { silent: true }),
  remind: (p: { clientId: string; balanceAlarm: string; alarmMobile?: string }) =>
    postForm('/client/remind', p, { silent: true }),
  expire: (p: { clientId: string; expireDate: string }) => postForm('/client/expire', p),
  loginAs: (clientId: string) => postForm<{ token: string }>('/client/loginAs', { clientId }),
  enterAs: (token: string) => postForm('/client/loginAs/enter', { token }),
  ownLedger: () => get('/client/ledger'),
  indexData: () => get('/index/data'),
  createTestAccount: (p: { name: string; remarks?: string }) =>
    postForm<TestAccountCreated>('/client/account/test/add', p, { silent: true }),
  convertTestAccount: (clientId: string) =>
    postForm<{ clientid: string }>('/client/account/test/convert', { clientId }),
};

/** POSTs a form and saves the .xlsx answer as a download. */
export async function downloadExport(url: string, params: Record<string, unknown>, filename: string) {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') form.append(k, String(v));
  const r = await http.post(url, form, { responseType: 'blob' });
  const blob = r.data as Blob;
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

/**
 * The data of this folder's screens (data resources, endpoints, constants), apart from the screen
 * declarations of ./index.ts: its pages import this module, never ./index.ts, which lazily imports them.
 */
import type { DataResource } from '@/layout/declarations';
import { CertType, OauthStatus } from '@/generated/schemas';

/** 子账户管理 (POST /client/accounts; one: GET /client/account/detail?client_id=) */
export const subAccounts = {
  name: 'subAccounts',
  list: { url: '/client/accounts', method: 'form' },
  one: { url: '/client/account/detail', method: 'get', idParam: 'client_id' },
  idField: 'client_id',
  entity: 'entities/sub-account',
  filter: 'filters/sub-account',
} satisfies DataResource;

/** 客户财务 (POST /recharge/rollback/getAccounts) */
export const subAccountFinance = {
  name: 'subAccountFinance',
  list: { url: '/recharge/rollback/getAccounts', method: 'form' },
  idField: 'client_id',
  entity: 'entities/sub-account',
  filter: 'filters/sub-account-finance',
} satisfies DataResource;

/** spec 01: the agent-auth screen — /customer/manager/:id/info with status 1 (未认证) and type (1 personal, 2 enterprise) */
export const agentAuthPath = (clientId: string, certType: CertType = CertType.Enterprise) =>
  `/customer/manager/${encodeURIComponent(clientId)}/info?status=${OauthStatus.Uncertified}&type=${certType}`;

/** the path of customer_manager_auth: id, and the query status (oauth status) and type (cert type) when given */
export function managerAuthPath(clientId: string, query: { status?: OauthStatus; type?: CertType } = {}): string {
  const q = new URLSearchParams();
  if (query.status !== undefined) q.set('status', String(query.status));
  if (query.type !== undefined) q.set('type', String(query.type));
  const search = q.toString();
  return `/customer/manager/${encodeURIComponent(clientId)}/auth${search ? `?${search}` : ''}`;
}

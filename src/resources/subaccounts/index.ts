/**
 * 客户管理: sub-account manager, self-service opening, detail, customer finance, own balance: the
 * screens and their data, declared here for src/screens.tsx and the data provider. Each page is
 * lazy, so it stays its own chunk; stories and other code import the files directly.
 */
import { lazy } from 'react';
import type { DataResource, Screen, ScreenAlias } from '@/layout/declarations';
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

export const managerScreen: Screen = {
  name: 'service_manager',
  path: '/customer/selfsevicelayout/manager',
  label: '子账户管理',
  page: lazy(() => import('./SubAccountList')),
  access: 'agent',
  menu: 'customer',
  home: true,
  data: [subAccounts],
};
export const openScreen: Screen = {
  name: 'service_open',
  path: '/customer/selfsevicelayout/manager/open',
  label: '自助开户',
  page: lazy(() => import('./OpenAccount')),
  access: 'selfServiceOpening',
  menu: 'customer',
  home: true,
};
/** spec 01: the agent-auth screen — /customer/manager/:id/info with status 1 (未认证) and type (1 personal, 2 enterprise) */
export const agentAuthPath = (clientId: string, certType: CertType = CertType.Enterprise) =>
  `/customer/manager/${encodeURIComponent(clientId)}/info?status=${OauthStatus.Uncertified}&type=${certType}`;
const detailPage = lazy(() => import('./SubAccountDetail'));
export const detailScreen: Screen = {
  name: 'customer_manager',
  path: '/customer/manager/:id/:tab/*',
  label: '子账户详情',
  page: detailPage,
  access: 'agent',
};
/**
 * spec 01's named route customer_manager_auth: the detail's 资质信息 tab (/customer/manager/:id/auth,
 * and auth/re), param id, query status and type (issue 41 item 12). The same page as the detail:
 * `type` (1 personal, 2 enterprise) preselects the certification form's kind.
 */
export const managerAuthScreen: Screen = {
  name: 'customer_manager_auth',
  path: '/customer/manager/:id/auth/*',
  label: '子账户详情',
  page: detailPage,
  access: 'agent',
};
/** the path of customer_manager_auth: id, and the query status (oauth status) and type (cert type) when given */
export function managerAuthPath(clientId: string, query: { status?: OauthStatus; type?: CertType } = {}): string {
  const q = new URLSearchParams();
  if (query.status !== undefined) q.set('status', String(query.status));
  if (query.type !== undefined) q.set('type', String(query.type));
  const search = q.toString();
  return `/customer/manager/${encodeURIComponent(clientId)}/auth${search ? `?${search}` : ''}`;
}
export const financeScreen: Screen = {
  name: 'customer_finance',
  path: '/customer/finance',
  label: '客户财务',
  page: lazy(() => import('./FinanceList')),
  access: 'agent',
  menu: 'customer',
  home: true,
  data: [subAccountFinance],
};
export const ownBalanceScreen: Screen = {
  name: 'own_balance',
  path: '/customer/finance/balance',
  label: '账户余额',
  icon: 'finance',
  page: lazy(() => import('./OwnBalance')),
  access: 'subAccount',
  menu: true,
  home: true,
};

export const screens: Screen[] = [
  managerScreen,
  openScreen,
  managerAuthScreen,
  detailScreen,
  financeScreen,
  ownBalanceScreen,
];

/** parent paths of the spec's routes open their first child */
export const aliases: ScreenAlias[] = [
  { path: '/customer/manager/:id', to: 'info' },
  { path: '/customer/selfsevicelayout', to: '/customer/selfsevicelayout/manager' },
];

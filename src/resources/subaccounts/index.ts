/**
 * 客户管理: sub-account manager, self-service opening, detail, customer finance, own balance: the
 * screens and their data, declared here for src/screens.tsx and the data provider. Each page is
 * lazy, so it stays its own chunk; stories and other code import the files directly.
 */
import { lazy } from 'react';
import type { Screen, ScreenAlias } from '@/layout/declarations';
import { subAccounts, subAccountFinance } from './data';

export * from './data';

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

/**
 * 财务管理: the own bill (/finance/own) and its data, declared here for src/screens.tsx and the
 * data provider. Lazy: the page stays its own chunk.
 */
import { lazy } from 'react';
import type { Screen } from '@/layout/declarations';
import { ownBill, creditHistories } from './data';

export * from './data';

export const ownBillScreen: Screen = {
  name: 'finance_own',
  path: '/finance/own',
  label: '自有账单',
  page: lazy(() => import('./OwnBill')),
  access: 'agent',
  menu: 'finance',
  home: true,
  data: [ownBill, creditHistories],
};

export const screens: Screen[] = [ownBillScreen];

/**
 * 财务管理: the own bill (/finance/own) and its data, declared here for src/screens.tsx and the
 * data provider. Lazy: the page stays its own chunk.
 */
import { lazy } from 'react';
import type { DataResource, Screen } from '@/layout/declarations';

/** 自有账单 (POST /finance/bill/self), docs/api-bills.md */
export const ownBill = {
  name: 'ownBill',
  list: { url: '/finance/bill/self', method: 'form' },
  entity: 'entities/own-bill',
  filter: 'filters/own-bill',
} satisfies DataResource;
/** 额度记录 (GET /finance/creditHistories/list) */
export const creditHistories = {
  name: 'creditHistories',
  list: { url: '/finance/creditHistories/list', method: 'get' },
  entity: 'entities/credit-history',
} satisfies DataResource;

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

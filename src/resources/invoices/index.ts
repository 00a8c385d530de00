/**
 * 财务管理: 发票申请 (/finance/invoice/add) and 发票记录 (/finance/invoice/add/list), with their
 * data, declared here for src/screens.tsx and the data provider. Lazy: each page its own chunk.
 */
import { lazy } from 'react';
import type { Screen, ScreenAlias } from '@/layout/declarations';
import { invoices } from './data';

export * from './data';

export const invoiceApplyScreen: Screen = {
  name: 'finance_invoice_add',
  path: '/finance/invoice/add',
  label: '发票申请',
  page: lazy(() => import('./InvoiceApply')),
  menu: 'finance',
};

export const invoiceListScreen: Screen = {
  name: 'finance_invoice_list',
  path: '/finance/invoice/add/list',
  label: '发票记录',
  page: lazy(() => import('./InvoiceList')),
  menu: 'finance',
  data: [invoices],
};

export const screens: Screen[] = [invoiceApplyScreen, invoiceListScreen];

/** the /finance/invoice parent path opens 发票申请 */
export const aliases: ScreenAlias[] = [{ path: '/finance/invoice', to: '/finance/invoice/add' }];

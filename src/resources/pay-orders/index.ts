/**
 * 支付订单 (/finance/payorder) and its data, declared here for src/screens.tsx and the data
 * provider. Lazy: its own chunk; stories import the file directly.
 */
import { lazy } from 'react';
import type { DataResource, Screen } from '@/layout/declarations';

/** 支付订单 (POST /onlinePay/queryPayOrder, page + rows) */
export const payOrders = {
  name: 'payOrders',
  list: { url: '/onlinePay/queryPayOrder', method: 'form', paging: 'page' },
  idField: 'paymentId',
  entity: 'entities/pay-order',
  filter: 'filters/pay-order',
} satisfies DataResource;

export const payOrderScreen: Screen = {
  name: 'finance_payorder',
  path: '/finance/payorder',
  label: '支付订单',
  page: lazy(() => import('./PayOrderList')),
  access: 'onlineRecharge',
  menu: 'finance',
  data: [payOrders],
};

export const screens: Screen[] = [payOrderScreen];

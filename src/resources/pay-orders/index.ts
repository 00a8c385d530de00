/**
 * 支付订单 (/finance/payorder) and its data, declared here for src/screens.tsx and the data
 * provider. Lazy: its own chunk; stories import the file directly.
 */
import { lazy } from 'react';
import type { Screen } from '@/layout/declarations';
import { payOrders } from './data';

export * from './data';

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

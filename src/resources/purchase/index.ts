/**
 * 购买 and 财务 screens of the purchase area (issue 12) and their data, declared here for
 * src/screens.tsx and the data provider (docs/api-purchase.md). Lazy, each page its own chunk;
 * stories import the files directly.
 */
import { lazy } from 'react';
import type { Screen } from '@/layout/declarations';
import { products, smsBills, rebateBills, purchaseRecords, directPurchaseRecords } from './data';

export * from './data';

export const purchaseTab: Screen = {
  name: 'service_purchase',
  path: 'purchase',
  label: '购买短信',
  page: lazy(() => import('./PurchasePage')),
  data: [products],
};

export const internationalPricesTab: Screen = {
  name: 'service_international',
  path: 'purchase/international',
  label: '国际短信价格',
  page: lazy(() => import('./InternationalPrices')),
};

export const purchaseTabs: Screen = {
  name: 'service_purchaselayout',
  path: '/sms/smspurchaselayout',
  label: '购买短信',
  page: lazy(() => import('./PurchaseTabs')),
  access: 'packageStock',
  menu: 'purchase',
  home: true,
  link: '/sms/smspurchaselayout/purchase',
  index: 'purchase',
  children: [purchaseTab, internationalPricesTab],
};

export const productBuyScreen: Screen = {
  name: 'sms_purchase',
  path: '/sms/purchase/:id',
  label: '产品购买',
  page: lazy(() => import('./ProductBuyPage')),
  access: 'packageStock',
};

/**
 * 剩余条数 in the 购买 menu: the one pools page is /remain (src/custom-pages/reports, the home
 * page's figures open it too); /sms/pools, its older path, opens it.
 */
export const poolScreen: Screen = {
  name: 'purchase_pools',
  path: '/sms/pools',
  label: '剩余条数',
  page: lazy(() => import('./PoolsMoved')),
  access: 'packageStock',
  menu: 'purchase',
  link: '/remain',
};

export const smsBillScreen: Screen = {
  name: 'finance_bill',
  path: '/finance/bill',
  label: '短信账单',
  page: lazy(() => import('./SmsBillList')),
  access: 'packageMode',
  menu: 'finance',
  data: [smsBills],
};

export const rebateBillScreen: Screen = {
  name: 'finance_rebate',
  path: '/finance/rebate',
  label: '返点账单',
  page: lazy(() => import('./RebateBillList')),
  access: 'packageMode',
  menu: 'finance',
  data: [rebateBills],
};

export const purchaseRecordScreen: Screen = {
  name: 'finance_record',
  path: '/finance/record',
  label: '消费记录',
  page: lazy(() => import('./PurchaseRecordList')),
  menu: 'finance',
  data: [purchaseRecords, directPurchaseRecords],
};

export const screens: Screen[] = [
  purchaseTabs,
  productBuyScreen,
  poolScreen,
  smsBillScreen,
  rebateBillScreen,
  purchaseRecordScreen,
];

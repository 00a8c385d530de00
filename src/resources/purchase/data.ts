/**
 * The data of this folder's screens (data resources, endpoints, constants), apart from the screen
 * declarations of ./index.ts: its pages import this module, never ./index.ts, which lazily imports them.
 */
import type { DataResource } from '@/layout/declarations';

/** 购买短信 (POST /sms/products) */
export const products = {
  name: 'products',
  list: { url: '/sms/products', method: 'form' },
  idField: 'product_id',
  entity: 'entities/product',
  filter: 'filters/product',
} satisfies DataResource;

/** 短信账单 (POST /finance/bill/sms) */
export const smsBills = {
  name: 'smsBills',
  list: { url: '/finance/bill/sms', method: 'form' },
  entity: 'entities/sms-bill',
  filter: 'filters/sms-bill',
} satisfies DataResource;

/** 返点账单 (GET /finance/bill/rebate) */
export const rebateBills = {
  name: 'rebateBills',
  list: { url: '/finance/bill/rebate', method: 'get' },
  entity: 'entities/rebate-bill',
  filter: 'filters/rebate-bill',
} satisfies DataResource;

/** 消费记录：套餐模式 (POST /finance/bill/purchaseHistory)、直充模式 (POST /finance/bill/direct/purchaseHistory) */
export const purchaseRecords = {
  name: 'purchaseRecords',
  list: { url: '/finance/bill/purchaseHistory', method: 'form' },
  idField: 'rownum',
  entity: 'entities/purchase-record',
  filter: 'filters/purchase-record',
} satisfies DataResource;

export const directPurchaseRecords = {
  name: 'directPurchaseRecords',
  list: { url: '/finance/bill/direct/purchaseHistory', method: 'form' },
  entity: 'entities/direct-purchase-record',
  filter: 'filters/direct-purchase-record',
} satisfies DataResource;

/**
 * The data of this folder's screens (data resources, endpoints, constants), apart from the screen
 * declarations of ./index.ts: its pages import this module, never ./index.ts, which lazily imports them.
 */
import type { DataResource } from '@/layout/declarations';

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

/**
 * The data of this folder's screens (data resources, endpoints, constants), apart from the screen
 * declarations of ./index.ts: its pages import this module, never ./index.ts, which lazily imports them.
 */
import type { DataResource } from '@/layout/declarations';

/** 支付订单 (POST /onlinePay/queryPayOrder, page + rows) */
export const payOrders = {
  name: 'payOrders',
  list: { url: '/onlinePay/queryPayOrder', method: 'form', paging: 'page' },
  idField: 'paymentId',
  entity: 'entities/pay-order',
  filter: 'filters/pay-order',
} satisfies DataResource;

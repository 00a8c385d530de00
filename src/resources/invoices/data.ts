/**
 * The data of this folder's screens (data resources, endpoints, constants), apart from the screen
 * declarations of ./index.ts: its pages import this module, never ./index.ts, which lazily imports them.
 */
import type { DataResource } from '@/layout/declarations';

/** 发票记录 (POST /invoice/invoiceList, page + rows; one: POST /invoice/invoiceDetailed with id) */
export const invoices = {
  name: 'invoices',
  list: { url: '/invoice/invoiceList', method: 'form', paging: 'page' },
  one: { url: '/invoice/invoiceDetailed', method: 'form', idParam: 'id' },
  entity: 'entities/invoice',
  filter: 'filters/invoice',
} satisfies DataResource;

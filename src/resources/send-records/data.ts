/**
 * The data of this folder's screens (data resources, endpoints, constants), apart from the screen
 * declarations of ./index.ts: its pages import this module, never ./index.ts, which lazily imports them.
 */
import type { DataResource } from '@/layout/declarations';

/** 发送记录 (POST /send/getrecords, page + rows, 10 a page) */
export const sendRecords = {
  name: 'sendRecords',
  list: { url: '/send/getrecords', method: 'form', paging: 'page', pageSize: 10 },
  entity: 'entities/send-record',
  filter: 'filters/send-record',
} satisfies DataResource;

/** 回复记录 (POST /send/getmologs, page + rows) */
export const moRecords = {
  name: 'moRecords',
  list: { url: '/send/getmologs', method: 'form', paging: 'page' },
  entity: 'entities/mo-record',
  filter: 'filters/mo-record',
} satisfies DataResource;

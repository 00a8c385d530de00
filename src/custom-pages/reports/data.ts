/**
 * The data of this folder's screens (data resources, endpoints, constants), apart from the screen
 * declarations of ./index.ts: its pages import this module, never ./index.ts, which lazily imports them.
 */
import type { DataResource } from '@/layout/declarations';

// 消费报表: pre = 子账户(预付费) / 普通短信, suf = 子账户(后付费) / 国际短信
const report = { idField: 'rownum', entity: 'entities/report-row', filter: 'filters/report' } as const;

export const reportsPre = {
  name: 'reportsPre',
  list: { url: '/client/report/consume/pretotal', method: 'form' },
  ...report,
} satisfies DataResource;

export const reportsSuf = {
  name: 'reportsSuf',
  list: { url: '/client/report/consume/suftotal', method: 'form' },
  ...report,
} satisfies DataResource;

/** 日报表 */
export const reportsPreDay = {
  name: 'reportsPreDay',
  list: { url: '/client/report/consume/preday', method: 'get' },
  ...report,
} satisfies DataResource;

export const reportsSufDay = {
  name: 'reportsSufDay',
  list: { url: '/client/report/consume/sufday', method: 'get' },
  ...report,
} satisfies DataResource;

/** 剩余条数 (GET /index/clientsmsdetail, not paged) */
export const remain = {
  name: 'remain',
  list: { url: '/index/clientsmsdetail', method: 'get', paging: 'none' },
  idField: 'rownum',
  entity: 'entities/remain-row',
  filter: 'filters/remain',
} satisfies DataResource;

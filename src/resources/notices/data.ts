/**
 * The data of this folder's screens (data resources, endpoints, constants), apart from the screen
 * declarations of ./index.ts: its pages import this module, never ./index.ts, which lazily imports them.
 */
import type { DataResource } from '@/layout/declarations';

/** 公告: POST /agent/noticePage (page + rows, searchContent), GET /agent/notice/detail?noticeId= */
export const notices = {
  name: 'notices',
  list: { url: '/agent/noticePage', method: 'form', paging: 'page' },
  one: { url: '/agent/notice/detail', method: 'get', idParam: 'noticeId' },
  entity: 'entities/notice',
  filter: 'filters/notice',
} satisfies DataResource;

/** A notice's page: the notice view screen's path (useScreenPath) with the notice's id. */
export const noticeViewPath = (viewPath: string, id: number | string) =>
  `${viewPath}?noticeId=${encodeURIComponent(String(id))}`;

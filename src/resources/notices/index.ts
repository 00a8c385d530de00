/**
 * 公告: list (/notice/notice) and view (/notice/view?noticeId=), with their data, declared here
 * for src/screens.tsx and the data provider. Each page is lazy, so it stays its own chunk; stories
 * and other code import the files directly.
 */
import { lazy } from 'react';
import type { DataResource, Screen } from '@/layout/declarations';

/** 公告: POST /agent/noticePage (page + rows, searchContent), GET /agent/notice/detail?noticeId= */
export const notices = {
  name: 'notices',
  list: { url: '/agent/noticePage', method: 'form', paging: 'page' },
  one: { url: '/agent/notice/detail', method: 'get', idParam: 'noticeId' },
  entity: 'entities/notice',
  filter: 'filters/notice',
} satisfies DataResource;

export const noticeListScreen: Screen = {
  name: 'notice',
  path: '/notice/notice',
  label: '公告',
  icon: 'notice',
  page: lazy(() => import('./NoticeList')),
  menu: true,
  home: true,
  data: [notices],
};
export const noticeViewScreen: Screen = {
  name: 'notice_view',
  path: '/notice/view',
  label: '公告详情',
  icon: 'notice',
  page: lazy(() => import('./NoticeView')),
  data: [notices],
};

/** A notice's page. */
export const noticeViewPath = (id: number | string) =>
  `${noticeViewScreen.path}?noticeId=${encodeURIComponent(String(id))}`;

export const screens: Screen[] = [noticeListScreen, noticeViewScreen];

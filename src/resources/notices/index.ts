/**
 * 公告: list (/notice/notice) and view (/notice/view?noticeId=), with their data, declared here
 * for src/screens.tsx and the data provider. Each page is lazy, so it stays its own chunk; stories
 * and other code import the files directly.
 */
import { lazy } from 'react';
import type { Screen } from '@/layout/declarations';
import { notices } from './data';

export * from './data';

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

export const screens: Screen[] = [noticeListScreen, noticeViewScreen];

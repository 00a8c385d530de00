/**
 * 统计查询: 消费报表, 日报表, 剩余条数 (docs/api-reports.md): the screens and their data, declared
 * here for src/screens.tsx and the data provider. Lazy, each page its own chunk; stories import
 * the files directly.
 */
import { lazy } from 'react';
import type { Screen, ScreenAlias } from '@/layout/declarations';
import { reportsPre, reportsSuf, reportsPreDay, reportsSufDay, remain } from './data';

export * from './data';

const reportData = [reportsPre, reportsSuf];

const ReportPage = lazy(() => import('./ReportPage'));

/** 消费报表, one screen per tab (pre / post) */
export const reportPreScreen: Screen = {
  name: 'statistics_report_pre',
  path: '/customer/deliverlayout/customer/report/pre',
  label: '消费报表',
  icon: 'report',
  page: ReportPage,
  menu: 'records',
  home: true,
  data: reportData,
};

export const reportPostScreen: Screen = {
  name: 'statistics_report_post',
  path: '/customer/deliverlayout/customer/report/post',
  label: '消费报表',
  page: ReportPage,
  data: reportData,
};

export const dailyReportScreen: Screen = {
  name: 'report_daily',
  path: '/customer/report/daily_post',
  label: '日报表',
  page: lazy(() => import('./DailyReportPage')),
  data: [reportsPreDay, reportsSufDay],
};

export const remainScreen: Screen = {
  name: 'remain',
  path: '/remain',
  label: '剩余条数',
  icon: 'finance',
  page: lazy(() => import('./RemainPage')),
  access: 'packageStock',
  home: true,
  link: '/remain?type=0',
  data: [remain],
};

export const screens: Screen[] = [
  reportPreScreen,
  reportPostScreen,
  { name: 'report_pre', path: '/customer/report/pre', label: '消费报表', page: ReportPage, data: reportData },
  dailyReportScreen,
  remainScreen,
];

/**
 * spec 01: customer/report opens its child pre (消费报表); its second entry, post, opens the
 * 消费报表's post tab (issue 41 item 12: /customer/report/post was Not Found)
 */
export const aliases: ScreenAlias[] = [
  { path: '/customer/report', to: '/customer/report/pre' },
  { path: '/customer/report/post', to: reportPostScreen.path },
];

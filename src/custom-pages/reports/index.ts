/**
 * 统计查询: 消费报表, 日报表, 剩余条数 (docs/api-reports.md): the screens and their data, declared
 * here for src/screens.tsx and the data provider. Lazy, each page its own chunk; stories import
 * the files directly.
 */
import { lazy } from 'react';
import type { DataResource, Screen, ScreenAlias } from '@/layout/declarations';

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

const ReportPage = lazy(() => import('./ReportPage'));
const reportData = [reportsPre, reportsSuf];

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
/** the 消费报表 screen of each tab */
export const reportTabScreens = { pre: reportPreScreen, post: reportPostScreen } as const;
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

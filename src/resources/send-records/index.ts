/**
 * 发送记录 (/customer/sendlayout: tabs sendrecord and sendrecord/reply): the screens and their
 * data, declared here for src/screens.tsx and the data provider. Lazy, each page its own chunk;
 * stories import the files directly.
 */
import { lazy } from 'react';
import type { Screen, ScreenAlias } from '@/layout/declarations';
import { sendRecords, moRecords } from './data';

export * from './data';

export const sendRecordTab: Screen = {
  name: 'statistics_sendrecord',
  path: 'sendrecord',
  label: '发送记录',
  page: lazy(() => import('./SendRecordList')),
  data: [sendRecords],
};

export const replyTab: Screen = {
  name: 'statistics_reply',
  path: 'sendrecord/reply',
  label: '回复记录',
  page: lazy(() => import('./ReplyList')),
  data: [moRecords],
};

export const sendRecordTabs: Screen = {
  name: 'statistics_sendlayout',
  path: '/customer/sendlayout',
  label: '发送记录',
  page: lazy(() => import('./SendRecordTabs')),
  menu: 'records',
  home: true,
  link: '/customer/sendlayout/sendrecord',
  index: 'sendrecord',
  children: [sendRecordTab, replyTab],
};

export const screens: Screen[] = [sendRecordTabs];

/** the send records of one task (a task's 详情 links here), from the task's creation day */
export const taskRecordsLink = (uid: string, createTime?: string) =>
  `${sendRecordTabs.link}?${new URLSearchParams({ taskId: uid, ...(createTime ? { beginDate: createTime.slice(0, 10) } : {}) })}`;

/** spec 01: customer/sendrecord (an older name of the send-record list) */
export const aliases: ScreenAlias[] = [{ path: '/customer/sendrecord', to: '/customer/sendlayout/sendrecord' }];

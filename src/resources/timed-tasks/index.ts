/**
 * 定时任务 (/customer/deliverlayout/timingdeliver): the screen and its data, declared here for
 * src/screens.tsx and the data provider (lazy: its own chunk).
 */
import { lazy } from 'react';
import type { DataResource, Screen, ScreenAlias } from '@/layout/declarations';

/** 定时任务 (POST /send/smsTimerSend/list, page + rows) */
export const timedTasks = {
  name: 'timedTasks',
  list: { url: '/send/smsTimerSend/list', method: 'form', paging: 'page' },
  idField: 'taskId',
  entity: 'entities/timed-task',
  filter: 'filters/timed-task',
} satisfies DataResource;

/** 定时任务的号码 (POST /send/getAllPhone/list, page + rows; uid + submitTime as meta params) */
export const timedTaskPhones = {
  name: 'timedTaskPhones',
  list: { url: '/send/getAllPhone/list', method: 'form', paging: 'page' },
  idField: 'phone',
} satisfies DataResource;

export const timedTaskScreen: Screen = {
  name: 'sms_timingdeliver',
  path: '/customer/deliverlayout/timingdeliver',
  label: '定时任务',
  page: lazy(() => import('./TimedTaskList')),
  menu: 'send',
  data: [timedTasks, timedTaskPhones],
};

export const screens: Screen[] = [timedTaskScreen];

/** spec 01: deliverlayout's child timesend/ opens the timed tasks */
export const aliases: ScreenAlias[] = [
  { path: '/customer/deliverlayout/timesend', to: '/customer/deliverlayout/timingdeliver' },
];

/**
 * 定时任务 (/customer/deliverlayout/timingdeliver): the screen and its data, declared here for
 * src/screens.tsx and the data provider (lazy: its own chunk).
 */
import { lazy } from 'react';
import type { Screen, ScreenAlias } from '@/layout/declarations';
import { timedTasks, timedTaskPhones } from './data';

export * from './data';

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

/**
 * 发送任务 (/customer/deliverlayout/smstask): the screen and its data, declared here for
 * src/screens.tsx and the data provider. Lazy, so the page stays its own chunk; stories import
 * the file directly.
 */
import { lazy } from 'react';
import type { Screen } from '@/layout/declarations';
import { sendTasks } from './data';

export * from './data';

export const sendTaskScreen: Screen = {
  name: 'sms_smstask',
  path: '/customer/deliverlayout/smstask',
  label: '发送任务',
  page: lazy(() => import('./SendTaskList')),
  menu: 'send',
  data: [sendTasks],
};

export const screens: Screen[] = [sendTaskScreen];

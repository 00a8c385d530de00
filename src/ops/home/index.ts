/** 工作台 (/ops): the operator console's home: who is logged in, what waits for review, the way to each screen. */
import { lazy } from 'react';
import type { Screen } from '@/layout/declarations';

export const opsHome: Screen = {
  name: 'ops_home',
  path: '/ops',
  label: '工作台',
  icon: 'dashboard',
  access: 'operator',
  menu: true,
  page: lazy(() => import('./OpsHome')),
};

export const screens: Screen[] = [opsHome];

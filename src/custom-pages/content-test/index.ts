/** 内容检测 (/content/test), declared here for src/screens.tsx (lazy: its own chunk). */
import { lazy } from 'react';
import type { Screen } from '@/layout/declarations';

export const contentTestScreen: Screen = {
  name: 'content_test',
  path: '/content/test',
  label: '内容检测',
  icon: 'content',
  page: lazy(() => import('./ContentTestPage')),
  menu: true,
};

export const screens: Screen[] = [contentTestScreen];

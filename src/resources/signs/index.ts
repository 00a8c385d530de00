/**
 * 签名报备 (/template/SignReport): the screen, declared here for src/screens.tsx, with its data
 * (./data.ts, re-exported) for the data provider. The page is lazy, so it stays its own chunk;
 * stories and other code import the files directly. The page reads its schema keys from ./data.ts
 * and its label through useScreen() (never this file, which lazily imports it).
 */
import { lazy } from 'react';
import type { Screen } from '@/layout/declarations';
import { signs } from './data';

export * from './data';

export const signReport: Screen = {
  name: 'template_SignReport',
  path: '/template/SignReport',
  label: '签名报备',
  page: lazy(() => import('./SignList')),
  menu: 'template',
  data: [signs],
};

export const screens: Screen[] = [signReport];

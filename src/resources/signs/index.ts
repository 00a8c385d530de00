/**
 * 签名报备 (/template/SignReport): the screen and its data, declared here for src/screens.tsx and
 * the data provider. The page is lazy, so it stays its own chunk; stories and other code import
 * the files directly. The page reads its label and schema keys from these declarations.
 */
import { lazy } from 'react';
import type { DataResource, Screen } from '@/layout/declarations';
import { SignState } from '@/generated/schemas';

/** The signs: POST /sign/list, add POST /sign/add, delete is POST /sign/update with state 4. */
export const signs = {
  name: 'signs',
  list: { url: '/sign/list', method: 'form' },
  create: { url: '/sign/add' },
  deleteOne: { url: '/sign/update', idParam: 'id', params: { state: SignState.Deleted } },
  entity: 'entities/sign',
  filter: 'filters/sign',
} satisfies DataResource;

export const signReport: Screen = {
  name: 'template_SignReport',
  path: '/template/SignReport',
  label: '签名报备',
  page: lazy(() => import('./SignList')),
  menu: 'template',
  data: [signs],
};

export const screens: Screen[] = [signReport];

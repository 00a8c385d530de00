/**
 * 运营人员 (issue 39, docs/api-operator.md "Operators"): the platform's operators, their roles,
 * second factor and last login (GET /operator/operators/list, unpaged), 新增 (POST
 * /operator/operators/add: the TOTP secret shown once) and 停用 / 启用 (POST
 * /operator/operators/status). 管理员 only (access `operatorAdmin`).
 */
import { lazy } from 'react';
import type { Screen } from '@/layout/declarations';
import { operators } from './data';

export * from './data';

export const operatorsScreen: Screen = {
  name: 'ops_operators',
  path: '/ops/operators',
  label: '运营人员',
  icon: 'operators',
  access: 'operatorAdmin',
  menu: true,
  page: lazy(() => import('./OperatorList')),
  data: [operators],
};

export const screens: Screen[] = [operatorsScreen];

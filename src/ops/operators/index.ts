/**
 * 运营人员 (issue 39, docs/api-operator.md "Operators list"): the platform's operators, their roles,
 * second factor and last login (GET /operator/operators/list, unpaged). 管理员 only (access
 * `operatorAdmin`); operators are added with `npm run cli -- operator-add` for now.
 */
import { lazy } from 'react';
import type { DataResource, Screen } from '@/layout/declarations';

export const operators = {
  name: 'operators',
  list: { url: '/operator/operators/list', method: 'get', paging: 'none' },
  entity: 'entities/operator',
} satisfies DataResource;

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

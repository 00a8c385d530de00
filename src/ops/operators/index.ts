/**
 * 运营人员 (issue 39, docs/api-operator.md "Operators"): the platform's operators, their roles,
 * second factor and last login (GET /operator/operators/list, unpaged), 新增 (POST
 * /operator/operators/add: the TOTP secret shown once) and 停用 / 启用 (POST
 * /operator/operators/status). 管理员 only (access `operatorAdmin`).
 */
import { lazy } from 'react';
import type { DataResource, Screen } from '@/layout/declarations';

export const operators = {
  name: 'operators',
  list: { url: '/operator/operators/list', method: 'get', paging: 'none' },
  entity: 'entities/operator',
} satisfies DataResource;

/** where 新增 and 停用 / 启用 go (POST, JSON) */
export const OPERATOR_ACTIONS = {
  /** forms/operator-add.json, the password as its SHA-256 digest; answers entities/operator-added.json */
  add: '/operator/operators/add',
  /** params/operator-status.json */
  status: '/operator/operators/status',
} as const;

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

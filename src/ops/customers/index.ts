/**
 * 客户 (issue 39, docs/api-operator.md "Customers"): the agents and sub-accounts as the platform's
 * staff see them — the list over POST /operator/customers/list with the filter bar of
 * filters/operator-customer.json (账户/名称/手机/邮箱, 用户类型, 状态, 认证状态, 所属代理商) and
 * the columns of entities/operator-customer.json (balance, certification, a login lock) — and the
 * row actions: 冻结 / 解冻 with a remark, 解除锁定, 重置密码 (mailed), 调整额度 (agents) and 以该账户登录
 * (its reason audited; the account's console opens in this browser, the operator's session ends).
 * 运营 and 管理员 (access `operatorAudit`).
 */
import { lazy } from 'react';
import type { DataResource, Screen } from '@/layout/declarations';

export const operatorCustomers = {
  name: 'operatorCustomers',
  list: { url: '/operator/customers/list', method: 'json' },
  entity: 'entities/operator-customer',
  filter: 'filters/operator-customer',
} satisfies DataResource;

/** where the row actions go (POST, JSON) */
export const CUSTOMER_ACTIONS = {
  freeze: '/operator/customers/freeze',
  unfreeze: '/operator/customers/unfreeze',
  unlock: '/operator/customers/unlock',
  resetPassword: '/operator/customers/reset-password',
  credit: '/operator/customers/credit',
  /** the token of 以该账户登录 (forms/operator-login-as.json), redeemed by the accounts' own POST /client/loginAs/enter */
  loginAs: '/operator/customers/login-as',
  enter: '/client/loginAs/enter',
} as const;

export const customersScreen: Screen = {
  name: 'ops_customers',
  path: '/ops/customers',
  label: '客户',
  icon: 'customer',
  access: 'operatorAudit',
  menu: true,
  home: true,
  page: lazy(() => import('./CustomerList')),
  data: [operatorCustomers],
};

export const screens: Screen[] = [customersScreen];

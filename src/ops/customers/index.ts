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
import type { Screen } from '@/layout/declarations';
import { operatorCustomers } from './data';

export * from './data';

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

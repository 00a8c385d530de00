/**
 * The data of this folder's screens (data resources, endpoints, constants), apart from the screen
 * declarations of ./index.ts: its pages import this module, never ./index.ts, which lazily imports them.
 */
import type { DataResource } from '@/layout/declarations';

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

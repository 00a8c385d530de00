/**
 * Access control by account kind: userType ('1' agent / '2' sub-account) and operation_mode
 * ('0' direct charge / '1' product package), as the spec's roles sections describe.
 * Pure functions: no React, no HTTP. The side menu, the home cards and route guards use them.
 */
import { type CurrentUser, OperationMode, UserType } from '@/generated/schemas';

/** What access rules read of the current user (numbers from a lenient server are accepted). */
export type AccessUser = { userType: CurrentUser['userType'] | string | number; operation_mode: CurrentUser['operation_mode'] | string | number; phone_inout_type?: number | string };

export const isAgent = (u?: AccessUser | null) => String(u?.userType) === UserType.Agent;
export const isSubAccount = (u?: AccessUser | null) => String(u?.userType) === UserType.SubAccount;
export const isPackageMode = (u?: AccessUser | null) => String(u?.operation_mode) === OperationMode.Package;
export const isDirectChargeMode = (u?: AccessUser | null) => String(u?.operation_mode) === OperationMode.DirectCharge;

/** Named visibility rules, so menu entries and route rules are plain data. */
export const rules = {
  /** every logged-in account */
  everyone: (u?: AccessUser | null) => !!u,
  /** agents (userType 1) only */
  agent: (u?: AccessUser | null) => isAgent(u),
  /** sub-accounts / direct customers (userType 2) only */
  subAccount: (u?: AccessUser | null) => isSubAccount(u),
  /** self-service opening of sub-accounts: agent in product-package mode */
  selfServiceOpening: (u?: AccessUser | null) => isAgent(u) && isPackageMode(u),
  /** online recharge on the main layout: agents only (isOpenPay is checked by the feature) */
  onlineRecharge: (u?: AccessUser | null) => isAgent(u),
  /** domestic sending: phone_inout_type 0 or 2; agents see both */
  domesticSending: (u?: AccessUser | null) => isAgent(u) || ['0', '2'].includes(String(u?.phone_inout_type ?? '0')),
  /** international sending: phone_inout_type 1 or 2; agents see both */
  internationalSending: (u?: AccessUser | null) => isAgent(u) || ['1', '2'].includes(String(u?.phone_inout_type)),
} as const;

export type RuleName = keyof typeof rules;
export type Visibility = RuleName | ((u?: AccessUser | null) => boolean);

export function allows(rule: Visibility | undefined, user?: AccessUser | null): boolean {
  if (!user) return false;
  if (!rule) return true;
  return typeof rule === 'function' ? rule(user) : rules[rule](user);
}

/**
 * Route prefixes with a rule of their own (everything else needs only a session).
 * The most specific (longest) matching prefix wins.
 */
export const routeRules: { path: string; rule: Visibility }[] = [
  { path: '/customer/selfsevicelayout/manager/open', rule: 'selfServiceOpening' },
  { path: '/customer/selfsevicelayout', rule: 'agent' },
  { path: '/customer/manager', rule: 'agent' },
  { path: '/customer/finance', rule: 'agent' },
  { path: '/customer/deliverlayout/deliver', rule: 'domesticSending' },
  { path: '/customer/deliverlayout/variablesms', rule: 'domesticSending' },
  { path: '/customer/deliverlayout/internaldeliver', rule: 'internationalSending' },
  { path: '/customer/finance/balance', rule: 'subAccount' },
];

const normalisePath = (p: string) => {
  const path = p.split(/[?#]/)[0].replace(/\/+$/, '');
  return path.startsWith('/') ? path : `/${path}`;
};

/** May this user see this route? */
export function canSee(route: string, user?: AccessUser | null): boolean {
  if (!user) return false;
  const path = normalisePath(route);
  const match = routeRules
    .filter((r) => path === r.path || path.startsWith(`${r.path}/`))
    .sort((a, b) => b.path.length - a.path.length)[0];
  return allows(match?.rule, user);
}

/** A side-menu entry, as data (the menu config lives in src/layout/menu.ts). */
export interface MenuEntry {
  key: string;
  label: string;
  /** icon name (see src/layout/menuIcons.tsx) */
  icon?: string;
  /** route of a leaf entry */
  route?: string;
  /** extra visibility rule; the route's own rule (canSee) always applies too */
  visible?: Visibility;
  children?: MenuEntry[];
}

/** The entries this user sees: rules applied, empty groups dropped. */
export function menuFor(user: AccessUser | null | undefined, entries: MenuEntry[]): MenuEntry[] {
  if (!user) return [];
  const out: MenuEntry[] = [];
  for (const e of entries) {
    if (!allows(e.visible, user)) continue;
    if (e.route && !canSee(e.route, user)) continue;
    if (e.children) {
      const children = menuFor(user, e.children);
      if (children.length === 0) continue;
      out.push({ ...e, children });
    } else {
      out.push(e);
    }
  }
  return out;
}

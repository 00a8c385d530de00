/**
 * Access control by account kind: userType ('1' agent / '2' sub-account), operation_mode
 * ('0' direct charge / '1' product package), phone_inout_type (0 domestic, 1 international,
 * 2 both) and certification status, as the spec's roles sections describe; and, in the operator
 * console (src/ops), by the operator's role (userType '3', role: enums/operator-role.json, issue 39).
 *
 * The rules are named so a screen declares its rule as data (its folder's declaration, `access`). One
 * function, `allowsAll`, decides: Refine's accessControlProvider (the route guard) and the side
 * menu / home quick links all call it. Pure: no React, no HTTP (the provider is handed a loader).
 */
import type { AccessControlProvider } from '@refinedev/core';
import { type CurrentUser, OauthStatus, OperationMode, OperatorRole, PayType, UserType } from '@/generated/schemas';
import { oauthStatusOf } from '@/domain/certification';
import { MESSAGES } from '../../common/schema/messages';
import { allowsDomestic, allowsInternational } from '../../common/send/scope';

/**
 * What access rules read of the current user (numbers from a lenient server are accepted).
 * `oauth_status` is the certification status from the same source as the layout's banner
 * (base info for agents, /client/oauth for sub-accounts); loaded only for rules that need it.
 */
export type AccessUser = {
  userType: CurrentUser['userType'] | string | number;
  /** accounts only */
  operation_mode?: CurrentUser['operation_mode'] | string | number;
  phone_inout_type?: number | string;
  /** enums/paytype.json; a postpaid sub-account is billed from its agent's pools */
  paytype?: number | string | null;
  oauth_status?: unknown;
  /** an operator's role (userType '3'): enums/operator-role.json */
  role?: number | string | null;
};

export const isAgent = (u?: AccessUser | null) => String(u?.userType) === UserType.Agent;
export const isSubAccount = (u?: AccessUser | null) => String(u?.userType) === UserType.SubAccount;
export const isOperator = (u?: AccessUser | null) => String(u?.userType) === UserType.Operator;
/** an operator of one of these roles */
const operatorOf = (u: AccessUser, roles: readonly OperatorRole[]) =>
  isOperator(u) && roles.some((r) => Number(u.role) === r);
export const isPackageMode = (u?: AccessUser | null) => String(u?.operation_mode) === OperationMode.Package;
export const isDirectChargeMode = (u?: AccessUser | null) => String(u?.operation_mode) === OperationMode.DirectCharge;
/** a postpaid sub-account: its sends are charged to its agent's pools (it buys nothing, holds no stock) */
export const isPostpaidSubAccount = (u?: AccessUser | null) =>
  isSubAccount(u) && u?.paytype !== undefined && u?.paytype !== null && Number(u.paytype) === PayType.Postpaid;

/** The roles each operator rule lets in (the server's routes declare the same: server/modules/operator/routes.ts). */
export const OPERATOR_ROLES = {
  operator: [OperatorRole.Reviewer, OperatorRole.Operations, OperatorRole.Admin],
  operatorAudit: [OperatorRole.Operations, OperatorRole.Admin],
  operatorAdmin: [OperatorRole.Admin],
} as const satisfies Record<string, readonly OperatorRole[]>;

/** Named rules, so screens declare their access as plain data. */
export const rules = {
  /** every logged-in account */
  everyone: (u: AccessUser) => !!u,
  /** agents (userType 1) only */
  agent: (u: AccessUser) => isAgent(u),
  /** sub-accounts / direct customers (userType 2) only */
  subAccount: (u: AccessUser) => isSubAccount(u),
  /** self-service opening of sub-accounts: agent in product-package mode */
  selfServiceOpening: (u: AccessUser) => isAgent(u) && isPackageMode(u),
  /** online recharge on the main layout: agents only (isOpenPay is checked by the feature) */
  onlineRecharge: (u: AccessUser) => isAgent(u),
  /** domestic sending: phone_inout_type 0 or 2; agents see both */
  domesticSending: (u: AccessUser) => isAgent(u) || allowsDomestic(u.phone_inout_type),
  /** international sending: phone_inout_type 1 or 2; agents see both */
  internationalSending: (u: AccessUser) => isAgent(u) || allowsInternational(u.phone_inout_type),
  /** buying packages, pools, the SMS and rebate bills: product-package accounts (operation_mode 1) */
  packageMode: (u: AccessUser) => isPackageMode(u),
  /** buying packages and holding pools (购买短信, 剩余条数): package mode, except a postpaid sub-account (billed from its agent's pools) */
  packageStock: (u: AccessUser) => isPackageMode(u) && !isPostpaidSubAccount(u),
  /** re-certification: only after the certification was refused (认证不通过) */
  reCertification: (u: AccessUser) => oauthStatusOf(u.oauth_status) === OauthStatus.Rejected,
  /** the operator console: every operator (审核员, 运营, 管理员) */
  operator: (u: AccessUser) => operatorOf(u, OPERATOR_ROLES.operator),
  /** 审计日志: 运营 and 管理员 */
  operatorAudit: (u: AccessUser) => operatorOf(u, OPERATOR_ROLES.operatorAudit),
  /** 运营人员: 管理员 only */
  operatorAdmin: (u: AccessUser) => operatorOf(u, OPERATOR_ROLES.operatorAdmin),
} as const;

export type RuleName = keyof typeof rules;

/** Rules that read the certification status: the guard loads it only for screens using one. */
export const CERTIFICATION_RULES: ReadonlySet<RuleName> = new Set<RuleName>(['reCertification']);

export const needsCertification = (names: readonly (RuleName | undefined)[]) =>
  names.some((n) => !!n && CERTIFICATION_RULES.has(n));

/** May this user pass every one of these rules? (No user: no.) */
export function allowsAll(names: readonly (RuleName | undefined)[], user?: AccessUser | null): boolean {
  if (!user) return false;
  return names.every((n) => !n || rules[n](user));
}

/** What a refused screen shows, and the reason the access control provider gives. */
export const NO_ACCESS = MESSAGES.forbidden;

/** How an account is billed, when it is not the ordinary prepaid package account: what its home card and balance page say. */
export function billingNote(user?: AccessUser | null): string | undefined {
  if (isPostpaidSubAccount(user)) return MESSAGES.billedPostpaid;
  if (isDirectChargeMode(user)) return MESSAGES.billedDirectCharge;
  return undefined;
}

/**
 * Why this user may not open a screen guarded by these rules, and the screen (by name) where it
 * should go instead: a direct-charge account pays per message from its balance, a postpaid
 * sub-account through its agent.
 */
export function refusalOf(
  names: readonly (RuleName | undefined)[],
  user?: AccessUser | null,
  /** an operator role's label (enums/operator-role.json, from the caller: this module reads no schema) */
  roleLabel: (role: OperatorRole) => string = String,
): { reason: string; go?: string } {
  const failed = names.filter((n): n is RuleName => !!n && !!user && !rules[n](user));
  const first = failed[0];
  if (user && (first === 'packageMode' || first === 'packageStock' || first === 'selfServiceOpening')) {
    if (isPostpaidSubAccount(user)) return { reason: MESSAGES.billedPostpaid, go: 'statistics_report_pre' };
    if (isDirectChargeMode(user))
      return { reason: MESSAGES.billedDirectCharge, go: isAgent(user) ? 'finance_own' : 'own_balance' };
  }
  if (first === 'operatorAudit' || first === 'operatorAdmin')
    return { reason: MESSAGES.refusedOperatorRole.replace('{roles}', OPERATOR_ROLES[first].map(roleLabel).join('、')) };
  if (first === 'agent') return { reason: MESSAGES.refusedAgentOnly };
  if (first === 'subAccount') return { reason: MESSAGES.refusedSubAccountOnly };
  return { reason: MESSAGES.refusedNotForAccount };
}

export interface AccessControlSource {
  /** the rules guarding a screen (its own and its parents'); undefined = not a screen (allowed) */
  rulesOf: (resource: string) => readonly (RuleName | undefined)[] | undefined;
  /** the current user, with the certification status when asked for it */
  loadUser: (opts: { certification: boolean }) => Promise<AccessUser | null | undefined>;
}

/**
 * Refine's accessControlProvider over the screen table: `can({ resource })` where resource is a
 * screen's name. Resources that are not screens (the data provider's) are not restricted here:
 * the server scopes every call to the session's account.
 */
export function createAccessControlProvider({ rulesOf, loadUser }: AccessControlSource): AccessControlProvider {
  return {
    can: async ({ resource }) => {
      const names = resource ? rulesOf(resource) : undefined;
      // not a screen, or a screen for every account (the session is checked before any screen):
      // answered at once, so an unrestricted page does not wait for the user to load
      if (!names || names.every((n) => !n || n === 'everyone')) return { can: true };
      const user = await loadUser({ certification: needsCertification(names) });
      return allowsAll(names, user) ? { can: true } : { can: false, reason: NO_ACCESS };
    },
    options: { buttons: { enableAccessControl: true, hideIfUnauthorized: true } },
  };
}

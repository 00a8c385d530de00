/**
 * What a test account may do (docs/api-subaccounts.md "Test accounts"; the accounts themselves are
 * made and converted by server/modules/subaccount/test-accounts.ts): every send path checks its
 * recipients here, the pages without a recipient check refuse it, recharge and purchase refuse it.
 * Here, below send, purchase and the sub-account area, so that they all read one rule.
 */
import type { AppContext } from '../../context';
import type { Account } from '../../db/types';
import { errors } from '../../http/errors';
import { AccountStatus, OauthStatus, OperationMode, UserType } from '../../../common/generated/schemas';
import { MESSAGES } from '../../../common/schema/messages';

export const TEST_WINDOW_DAYS = 30;

export const TEST_MSG = {
  notAllowed: '当前账户不能创建测试账户（需为已认证的产品包模式代理商）',
  noMobile: '请先在账户信息中填写手机号码，测试账户只能发送到该号码',
  tooMany: (n: number) => `每个代理商${TEST_WINDOW_DAYS}天内最多创建${n}个测试账户`,
  budget: '今日测试账户赠送额度已用完，请明天再试',
  recipients: '测试账户只能发送到代理商本人已验证的手机号码',
  expired: '测试账户已过期，请联系代理商转为正式账户',
  pageNotAllowed: '测试账户只能在短信发送页发送普通短信',
  noRecharge: '测试账户不能充值，请先转为正式账户',
  noPurchase: '测试账户不能购买，请先转为正式账户',
  /** the interfaces (SMPP, HTTP API, the interface password): refused until converted */
  noInterface: '测试账户不能使用接口，请先转为正式账户',
  notTest: '该账户不是测试账户',
  created: MESSAGES.testAccountCreated,
  converted: MESSAGES.testAccountConverted,
} as const;

/** Whether `a` may create a test account now (`canCreateTestAccount` of /index/data). */
export function mayCreateTestAccount(
  a: Pick<Account, 'user_type' | 'operation_mode' | 'oauth_status' | 'status'>,
): boolean {
  return (
    a.user_type === UserType.Agent &&
    a.operation_mode === OperationMode.Package &&
    a.oauth_status === OauthStatus.Certified &&
    a.status === AccountStatus.Active
  );
}

/**
 * Every send path with its recipients (the console's send page, SMPP, the HTTP API): a test account
 * sends only before its end and only to its agent's registered mobile. Ordinary accounts pass at
 * once (no query).
 */
export async function assertTestRecipients(
  ctx: Pick<AppContext, 'db' | 'now'>,
  account: Pick<Account, 'test_expires_at' | 'agent_id'>,
  numbers: Iterable<string>,
): Promise<void> {
  if (!account.test_expires_at) return;
  if (new Date(account.test_expires_at).getTime() <= ctx.now().getTime()) throw errors.refused(TEST_MSG.expired);
  const agent = account.agent_id
    ? await ctx.db.selectFrom('accounts').select('mobile').where('id', '=', account.agent_id).executeTakeFirst()
    : undefined;
  const allowed = new Set([agent?.mobile].filter((m): m is string => !!m));
  for (const n of numbers) {
    const bare = String(n).replace(/^(\+?86)(?=1\d{10}$)/, '');
    if (!allowed.has(bare)) throw errors.refused(TEST_MSG.recipients);
  }
}

/** The send pages without a recipient check of their own (variable, international) refuse a test account. */
export function assertNotTestAccount(account: Pick<Account, 'test_expires_at'>): void {
  if (account.test_expires_at) throw errors.refused(TEST_MSG.pageNotAllowed);
}

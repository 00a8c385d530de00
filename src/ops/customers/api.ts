/**
 * The 客户 row actions (docs/api-operator.md "Customers"): each answers the server's message
 * (冻结成功, 解冻成功, 已解除登录锁定, 新密码已发送至 …, 已记账，当前余额 … 元, 登录成功). The
 * dialogs' calls are silent (their refusal shows in the dialog); the confirmed ones' refusals are
 * toasted.
 */
import { postForm, postJson } from '@/providers/http';
import { sessionKind } from '@/providers/sessionKind';
import type { OperatorCreditForm } from '@/generated/schemas';
import { CUSTOMER_ACTIONS } from './data';

export const customerApi = {
  /** 冻结 / 解冻 with the remark written to the audit log */
  setFrozen: async (clientid: string, freeze: boolean, remark?: string) =>
    (
      await postJson(
        freeze ? CUSTOMER_ACTIONS.freeze : CUSTOMER_ACTIONS.unfreeze,
        { clientid, remark },
        { silent: true },
      )
    ).msg,
  unlock: async (clientid: string) => (await postJson(CUSTOMER_ACTIONS.unlock, { clientid })).msg,
  resetPassword: async (clientid: string) => (await postJson(CUSTOMER_ACTIONS.resetPassword, { clientid })).msg,
  credit: async (v: OperatorCreditForm) => (await postJson(CUSTOMER_ACTIONS.credit, v, { silent: true })).msg,
};

/** where 以该账户登录 goes once the account's session is open: the accounts' console, loaded afresh (stories replace it) */
export const accountConsole = { open: () => window.location.assign('/') };

/**
 * 以该账户登录: a one-time token of the account (the reason audited), redeemed at once in this
 * browser by the accounts' own log-in-as, which opens the account's session and ends this
 * operator's (one kind per browser). The browser's note (providers/sessionKind.ts) then says
 * 'account', so the accounts' console does not send the session back to /ops. Answers the
 * server's message (登录成功); the caller opens the accounts' console.
 */
export async function loginAsAccount(clientid: string, remark: string): Promise<string | undefined> {
  const issued = await postJson<{ token: string; clientid: string }>(
    CUSTOMER_ACTIONS.loginAs,
    { clientid, remark },
    { silent: true },
  );
  const entered = await postForm(CUSTOMER_ACTIONS.enter, { token: issued.data!.token }, { silent: true });
  sessionKind.set('account');
  return entered.msg;
}

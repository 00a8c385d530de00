/**
 * The 客户 row actions (docs/api-operator.md "Customers"): each answers the server's message
 * (冻结成功, 解冻成功, 已解除登录锁定, 新密码已发送至 …, 已记账，当前余额 … 元). The dialogs' calls
 * are silent (their refusal shows in the dialog); the confirmed ones' refusals are toasted.
 */
import { postJson } from '@/providers/http';
import type { OperatorCreditForm } from '@/generated/schemas';
import { CUSTOMER_ACTIONS } from '.';

export const customerApi = {
  /** 冻结 / 解冻 with the remark written to the audit log */
  setFrozen: async (clientid: string, freeze: boolean, remark?: string) =>
    (await postJson(freeze ? CUSTOMER_ACTIONS.freeze : CUSTOMER_ACTIONS.unfreeze, { clientid, remark }, { silent: true })).msg,
  unlock: async (clientid: string) => (await postJson(CUSTOMER_ACTIONS.unlock, { clientid })).msg,
  resetPassword: async (clientid: string) => (await postJson(CUSTOMER_ACTIONS.resetPassword, { clientid })).msg,
  credit: async (v: OperatorCreditForm) => (await postJson(CUSTOMER_ACTIONS.credit, v, { silent: true })).msg,
};

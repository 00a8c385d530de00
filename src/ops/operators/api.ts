/** 运营人员's calls (docs/api-operator.md "Operators"): each answers the server's message (新增成功, 状态已更新) or refuses with it. */
import { postJson } from '@/providers/http';
import type { OperatorAddForm, OperatorAdded, OperatorStatus } from '@/generated/schemas';
import { OPERATOR_ACTIONS } from './data';

export const operatorApi = {
  /** the password already digested (as at login); the dialog shows a refusal itself */
  add: async (v: OperatorAddForm) => {
    const r = await postJson<OperatorAdded>(OPERATOR_ACTIONS.add, v, { silent: true });
    return { added: r.data!, msg: r.msg };
  },
  /** a refusal (不能停用自己) is toasted */
  setStatus: async (id: number, status: OperatorStatus) =>
    (await postJson(OPERATOR_ACTIONS.status, { id, status })).msg,
};

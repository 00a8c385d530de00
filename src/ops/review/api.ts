/** The review decisions (docs/api-operator.md "Review"): each answers the server's message (已通过, 已驳回, 状态已变更, 已审核（who）). */
import { postJson } from '@/providers/http';
import type { InvoiceStatusForm } from '@/generated/schemas';
import type { ReviewResource } from './data';

export const reviewApi = {
  /** 通过: refusals are toasted (a 409 when another operator took it first) */
  approve: async (r: ReviewResource, id: number) => (await postJson(r.decide, { id, approve: true })).msg,
  /** 驳回 with the reason the account sees: refusals are the dialog's to show */
  reject: async (r: ReviewResource, id: number, reason: string) =>
    (await postJson(r.decide, { id, approve: false, reason }, { silent: true })).msg,
  /** an invoice's next status (the reason, the express company and number when that status needs them) */
  invoiceStatus: async (r: ReviewResource, id: number, v: InvoiceStatusForm) =>
    (await postJson(r.decide, { id, ...v }, { silent: true })).msg,
};

/** Calls of the purchase screens (docs/api-purchase.md). */
import { get, postForm, postJson } from '@/providers/http';
import type { Product, SmsBillFigures } from '@/generated/schemas';

/** GET /finance/bill/sms/data (schemas/responses/sms-bill-figures.json) */
export type BillData = SmsBillFigures;

export interface PurchaseResult {
  orderId: string;
  total: string;
  rebate: string;
  paid: string;
  balance: string;
  rebateUseable: string;
}

/** a request id per submit: a retried request is charged once */
export const newRequestId = () => `buy-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

export const purchaseApi = {
  billData: () => get<BillData>('/finance/bill/sms/data'),
  product: async (id: number): Promise<Product | undefined> =>
    ((await postForm<{ list: Product[] }>('/sms/products', { product_id: id })).data?.list ?? [])[0],
  buyOne: (productId: number, num: number, useRebate = true) =>
    postForm<PurchaseResult>('/sms/order/add', {
      product_id: productId,
      num: String(num),
      requestId: newRequestId(),
      useRebate: String(useRebate),
    }),
  buyMany: (lines: { productId: number; purchaseNum: number }[], useRebate = true) =>
    postJson<PurchaseResult>('/sms/order/jsmsAdd', { list: lines, requestId: newRequestId(), useRebate }),
};

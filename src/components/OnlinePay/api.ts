/** The online-recharge calls (docs/api-pay.md). */
import { useQuery } from '@tanstack/react-query';
import type { PayOrder } from '@/generated/schemas';
import { get, postForm } from '@/providers/http';

export interface OnlinePayConfig {
  isOpenPay: 0 | 1;
  orderTtlSeconds: number;
  minAmount: string;
  maxAmount: string;
  sandbox: Record<string, boolean>;
}

export const PAY_CONFIG_KEY = ['console', 'onlinePay', 'config'] as const;

/** GET /onlinePay/config (isOpenPay), once per session */
export function useOnlinePayConfig(enabled = true) {
  return useQuery({
    queryKey: PAY_CONFIG_KEY,
    queryFn: async () => (await get<OnlinePayConfig>('/onlinePay/config', undefined, { silent: true })).data ?? null,
    enabled,
    staleTime: Infinity,
    retry: false,
  });
}

export const createPay = async (amount: string, paymentMode: number) =>
  (await postForm<PayOrder>('/onlinePay/createPay', { amount, paymentMode }, { silent: true })).data!;
export const payStatus = async (paymentId: string) =>
  (await postForm<PayOrder>('/onlinePay/payStatus', { paymentId }, { silent: true })).data!;
export const cancelPay = async (paymentId: string) => (await postForm('/onlinePay/cancelPay', { paymentId })).msg;

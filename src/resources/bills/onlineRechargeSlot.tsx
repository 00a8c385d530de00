/**
 * The online-recharge button of /finance/own: the layout's 在线充值 (src/components/OnlinePay), shown
 * beside the balance cards under the same rules (agents, isOpenPay = 1); the page reloads the balance
 * and the bill when a payment succeeds (`onDone`).
 */
import type { ComponentType } from 'react';
import { RechargeButton } from '@/components/OnlinePay';
import { useCurrentUser } from '@/layout/hooks';

export type OnlineRechargeSlotComponent = ComponentType<{ onDone?: () => void }>;

function OwnBillRecharge({ onDone }: { onDone?: () => void }) {
  const { user } = useCurrentUser();
  return <RechargeButton user={user} type="default" onPaid={() => onDone?.()} />;
}

export const OnlineRechargeSlot: OnlineRechargeSlotComponent | null = OwnBillRecharge;

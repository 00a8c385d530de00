/**
 * INTEGRATION SLOT — the online-recharge button of /finance/own.
 *
 * The online-payment work exports its recharge button / dialog from src/components/OnlinePay/.
 * When it is merged, set it here, e.g.
 *   import { OnlineRechargeButton } from '@/components/OnlinePay';
 *   export const OnlineRechargeSlot: OnlineRechargeSlotComponent | null = OnlineRechargeButton;
 * The own-bill page renders it beside the balance cards (only when set) and reloads the balance and
 * the bill when it reports a payment (`onDone`). Until then nothing is rendered.
 */
import type { ComponentType } from 'react';

export type OnlineRechargeSlotComponent = ComponentType<{ onDone?: () => void }>;

export const OnlineRechargeSlot: OnlineRechargeSlotComponent | null = null;

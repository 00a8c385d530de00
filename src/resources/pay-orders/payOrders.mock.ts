/** Story rows of the pay orders beside payApi's open one (stories only; the app never imports this). */
import type { PayOrder, PayOrderState } from '@/generated/schemas';
import { payOrder } from '@/stories/payApi';

/** order `paymentId` once closed in `paymentState` (paid, cancelled): no countdown, no QR code, its state's label */
export const closedOrder = (paymentId: string, paymentState: PayOrderState, o: Partial<PayOrder> = {}) =>
  payOrder({ paymentId, paymentState, countDownStr: '', qrCode: '', ...o });

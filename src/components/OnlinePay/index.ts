export {
  PayDialog,
  RechargeButton,
  RechargeDialog,
  isOpenOrder,
  isPaid,
  type PayDialogProps,
  type RechargeButtonProps,
  type RechargeDialogProps,
} from './OnlinePay';
export { cancelPay, createPay, payStatus, useOnlinePayConfig, PAY_CONFIG_KEY, type OnlinePayConfig } from './api';
export { formatCountdown, payOrderDisabledDate, secondsLeft, useNow, PAY_ORDER_PICKER_OFFSET_MS } from './countdown';

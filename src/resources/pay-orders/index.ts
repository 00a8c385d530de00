/** 支付订单 (/finance/payorder), for src/screens.tsx. Lazy: its own chunk; stories import the file directly. */
import { lazy } from 'react';

export const PayOrderList = lazy(() => import('./PayOrderList'));

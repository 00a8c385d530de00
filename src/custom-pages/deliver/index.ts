/** 普通短信发送 (/customer/deliverlayout/deliver, route sms_deliver), for src/screens.tsx (lazy: its own chunk). */
import { lazy } from 'react';

export const DeliverPage = lazy(() => import('./DeliverPage'));

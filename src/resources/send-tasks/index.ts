/**
 * 发送任务 (/customer/deliverlayout/smstask), for src/screens.tsx. Lazy, so the page stays its own
 * chunk; stories import the file directly.
 */
import { lazy } from 'react';

export const SendTaskList = lazy(() => import('./SendTaskList'));

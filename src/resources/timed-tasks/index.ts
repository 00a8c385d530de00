/** 定时任务 (/customer/deliverlayout/timingdeliver), for src/screens.tsx (lazy: its own chunk). */
import { lazy } from 'react';

export const TimedTaskList = lazy(() => import('./TimedTaskList'));

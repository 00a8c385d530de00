/** 变量短信发送 and 国际短信发送, for src/screens.tsx (lazy: their own chunks). */
import { lazy } from 'react';

export const VariablePage = lazy(() => import('./VariablePage'));
export const InternationalPage = lazy(() => import('./InternationalPage'));

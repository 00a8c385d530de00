/** The three send pages (普通短信发送, 变量短信发送, 国际短信发送), for src/screens.tsx (lazy: their own chunks). */
import { lazy } from 'react';

export const DeliverPage = lazy(() => import('./DeliverPage'));
export const VariablePage = lazy(() => import('./VariablePage'));
export const InternationalPage = lazy(() => import('./InternationalPage'));

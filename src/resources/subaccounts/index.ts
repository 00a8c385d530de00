/**
 * 客户管理 pages: sub-account manager, self-service opening, detail, customer finance, own
 * balance, for src/screens.tsx. Each page is lazy, so it stays its own chunk; stories and other
 * code import the files directly.
 */
import { lazy } from 'react';

export const SubAccountList = lazy(() => import('./SubAccountList'));
export const OpenAccount = lazy(() => import('./OpenAccount'));
export const SubAccountDetail = lazy(() => import('./SubAccountDetail'));
export const FinanceList = lazy(() => import('./FinanceList'));
export const OwnBalance = lazy(() => import('./OwnBalance'));

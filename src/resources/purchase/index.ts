/**
 * 购买 and 财务 screens of the purchase area (issue 12), for src/screens.tsx. Lazy, each page its
 * own chunk; stories import the files directly.
 */
import { lazy } from 'react';

export const PurchaseTabs = lazy(() => import('./PurchaseTabs'));
export const PurchasePage = lazy(() => import('./PurchasePage'));
export const ProductBuyPage = lazy(() => import('./ProductBuyPage'));
export const InternationalPrices = lazy(() => import('./InternationalPrices'));
export const PoolList = lazy(() => import('./PoolList'));
export const SmsBillList = lazy(() => import('./SmsBillList'));
export const RebateBillList = lazy(() => import('./RebateBillList'));
export const PurchaseRecordList = lazy(() => import('./PurchaseRecordList'));

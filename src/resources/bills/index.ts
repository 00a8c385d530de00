/** 财务管理 pages of the own bill, for src/screens.tsx. Lazy: each page stays its own chunk. */
import { lazy } from 'react';

export const OwnBill = lazy(() => import('./OwnBill'));

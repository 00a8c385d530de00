import { lazy } from 'react';

export const InvoiceApply = lazy(() => import('./InvoiceApply'));
export const InvoiceList = lazy(() => import('./InvoiceList'));

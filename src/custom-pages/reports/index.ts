import { lazy } from 'react';

export const ReportPage = lazy(() => import('./ReportPage'));
export const DailyReportPage = lazy(() => import('./DailyReportPage'));
export const RemainPage = lazy(() => import('./RemainPage'));

/** 帮助中心 pages: document downloads, FAQ, for src/screens.tsx (lazy: each its own chunk). */
import { lazy } from 'react';

export const HelpDocumentPage = lazy(() => import('./HelpDocumentPage'));
export const FaqPage = lazy(() => import('./FaqPage'));

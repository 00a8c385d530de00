/** 内容检测 page, for src/screens.tsx (lazy: its own chunk). */
import { lazy } from 'react';

export const ContentTestPage = lazy(() => import('./ContentTestPage'));

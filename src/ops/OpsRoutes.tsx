/**
 * The operator console's routes (/ops/*), loaded as their own chunk (App.tsx): the operators'
 * screen table (./screens.tsx) routed inside its layout route (OpsRoot: Refine with the operators'
 * auth provider, the session check, the shell, the route guard), and Not Found. The accounts'
 * console (src/ConsoleRoutes) and its table are another chunk: neither loads the other.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { PageLoading } from '@/pages/PageLoading';
import { routeElements, ScreensProvider, type ScreenTable } from '@/layout/screens';
import { opsScreens } from './screens';

const OpsRoot = lazy(() => import('./OpsRoot'));
const NotFound = lazy(() => import('@/pages/NotFound'));

const page = (el: ReactNode) => <Suspense fallback={<PageLoading />}>{el}</Suspense>;

export default function OpsRoutes({ screens = opsScreens }: { screens?: ScreenTable }) {
  return (
    <ScreensProvider value={screens}>
      <Routes>
        <Route element={page(<OpsRoot />)}>
          {routeElements(screens)}
          <Route path="*" element={page(<NotFound home={screens.home} />)} />
        </Route>
      </Routes>
    </ScreensProvider>
  );
}

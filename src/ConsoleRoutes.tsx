/**
 * The console's routes, loaded as their own chunk (App.tsx routes every path but the public
 * pages here): the screen table (src/screens.tsx, with every folder's declarations), its routes
 * inside the console's layout route (ConsoleRoot: session check, shell, route guard), and Not
 * Found. Kept out of the app's entry so /login does not carry the table. It sits beside the table
 * (as ops/OpsRoutes sits beside ops/screens.tsx), not in layout/: the layout machinery imports no
 * table, and the pages that use it are not imported back by it.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { consoleScreens } from '@/screens';
import { PageLoading } from '@/pages/PageLoading';
import { routeElements, ScreensProvider, type ScreenTable } from '@/layout/screens';

const ConsoleRoot = lazy(() => import('@/layout/ConsoleRoot'));
const NotFound = lazy(() => import('@/pages/NotFound'));

const page = (el: ReactNode) => <Suspense fallback={<PageLoading />}>{el}</Suspense>;

export default function ConsoleRoutes({ screens = consoleScreens }: { screens?: ScreenTable }) {
  return (
    <ScreensProvider value={screens}>
      <Routes>
        <Route element={page(<ConsoleRoot />)}>
          {routeElements(screens)}
          <Route path="*" element={page(<NotFound />)} />
        </Route>
      </Routes>
    </ScreensProvider>
  );
}

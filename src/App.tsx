/**
 * Routes of the console. Public: /login, /register, /forget. Every other screen is declared once
 * in src/screens.tsx and routed here from that table, inside the console layout route
 * (layout/ConsoleRoot: session check, shell, route guard). An unknown path shows Not Found: in the
 * shell for a logged-in user, alone otherwise.
 *
 * Every page is its own chunk (React.lazy) and Refine is mounted only around the protected
 * routes (layout/ConsoleRoot), so /login loads React, the router and antd, nothing more.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { AppProviders } from './providers/AppProviders';
import { HttpErrorToasts } from './providers/HttpErrorToasts';
import { PageLoading } from './pages/PageLoading';
import { routeElements, ScreensProvider, type ScreenTable } from './layout/screens';
import { consoleScreens } from './screens';

const LoginPage = lazy(() => import('./custom-pages/login/LoginPage'));
const RegisterPage = lazy(() => import('./custom-pages/register/RegisterPage'));
const ForgetPage = lazy(() => import('./custom-pages/forget/ForgetPage'));
const ConsoleRoot = lazy(() => import('./layout/ConsoleRoot'));
const NotFound = lazy(() => import('./pages/NotFound'));

const page = (el: ReactNode) => <Suspense fallback={<PageLoading />}>{el}</Suspense>;

export interface AppRoutesProps {
  /** the screen table (default: the console's, src/screens.tsx; tests pass their own) */
  screens?: ScreenTable;
}

export function AppRoutes({ screens = consoleScreens }: AppRoutesProps) {
  return (
    <ScreensProvider value={screens}>
      <Routes>
        <Route path="/login" element={page(<LoginPage />)} />
        <Route path="/register" element={page(<RegisterPage />)} />
        <Route path="/forget" element={page(<ForgetPage />)} />
        <Route element={page(<ConsoleRoot />)}>
          {routeElements(screens)}
          <Route path="*" element={page(<NotFound />)} />
        </Route>
      </Routes>
    </ScreensProvider>
  );
}

export default function App() {
  return (
    <BrowserRouter>
      <AppProviders>
        <HttpErrorToasts />
        <AppRoutes />
      </AppProviders>
    </BrowserRouter>
  );
}

/**
 * Routes of the console. Public: /login, /register, /forget. Every other path goes to the
 * console's routes (layout/ConsoleRoutes, its own chunk): each screen is declared once in
 * src/screens.tsx and routed there from that table, inside the console layout route
 * (layout/ConsoleRoot: session check, shell, route guard). An unknown path shows Not Found: in the
 * shell for a logged-in user, alone otherwise.
 *
 * Every page is its own chunk (React.lazy) and Refine is mounted only around the protected
 * routes (layout/ConsoleRoot), so /login loads React, the router and antd, nothing more. antd's
 * App (message / modal hooks, the toasts of failed calls) is a lazy layout route around every
 * other page (providers/AntAppLayer); /login fetches its toasts once it shows.
 * bench/login-bundle.ts (npm run test:e2e) holds /login to its budget.
 */
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { BrowserRouter, Route, Routes, useLocation } from 'react-router';
import { PageErrorBoundary } from './components/PageErrorBoundary';
import { AppText, BaseProviders } from './providers/BaseProviders';
import { PageLoading } from './pages/PageLoading';
import type { ScreenTable } from './layout/declarations';

const LoginPage = lazy(() => import('./custom-pages/login/LoginPage'));
const RegisterPage = lazy(() => import('./custom-pages/register/RegisterPage'));
const ForgetPage = lazy(() => import('./custom-pages/forget/ForgetPage'));
const ConsoleRoutes = lazy(() => import('./layout/ConsoleRoutes'));
const AntAppLayer = lazy(() => import('./providers/AntAppLayer'));
const ToastsOnly = lazy(() => import('./providers/AntAppLayer').then((m) => ({ default: m.ToastsOnly })));

/** A page's chunk that fails to load (or a page that throws) shows why, with a reload: never a blank page. */
function PageBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <PageErrorBoundary resetKey={pathname}>{children}</PageErrorBoundary>;
}

const page = (el: ReactNode) => (
  <PageBoundary>
    <Suspense fallback={<PageLoading />}>{el}</Suspense>
  </PageBoundary>
);

/** The toasts of failed calls, fetched after the page beside it has shown. */
function LaterToasts() {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setShown(true), 0);
    return () => clearTimeout(t);
  }, []);
  return shown ? (
    <Suspense fallback={null}>
      <ToastsOnly />
    </Suspense>
  ) : null;
}

export interface AppRoutesProps {
  /** the screen table (default: the console's, src/screens.tsx; tests pass their own) */
  screens?: ScreenTable;
}

export function AppRoutes({ screens }: AppRoutesProps) {
  return (
    <Routes>
      <Route
        path="/login"
        element={
          <AppText>
            {page(
              <>
                <LoginPage />
                <LaterToasts />
              </>,
            )}
          </AppText>
        }
      />
      <Route element={page(<AntAppLayer />)}>
        <Route path="/register" element={page(<RegisterPage />)} />
        <Route path="/forget" element={page(<ForgetPage />)} />
        <Route path="*" element={page(<ConsoleRoutes screens={screens} />)} />
      </Route>
    </Routes>
  );
}

export default function App() {
  return (
    <BrowserRouter>
      <BaseProviders>
        <AppRoutes />
      </BaseProviders>
    </BrowserRouter>
  );
}

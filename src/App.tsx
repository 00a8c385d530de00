/**
 * Routes of the console. Public: /login, /register, /forget. /ops/* is the operator console
 * (ops/OpsRoutes, its own chunk: the platform's staff, docs/api-operator.md), with its own screen
 * table (src/ops/screens.tsx), auth provider and shell. Every other path goes to the accounts'
 * console's routes (./ConsoleRoutes, its own chunk): each screen is declared once in
 * src/screens.tsx and routed there from that table, inside the console layout route
 * (layout/ConsoleRoot: session check, shell, route guard). An unknown path shows Not Found: in the
 * shell for a logged-in user, alone otherwise. Each console sends the other kind of session to its
 * own (providers/sessionKind.ts).
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
import { isOpsPath } from './providers/sessionKind';

const LoginPage = lazy(() => import('./custom-pages/login/LoginPage'));
const RegisterPage = lazy(() => import('./custom-pages/register/RegisterPage'));
const ForgetPage = lazy(() => import('./custom-pages/forget/ForgetPage'));
const ConsoleRoutes = lazy(() => import('./ConsoleRoutes'));
const OpsRoutes = lazy(() => import('./ops/OpsRoutes'));
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

/**
 * The console a path belongs to: /ops and below the operators', any other the accounts'. Both
 * route from "/" (their screens' paths are absolute), each loaded as its own chunk.
 */
function Consoles({ screens, opsScreens }: AppRoutesProps) {
  const { pathname } = useLocation();
  return isOpsPath(pathname) ? <OpsRoutes screens={opsScreens} /> : <ConsoleRoutes screens={screens} />;
}

export interface AppRoutesProps {
  /** the screen table (default: the console's, src/screens.tsx; tests pass their own) */
  screens?: ScreenTable;
  /** the operator console's table (default: src/ops/screens.tsx; tests pass their own) */
  opsScreens?: ScreenTable;
}

export function AppRoutes({ screens, opsScreens }: AppRoutesProps) {
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
        <Route path="*" element={page(<Consoles screens={screens} opsScreens={opsScreens} />)} />
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

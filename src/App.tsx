/**
 * Routes of the console. Public: /login, /register, /forget. Everything else needs a session
 * (checked by <Authenticated> on entry and by the layout on each navigation) and sits in the
 * console layout. Unknown paths show Not Found. Every page is its own chunk (React.lazy), so
 * /login loads neither the layout nor Refine's antd UI.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { BrowserRouter, Route, Routes, useLocation } from 'react-router';
import { Authenticated } from '@refinedev/core';
import { Spin } from 'antd';
import { ConsoleRefine } from './providers/ConsoleRefine';
import type { CheckParams } from './providers/authProvider';

const LoginPage = lazy(() => import('./custom-pages/login/LoginPage'));
const RegisterPage = lazy(() => import('./custom-pages/register/RegisterPage'));
const ForgetPage = lazy(() => import('./custom-pages/forget/ForgetPage'));
const ConsoleLayout = lazy(() => import('./layout/ConsoleLayout'));
const Home = lazy(() => import('./pages/Home'));
const NotFound = lazy(() => import('./pages/NotFound'));

export function PageLoading() {
  return (
    <div style={{ minHeight: '60vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <Spin size="large" />
    </div>
  );
}

const page = (el: ReactNode) => <Suspense fallback={<PageLoading />}>{el}</Suspense>;

/** Protected routes: session check first, with the target path in the login redirect. */
export function RequireSession({ children }: { children: ReactNode }) {
  const location = useLocation();
  const params: CheckParams = { target: `${location.pathname}${location.search}` };
  return (
    <Authenticated key="console" appendCurrentPathToQuery={false} params={params} loading={<PageLoading />}>
      {children}
    </Authenticated>
  );
}

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/login" element={page(<LoginPage />)} />
      <Route path="/register" element={page(<RegisterPage />)} />
      <Route path="/forget" element={page(<ForgetPage />)} />
      <Route element={<RequireSession>{page(<ConsoleLayout />)}</RequireSession>}>
        <Route index element={page(<Home />)} />
      </Route>
      <Route path="*" element={page(<NotFound />)} />
    </Routes>
  );
}

export default function App() {
  return (
    <BrowserRouter>
      <ConsoleRefine>
        <AppRoutes />
      </ConsoleRefine>
    </BrowserRouter>
  );
}

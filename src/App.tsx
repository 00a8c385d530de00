/**
 * Routes of the console. Public: /login, /register, /forget. Everything else needs a session
 * (checked on entry by <Authenticated> and on each navigation by the layout) and sits in the
 * console layout. Unknown paths show Not Found.
 *
 * Every page is its own chunk (React.lazy) and Refine is mounted only around the protected
 * routes (layout/ConsoleRoot), so /login loads React, the router and antd, nothing more.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { AppProviders } from './providers/AppProviders';
import { HttpErrorToasts } from './providers/HttpErrorToasts';
import { PageLoading } from './pages/PageLoading';

const LoginPage = lazy(() => import('./custom-pages/login/LoginPage'));
const RegisterPage = lazy(() => import('./custom-pages/register/RegisterPage'));
const ForgetPage = lazy(() => import('./custom-pages/forget/ForgetPage'));
const ConsoleRoot = lazy(() => import('./layout/ConsoleRoot'));
const Home = lazy(() => import('./pages/Home'));
const NotFound = lazy(() => import('./pages/NotFound'));
const SubAccountList = lazy(() => import('./resources/subaccounts/SubAccountList'));
const OpenAccount = lazy(() => import('./resources/subaccounts/OpenAccount'));
const SubAccountDetail = lazy(() => import('./resources/subaccounts/SubAccountDetail'));
const FinanceList = lazy(() => import('./resources/subaccounts/FinanceList'));
const OwnBalance = lazy(() => import('./resources/subaccounts/OwnBalance'));

const page = (el: ReactNode) => <Suspense fallback={<PageLoading />}>{el}</Suspense>;

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/login" element={page(<LoginPage />)} />
      <Route path="/register" element={page(<RegisterPage />)} />
      <Route path="/forget" element={page(<ForgetPage />)} />
      <Route element={page(<ConsoleRoot />)}>
        <Route index element={page(<Home />)} />
        <Route path="customer/selfsevicelayout/manager" element={page(<SubAccountList />)} />
        <Route path="customer/selfsevicelayout/manager/open" element={page(<OpenAccount />)} />
        <Route path="customer/manager/:id/:tab/*" element={page(<SubAccountDetail />)} />
        <Route path="customer/finance" element={page(<FinanceList />)} />
        <Route path="customer/finance/balance" element={page(<OwnBalance />)} />
      </Route>
      <Route path="*" element={page(<NotFound />)} />
    </Routes>
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

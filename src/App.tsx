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
const TemplateTabs = lazy(() => import('./resources/templates/TemplateTabs'));
const SmartTemplateList = lazy(() => import('./resources/templates/SmartTemplateList'));
const GeneralTemplateList = lazy(() => import('./resources/templates/GeneralTemplateList'));

const page = (el: ReactNode) => <Suspense fallback={<PageLoading />}>{el}</Suspense>;

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/login" element={page(<LoginPage />)} />
      <Route path="/register" element={page(<RegisterPage />)} />
      <Route path="/forget" element={page(<ForgetPage />)} />
      <Route element={page(<ConsoleRoot />)}>
        <Route index element={page(<Home />)} />
        <Route path="/template/TestReportLayout" element={page(<TemplateTabs />)}>
          <Route path="intelligent" element={page(<SmartTemplateList />)} />
          <Route path="intelligent/general" element={page(<GeneralTemplateList />)} />
        </Route>
        <Route path="/template/intelligent" element={page(<SmartTemplateList />)} />
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

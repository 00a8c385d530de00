/**
 * Routes of the console. Public: /login, /register, /forget. Everything else needs a session
 * (checked on entry by <Authenticated> and on each navigation by the layout) and sits in the
 * console layout. Unknown paths show Not Found.
 *
 * Every page is its own chunk (React.lazy) and Refine is mounted only around the protected
 * routes (layout/ConsoleRoot), so /login loads React, the router and antd, nothing more.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { AppProviders } from './providers/AppProviders';
import { HttpErrorToasts } from './providers/HttpErrorToasts';
import { PageLoading } from './pages/PageLoading';

const LoginPage = lazy(() => import('./custom-pages/login/LoginPage'));
const RegisterPage = lazy(() => import('./custom-pages/register/RegisterPage'));
const ForgetPage = lazy(() => import('./custom-pages/forget/ForgetPage'));
const ConsoleRoot = lazy(() => import('./layout/ConsoleRoot'));
const Home = lazy(() => import('./pages/Home'));
const NotFound = lazy(() => import('./pages/NotFound'));
const NoticeList = lazy(() => import('./resources/notices/NoticeList'));
const NoticeView = lazy(() => import('./resources/notices/NoticeView'));
const HelpDocumentPage = lazy(() => import('./custom-pages/help/HelpDocumentPage'));
const FaqPage = lazy(() => import('./custom-pages/help/FaqPage'));
const ContentTestPage = lazy(() => import('./custom-pages/content-test/ContentTestPage'));
const SignList = lazy(() => import('./resources/signs/SignList'));
const UserInfoPage = lazy(() => import('./custom-pages/account/UserInfoPage'));
const BaseInfoLayout = lazy(() => import('./custom-pages/account/BaseInfoLayout'));
const BaseInfoPage = lazy(() => import('./custom-pages/account/BaseInfoPage'));
const CertificationPage = lazy(() => import('./custom-pages/account/CertificationPage'));
const ReCertificationPage = lazy(() => import('./custom-pages/account/CertificationPage').then((m) => ({ default: m.ReCertificationPage })));
const SecurityPage = lazy(() => import('./custom-pages/account/SecurityPage'));
const PasswordPage = lazy(() => import('./custom-pages/account/PasswordPage'));
const TemplateTabs = lazy(() => import('./resources/templates/TemplateTabs'));
const SmartTemplateList = lazy(() => import('./resources/templates/SmartTemplateList'));
const GeneralTemplateList = lazy(() => import('./resources/templates/GeneralTemplateList'));
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
        <Route path="notice/notice" element={page(<NoticeList />)} />
        <Route path="notice/view" element={page(<NoticeView />)} />
        <Route path="help/document" element={page(<HelpDocumentPage />)} />
        <Route path="help/faq" element={page(<FaqPage />)} />
        <Route path="content/test" element={page(<ContentTestPage />)} />
        <Route path="template/SignReport" element={page(<SignList />)} />
        <Route path="account/userinfo" element={page(<UserInfoPage />)} />
        <Route path="account/info" element={page(<BaseInfoLayout />)}>
          <Route index element={<Navigate to="base" replace />} />
          <Route path="base" element={page(<BaseInfoPage />)} />
          <Route path="base/auth" element={page(<CertificationPage />)} />
          <Route path="base/auth/re" element={page(<ReCertificationPage />)} />
        </Route>
        <Route path="account/security" element={page(<SecurityPage />)} />
        <Route path="account/security/password" element={page(<PasswordPage />)} />
        <Route path="/template/TestReportLayout" element={page(<TemplateTabs />)}>
          <Route path="intelligent" element={page(<SmartTemplateList />)} />
          <Route path="intelligent/general" element={page(<GeneralTemplateList />)} />
        </Route>
        <Route path="/template/intelligent" element={page(<SmartTemplateList />)} />
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

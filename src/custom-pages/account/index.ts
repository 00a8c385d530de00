/**
 * 账户中心 pages: user info, base info with its certification tabs, security, password, for
 * src/screens.tsx. Each page is lazy, so it stays its own chunk; stories and other code import
 * the files directly.
 */
import { lazy } from 'react';

export const UserInfoPage = lazy(() => import('./UserInfoPage'));
export const BaseInfoLayout = lazy(() => import('./BaseInfoLayout'));
export const BaseInfoPage = lazy(() => import('./BaseInfoPage'));
export const CertificationPage = lazy(() => import('./CertificationPage'));
export const ReCertificationPage = lazy(() => import('./CertificationPage').then((m) => ({ default: m.ReCertificationPage })));
export const SecurityPage = lazy(() => import('./SecurityPage'));
export const PasswordPage = lazy(() => import('./PasswordPage'));

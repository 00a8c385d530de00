/**
 * 账户中心: user info, base info with its certification tabs, security, password: the screens,
 * declared here for src/screens.tsx. Each page is lazy, so it stays its own chunk; stories and
 * other code import the files directly.
 */
import { lazy } from 'react';
import type { Screen } from '@/layout/declarations';

export const userInfoScreen: Screen = {
  name: 'account_userinfo',
  path: '/account/userinfo',
  label: '用户信息',
  page: lazy(() => import('./UserInfoPage')),
  menu: 'account',
};

export const baseInfoTab: Screen = {
  name: 'account_info_base',
  path: 'base',
  label: '基本信息',
  page: lazy(() => import('./BaseInfoPage')),
};
export const certificationTab: Screen = {
  name: 'account_info_auth',
  path: 'base/auth',
  label: '资质认证',
  icon: 'certification',
  page: lazy(() => import('./CertificationPage')),
  home: true,
  // the page says 未认证 / 待认证 / 认证不通过 itself (and is where the banner's link goes)
  showsCertification: true,
};
export const reCertificationScreen: Screen = {
  name: 'account_info_auth_re',
  path: 'base/auth/re',
  label: '重新认证',
  page: lazy(() => import('./CertificationPage').then((m) => ({ default: m.ReCertificationPage }))),
  access: 'reCertification',
  showsCertification: true,
};
export const baseInfoLayout: Screen = {
  name: 'account_info',
  path: '/account/info',
  label: '基本信息',
  page: lazy(() => import('./BaseInfoLayout')),
  menu: 'account',
  link: '/account/info/base',
  index: 'base',
  children: [baseInfoTab, certificationTab, reCertificationScreen],
};

export const securityScreen: Screen = {
  name: 'account_security',
  path: '/account/security',
  label: '账户安全',
  page: lazy(() => import('./SecurityPage')),
  menu: 'account',
};
export const passwordScreen: Screen = {
  name: 'account_security_password',
  path: '/account/security/password',
  label: '修改密码',
  page: lazy(() => import('./PasswordPage')),
};

export const screens: Screen[] = [userInfoScreen, baseInfoLayout, securityScreen, passwordScreen];

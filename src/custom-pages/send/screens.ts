/**
 * 短信发送: the three send screens of this folder, declared for src/screens.tsx (the pages lazy,
 * each its own chunk: ./index.ts).
 */
import type { Screen, ScreenAlias } from '@/layout/declarations';
import { DeliverPage, InternationalPage, VariablePage } from './index';

/**
 * 普通短信发送 (edit a timed task with ?id=). The send pages state the certification themselves
 * (CertifiedNotice, with the submit disabled): no layout banner above them (`showsCertification`).
 */
export const deliverScreen: Screen = {
  name: 'sms_deliver',
  path: '/customer/deliverlayout/deliver',
  label: '普通短信发送',
  page: DeliverPage,
  showsCertification: true,
  access: 'domesticSending',
  menu: 'send',
  home: true,
};
export const variableScreen: Screen = {
  name: 'sms_variablesms',
  path: '/customer/deliverlayout/variablesms',
  label: '变量短信发送',
  page: VariablePage,
  showsCertification: true,
  access: 'domesticSending',
  menu: 'send',
};
export const internationalScreen: Screen = {
  name: 'sms_internaldeliver',
  path: '/customer/deliverlayout/internaldeliver',
  label: '国际短信发送',
  page: InternationalPage,
  showsCertification: true,
  access: 'internationalSending',
  menu: 'send',
  home: true,
};

export const screens: Screen[] = [deliverScreen, variableScreen, internationalScreen];

/** spec 01: the deliverlayout parent path opens its first child, 普通短信发送 */
export const aliases: ScreenAlias[] = [{ path: '/customer/deliverlayout', to: '/customer/deliverlayout/deliver' }];

/**
 * 短信模板 (/template/TestReportLayout: tabs 智能模板, the user's, and 通用模板, the platform's):
 * the screens and their data, declared here for src/screens.tsx and the data provider. Each page
 * is lazy, so it stays its own chunk; stories and other code import the files directly.
 */
import { lazy } from 'react';
import type { Screen } from '@/layout/declarations';
import { templates, generalTemplates } from './data';

export * from './data';

const SmartTemplateList = lazy(() => import('./SmartTemplateList'));

export const smartTemplatesTab: Screen = {
  name: 'template_Intelligent',
  path: 'intelligent',
  label: '智能模板',
  page: SmartTemplateList,
  data: [templates],
};

export const generalTemplatesTab: Screen = {
  name: 'template_General',
  path: 'intelligent/general',
  label: '通用模板',
  page: lazy(() => import('./GeneralTemplateList')),
  data: [generalTemplates],
};

export const templateTabs: Screen = {
  name: 'template_TestReportLayout',
  path: '/template/TestReportLayout',
  label: '短信模板',
  page: lazy(() => import('./TemplateTabs')),
  menu: 'template',
  link: '/template/TestReportLayout/intelligent',
  children: [smartTemplatesTab, generalTemplatesTab],
};

export const screens: Screen[] = [
  templateTabs,
  {
    name: 'template_intelligent',
    path: '/template/intelligent',
    label: '智能模板',
    page: SmartTemplateList,
    data: [templates],
  },
];

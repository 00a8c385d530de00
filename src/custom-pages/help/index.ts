/**
 * 帮助中心: document downloads and FAQ (screens), and the layout's online support contacts (data
 * no screen owns), declared here for src/screens.tsx and the data provider. Lazy: each page its
 * own chunk.
 */
import { lazy } from 'react';
import type { Screen } from '@/layout/declarations';

export * from './data';

export const documentScreen: Screen = {
  name: 'help_document',
  path: '/help/document',
  label: '文档下载',
  page: lazy(() => import('./HelpDocumentPage')),
  menu: 'help',
};

export const faqScreen: Screen = {
  name: 'help_faq',
  path: '/help/faq',
  label: '常见问题',
  page: lazy(() => import('./FaqPage')),
  menu: 'help',
};

export const screens: Screen[] = [documentScreen, faqScreen];

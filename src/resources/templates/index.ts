/**
 * 短信模板 pages: the tabs layout, smart templates (the user's), general templates (the
 * platform's), for src/screens.tsx. Each page is lazy, so it stays its own chunk; stories and
 * other code import the files directly.
 */
import { lazy } from 'react';

export const TemplateTabs = lazy(() => import('./TemplateTabs'));
export const SmartTemplateList = lazy(() => import('./SmartTemplateList'));
export const GeneralTemplateList = lazy(() => import('./GeneralTemplateList'));

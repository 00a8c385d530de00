/**
 * 发送记录 (/customer/sendlayout: tabs sendrecord and sendrecord/reply), for src/screens.tsx.
 * Lazy, each page its own chunk; stories import the files directly.
 */
import { lazy } from 'react';

export const SendRecordTabs = lazy(() => import('./SendRecordTabs'));
export const SendRecordList = lazy(() => import('./SendRecordList'));
export const ReplyList = lazy(() => import('./ReplyList'));

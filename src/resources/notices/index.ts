/**
 * 公告 pages: list (/notice/notice) and view (/notice/view?noticeId=), for src/screens.tsx.
 * Each page is lazy, so it stays its own chunk; stories and other code import the files directly.
 */
import { lazy } from 'react';

export const NoticeList = lazy(() => import('./NoticeList'));
export const NoticeView = lazy(() => import('./NoticeView'));

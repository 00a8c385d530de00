/** 公告: list (/notice/notice), view (/notice/view?noticeId=), the home card. */
export { default as NoticeList, noticeViewPath } from './NoticeList';
export { default as NoticeView } from './NoticeView';
export { LatestNotices } from './LatestNotices';
export { safeNoticeHtml, noticePlainText } from './noticeHtml';

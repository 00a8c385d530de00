/** 公告: the notice list, the home page's latest notices and a notice's text (operators publish through the CLI). */
import { defineModule } from '../module';
import { noticeRoutes } from './routes';
import { NoticeService } from './service';

export { NoticeService, publishNotice, NOTICE_NOT_FOUND, NOTICE_NAME_MAX, type PublishNotice } from './service';
export { noticeText } from './sanitize';

declare module '../../context' {
  interface Services {
    notices: NoticeService;
  }
}

export default defineModule({ name: 'notice' }, async (app, ctx) => {
  const notices = (app.services.notices = new NoticeService(ctx));
  await app.register(noticeRoutes(ctx, notices));
});

/**
 * 运营人员 (issue 39, docs/api-operator.md): the platform's own staff — operators with a role
 * (审核员, 运营, 管理员) and an optional TOTP second factor, logging in on /login (the auth
 * module asks this one when no account has the name); the 审核 lists and decisions
 * (certifications, signs, templates, invoices), 客户 (customers.ts), 通道 (channels.ts), 内容 (words.ts, notices.ts) and the audit log every action writes in its own
 * transaction. The operators' sessions are the app's core (server/http/operator-session.ts: the
 * access guard of the operator routes reads them).
 */
import { defineModule } from '../module';
import { OperatorService } from './service';
import { ReviewService } from './review';
import { CustomerService } from './customers';
import { ChannelService } from './channels';
import { WordService } from './words';
import { OperatorNoticeService } from './notices';
import { operatorRoutes } from './routes';

export { OperatorService, OPERATOR_MESSAGES, OPERATOR_NAME, nameTaken } from './service';
export { ReviewService, REVIEW_MESSAGES } from './review';
export { CustomerService, CUSTOMER_MESSAGES } from './customers';
export { ChannelService, CHANNEL_MESSAGES } from './channels';
export { WordService, WORD_MESSAGES } from './words';
export { OperatorNoticeService, NOTICE_MESSAGES } from './notices';
export { audit, auditList, type Actor } from './audit';

declare module '../../context' {
  interface Services {
    operators: OperatorService;
    review: ReviewService;
    customers: CustomerService;
    channels: ChannelService;
    words: WordService;
    operatorNotices: OperatorNoticeService;
  }
}

export default defineModule(
  {
    name: 'operator',
    dependencies: [
      'auth',
      'content',
      'metrics',
      'notice',
      'upload',
      'account',
      'sign',
      'template',
      'invoice',
      'ledger',
      'password',
      'subaccount',
      'retention',
    ],
  },
  async (app, ctx) => {
    const operators = (app.services.operators = new OperatorService(ctx));
    const review = (app.services.review = new ReviewService(ctx));
    const customers = (app.services.customers = new CustomerService(ctx, app.services.sessions));
    const channels = (app.services.channels = new ChannelService(ctx));
    const words = (app.services.words = new WordService(ctx));
    const notices = (app.services.operatorNotices = new OperatorNoticeService(ctx));
    // the login of a name no account has (auth/service.ts)
    app.services.auth.operators = {
      find: (name) => operators.byName(name),
      passwordOk: (o, digest) => operators.passwordOk(o, digest),
      checkTotp: (o, code) => operators.checkTotp(o, code),
    };
    app.services.auth.operatorLoggedIn = (o, ip) => operators.loggedIn(o, ip);
    await app.register(
      operatorRoutes(ctx, {
        operators,
        review,
        customers,
        channels,
        words,
        notices,
        monitor: app.services.monitor,
        uploads: app.services.uploads,
        retention: app.services.retention,
      }),
    );
  },
);

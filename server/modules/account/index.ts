/**
 * 账户: what an account does to itself — agent base info, a sub-account's enterprise info, user
 * info, password change, certification (routes.ts, service.ts, certification.ts). Depends on the
 * upload module (the certification papers must be the account's own stored images); the sessions
 * and verification codes are the app's core services. The sub-account area's POST
 * /account/updateClient hands a sub-account's edit of itself to `updateSelfClient` here.
 */
import { defineModule } from '../module';
import { accountRoutes } from './routes';
import { AccountService } from './service';

export { AccountService, ACCOUNT_MESSAGES, type EnterpriseBaseInfo } from './service';
export {
  CERT_MESSAGES,
  ID_TYPE_LABELS,
  certificationInfo,
  certTypeOf,
  reviewCertification,
  ReviewError,
  type CertificationInfo,
} from './certification';
export { seedCertifications } from './seed';

declare module '../../context' {
  interface Services {
    account: AccountService;
  }
}

export default defineModule({ name: 'account', dependencies: ['upload'] }, async (app, ctx) => {
  const { codes, sessions, uploads } = app.services;
  const account = (app.services.account = new AccountService(ctx, { codes, sessions, uploads }));
  await app.register(accountRoutes(ctx, account));
});

/**
 * 子账户 and 客户财务: an agent's sub-accounts — lists, stats, open, edit, freeze, prices,
 * reminders, recharge / rollback through the ledger, exports, log-in-as (routes.ts, service.ts).
 * Depends on the ledger (every balance change) and the account module (a sub-account's edit of
 * itself on POST /account/updateClient) and smpp-server (the listener's real port for 接口信息).
 */
import { defineModule, moduleTimer } from '../module';
import { subaccountRoutes } from './routes';
import { SubAccountService } from './service';
import { TestAccountService } from './test-accounts';

export {
  SubAccountService,
  strongPassword,
  issueLoginAs,
  refuseLoginAs,
  LOGIN_AS_MESSAGES,
  LOGIN_AS_TTL_MS,
} from './service';
export { TestAccountService } from './test-accounts';
export { seedSubaccounts } from './seed';

declare module '../../context' {
  interface Services {
    subaccounts: SubAccountService;
    testAccounts: TestAccountService;
  }
}

export default defineModule(
  { name: 'subaccount', dependencies: ['ledger', 'account', 'smpp-server'] },
  async (app, ctx) => {
    const subaccounts = (app.services.subaccounts = new SubAccountService(ctx, app.services.ledger));
    const tests = (app.services.testAccounts = new TestAccountService(ctx, subaccounts));
    await app.register(
      subaccountRoutes(
        ctx,
        app.services.sessions,
        subaccounts,
        app.services.account,
        () => ({
          smpp: app.services.smppServer?.port ?? 0,
          cmpp: app.services.cmppServer?.port ?? 0,
          smgp: app.services.smgpServer?.port ?? 0,
          sgip: app.services.sgipServer?.port ?? 0,
        }),
        tests,
        app.services.operatorSessions,
      ),
    );
    // test accounts past their end are frozen (every process; the UPDATE is safe to repeat)
    moduleTimer(app, ctx.options.purgeEveryMs, () => tests.freezeExpired(), 'freeze of expired test accounts');
  },
);

/**
 * 账户流水: every balance change goes through the LedgerService (service.ts); money arithmetic and
 * its two-decimal text are server/lib/money.ts. Other modules import the ledger from here, never
 * its inner files, and reach the app's ledger as `app.services.ledger` (dependency 'ledger'). No routes of its own:
 * the sub-account area's recharge / rollback and the bills area's lists read and write through it.
 */
import { defineModule } from '../module';
import { LedgerService } from './service';

export * from './service';

declare module '../../context' {
  interface Services {
    ledger: LedgerService;
  }
}

export default defineModule({ name: 'ledger' }, async (app, ctx) => {
  app.services.ledger = new LedgerService(ctx);
});

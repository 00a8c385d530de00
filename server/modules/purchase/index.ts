/**
 * 购买短信 and the bills that read it: the product catalogue, package purchases (balance and usable
 * rebate through the ledger, one product pool per line), the SMS bill, the rebate bill, the purchase
 * records of both operation modes and the remaining pools, with their exports (routes.ts,
 * service.ts; rules in docs/api-purchase.md). Depends on the clients module (the caller's account
 * scope) and the ledger (every balance change).
 */
import { defineModule } from '../module';
import { purchaseRoutes } from './routes';
import { PurchaseService } from './service';

export {
  PurchaseService,
  discountFor,
  lineAmount,
  discounted,
  MAX_LINES,
  REBATE_THRESHOLD,
  EXPIRING_DAYS,
  PURCHASE_MSG,
  type OrderLine,
  type PurchaseResult,
} from './service';
export { seedPurchase } from './seed';

declare module '../../context' {
  interface Services {
    purchase: PurchaseService;
  }
}

export default defineModule({ name: 'purchase', dependencies: ['clients', 'ledger'] }, async (app, ctx) => {
  const purchase = (app.services.purchase = new PurchaseService(ctx, app.services.clients));
  await app.register(purchaseRoutes(ctx, purchase));
});

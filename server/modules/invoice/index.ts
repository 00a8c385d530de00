/**
 * 发票: invoiceable amount, saved information, application, list, detail and cancel (routes.ts,
 * under /api), the address picker's division tree GET /static/scripts/city.json (outside /api), the
 * service and the operator's status change (service.ts). Depends on the clients module (an agent
 * applies for one of its own sub-accounts).
 */
import { defineModule, routesOutsideApi } from '../module';
import { cityRoutes, invoiceRoutes } from './routes';
import { InvoiceService } from './service';

export {
  InvoiceService,
  InvoiceStatusError,
  setInvoiceStatus,
  TRANSITIONS as INVOICE_TRANSITIONS,
  canAmountOf,
  INVOICE_MESSAGES,
} from './service';

declare module '../../context' {
  interface Services {
    invoices: InvoiceService;
  }
}

export default defineModule({ name: 'invoice', dependencies: ['clients'] }, async (app, ctx) => {
  const invoices = (app.services.invoices = new InvoiceService(ctx, app.services.clients));
  await app.register(invoiceRoutes(ctx, invoices));
  // the division tree is a static file of the console, outside /api
  routesOutsideApi(app, cityRoutes);
});

/**
 * 子账户范围: which accounts a session reaches (service.ts, used by the list modules), the
 * sub-account picker POST /send/getclients (routes.ts) and what a test account may do
 * (test-accounts.ts: the send paths, purchase and the sub-account area read it). Depends on no
 * other module.
 */
import { defineModule } from '../module';
import { clientsRoutes } from './routes';
import { ClientsService } from './service';

export { ClientsService, type ClientOption, type ScopedAccount } from './service';
export {
  assertNotTestAccount,
  assertTestRecipients,
  mayCreateTestAccount,
  TEST_MSG,
  TEST_WINDOW_DAYS,
} from './test-accounts';

declare module '../../context' {
  interface Services {
    clients: ClientsService;
  }
}

export default defineModule({ name: 'clients' }, async (app, ctx) => {
  const clients = (app.services.clients = new ClientsService(ctx));
  await app.register(clientsRoutes(ctx, clients));
});

/**
 * 子账户范围: which accounts a session reaches (service.ts, used by the list modules) and the
 * sub-account picker POST /send/getclients (routes.ts). Depends on no other module.
 */
import { defineModule } from '../module';
import { clientsRoutes } from './routes';
import { ClientsService } from './service';

export { ClientsService, type ClientOption, type ScopedAccount } from './service';

declare module '../../context' {
  interface Services {
    clients: ClientsService;
  }
}

export default defineModule({ name: 'clients' }, async (app, ctx) => {
  const clients = (app.services.clients = new ClientsService(ctx));
  await app.register(clientsRoutes(ctx, clients));
});

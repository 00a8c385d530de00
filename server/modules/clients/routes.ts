import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { api, arrayOf, request } from '../../http/contract';
import { ok } from '../../http/reply';
import { route } from '../../http/route';
import { sessionOf } from '../../http/session';
import type { ClientsService } from './service';

/** POST /send/getclients (params/clients-list: getAll, smsfrom, phoneInoutType): the sub-account picker's options. */
export function clientsRoutes(ctx: AppContext, clients: ClientsService): FastifyPluginAsync {
  return async (plugin) => {
    const app = api(plugin);
    app.post(
      '/send/getclients',
      route({
        tag: '子账户',
        summary: '子账户选择列表（代理商：名下子账户；子账户：自己）',
        access: 'session',
        body: request(ctx, 'params/clients-list'),
        response: arrayOf(ctx, 'responses/client-option'),
      }),
      async (req) => {
        const rows = await clients.subAccounts(sessionOf(req).account, { phoneInoutType: req.body.phoneInoutType });
        return ok(rows.map((r) => ({ clientid: r.clientid, name: r.name })));
      },
    );
  };
}

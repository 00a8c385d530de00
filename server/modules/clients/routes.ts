import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/reply';
import { params } from '../../http/params';
import { route } from '../../http/route';
import { sessionOf } from '../auth/session';
import type { ClientOption, ClientsService } from './service';
import { MESSAGES } from '../../../common/schema/messages';

/** POST /send/getclients (getAll, smsfrom, phoneInoutType): the sub-account picker's options. */
export function clientsRoutes(clients: ClientsService): FastifyPluginAsync {
  const body = params({
    getAll: { title: '是否全部' },
    smsfrom: { title: '短信来源' },
    phoneInoutType: { type: 'integer', title: '收发范围', minimum: 0, maximum: 99, errorMessage: MESSAGES.badParam },
  });
  return async (app) => {
    app.post<{ Body: { phoneInoutType?: number } }>(
      '/send/getclients',
      route({ tag: '子账户', summary: '子账户选择列表（代理商：名下子账户；子账户：自己）', access: 'session', body }),
      async (req) => {
        const t = req.body.phoneInoutType;
        const rows = await clients.subAccounts(sessionOf(req).account, { phoneInoutType: t });
        return ok<ClientOption[]>(rows.map((r) => ({ clientid: r.clientid, name: r.name })));
      },
    );
  };
}

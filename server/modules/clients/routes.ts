import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/reply';
import { sessionOf, type SessionService } from '../auth/session';
import type { ClientOption, ClientsService } from './service';

/** POST /send/getclients (getAll, smsfrom, phoneInoutType): the sub-account picker's options. */
export function clientsRoutes(sessions: SessionService, clients: ClientsService): FastifyPluginAsync {
  return async (app) => {
    app.post('/send/getclients', { preHandler: sessions.requireSession() }, async (req) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const t = Number.parseInt(String(body.phoneInoutType ?? ''), 10);
      const rows = await clients.subAccounts(sessionOf(req).account, { phoneInoutType: Number.isFinite(t) ? t : undefined });
      return ok<ClientOption[]>(rows.map((r) => ({ clientid: r.clientid, name: r.name })));
    });
  };
}

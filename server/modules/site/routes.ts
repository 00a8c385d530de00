import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/reply';
import { countryCodes, type SiteService } from './service';

export function siteRoutes(site: SiteService): FastifyPluginAsync {
  return async (app) => {
    app.get('/loginInfo', async (req) => {
      const { id: _id, ...info } = await site.branding(req.headers.host);
      return ok(info);
    });

    app.get('/supportInfo', async (req) => ok(await site.supportContacts(req.headers.host)));

    app.post('/userCenter/getCountryCodeList', async () => ok(countryCodes()));
  };
}

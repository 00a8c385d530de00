import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../http/reply';
import { countryCodes, type SiteService } from './service';
import type { HelpDocs } from '../help/docs';

/** `docs`: systemInfoShow is computed from the help documents that exist (never the stored flags). */
export function siteRoutes(site: SiteService, docs?: HelpDocs): FastifyPluginAsync {
  return async (app) => {
    app.get('/loginInfo', async (req) => {
      const { id: _id, ...info } = await site.branding(req.headers.host);
      if (!docs) return ok(info);
      const systemInfoShow = docs.flags();
      return ok({ ...info, systemInfoShow, demo_file_path: info.demo_file_path || (systemInfoShow.httpDemo ? '/api/help/demoFilePath' : '') });
    });

    app.get('/supportInfo', async (req) => ok(await site.supportContacts(req.headers.host)));

    app.post('/userCenter/getCountryCodeList', async () => ok(countryCodes()));
  };
}

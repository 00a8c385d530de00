import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { api, arrayOf, okOf } from '../../http/contract';
import { ok } from '../../http/reply';
import { route } from '../../http/route';
import { countryCodes, type SiteService } from './service';
import type { HelpDocs } from '../help';

const TAG = '站点';

/** `docs`: systemInfoShow is computed from the help documents that exist (never the stored flags). */
export function siteRoutes(ctx: AppContext, site: SiteService, docs?: HelpDocs): FastifyPluginAsync {
  return async (plugin) => {
    const app = api(plugin);
    app.get(
      '/loginInfo',
      route({
        tag: TAG,
        summary: '品牌信息（版权、标志、帮助文档开关 systemInfoShow）',
        access: 'public',
        response: okOf(ctx, 'entities/branding'),
      }),
      async (req) => {
        const { id: _id, ...info } = await site.branding(req.headers.host);
        if (!docs) return ok(info);
        const systemInfoShow = docs.flags();
        return ok({
          ...info,
          systemInfoShow,
          demo_file_path: info.demo_file_path || (systemInfoShow.httpDemo ? '/api/help/demoFilePath' : ''),
        });
      },
    );

    app.get(
      '/supportInfo',
      route({
        tag: TAG,
        summary: '在线客服联系人',
        access: 'public',
        response: arrayOf(ctx, 'entities/support-contact'),
      }),
      async (req) => ok(await site.supportContacts(req.headers.host)),
    );

    app.post(
      '/userCenter/getCountryCodeList',
      route({
        tag: TAG,
        summary: '国家/地区电话代码列表',
        access: 'public',
        response: arrayOf(ctx, 'entities/country-code'),
      }),
      async () => ok(countryCodes()),
    );
  };
}

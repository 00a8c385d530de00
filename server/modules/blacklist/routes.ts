import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { api, fileReply, listOf, okEmpty, okOf, request } from '../../http/contract';
import { sendFile, XLSX_MIME } from '../../http/download';
import { ok } from '../../http/reply';
import { route } from '../../http/route';
import { sessionOf } from '../../http/session';
import { MESSAGES } from '../../../common/schema/messages';
import { BLACKLIST_MSG, type BlacklistService } from './service';

const TAG = '黑名单';

const fill = (text: string, values: Record<string, number>) =>
  text.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));

/** /blacklist/*: list, add, delete, export (docs/api-blacklist.md). */
export function blacklistRoutes(ctx: AppContext, blacklist: BlacklistService): FastifyPluginAsync {
  return async (plugin) => {
    const app = api(plugin);

    app.post(
      '/blacklist/list',
      route({
        tag: TAG,
        summary: '黑名单列表（代理商：本账户及名下子账户）',
        access: 'session',
        body: request(ctx, 'filters/blacklist', { paging: 'currentPage' }),
        response: listOf(ctx, 'entities/blacklist'),
      }),
      async (req) => ok(await blacklist.list(sessionOf(req).account, req.body)),
    );

    app.post(
      '/blacklist/add',
      route({
        tag: TAG,
        summary: '添加黑名单号码（多个号码以逗号、空格或换行分隔；代理商可选择子账户）',
        access: 'session',
        body: request(ctx, 'forms/blacklist-add'),
        response: okOf(ctx, 'responses/blacklist-added'),
      }),
      async (req) => {
        const r = await blacklist.add(sessionOf(req).account, req.body);
        return ok(r, fill(BLACKLIST_MSG.added, r));
      },
    );

    app.post(
      '/blacklist/delete',
      route({
        tag: TAG,
        summary: '移出黑名单',
        access: 'session',
        body: request(ctx, 'params/blacklist-remove'),
        response: okEmpty,
      }),
      async (req) => {
        await blacklist.remove(sessionOf(req).account, req.body.id);
        return ok(undefined, MESSAGES.deleted);
      },
    );

    app.post(
      '/blacklist/export',
      route({
        tag: TAG,
        summary: '导出黑名单（Excel，条件同列表）',
        access: 'session',
        body: request(ctx, 'filters/blacklist'),
        response: fileReply(XLSX_MIME),
      }),
      async (req, reply) =>
        sendFile(reply, await blacklist.exportStream(sessionOf(req).account, req.body), '黑名单.xlsx'),
    );
  };
}

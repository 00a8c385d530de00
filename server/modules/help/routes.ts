/**
 * Help documents (spec 02 "Downloads"): GET /help/httpsdoc (generated from the OpenAPI
 * description), /help/openapi.json, and the operator's files: /help/cmppdoc, sgipdoc, smgpdoc,
 * smppdoc, smstemplatedoc, demoFilePath, faqdoc (agents only). A session is needed for all.
 */
import fs from 'node:fs';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { AppContext } from '../../context';
import { errors } from '../../http/errors';
import { route } from '../../http/route';
import { formatDateTime } from '../../lib/time';
import { DOC_TYPES, HELP_DOCS, type HelpDocs } from './docs';
import { openApiDocument, renderApiHtml } from './openapi';

function attachment(reply: FastifyReply, filename: string, type: string) {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, '');
  return reply
    .header('content-type', type)
    .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff');
}

export function helpRoutes(ctx: AppContext, docs: HelpDocs): FastifyPluginAsync {
  return async (app) => {
    const TAG = '帮助文档';
    app.get('/help/openapi.json', route({ tag: TAG, summary: 'HTTP 接口的 OpenAPI 描述（JSON）', access: 'session' }), async () => openApiDocument(app));

    app.get('/help/httpsdoc', route({ tag: TAG, summary: 'HTTP 接口文档（由本接口描述生成的 HTML）', access: 'session' }), async (_req, reply) => {
      const html = renderApiHtml(openApiDocument(app), formatDateTime(ctx.now()));
      return attachment(reply, `${ctx.config.platformName}HTTP接口文档.html`, 'text/html; charset=utf-8')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
        .send(html);
    });

    for (const doc of HELP_DOCS) {
      if (!doc.stem) continue;
      const summary = `${doc.title}下载${doc.agentOnly ? '（仅代理商）' : ''}`;
      app.get(doc.route, route({ tag: TAG, summary, access: doc.agentOnly ? 'agent' : 'session' }), async (_req, reply) => {
        const found = docs.fileOf(doc);
        if (!found) throw errors.notFound('文档');
        return attachment(reply, `${doc.title}.${found.ext}`, DOC_TYPES[found.ext]).send(fs.createReadStream(found.file));
      });
    }
  };
}

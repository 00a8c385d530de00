/**
 * Help documents (spec 02 "Downloads"): GET /help/httpsdoc (generated from the OpenAPI
 * description), /help/openapi.json, and the operator's files: /help/cmppdoc, sgipdoc, smgpdoc,
 * smppdoc, smstemplatedoc, demoFilePath, faqdoc (agents only). A session is needed for all.
 */
import fs from 'node:fs';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { AppContext } from '../../context';
import { errors } from '../../http/errors';
import { formatDateTime } from '../../lib/time';
import type { SessionService } from '../auth/session';
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

export function helpRoutes(ctx: AppContext, sessions: SessionService, docs: HelpDocs): FastifyPluginAsync {
  return async (app) => {
    const auth = { preHandler: sessions.requireSession() };
    const agent = { preHandler: sessions.requireAgent() };

    app.get('/help/openapi.json', auth, async () => openApiDocument(app));

    app.get('/help/httpsdoc', auth, async (_req, reply) => {
      const html = renderApiHtml(openApiDocument(app), formatDateTime(ctx.now()));
      return attachment(reply, `${ctx.config.platformName}HTTP接口文档.html`, 'text/html; charset=utf-8')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
        .send(html);
    });

    for (const doc of HELP_DOCS) {
      if (!doc.stem) continue;
      app.get(doc.route, doc.agentOnly ? agent : auth, async (_req, reply) => {
        const found = docs.fileOf(doc);
        if (!found) throw errors.notFound('文档');
        return attachment(reply, `${doc.title}.${found.ext}`, DOC_TYPES[found.ext]).send(fs.createReadStream(found.file));
      });
    }
  };
}

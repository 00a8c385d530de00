/**
 * Help documents (spec 02 "Downloads"): GET /help/httpsdoc (generated from the OpenAPI
 * description), /help/openapi.json, /help/userguide (the user guide, docs/user-guide.md rendered,
 * unless the operator placed a user-guide file), and the operator's files: /help/cmppdoc, sgipdoc, smgpdoc,
 * smppdoc, smstemplatedoc, demoFilePath, faqdoc (agents only). /help/cmppdoc and /help/smppdoc
 * are generated from their door's description (door-doc.ts) for the session's account while the
 * door listens, when the operator placed no file of theirs. A session is needed for all.
 */
import fs from 'node:fs';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { AppContext } from '../../context';
import { fileReply } from '../../http/contract';
import { errors } from '../../http/errors';
import { route } from '../../http/route';
import { sendFile } from '../../http/download';
import { formatDateTime } from '../../lib/time';
import { DOC_TYPES, HELP_DOCS, type HelpDocs } from './docs';
import { openApiDocument, renderApiHtml } from './openapi';
import { renderDoorHtml } from './door-doc';
import { renderMarkdownDoc } from './markdown-doc';
import { DOC_CSP } from './html';
import { sessionOf } from '../../http/session';

/** A document download: sendFile's headers, never cached. */
function download(reply: FastifyReply, body: string | NodeJS.ReadableStream, filename: string, mime: string) {
  reply.header('cache-control', 'no-store');
  return sendFile(reply, body, filename, { mime });
}

export function helpRoutes(ctx: AppContext, docs: HelpDocs): FastifyPluginAsync {
  return async (app) => {
    const TAG = '帮助文档';
    app.get(
      '/help/openapi.json',
      route({
        tag: TAG,
        summary: 'HTTP 接口的 OpenAPI 描述（JSON）',
        access: 'session',
        response: ctx.schemas.registry.inline('responses/openapi-document'),
      }),
      async () => openApiDocument(app),
    );

    app.get(
      '/help/httpsdoc',
      route({
        tag: TAG,
        summary: 'HTTP 接口文档（由本接口描述生成的 HTML）',
        access: 'session',
        response: fileReply('text/html'),
      }),
      async (_req, reply) => {
        const html = renderApiHtml(openApiDocument(app), formatDateTime(ctx.now()));
        reply.header('content-security-policy', DOC_CSP);
        return download(reply, html, `${ctx.config.platformName}HTTP接口文档.html`, 'text/html; charset=utf-8');
      },
    );

    for (const doc of HELP_DOCS) {
      if (!doc.stem) continue;
      const summary = `${doc.title}下载${doc.agentOnly ? '（仅代理商）' : ''}${doc.door ? '（接口开通时由接口描述生成，含当前账户的登录名与端口；运营方放置的文件优先）' : ''}`;
      app.get(
        doc.route,
        route({
          tag: TAG,
          summary,
          access: doc.agentOnly ? 'agent' : 'session',
          response: fileReply('application/octet-stream', '文档文件'),
        }),
        async (req, reply) => {
          const found = docs.fileOf(doc);
          if (found)
            return download(reply, fs.createReadStream(found.file), `${doc.title}.${found.ext}`, DOC_TYPES[found.ext]);
          const bundled = docs.bundledOf(doc);
          if (bundled) {
            const title = `${ctx.config.platformName}${doc.title}`;
            const html = renderMarkdownDoc(await fs.promises.readFile(bundled, 'utf8'), {
              title,
              generatedAt: formatDateTime(ctx.now()),
            });
            reply.header('content-security-policy', DOC_CSP);
            return download(reply, html, `${title}.html`, 'text/html; charset=utf-8');
          }
          const door = docs.doorOf(doc);
          if (!door) throw errors.notFound('文档');
          // the host customers reach the platform at: as 接口信息 shows it (PAY_PUBLIC_URL, else the request's)
          const host = new URL(ctx.config.pay.publicUrl || `${req.protocol}://${req.host}`).hostname;
          const now = ctx.now();
          const description = await door.describe({ account: sessionOf(req).account, host, now });
          const html = renderDoorHtml(description, {
            platformName: ctx.config.platformName,
            generatedAt: formatDateTime(now),
          });
          reply.header('content-security-policy', DOC_CSP);
          return download(reply, html, `${ctx.config.platformName}${doc.title}.html`, 'text/html; charset=utf-8');
        },
      );
    }
  };
}

/**
 * The file service's routes (docs/api-files.md): check, progress, save chunk, merge, delete chunks,
 * download. Keys fileName, fileMd5, flag, chunk, fileSize (spec 02 §7). A chunk is posted as the
 * raw body (`Content-Type: application/octet-stream`) with its keys in the query.
 */
import { parseSlot } from '../../http/parse-slots';
import type { FastifyPluginAsync } from 'fastify';
import { ApiError } from '../../http/errors';
import { ok } from '../../http/reply';
import { api, fileReply, okOf, request } from '../../http/contract';
import { route } from '../../http/route';
import { accountIdOf, sessionOf } from '../../http/session';
import { STORAGE_MESSAGES } from './storage';
import { attachment } from '../../http/download';
import { CHUNK_SIZE, FILE_MESSAGES, resolveUpload, type FileService } from './service';
import { firstColumnErrors, parseNumberFile, PARSE_MESSAGES } from './parse';
import { checkNumbers } from '../../../common/sms/numbers';
import type { AppContext } from '../../context';
import { TemplateType } from '../../../common/generated/schemas';

const TAG = '文件服务';

/** a flag as forms post it: 1 / true */
const flag = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true';
const TXT = 'text/plain; charset=utf-8';

export function fileRoutes(ctx: AppContext, files: FileService): FastifyPluginAsync {
  const keyParams = request(ctx, 'params/file-key');
  // an upload's state (check, progress), a chunk saved, a merged file, a delete
  const uploadStatus = okOf(ctx, 'responses/upload-status');
  const chunkSaved = okOf(ctx, 'responses/chunk-saved');
  const merged = okOf(ctx, 'responses/merged-file');
  const deleted = okOf(ctx, 'responses/file-deleted');
  const parsed = okOf(ctx, 'entities/file-parse');
  const txt = fileReply(TXT);
  return async (plugin) => {
    const app = api(plugin);
    // a chunk is the raw body: read by the handler after the session check, bounded by the chunk's length (at most 1 MB)
    app.addContentTypeParser('application/octet-stream', (_req, _payload, done) => done(null));

    app.post(
      '/file/check',
      route({
        tag: TAG,
        summary:
          '上传前检查：登记上传（按本人 + MD5 + 大小），已完整上传的文件直接复用（uploaded=true 与 importFilePath），否则返回已保存的分片',
        access: 'session',
        body: request(ctx, 'params/file-check'),
        response: uploadStatus,
      }),
      async (req) => ok(await files.check(sessionOf(req).account, req.body)),
    );

    app.post(
      '/file/progress',
      route({
        tag: TAG,
        summary: '上传进度：已保存的分片与百分比',
        access: 'session',
        body: keyParams,
        response: uploadStatus,
      }),
      async (req) => ok(await files.progress(sessionOf(req).account, req.body)),
    );

    app.post(
      '/file/chunk',
      route({
        tag: TAG,
        summary: `保存一个分片（请求体为分片字节，Content-Type: application/octet-stream；每片 ${CHUNK_SIZE / 1024 / 1024}M，最后一片为余下字节）`,
        access: 'session',
        // one statement per chunk: the session check (no account row read); the chunk itself needs none
        accountIdOnly: true,
        querystring: request(ctx, 'params/file-chunk'),
        response: chunkSaved,
      }),
      async (req) => {
        const type = String(req.headers['content-type'] ?? '')
          .split(';')[0]
          .trim()
          .toLowerCase();
        if (type !== 'application/octet-stream') throw new ApiError(400, FILE_MESSAGES.badChunk);
        const length = req.headers['content-length'];
        const declared = length === undefined ? undefined : Number(length);
        if (declared !== undefined && !(declared <= CHUNK_SIZE)) throw new ApiError(400, FILE_MESSAGES.badChunk);
        return ok(await files.saveChunk({ id: accountIdOf(req) }, req.query, req.raw, declared));
      },
    );

    app.post(
      '/file/merge',
      route({
        tag: TAG,
        summary: '合并分片：按序流式合并并校验 MD5 与内容类型，返回 importFilePath',
        access: 'session',
        body: keyParams,
        response: merged,
      }),
      async (req) => ok(await files.merge(sessionOf(req).account, req.body)),
    );

    app.post(
      '/file/deleteChunks',
      route({
        tag: TAG,
        summary: '删除分片（取消上传）：未完成的上传与其分片一并删除；已完成的文件保留',
        access: 'session',
        body: keyParams,
        response: deleted,
      }),
      async (req) => ok(await files.deleteChunks(sessionOf(req).account, req.body)),
    );

    app.post(
      '/file/delete',
      route({
        tag: TAG,
        summary:
          '删除本人的文件：已完成的上传（importFilePath）或变量、国际短信页的工作文件（varintl/…）；发送在提交时已读取文件，删除不影响已提交的任务',
        access: 'session',
        body: request(ctx, 'params/file-delete'),
        response: deleted,
      }),
      async (req) =>
        ok(await files.deleteFile(sessionOf(req).account, req.body.importFilePath), STORAGE_MESSAGES.deleted),
    );

    app.post(
      '/send/parsefile',
      route({
        tag: '短信发送',
        summary:
          '解析已上传的号码文件（txt、csv、xlsx，流式读取）：号码总数、错误数、重复数与各运营商数量；international=1 为国际号码；templateType=1（变量文件）由变量短信模块解析',
        access: 'session',
        body: request(ctx, 'params/file-parse'),
        response: parsed,
        with: parseSlot(ctx),
      }),
      async (req) => {
        const b = req.body;
        const me = sessionOf(req).account;
        const token = b.importFilePath || b.filePath;
        if (String(b.templateType ?? '') === String(TemplateType.Variable)) {
          if (!files.variableParser) throw new ApiError(400, PARSE_MESSAGES.failed);
          return ok(await files.variableParser(me, await resolveUpload(ctx, me, token), b));
        }
        const { result } = await parseNumberFile(await resolveUpload(ctx, me, token), {
          international: flag(b.international),
        });
        return ok(result, `解析完成：有效号码 ${result.sendNum} 个`);
      },
    );

    app.post(
      '/send/importRrrorPhones',
      route({
        tag: '短信发送',
        summary:
          '下载错误号码（txt）：phones 中（或 importFilePath 文件中）不合规则的号码，international=1 按国际号码规则',
        access: 'session',
        body: request(ctx, 'params/file-error-phones'),
        response: txt,
        with: parseSlot(ctx),
      }),
      async (req, reply) => {
        const b = req.body;
        const intl = flag(b.international);
        let bad: string[];
        if (b.phones) {
          bad = intl
            ? b.phones.split(/[^0-9]+/).filter((t) => t && (t.length < 6 || t.length > 15 || t.startsWith('0')))
            : checkNumbers(b.phones).invalidNumbers;
        } else {
          const me = sessionOf(req).account;
          const parsed = await parseNumberFile(await resolveUpload(ctx, me, b.importFilePath), {
            international: intl,
            keepInvalid: 1_000_000,
          }).catch((e) => {
            // a file without a valid number still has its errors to download
            if (e instanceof ApiError && e.message === PARSE_MESSAGES.empty) return null;
            throw e;
          });
          bad = parsed
            ? parsed.check.invalidNumbers
            : await firstColumnErrors(await resolveUpload(ctx, me, b.importFilePath), {
                international: intl,
                all: true,
              });
        }
        return reply
          .header('content-type', TXT)
          .header('content-disposition', attachment('错误号码.txt'))
          .send(bad.length ? `${bad.join('\r\n')}\r\n` : '');
      },
    );

    app.post(
      '/send/downloadtemplateVariateErrorTxt',
      route({
        tag: '短信发送',
        summary: '下载文件中号码不正确的行（txt，每行：行号,号码）：xlsx 的第一列、txt/csv 每行的第一个字段',
        access: 'session',
        body: request(ctx, 'params/file-error-lines'),
        response: txt,
      }),
      async (req, reply) => {
        const b = req.body;
        const lines = await firstColumnErrors(await resolveUpload(ctx, sessionOf(req).account, b.importFilePath), {
          international: flag(b.international),
        });
        return reply
          .header('content-type', TXT)
          .header('content-disposition', attachment('错误号码.txt'))
          .send(lines.length ? `${lines.join('\r\n')}\r\n` : '');
      },
    );

    app.get(
      '/file/download',
      route({
        tag: TAG,
        summary: '下载本人已上传完成的文件',
        access: 'session',
        querystring: request(ctx, 'params/file-ref'),
        response: fileReply('application/octet-stream'),
      }),
      async (req, reply) => {
        const f = await files.open(sessionOf(req).account, req.query.importFilePath);
        return reply
          .header('content-type', 'application/octet-stream')
          .header('content-length', String(f.size))
          .header('content-disposition', attachment(f.name))
          .send(f.stream);
      },
    );
  };
}

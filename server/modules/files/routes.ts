/**
 * The file service's routes (docs/api-files.md): check, progress, save chunk, merge, delete chunks,
 * download. Keys fileName, fileMd5, flag, chunk, fileSize (spec 02 §7). A chunk is posted as the
 * raw body (`Content-Type: application/octet-stream`) with its keys in the query.
 */
import type { FastifyPluginAsync } from 'fastify';
import { ApiError } from '../../http/errors';
import { ok } from '../../http/reply';
import { BAD_PARAM, params, text } from '../../http/params';
import { route } from '../../http/route';
import { sessionOf } from '../auth/session';
import { attachment } from '../records/service';
import { CHUNK_SIZE, FILE_MAX_BYTES, FILE_MESSAGES, FILE_NAME_MAX, type FileService } from './service';

const TAG = '文件服务';

const md5 = { type: 'string', title: '文件 MD5（32 位十六进制）', maxLength: 32, errorMessage: BAD_PARAM } as const;
const size = { type: 'integer', title: '文件大小（字节）', minimum: 1, maximum: FILE_MAX_BYTES, errorMessage: FILE_MESSAGES.tooLarge } as const;
const keyParams = params({ fileMd5: md5, fileSize: size }, ['fileMd5', 'fileSize']);

export function fileRoutes(files: FileService): FastifyPluginAsync {
  return async (app) => {
    // a chunk is the raw body: read by the handler as a stream, bounded there (never buffered whole)
    app.addContentTypeParser('application/octet-stream', (_req, _payload, done) => done(null));

    app.post(
      '/file/check',
      route({
        tag: TAG,
        summary: '上传前检查：登记上传（按本人 + MD5 + 大小），已完整上传的文件直接复用（uploaded=true 与 importFilePath），否则返回已保存的分片',
        access: 'session',
        body: params({ fileName: text('文件名', FILE_NAME_MAX), fileMd5: md5, fileSize: size, flag: { title: '代理商标记（保留）' } }, ['fileName', 'fileMd5', 'fileSize']),
      }),
      async (req) => ok(await files.check(sessionOf(req).account, req.body as Record<string, unknown>)),
    );

    app.post(
      '/file/progress',
      route({ tag: TAG, summary: '上传进度：已保存的分片与百分比', access: 'session', body: keyParams }),
      async (req) => ok(await files.progress(sessionOf(req).account, req.body as Record<string, unknown>)),
    );

    app.post(
      '/file/chunk',
      route({
        tag: TAG,
        summary: `保存一个分片（请求体为分片字节，Content-Type: application/octet-stream；每片 ${CHUNK_SIZE / 1024 / 1024}M，最后一片为余下字节）`,
        access: 'session',
        querystring: params({ fileMd5: md5, fileSize: size, chunk: { type: 'integer', title: '分片序号（从 0 开始）', minimum: 0, maximum: Math.ceil(FILE_MAX_BYTES / CHUNK_SIZE), errorMessage: FILE_MESSAGES.badChunk } }, ['fileMd5', 'fileSize', 'chunk']),
      }),
      async (req) => {
        const type = String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
        if (type !== 'application/octet-stream') throw new ApiError(400, FILE_MESSAGES.badChunk);
        const declared = Number(req.headers['content-length'] ?? 0);
        if (declared > CHUNK_SIZE) throw new ApiError(400, FILE_MESSAGES.badChunk);
        return ok(await files.saveChunk(sessionOf(req).account, req.query as Record<string, unknown>, req.raw));
      },
    );

    app.post(
      '/file/merge',
      route({ tag: TAG, summary: '合并分片：按序流式合并并校验 MD5 与内容类型，返回 importFilePath', access: 'session', body: keyParams }),
      async (req) => ok(await files.merge(sessionOf(req).account, req.body as Record<string, unknown>)),
    );

    app.post(
      '/file/deleteChunks',
      route({ tag: TAG, summary: '删除分片（取消上传）：未完成的上传与其分片一并删除；已完成的文件保留', access: 'session', body: keyParams }),
      async (req) => ok(await files.deleteChunks(sessionOf(req).account, req.body as Record<string, unknown>)),
    );

    app.get(
      '/file/download',
      route({ tag: TAG, summary: '下载本人已上传完成的文件', access: 'session', querystring: params({ importFilePath: text('文件路径', 64) }, ['importFilePath']) }),
      async (req, reply) => {
        const f = await files.open(sessionOf(req).account, (req.query as { importFilePath?: string }).importFilePath);
        return reply.header('content-type', 'application/octet-stream').header('content-length', String(f.size)).header('content-disposition', attachment(f.name)).send(f.stream);
      },
    );
  };
}

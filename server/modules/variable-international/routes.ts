/**
 * Variable SMS, international SMS and screening routes (docs/api-variable-international.md).
 */
import { assertDiskRoom, assertQuota, STORAGE_MESSAGES } from '../files';
import { parseSlot } from '../../http/parse-slots';
import fs from 'node:fs';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { AppContext } from '../../context';
import type { Account } from '../../db/types';
import { ApiError } from '../../http/errors';
import { ok } from '../../http/reply';
import { api, fileReply, listOf, okOf, request } from '../../http/contract';
import { route } from '../../http/route';
import { sessionOf } from '../../http/session';
import { sendFile, XLSX_MIME } from '../../http/download';
import { sendPayload, sent } from '../send';
import { FileTooLarge, saveUpload, type WorkExt } from './work-files';
import { IX, type VarIntlService } from './service';
import { variableTemplateXlsx, VARIABLE_FILE_MAX_BYTES, VARIABLE_FILE_NAME_MAX, VX } from './variable';
import { codeOf } from '../../lib/error-code';

const TAG = '变量短信与国际短信';
export const INTL_FILE_MAX_BYTES = 250 * 1024 * 1024;
export const INTL_FILE_NAME_MAX = 30;

interface UploadRule {
  exts: WorkExt[];
  maxBytes: number;
  nameMax: number;
  msg: { noFile: string; badType: string; tooLarge: string; nameTooLong: string };
}

/** One multipart file (field `file`) streamed to a working file of the session account. */
async function receive(ctx: AppContext, req: FastifyRequest, me: Account, rule: UploadRule) {
  if (!req.isMultipart()) throw new ApiError(400, rule.msg.noFile);
  let saved: { rel: string; size: number; name: string } | undefined;
  try {
    for await (const part of req.parts({ limits: { fileSize: rule.maxBytes, files: 1, fields: 10, parts: 12 } })) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== 'file' || saved) {
        part.file.resume();
        continue;
      }
      const name = (part.filename ?? '').trim();
      const ext = /\.([A-Za-z]+)$/.exec(name)?.[1]?.toLowerCase() as WorkExt | undefined;
      if (!ext || !rule.exts.includes(ext)) {
        part.file.resume();
        throw new ApiError(400, rule.msg.badType);
      }
      if ([...name].length > rule.nameMax) {
        part.file.resume();
        throw new ApiError(400, rule.msg.nameTooLong);
      }
      // the account's storage quota and the disk floor (files/storage.ts): cut off at the room left
      await assertDiskRoom(ctx, 0);
      const room = await assertQuota(ctx, ctx.db, me, 1);
      let f;
      try {
        f = await saveUpload(ctx, me, ext, part.file, Math.min(rule.maxBytes, room));
      } catch (e) {
        if (e instanceof FileTooLarge && room < rule.maxBytes) throw new ApiError(400, STORAGE_MESSAGES.quota);
        throw e;
      }
      saved = { rel: f.rel, size: f.size, name };
    }
  } catch (e) {
    if (e instanceof ApiError) throw e;
    const code = codeOf(e);
    if (e instanceof FileTooLarge || code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError(400, rule.msg.tooLarge);
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw new ApiError(400, '一次只能上传一个文件');
    throw new ApiError(400, '上传出错！请检查后重新上传！');
  }
  if (!saved) throw new ApiError(400, rule.msg.noFile);
  return { importFilePath: saved.rel, fileName: saved.name, fileSize: saved.size };
}

export function varIntlRoutes(ctx: AppContext, svc: VarIntlService): FastifyPluginAsync {
  const intlForm = request(ctx, 'forms/send-international');
  const variableForm = request(ctx, 'forms/send-variable');
  return async (plugin) => {
    if (!plugin.hasContentTypeParser('multipart/form-data'))
      await plugin.register(multipart, {
        limits: { fileSize: VARIABLE_FILE_MAX_BYTES, files: 1, fields: 10, parts: 12 },
      });
    const app = api(plugin);

    app.get(
      '/sms/gj/prices',
      route({
        tag: TAG,
        summary: '国际短信价格表（search：国家/地区中文或英文名、ISO 代码或国际区号）',
        access: 'session',
        querystring: request(ctx, 'params/intl-prices'),
        response: listOf(ctx, 'entities/international-price'),
      }),
      async (req) => {
        const rows = await svc.prices(req.query.search ?? '');
        return ok({ list: rows, totalCount: rows.length });
      },
    );

    app.post(
      '/send/checkMobileInternational',
      route({
        tag: TAG,
        summary: '国际号码检测：每个号码的国家/地区（libphonenumber 元数据）、单价；错误与重复号码',
        access: 'session',
        body: request(ctx, 'params/intl-check-mobiles'),
        response: okOf(ctx, 'responses/intl-check'),
      }),
      async (req) => ok(await svc.checkInternational(String(req.body.mobiles ?? ''))),
    );

    app.post(
      '/send/uploadVariateFile',
      route({
        tag: TAG,
        summary: '上传变量文件（multipart，字段 file：xlsx，≤ 300M，文件名 ≤ 50 个字符）',
        access: 'session',
        body: request(ctx, 'params/variable-file-upload'),
        response: okOf(ctx, 'responses/work-file'),
      }),
      async (req) =>
        ok(
          await receive(ctx, req, sessionOf(req).account, {
            exts: ['xlsx'],
            maxBytes: VARIABLE_FILE_MAX_BYTES,
            nameMax: VARIABLE_FILE_NAME_MAX,
            msg: {
              noFile: VX.noFile,
              badType: VX.fileBadType,
              tooLarge: VX.fileTooLarge,
              nameTooLong: VX.fileNameTooLong,
            },
          }),
          '上传成功',
        ),
    );

    app.post(
      '/send/uploadInternationalFile',
      route({
        tag: TAG,
        summary: '上传国际号码文件（multipart，字段 file：txt、csv、xlsx，≤ 250M，文件名 ≤ 30 个字符）',
        access: 'session',
        body: request(ctx, 'params/intl-file-upload'),
        response: okOf(ctx, 'responses/work-file'),
      }),
      async (req) =>
        ok(
          await receive(ctx, req, sessionOf(req).account, {
            exts: ['txt', 'csv', 'xlsx'],
            maxBytes: INTL_FILE_MAX_BYTES,
            nameMax: INTL_FILE_NAME_MAX,
            msg: {
              noFile: '请上传号码文件',
              badType: IX.fileBadType,
              tooLarge: IX.fileTooLarge,
              nameTooLong: IX.fileNameTooLong,
            },
          }),
          '上传成功',
        ),
    );

    app.post(
      '/send/parsefileVariate',
      route({
        tag: TAG,
        summary:
          '解析变量文件：逐行检查（号码、重复、变量个数与长度、合计字数），合格行写入 sendFilePath，错误行及原因写入 errorFilePath',
        access: 'session',
        body: request(ctx, 'params/variable-parse'),
        response: okOf(ctx, 'responses/variable-parse'),
        payload: sendPayload,
        with: parseSlot(ctx),
      }),
      async (req) => {
        const r = await svc.parseVariable(sessionOf(req).account, req.body);
        return ok(r, `解析完成：有效 ${r.submitTotal} 行，错误 ${r.errNum} 行，重复 ${r.repeatNum} 行`);
      },
    );

    app.post(
      '/send/parsefileInternational',
      route({
        tag: TAG,
        summary: '解析国际号码文件（txt、csv、xlsx）：有效、错误、重复号码及各国家/地区数量',
        access: 'session',
        body: request(ctx, 'params/intl-parse'),
        response: okOf(ctx, 'responses/intl-check'),
        with: parseSlot(ctx),
      }),
      async (req) => ok(await svc.parseInternationalFile(sessionOf(req).account, req.body)),
    );

    app.get(
      '/send/downloadtemplateVariate',
      route({ tag: TAG, summary: '下载变量文件模板（Excel）', access: 'session', response: fileReply(XLSX_MIME) }),
      async (_req, reply) => sendFile(reply, await variableTemplateXlsx(), '变量短信模板.xlsx'),
    );

    app.get(
      '/send/downloadtemplateVariateError',
      route({
        tag: TAG,
        summary: '下载变量文件的错误数据（Excel：号码、变量、错误原因）',
        access: 'session',
        querystring: request(ctx, 'params/variable-error-file'),
        response: fileReply(XLSX_MIME),
      }),
      async (req, reply) =>
        sendFile(
          reply,
          fs.createReadStream(await svc.errorFile(sessionOf(req).account, req.query.filePath)),
          '变量文件错误数据.xlsx',
        ),
    );

    app.post(
      '/send/screenPhones',
      route({
        tag: TAG,
        summary:
          '号码筛选：按运营商、省份保留，按城市屏蔽；type 1 手动号码（phones），2 文件（importFilePath / sendFilePath）；返回筛选后的 submitTotal',
        access: 'session',
        body: request(ctx, 'params/screen-phones'),
        response: okOf(ctx, 'responses/screened'),
      }),
      async (req) => ok(await svc.screen(sessionOf(req).account, req.body)),
    );

    app.post(
      '/send/chargeInfoInternational',
      route({
        tag: TAG,
        summary:
          '国际短信字数与计费确认（字数 = 内容 + 签名 + 2，每条计费条数，各国家/地区数量与单价，金额；按金额计费：余额，产品包账户：国际短信余额 remainAmount）',
        access: 'session',
        body: intlForm,
        response: okOf(ctx, 'responses/intl-charge'),
        payload: sendPayload,
      }),
      async (req) => ok(await svc.previewInternational(sessionOf(req).account, req.body)),
    );
    app.post(
      '/send/sendingInternational',
      route({
        tag: TAG,
        summary: '国际短信立即发送（按国家/地区单价逐国计费：按金额账户扣余额，产品包账户扣国际短信余额）',
        access: 'session',
        refusals: 'console',
        body: intlForm,
        response: okOf(ctx, 'responses/send-answer'),
        payload: sendPayload,
      }),
      async (req) => sent(await svc.sendInternational(sessionOf(req).account, req.body)),
    );
    app.post(
      '/send/chargeInfoVariable',
      route({
        tag: TAG,
        summary: '变量短信计费确认（每行按自己的条数计费：总条数、金额或剩余条数）',
        access: 'session',
        body: variableForm,
        response: okOf(ctx, 'responses/variable-charge'),
        payload: sendPayload,
      }),
      async (req) => ok(await svc.previewVariable(sessionOf(req).account, req.body)),
    );
    app.post(
      '/send/sendingVariable',
      route({
        tag: TAG,
        summary: '变量短信立即发送（文件每行自己的内容与条数）',
        access: 'session',
        refusals: 'console',
        body: variableForm,
        response: okOf(ctx, 'responses/send-answer'),
        payload: sendPayload,
      }),
      async (req) => sent(await svc.sendVariable(sessionOf(req).account, req.body)),
    );

    app.post(
      '/send/send_time_sms',
      route({
        tag: TAG,
        summary:
          '变量短信（sendKind 1）与国际短信（sendKind 2）定时发送（JSON；5 分钟后、24 小时内；额度不足 code 403；国际定时任务提交后不可取消）',
        access: 'session',
        refusals: 'console',
        body: request(ctx, 'params/send-time-sms'),
        response: okOf(ctx, 'responses/send-answer'),
      }),
      async (req) => sent(await svc.sendTimed(sessionOf(req).account, req.body)),
    );
  };
}

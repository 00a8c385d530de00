/**
 * Variable SMS, international SMS and screening routes (docs/api-variable-international.md).
 */
import { assertDiskRoom, assertQuota, STORAGE_MESSAGES } from '../files/storage';
import { parseSlot } from '../../http/parse-slots';
import fs from 'node:fs';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { AppContext } from '../../context';
import type { Account } from '../../db/types';
import { ApiError } from '../../http/errors';
import { ok } from '../../http/reply';
import { BAD_PARAM, clientId, id, params, text } from '../../http/params';
import { route } from '../../http/route';
import { formSchema } from '../../http/validation';
import { sessionOf } from '../auth/session';
import { attachment as xlsxDisposition, XLSX_MIME } from '../../http/download';
import { sendPayload } from '../send/routes';
import { MESSAGES } from '../../../common/schema/messages';
import type { SendInternationalForm, SendVariableForm } from '../../../common/generated/schemas';
import { FileTooLarge, saveUpload, type WorkExt } from './work-files';
import { IX, INTL_FORM, VARIABLE_FORM, type VarIntlService } from './service';
import { variableTemplateXlsx, VARIABLE_FILE_MAX_BYTES, VARIABLE_FILE_NAME_MAX, VX } from './variable';
import type { SendResult } from '../send/service';

const TAG = '变量短信与国际短信';
export const INTL_FILE_MAX_BYTES = 250 * 1024 * 1024;
export const INTL_FILE_NAME_MAX = 30;

const sent = (r: SendResult) => ok({ taskId: r.taskId, smsNum: r.smsNum, chargeNum: r.chargeNum, submitTotal: r.submitTotal, amount: r.amount }, r.msg);
const ids = (title: string) => ({ title, type: ['string', 'integer', 'array'], maxLength: 20000, maxItems: 5000, errorMessage: BAD_PARAM });

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
  } catch (e: any) {
    if (e instanceof ApiError) throw e;
    if (e instanceof FileTooLarge || e?.code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError(400, rule.msg.tooLarge);
    if (e?.code === 'FST_FILES_LIMIT' || e?.code === 'FST_PARTS_LIMIT' || e?.code === 'FST_FIELDS_LIMIT') throw new ApiError(400, '一次只能上传一个文件');
    throw new ApiError(400, '上传出错！请检查后重新上传！');
  }
  if (!saved) throw new ApiError(400, rule.msg.noFile);
  return { importFilePath: saved.rel, fileName: saved.name, fileSize: saved.size };
}

export function varIntlRoutes(ctx: AppContext, svc: VarIntlService): FastifyPluginAsync {
  const withPayload = { preValidation: async (req: FastifyRequest) => void (req.body = sendPayload(sessionOf(req).account, req.body)) };
  const intlForm = formSchema(ctx.schemas, INTL_FORM);
  const variableForm = formSchema(ctx.schemas, VARIABLE_FORM);
  return async (app) => {
    if (!app.hasContentTypeParser('multipart/form-data')) await app.register(multipart, { limits: { fileSize: VARIABLE_FILE_MAX_BYTES, files: 1, fields: 10, parts: 12 } });

    app.get(
      '/sms/gj/prices',
      route({ tag: TAG, summary: '国际短信价格表（search：国家/地区中文或英文名、ISO 代码或国际区号）', access: 'session', querystring: params({ search: text('搜索', 60) }) }),
      async (req) => {
        const rows = await svc.prices(String((req.query as { search?: string }).search ?? ''));
        return ok({ list: rows, totalCount: rows.length });
      },
    );

    app.post(
      '/send/checkMobileInternational',
      route({ tag: TAG, summary: '国际号码检测：每个号码的国家/地区（libphonenumber 元数据）、单价；错误与重复号码', access: 'session', body: params({ mobiles: { title: '号码（只含数字和逗号）', type: ['string', 'integer'], maxLength: 17_000_000, errorMessage: BAD_PARAM } }) }),
      async (req) => ok(await svc.checkInternational(String((req.body as { mobiles?: unknown } | undefined)?.mobiles ?? ''))),
    );

    app.post('/send/uploadVariateFile', route({ tag: TAG, summary: '上传变量文件（multipart，字段 file：xlsx，≤ 300M，文件名 ≤ 50 个字符）', access: 'session' }), async (req) =>
      ok(
        await receive(ctx, req, sessionOf(req).account, {
          exts: ['xlsx'],
          maxBytes: VARIABLE_FILE_MAX_BYTES,
          nameMax: VARIABLE_FILE_NAME_MAX,
          msg: { noFile: VX.noFile, badType: VX.fileBadType, tooLarge: VX.fileTooLarge, nameTooLong: VX.fileNameTooLong },
        }),
        '上传成功',
      ),
    );

    app.post('/send/uploadInternationalFile', route({ tag: TAG, summary: '上传国际号码文件（multipart，字段 file：txt、csv、xlsx，≤ 250M，文件名 ≤ 30 个字符）', access: 'session' }), async (req) =>
      ok(
        await receive(ctx, req, sessionOf(req).account, {
          exts: ['txt', 'csv', 'xlsx'],
          maxBytes: INTL_FILE_MAX_BYTES,
          nameMax: INTL_FILE_NAME_MAX,
          msg: { noFile: '请上传号码文件', badType: IX.fileBadType, tooLarge: IX.fileTooLarge, nameTooLong: IX.fileNameTooLong },
        }),
        '上传成功',
      ),
    );

    app.post(
      '/send/parsefileVariate',
      route({
        tag: TAG,
        summary: '解析变量文件：逐行检查（号码、重复、变量个数与长度、合计字数），合格行写入 sendFilePath，错误行及原因写入 errorFilePath',
        access: 'session',
        body: params({ clientId: clientId('子账户'), importFilePath: text('变量文件（上传所得 importFilePath）', 200), templateId: id('变量模板'), sign: text('签名', 12), fileName: text('文件名', 100) }),
        with: { ...withPayload, ...parseSlot(ctx) },
      }),
      async (req) => {
        const r = await svc.parseVariable(sessionOf(req).account, req.body as Record<string, string>);
        return ok(r, `解析完成：有效 ${r.submitTotal} 行，错误 ${r.errNum} 行，重复 ${r.repeatNum} 行`);
      },
    );

    app.post(
      '/send/parsefileInternational',
      route({
        tag: TAG,
        summary: '解析国际号码文件（txt、csv、xlsx）：有效、错误、重复号码及各国家/地区数量',
        access: 'session',
        body: params({ importFilePath: text('号码文件', 200), fileName: text('文件名', 100) }),
        with: parseSlot(ctx),
      }),
      async (req) => {
        const b = req.body as { importFilePath?: string; fileName?: string };
        return ok(await svc.parseInternationalFile(sessionOf(req).account, String(b.importFilePath ?? ''), String(b.fileName ?? '')));
      },
    );

    app.get('/send/downloadtemplateVariate', route({ tag: TAG, summary: '下载变量文件模板（Excel）', access: 'session' }), async (_req, reply) =>
      reply.header('content-type', XLSX_MIME).header('content-disposition', xlsxDisposition('变量短信模板.xlsx')).send(await variableTemplateXlsx()),
    );

    app.get(
      '/send/downloadtemplateVariateError',
      route({ tag: TAG, summary: '下载变量文件的错误数据（Excel：号码、变量、错误原因）', access: 'session', querystring: params({ filePath: text('错误文件（errorFilePath）', 200) }) }),
      async (req, reply) => {
        const abs = await svc.errorFile(sessionOf(req).account, (req.query as { filePath?: string }).filePath);
        return reply.header('content-type', XLSX_MIME).header('content-disposition', xlsxDisposition('变量文件错误数据.xlsx')).send(fs.createReadStream(abs));
      },
    );

    app.post(
      '/send/screenPhones',
      route({
        tag: TAG,
        summary: '号码筛选：按运营商、省份保留，按城市屏蔽；type 1 手动号码（phones），2 文件（importFilePath / sendFilePath）；返回筛选后的 submitTotal',
        access: 'session',
        body: params({
          operators: ids('运营商（1 移动，2 联通，3 电信；逗号分隔）'),
          provinces: ids('省份编号（逗号分隔）'),
          removeCitys: ids('屏蔽城市编号（逗号分隔）'),
          type: { title: '号码来源（1 手动，2 文件）', type: ['integer', 'string'], enum: [1, 2, '1', '2'], errorMessage: BAD_PARAM },
          phones: text('手动号码', 780000),
          importFilePath: text('文件', 200),
          sendFilePath: text('发送文件', 200),
          variateNum: { title: '变量个数', type: ['integer', 'string'], maxLength: 3, errorMessage: BAD_PARAM },
        }),
      }),
      async (req) => ok(await svc.screen(sessionOf(req).account, (req.body ?? {}) as Record<string, unknown>)),
    );

    app.post<{ Body: SendInternationalForm }>(
      '/send/chargeInfoInternational',
      route({ tag: TAG, summary: '国际短信字数与计费确认（字数 = 内容 + 签名 + 2，每条计费条数，各国家/地区数量与单价，金额；按金额计费：余额，产品包账户：国际短信余额 remainAmount）', access: 'session', body: intlForm, with: withPayload }),
      async (req) => ok(await svc.previewInternational(sessionOf(req).account, req.body)),
    );
    app.post<{ Body: SendInternationalForm }>(
      '/send/sendingInternational',
      route({ tag: TAG, summary: '国际短信立即发送（按国家/地区单价逐国计费：按金额账户扣余额，产品包账户扣国际短信余额）', access: 'session', body: intlForm, with: withPayload }),
      async (req) => sent(await svc.sendInternational(sessionOf(req).account, req.body)),
    );
    app.post<{ Body: SendVariableForm }>(
      '/send/chargeInfoVariable',
      route({ tag: TAG, summary: '变量短信计费确认（每行按自己的条数计费：总条数、金额或剩余条数）', access: 'session', body: variableForm, with: withPayload }),
      async (req) => ok(await svc.previewVariable(sessionOf(req).account, req.body)),
    );
    app.post<{ Body: SendVariableForm }>(
      '/send/sendingVariable',
      route({ tag: TAG, summary: '变量短信立即发送（文件每行自己的内容与条数）', access: 'session', body: variableForm, with: withPayload }),
      async (req) => sent(await svc.sendVariable(sessionOf(req).account, req.body)),
    );

    app.post(
      '/send/send_time_sms',
      route({
        tag: TAG,
        summary: '变量短信（sendKind 1）与国际短信（sendKind 2）定时发送（JSON；5 分钟后、24 小时内；额度不足 code 403；国际定时任务提交后不可取消）',
        access: 'session',
        body: {
          type: 'object',
          properties: {
            sendKind: { title: '1 变量短信，2 国际短信', type: ['integer', 'string'], enum: [1, 2, '1', '2'], errorMessage: MESSAGES.badParam },
            clientId: clientId('子账户'),
            templateId: { title: '变量模板', type: ['integer', 'string'], maxLength: 12, errorMessage: MESSAGES.badParam },
            content: text('短信内容', 600),
            sign: text('签名', 40),
            smstype: { title: '短信类型', type: ['integer', 'string'], maxLength: 3, errorMessage: MESSAGES.badParam },
            fileType: { title: '号码来源', type: ['integer', 'string'], maxLength: 3, errorMessage: MESSAGES.badParam },
            importFilePath: text('文件', 200),
            mobilelist: text('号码', 1_100_000),
            sendtime: text('发送时间', 40),
            isCheckAvailableCredit: { title: '检查可用额度', type: ['integer', 'string'], maxLength: 3, errorMessage: MESSAGES.badParam },
          },
          required: ['sendKind'],
          errorMessage: { required: { sendKind: MESSAGES.badParam } },
        },
      }),
      async (req) => sent(await svc.sendTimed(sessionOf(req).account, (req.body ?? {}) as Record<string, unknown>)),
    );
  };
}

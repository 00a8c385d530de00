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
import { sendPayload, type SendResult } from '../send';
import type { JsonSchema } from '../../../common/schema';
import { FileTooLarge, saveUpload, type WorkExt } from './work-files';
import { IX, type VarIntlService } from './service';
import { variableTemplateXlsx, VARIABLE_FILE_MAX_BYTES, VARIABLE_FILE_NAME_MAX, VX } from './variable';
import { codeOf } from '../../lib/error-code';

const TAG = '变量短信与国际短信';
export const INTL_FILE_MAX_BYTES = 250 * 1024 * 1024;
export const INTL_FILE_NAME_MAX = 30;

const sent = (r: SendResult) =>
  ok({ taskId: r.taskId, smsNum: r.smsNum, chargeNum: r.chargeNum, submitTotal: r.submitTotal, amount: r.amount, blacklistNum: r.blacklistNum ?? 0 }, r.msg);

const int = (title: string): JsonSchema => ({ type: 'integer', title });
const str = (title: string): JsonSchema => ({ type: 'string', title });
const strs = (title: string): JsonSchema => ({ type: 'array', title, items: { type: 'string' } });

/** The answer of an accepted send (immediate or timed). */
const SENT: JsonSchema = {
  type: 'object',
  required: ['taskId', 'smsNum', 'chargeNum', 'submitTotal', 'amount'],
  properties: {
    taskId: str('任务编号'),
    smsNum: int('每条计费条数'),
    chargeNum: int('计费总条数'),
    submitTotal: int('提交号码数'),
    amount: str('金额（元；套餐账户 0）'),
    blacklistNum: int('黑名单号码数（营销短信跳过，不发送、不计费）'),
  },
};
/** A working file received by an upload route. */
const UPLOADED: JsonSchema = {
  type: 'object',
  required: ['importFilePath', 'fileName', 'fileSize'],
  properties: { importFilePath: str('工作文件（varintl/…）'), fileName: str('文件名'), fileSize: int('字节数') },
};
/** One country of a check or a send: its numbers and price per piece. */
const COUNTRY: JsonSchema = {
  type: 'object',
  required: ['intercode', 'countryCode', 'countryName', 'num', 'fee'],
  properties: { intercode: str('国际代码'), countryCode: str('国家代码'), countryName: str('国家/地区'), num: int('号码数'), fee: str('单价（元/条）') },
};
/** The check of international numbers (typed or a file). */
const INTL_CHECK: JsonSchema = {
  type: 'object',
  required: ['internationalPhoneNum', 'internationalSet', 'countries', 'errorSet', 'domesticNum', 'domesticSet', 'parseMobilesInfo'],
  properties: {
    fileName: str('文件名'),
    importFilePath: str('号码文件'),
    internationalPhoneNum: int('有效号码数'),
    internationalSet: strs('有效号码（最多 100000 个）'),
    countries: { type: 'array', title: '各国家/地区', items: COUNTRY },
    errorSet: strs('错误号码（最多 1000 个；不含下面的中国大陆手机号码）'),
    domesticNum: int('错误号码中以 86 / 0086 开头的中国大陆手机号码数（应使用国内短信发送）'),
    domesticSet: strs('这些中国大陆手机号码（最多 1000 个，原样）'),
    parseMobilesInfo: {
      type: 'object',
      required: ['submitTotal', 'errNum', 'repeatNum'],
      properties: { submitTotal: int('号码总数'), errNum: int('错误号码数'), repeatNum: int('重复号码数') },
    },
  },
};
/** The check of a variable file (POST /send/parsefileVariate). */
const VARIABLE_PARSE: JsonSchema = {
  type: 'object',
  required: ['fileName', 'totalNum', 'submitTotal', 'errNum', 'repeatNum', 'mobileNum', 'unicomNum', 'telecomNum', 'variateNum', 'sendFilePath', 'errorFilePath'],
  properties: {
    fileName: str('文件名'),
    totalNum: int('数据行数'),
    submitTotal: int('有效行数'),
    errNum: int('错误行数'),
    repeatNum: int('重复行数'),
    mobileNum: int('移动号码数'),
    unicomNum: int('联通号码数'),
    telecomNum: int('电信号码数'),
    variateNum: int('变量个数'),
    sendFilePath: str('发送文件（无有效行时为空）'),
    errorFilePath: str('错误文件（无错误行时为空）'),
    preview: {
      type: 'array',
      title: '前几行合格数据填好变量后的内容（最多 3 行，不含签名），供发送页预览',
      maxItems: 3,
      items: { type: 'object', required: ['phone', 'content'], properties: { phone: str('号码'), content: str('填好变量的内容') } },
    },
  },
};
/** The screening's counts and its numbers (type 1) or new send file (type 2). */
const SCREENED: JsonSchema = {
  type: 'object',
  required: ['submitTotal', 'mobileNum', 'unicomNum', 'telecomNum'],
  properties: {
    submitTotal: int('筛选后号码数'),
    mobileNum: int('移动号码数'),
    unicomNum: int('联通号码数'),
    telecomNum: int('电信号码数'),
    phones: str('筛选后的号码（type 1，逗号分隔）'),
    sendFilePath: str('筛选后的发送文件（type 2）'),
    variateNum: int('变量个数'),
  },
};
/** The confirm dialog's figures (variable and international). */
const CHARGE_FIELDS: Record<string, JsonSchema> = {
  submitTotal: int('提交号码数'),
  errNum: int('错误号码数'),
  repeatNum: int('重复号码数'),
  blacklistNum: int('黑名单号码数（营销短信跳过，不发送、不计费）'),
  chargeMode: int('计费方式'),
  chargeNum: int('计费总条数'),
  amount: str('金额（元）'),
  balance: str('账户余额（元）'),
  remainPieces: int('剩余条数'),
  remainAmount: str('国际短信余额（元）'),
};
const VARIABLE_CHARGE: JsonSchema = { type: 'object', required: ['submitTotal', 'errNum', 'repeatNum', 'chargeMode', 'chargeNum'], properties: CHARGE_FIELDS };
const INTL_CHARGE: JsonSchema = {
  type: 'object',
  required: ['chars', 'smsNum', 'submitTotal', 'errNum', 'repeatNum', 'countries', 'chargeMode', 'chargeNum'],
  properties: { chars: int('字数（含签名及括号）'), smsNum: int('每条计费条数'), countries: { type: 'array', title: '各国家/地区', items: COUNTRY }, ...CHARGE_FIELDS },
};

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
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw new ApiError(400, '一次只能上传一个文件');
    throw new ApiError(400, '上传出错！请检查后重新上传！');
  }
  if (!saved) throw new ApiError(400, rule.msg.noFile);
  return { importFilePath: saved.rel, fileName: saved.name, fileSize: saved.size };
}

export function varIntlRoutes(ctx: AppContext, svc: VarIntlService): FastifyPluginAsync {
  const withPayload = { preValidation: async (req: FastifyRequest) => void (req.body = sendPayload(sessionOf(req).account, req.body)) };
  const intlForm = request(ctx, 'forms/send-international');
  const variableForm = request(ctx, 'forms/send-variable');
  return async (plugin) => {
    if (!plugin.hasContentTypeParser('multipart/form-data')) await plugin.register(multipart, { limits: { fileSize: VARIABLE_FILE_MAX_BYTES, files: 1, fields: 10, parts: 12 } });
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
        response: okOf(ctx, INTL_CHECK),
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
        response: okOf(ctx, UPLOADED),
      }),
      async (req) =>
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

    app.post(
      '/send/uploadInternationalFile',
      route({
        tag: TAG,
        summary: '上传国际号码文件（multipart，字段 file：txt、csv、xlsx，≤ 250M，文件名 ≤ 30 个字符）',
        access: 'session',
        body: request(ctx, 'params/intl-file-upload'),
        response: okOf(ctx, UPLOADED),
      }),
      async (req) =>
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
        body: request(ctx, 'params/variable-parse'),
        response: okOf(ctx, VARIABLE_PARSE),
        with: { ...withPayload, ...parseSlot(ctx) },
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
        response: okOf(ctx, INTL_CHECK),
        with: parseSlot(ctx),
      }),
      async (req) => ok(await svc.parseInternationalFile(sessionOf(req).account, req.body)),
    );

    app.get('/send/downloadtemplateVariate', route({ tag: TAG, summary: '下载变量文件模板（Excel）', access: 'session', response: fileReply(XLSX_MIME) }), async (_req, reply) =>
      sendFile(reply, await variableTemplateXlsx(), '变量短信模板.xlsx'),
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
      async (req, reply) => sendFile(reply, fs.createReadStream(await svc.errorFile(sessionOf(req).account, req.query.filePath)), '变量文件错误数据.xlsx'),
    );

    app.post(
      '/send/screenPhones',
      route({
        tag: TAG,
        summary: '号码筛选：按运营商、省份保留，按城市屏蔽；type 1 手动号码（phones），2 文件（importFilePath / sendFilePath）；返回筛选后的 submitTotal',
        access: 'session',
        body: request(ctx, 'params/screen-phones'),
        response: okOf(ctx, SCREENED),
      }),
      async (req) => ok(await svc.screen(sessionOf(req).account, req.body)),
    );

    app.post(
      '/send/chargeInfoInternational',
      route({
        tag: TAG,
        summary: '国际短信字数与计费确认（字数 = 内容 + 签名 + 2，每条计费条数，各国家/地区数量与单价，金额；按金额计费：余额，产品包账户：国际短信余额 remainAmount）',
        access: 'session',
        body: intlForm,
        response: okOf(ctx, INTL_CHARGE),
        with: withPayload,
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
        response: okOf(ctx, SENT),
        with: withPayload,
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
        response: okOf(ctx, VARIABLE_CHARGE),
        with: withPayload,
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
        response: okOf(ctx, SENT),
        with: withPayload,
      }),
      async (req) => sent(await svc.sendVariable(sessionOf(req).account, req.body)),
    );

    app.post(
      '/send/send_time_sms',
      route({
        tag: TAG,
        summary: '变量短信（sendKind 1）与国际短信（sendKind 2）定时发送（JSON；5 分钟后、24 小时内；额度不足 code 403；国际定时任务提交后不可取消）',
        access: 'session',
        refusals: 'console',
        body: request(ctx, 'params/send-time-sms'),
        response: okOf(ctx, SENT),
      }),
      async (req) => sent(await svc.sendTimed(sessionOf(req).account, req.body)),
    );
  };
}

import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { AppContext } from '../../context';
import type { Account } from '../../db/types';
import { ApiError } from '../../http/errors';
import { ok } from '../../http/reply';
import { api, arrayOf, fileReply, okEmpty, okOf, request } from '../../http/contract';
import { route } from '../../http/route';
import { sessionOf } from '../../http/session';
import { CSV_MIME, sendFile, TXT_MIME, XLSX_MIME } from '../../http/download';
import { IMPORT_MAX_BYTES, IMPORT_MSG, importKindOf, importResult, templateCsv, templateTxt, templateXlsx, textTokens, xlsxTokens } from './import';
import { parseSendTime, sendTimeError } from '../../../common/send';
import { MSG, X, type SendService, type SendResult } from './service';
import { UserType } from '../../../common/generated/schemas';
import type { JsonSchema } from '../../../common/schema';

const TAG = '短信发送';

/** A sub-account (or direct customer) always sends as itself: its clientId comes from the session. */
export function sendPayload(me: Account, body: unknown): Record<string, unknown> {
  const raw = (body && typeof body === 'object' && !Array.isArray(body) ? { ...(body as Record<string, unknown>) } : {}) as Record<string, unknown>;
  if (me.user_type !== UserType.Agent) raw.clientId = me.clientid;
  else if (raw.clientId === undefined && raw.clientid !== undefined) raw.clientId = raw.clientid;
  return raw;
}

const sent = (r: SendResult) =>
  ok({ taskId: r.taskId, smsNum: r.smsNum, chargeNum: r.chargeNum, submitTotal: r.submitTotal, amount: r.amount, blacklistNum: r.blacklistNum ?? 0 }, r.msg);

const int = (title: string): JsonSchema => ({ type: 'integer', title });
const str = (title: string): JsonSchema => ({ type: 'string', title });

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
/** /send/getsmstypes: one option per SMS type. */
const SMS_TYPE_OPTION: JsonSchema = {
  type: 'object',
  required: ['value', 'label', 'accountExtAttr'],
  properties: { value: int('短信类型'), label: str('名称'), accountExtAttr: str('运营模式（0 按金额，1 按条数）') },
};
/** /send/chargeInfo: the confirm dialog's figures (pools: remainPieces; money: amount and balance). */
const CHARGE_INFO: JsonSchema = {
  type: 'object',
  required: ['smsNum', 'chargeNum', 'submitTotal', 'chargeMode'],
  properties: {
    smsNum: int('每条计费条数'),
    chargeNum: int('计费总条数'),
    submitTotal: int('提交号码数'),
    blacklistNum: int('黑名单号码数（营销短信跳过，不发送、不计费）'),
    chargeMode: int('计费方式'),
    remainPieces: int('剩余条数'),
    amount: str('金额（元）'),
    balance: str('账户余额（元）'),
  },
};
/** /send/edit: a waiting timed task's fields for re-editing (content without its sign). */
const EDITED_TASK: JsonSchema = {
  type: 'object',
  required: ['clientId', 'content', 'sign', 'smstype', 'mobile', 'sendtime', 'taskId'],
  properties: {
    clientId: str('子账户'),
    content: str('短信内容（不带签名）'),
    sign: str('签名'),
    smstype: int('短信类型'),
    templateId: { type: ['integer', 'null'], title: '模板' },
    templateType: { type: ['integer', 'null'], title: '模板类型' },
    mobile: str('号码（逗号分隔）'),
    sendtime: str('定时发送时间'),
    taskId: str('任务编号'),
  },
};

/** /send/*: accepting sends (ordinary and timed), their charge preview, re-edit, cancel, number import and templates. */
export function sendRoutes(ctx: AppContext, send: SendService): FastifyPluginAsync {
  const withPayload = { preValidation: async (req: FastifyRequest) => void (req.body = sendPayload(sessionOf(req).account, req.body)) };
  return async (plugin) => {
    if (!plugin.hasContentTypeParser('multipart/form-data')) await plugin.register(multipart, { limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 10, parts: 12 } });
    const app = api(plugin);

    app.post(
      '/send/getsmstypes',
      route({ tag: TAG, summary: '账户可发送的短信类型', access: 'session', body: request(ctx, 'params/send-sms-types'), response: arrayOf(ctx, SMS_TYPE_OPTION) }),
      async (req) => ok(await send.getSmsTypes(sessionOf(req).account, req.body.clientid)),
    );

    app.post(
      '/send/chargeInfo',
      route({
        tag: TAG,
        summary: '计费预览（确认对话框：每条计费条数、总条数、金额或剩余条数）',
        access: 'session',
        body: request(ctx, 'params/send-charge-info'),
        response: okOf(ctx, CHARGE_INFO),
        with: withPayload,
      }),
      async (req) => ok(await send.chargeInfo(sessionOf(req).account, req.body)),
    );

    app.post(
      '/send/sending',
      route({
        tag: TAG,
        summary: '立即发送（content 可带【签名】前缀；代理商须选择子账号）',
        access: 'session',
        refusals: 'console',
        body: request(ctx, 'forms/send'),
        response: okOf(ctx, SENT),
        with: withPayload,
      }),
      async (req) => sent(await send.send(sessionOf(req).account, req.body)),
    );

    app.post(
      '/send/sendTim',
      route({
        tag: TAG,
        summary: '定时发送（JSON；额度不足时 code 403，确认后以 isCheckAvailableCredit=0 重新提交）',
        access: 'session',
        refusals: 'console',
        body: request(ctx, 'params/send-timed'),
        response: okOf(ctx, SENT),
      }),
      async (req) => sent(await send.sendTimed(sessionOf(req).account, req.body)),
    );

    app.post(
      '/send/checkSubmitTime',
      route({ tag: TAG, summary: '检查定时发送时间', access: 'session', body: request(ctx, 'params/send-submit-time'), response: okEmpty }),
      async (req) => {
        const t = parseSendTime(req.body.submitTime);
        if (!t) throw new ApiError(400, MSG.badSendTime);
        const e = sendTimeError('ordinary', t, ctx.now());
        if (e) throw new ApiError(400, e);
        return ok(undefined, '发送时间可用');
      },
    );

    app.post(
      '/send/edit',
      route({ tag: TAG, summary: '重新编辑定时任务（取回任务内容）', access: 'session', body: request(ctx, 'params/send-task-edit'), response: okOf(ctx, EDITED_TASK) }),
      async (req) => ok(await send.edit(sessionOf(req).account, (req.body.taskID ?? req.body.uid ?? '').trim())),
    );

    app.post(
      '/send/undoSend',
      route({ tag: TAG, summary: '取消定时任务（发送时间前；退还费用）', access: 'session', body: request(ctx, 'params/send-task-undo'), response: okEmpty }),
      async (req) => {
        await send.undo(sessionOf(req).account, (req.body.uid ?? '').trim());
        return ok(undefined, X.undone);
      },
    );

    // streamed: a text file's numbers are counted while it is read (at most 60000), a workbook is read whole
    app.post(
      '/send/importMobiles',
      route({
        tag: TAG,
        summary: '导入号码文件（multipart，文件字段 file：txt、csv、xlsx，最多 60000 个号码）',
        access: 'session',
        body: request(ctx, 'params/number-file-upload'),
        response: okOf(ctx, 'entities/number-import'),
      }),
      async (req) => {
        if (!req.isMultipart()) throw new ApiError(400, IMPORT_MSG.noFile);
        let result: ReturnType<typeof importResult> | undefined;
        try {
          for await (const part of req.parts()) {
            if (part.type !== 'file') continue;
            if (part.fieldname !== 'file' || result) {
              part.file.resume();
              continue;
            }
            const name = (part.filename ?? '').slice(0, 100);
            const kind = importKindOf(name);
            if (!kind) {
              part.file.resume();
              throw new ApiError(400, IMPORT_MSG.badType);
            }
            const tokens = kind === 'xlsx' ? await xlsxTokens(await part.toBuffer()) : await textTokens(part.file);
            if (part.file.truncated) throw new ApiError(400, IMPORT_MSG.tooLarge);
            result = importResult(name, tokens);
          }
        } catch (err) {
          if (err instanceof ApiError) throw err;
          const e = err as { code?: string } | undefined;
          if (e?.code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError(400, IMPORT_MSG.tooLarge);
          if (e?.code === 'FST_FILES_LIMIT' || e?.code === 'FST_PARTS_LIMIT' || e?.code === 'FST_FIELDS_LIMIT') throw new ApiError(400, '一次只能导入一个文件');
          throw new ApiError(400, IMPORT_MSG.parseFailed);
        }
        if (!result) throw new ApiError(400, IMPORT_MSG.noFile);
        return ok(result, `导入完成：有效号码 ${result.mobiles ? result.mobiles.split(',').length : 0} 个`);
      },
    );

    app.get('/send/downloadtemplate', route({ tag: TAG, summary: '下载号码导入模板（Excel）', access: 'session', response: fileReply(XLSX_MIME) }), async (_req, reply) =>
      sendFile(reply, await templateXlsx(), '号码导入模板.xlsx'),
    );
    app.get('/send/downloadtemplateCSV', route({ tag: TAG, summary: '下载号码导入模板（CSV）', access: 'session', response: fileReply(CSV_MIME) }), async (_req, reply) =>
      sendFile(reply, templateCsv(), '号码导入模板.csv'),
    );
    app.get('/send/downloadtemplateTXT', route({ tag: TAG, summary: '下载号码导入模板（TXT）', access: 'session', response: fileReply(TXT_MIME) }), async (_req, reply) =>
      sendFile(reply, templateTxt(), '号码导入模板.txt'),
    );
  };
}

import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { AppContext } from '../../context';
import type { Account } from '../../db/types';
import { ApiError } from '../../http/errors';
import { ok } from '../../http/reply';
import { BAD_PARAM, clientId, params, text } from '../../http/params';
import { route } from '../../http/route';
import { formSchema } from '../../http/validation';
import { sessionOf } from '../auth/session';
import { attachment as xlsxDisposition, XLSX_MIME } from '../../http/download';
import { IMPORT_MAX_BYTES, IMPORT_MSG, importKindOf, importResult, templateCsv, templateTxt, templateXlsx, textTokens, xlsxTokens } from './import';
import { MESSAGES } from '../../../common/schema/messages';
import { parseSendTime, sendTimeError } from '../../../common/send';
import { MSG, X, SEND_FORM, type SendForm, type SendService, type SendResult } from './service';
import { UserType } from '../../../common/generated/schemas';

const TAG = '短信发送';

/** A sub-account (or direct customer) always sends as itself: its clientId comes from the session. */
export function sendPayload(me: Account, body: unknown): Record<string, unknown> {
  const raw = (body && typeof body === 'object' && !Array.isArray(body) ? { ...(body as Record<string, unknown>) } : {}) as Record<string, unknown>;
  if (me.user_type !== UserType.Agent) raw.clientId = me.clientid;
  else if (raw.clientId === undefined && raw.clientid !== undefined) raw.clientId = raw.clientid;
  return raw;
}

const sent = (r: SendResult) => ok({ taskId: r.taskId, smsNum: r.smsNum, chargeNum: r.chargeNum, submitTotal: r.submitTotal, amount: r.amount }, r.msg);

/** /send/*: accepting sends (ordinary and timed), their charge preview, re-edit, cancel, number import and templates. */
export function sendRoutes(ctx: AppContext, send: SendService): FastifyPluginAsync {
  const form = formSchema(ctx.schemas, SEND_FORM);
  const withPayload = { preValidation: async (req: FastifyRequest) => void (req.body = sendPayload(sessionOf(req).account, req.body)) };
  return async (app) => {
    if (!app.hasContentTypeParser('multipart/form-data')) await app.register(multipart, { limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 10, parts: 12 } });

    app.post(
      '/send/getsmstypes',
      route({ tag: TAG, summary: '账户可发送的短信类型', access: 'session', body: params({ clientid: clientId('子账户') }) }),
      async (req) => ok(await send.getSmsTypes(sessionOf(req).account, (req.body as { clientid?: string }).clientid)),
    );

    app.post(
      '/send/chargeInfo',
      route({
        tag: TAG,
        summary: '计费预览（确认对话框：每条计费条数、总条数、金额或剩余条数）',
        access: 'session',
        body: params({ clientId: clientId('子账户'), content: text('短信内容', 600), sign: text('签名', 40), mobile: text('号码', 780000), importFilePath: text('号码文件（importFilePath，代替 mobile）', 64), smstype: { type: 'integer', title: '短信类型', minimum: 0, maximum: 99, errorMessage: BAD_PARAM } }),
        with: withPayload,
      }),
      async (req) => ok(await send.chargeInfo(sessionOf(req).account, req.body as Record<string, unknown>)),
    );

    app.post<{ Body: SendForm }>(
      '/send/sending',
      route({ tag: TAG, summary: '立即发送（content 可带【签名】前缀；代理商须选择子账号）', access: 'session', body: form, with: withPayload }),
      async (req) => sent(await send.send(sessionOf(req).account, req.body)),
    );

    const timedBody = params({
      jsmsAccessTimerSms: { type: 'object', title: '定时发送内容（clientid, mobilelist, content, smstype, sendtime, sign, templateId, templateType）', errorMessage: MESSAGES.badParam },
      taskId: text('重新编辑的原任务编号', 40),
      chargeNumTotal: { title: '计费条数' },
      isCheckAvailableCredit: { title: '检查可用额度（1 默认；0 不检查，到时再计费）' },
      submitFlag: { title: '提交标记' },
      compress_type: { title: '压缩方式' },
    });
    app.post(
      '/send/sendTim',
      route({ tag: TAG, summary: '定时发送（JSON；额度不足时 code 403，确认后以 isCheckAvailableCredit=0 重新提交）', access: 'session', body: timedBody }),
      async (req) => sent(await send.sendTimed(sessionOf(req).account, req.body as Record<string, unknown>)),
    );

    app.post('/send/checkSubmitTime', route({ tag: TAG, summary: '检查定时发送时间', access: 'session', body: params({ submitTime: text('发送时间', 40) }) }), async (req) => {
      const t = parseSendTime((req.body as { submitTime?: string }).submitTime);
      if (!t) throw new ApiError(400, MSG.badSendTime);
      const e = sendTimeError('ordinary', t, ctx.now());
      if (e) throw new ApiError(400, e);
      return ok(undefined, '发送时间可用');
    });

    app.post('/send/edit', route({ tag: TAG, summary: '重新编辑定时任务（取回任务内容）', access: 'session', body: params({ taskID: text('任务编号', 40), uid: text('任务编号', 40) }) }), async (req) => {
      const b = req.body as { taskID?: string; uid?: string };
      return ok(await send.edit(sessionOf(req).account, String(b.taskID ?? b.uid ?? '').trim()));
    });

    app.post('/send/undoSend', route({ tag: TAG, summary: '取消定时任务（发送时间前；退还费用）', access: 'session', body: params({ uid: text('任务编号', 40), submitTime: text('发送时间', 40) }) }), async (req) => {
      await send.undo(sessionOf(req).account, String((req.body as { uid?: string }).uid ?? '').trim());
      return ok(undefined, X.undone);
    });

    app.post('/send/importMobiles', route({ tag: TAG, summary: '导入号码文件（multipart，文件字段 file：txt、csv、xlsx，最多 60000 个号码）', access: 'session' }), async (req) => {
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
      } catch (e: any) {
        if (e instanceof ApiError) throw e;
        if (e?.code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError(400, IMPORT_MSG.tooLarge);
        if (e?.code === 'FST_FILES_LIMIT' || e?.code === 'FST_PARTS_LIMIT' || e?.code === 'FST_FIELDS_LIMIT') throw new ApiError(400, '一次只能导入一个文件');
        throw new ApiError(400, IMPORT_MSG.parseFailed);
      }
      if (!result) throw new ApiError(400, IMPORT_MSG.noFile);
      return ok(result, `导入完成：有效号码 ${result.mobiles ? result.mobiles.split(',').length : 0} 个`);
    });

    app.get('/send/downloadtemplate', route({ tag: TAG, summary: '下载号码导入模板（Excel）', access: 'session' }), async (_req, reply) =>
      reply.header('content-type', XLSX_MIME).header('content-disposition', xlsxDisposition('号码导入模板.xlsx')).send(await templateXlsx()),
    );
    app.get('/send/downloadtemplateCSV', route({ tag: TAG, summary: '下载号码导入模板（CSV）', access: 'session' }), async (_req, reply) =>
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', xlsxDisposition('号码导入模板.csv')).send(templateCsv()),
    );
    app.get('/send/downloadtemplateTXT', route({ tag: TAG, summary: '下载号码导入模板（TXT）', access: 'session' }), async (_req, reply) =>
      reply.header('content-type', 'text/plain; charset=utf-8').header('content-disposition', xlsxDisposition('号码导入模板.txt')).send(templateTxt()),
    );
  };
}

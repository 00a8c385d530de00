import type { FastifyPluginAsync } from 'fastify';
import multipart from '@fastify/multipart';
import type { AppContext } from '../../context';
import type { Account } from '../../db/types';
import { ApiError } from '../../http/errors';
import { ok } from '../../http/reply';
import { api, arrayOf, fileReply, okEmpty, okOf, request } from '../../http/contract';
import { route } from '../../http/route';
import { sessionOf } from '../../http/session';
import { CSV_MIME, sendFile, TXT_MIME, XLSX_MIME } from '../../http/download';
import {
  IMPORT_MAX_BYTES,
  IMPORT_MSG,
  importKindOf,
  importResult,
  templateCsv,
  templateTxt,
  templateXlsx,
  textTokens,
  xlsxTokens,
} from './import';
import { parseSendTime, sendTimeError } from '../../../common/send';
import { MSG, X, type SendService, type SendResult } from './service';
import { UserType, type SendAnswer } from '../../../common/generated/schemas';
import { codeOf } from '../../lib/error-code';

const TAG = '短信发送';

/** A sub-account (or direct customer) always sends as itself: its clientId comes from the session. */
export function sendPayload(me: Account, body: unknown): Record<string, unknown> {
  const raw: Record<string, unknown> = body && typeof body === 'object' && !Array.isArray(body) ? { ...body } : {};
  if (me.user_type !== UserType.Agent) raw.clientId = me.clientid;
  else if (raw.clientId === undefined && raw.clientid !== undefined) raw.clientId = raw.clientid;
  return raw;
}

/** The answer of an accepted send (responses/send-answer.json) with its msg: every send route's, here and in variable-international. */
export const sent = (r: SendResult) => {
  const answer: SendAnswer = {
    taskId: r.taskId,
    smsNum: r.smsNum,
    chargeNum: r.chargeNum,
    submitTotal: r.submitTotal,
    amount: r.amount,
    blacklistNum: r.blacklistNum ?? 0,
  };
  return ok(answer, r.msg);
};

/** /send/*: accepting sends (ordinary and timed), their charge preview, re-edit, cancel, number import and templates. */
export function sendRoutes(ctx: AppContext, send: SendService): FastifyPluginAsync {
  return async (plugin) => {
    if (!plugin.hasContentTypeParser('multipart/form-data'))
      await plugin.register(multipart, { limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 10, parts: 12 } });
    const app = api(plugin);

    app.post(
      '/send/getsmstypes',
      route({
        tag: TAG,
        summary: '账户可发送的短信类型',
        access: 'session',
        body: request(ctx, 'params/send-sms-types'),
        response: arrayOf(ctx, 'responses/sms-type-option'),
      }),
      async (req) => ok(await send.getSmsTypes(sessionOf(req).account, req.body.clientid)),
    );

    app.post(
      '/send/chargeInfo',
      route({
        tag: TAG,
        summary: '计费预览（确认对话框：每条计费条数、总条数、金额或剩余条数）',
        access: 'session',
        body: request(ctx, 'params/send-charge-info'),
        response: okOf(ctx, 'responses/charge-info'),
        payload: sendPayload,
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
        response: okOf(ctx, 'responses/send-answer'),
        payload: sendPayload,
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
        response: okOf(ctx, 'responses/send-answer'),
      }),
      async (req) => sent(await send.sendTimed(sessionOf(req).account, req.body)),
    );

    app.post(
      '/send/checkSubmitTime',
      route({
        tag: TAG,
        summary: '检查定时发送时间',
        access: 'session',
        body: request(ctx, 'params/send-submit-time'),
        response: okEmpty,
      }),
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
      route({
        tag: TAG,
        summary: '重新编辑定时任务（取回任务内容）',
        access: 'session',
        body: request(ctx, 'params/send-task-edit'),
        response: okOf(ctx, 'responses/edited-task'),
      }),
      async (req) => ok(await send.edit(sessionOf(req).account, (req.body.taskID ?? req.body.uid ?? '').trim())),
    );

    app.post(
      '/send/undoSend',
      route({
        tag: TAG,
        summary: '取消定时任务（发送时间前；退还费用）',
        access: 'session',
        body: request(ctx, 'params/send-task-undo'),
        response: okEmpty,
      }),
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
          const code = codeOf(err);
          if (code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError(400, IMPORT_MSG.tooLarge);
          if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
            throw new ApiError(400, '一次只能导入一个文件');
          throw new ApiError(400, IMPORT_MSG.parseFailed);
        }
        if (!result) throw new ApiError(400, IMPORT_MSG.noFile);
        return ok(result, `导入完成：有效号码 ${result.mobiles ? result.mobiles.split(',').length : 0} 个`);
      },
    );

    app.get(
      '/send/downloadtemplate',
      route({ tag: TAG, summary: '下载号码导入模板（Excel）', access: 'session', response: fileReply(XLSX_MIME) }),
      async (_req, reply) => sendFile(reply, await templateXlsx(), '号码导入模板.xlsx'),
    );
    app.get(
      '/send/downloadtemplateCSV',
      route({ tag: TAG, summary: '下载号码导入模板（CSV）', access: 'session', response: fileReply(CSV_MIME) }),
      async (_req, reply) => sendFile(reply, templateCsv(), '号码导入模板.csv'),
    );
    app.get(
      '/send/downloadtemplateTXT',
      route({ tag: TAG, summary: '下载号码导入模板（TXT）', access: 'session', response: fileReply(TXT_MIME) }),
      async (_req, reply) => sendFile(reply, templateTxt(), '号码导入模板.txt'),
    );
  };
}

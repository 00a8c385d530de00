import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { api, fileReply, listOf, okOf, request } from '../../http/contract';
import { sendFile, TXT_MIME, XLSX_MIME } from '../../http/download';
import { ok } from '../../http/reply';
import { route } from '../../http/route';
import { sessionOf } from '../../http/session';
import type { RecordsService } from './service';

const TASKS = '发送任务';
const RECORDS = '发送记录';

/** The read side of sending: tasks, timed tasks, send records, uplink (docs/api-records.md). */
export function recordsRoutes(ctx: AppContext, records: RecordsService): FastifyPluginAsync {
  const recordFilter = request(ctx, 'filters/send-record', { paging: 'page' });
  const moFilter = request(ctx, 'filters/mo-record', { paging: 'page' });
  return async (plugin) => {
    const app = api(plugin);
    app.post(
      '/send/sendTask',
      route({
        tag: TASKS,
        summary: '发送任务列表（每页 15；代理商：自己与名下子账户）',
        access: 'session',
        cachedSession: true,
        body: request(ctx, 'filters/send-task', { paging: 'page' }),
        response: listOf(ctx, 'entities/send-task'),
      }),
      async (req) => ok(await records.taskList(sessionOf(req).account, req.body)),
    );
    app.post(
      '/send/queryTaskInfo',
      route({
        tag: TASKS,
        summary: '任务详情：待发送、成功、失败、未知、拦截数量',
        access: 'session',
        body: request(ctx, 'params/task-ref'),
        response: okOf(ctx, 'entities/send-task'),
      }),
      async (req) => ok(await records.taskInfo(sessionOf(req).account, req.body)),
    );
    app.post(
      '/send/exportTaskInfoPhones',
      route({
        tag: TASKS,
        summary: '导出任务中所选发送结果的号码（txt，每行一个）',
        access: 'session',
        body: request(ctx, 'params/task-phones'),
        response: fileReply(TXT_MIME),
      }),
      async (req, reply) => {
        const f = await records.taskPhones(sessionOf(req).account, req.body);
        return sendFile(reply, f.stream, f.name, { mime: TXT_MIME });
      },
    );
    app.post(
      '/send/resendFailed',
      route({
        tag: TASKS,
        summary: '把任务中失败的号码作为新任务重新发送（普通短信；与立即发送同样受理、扣费）',
        access: 'session',
        refusals: 'console',
        body: request(ctx, 'params/task-resend'),
        response: okOf(ctx, 'responses/send-answer'),
      }),
      async (req) => {
        const r = await records.resendFailed(sessionOf(req).account, req.body);
        return ok(
          { taskId: r.taskId, smsNum: r.smsNum, chargeNum: r.chargeNum, submitTotal: r.submitTotal, amount: r.amount },
          r.msg,
        );
      },
    );
    app.post(
      '/send/smsTimerSend/list',
      route({
        tag: TASKS,
        summary: '定时任务列表（每页 15）',
        access: 'session',
        body: request(ctx, 'filters/timed-task', { paging: 'page' }),
        response: listOf(ctx, 'entities/timed-task'),
      }),
      async (req) => ok(await records.timedList(sessionOf(req).account, req.body)),
    );
    app.post(
      '/send/getAllPhone/list',
      route({
        tag: TASKS,
        summary: '任务的号码（分页）',
        access: 'session',
        body: request(ctx, 'params/task-numbers'),
        response: listOf(ctx, 'responses/task-number'),
      }),
      async (req) => ok(await records.taskNumbers(sessionOf(req).account, req.body)),
    );

    app.post(
      '/send/getrecords',
      route({
        tag: RECORDS,
        summary: '发送记录（每页 10，默认近 90 天）',
        access: 'session',
        cachedSession: true,
        body: recordFilter,
        response: listOf(ctx, 'entities/send-record', {
          totalCapped: { type: 'boolean', title: '总数超过计数上限（只计到上限）' },
          retention: 'responses/record-retention',
        }),
      }),
      async (req) => ok(await records.records(sessionOf(req).account, req.body)),
    );
    app.post(
      '/send/exportrecords',
      route({
        tag: RECORDS,
        summary: '准备发送记录 Excel（≤ 100 万条），返回 filePath',
        access: 'session',
        body: recordFilter,
        response: okOf(ctx, 'responses/records-export'),
      }),
      async (req) => {
        const r = await records.prepareRecordsExport(sessionOf(req).account, req.body);
        return ok({ filePath: r.filePath, rows: r.rows });
      },
    );
    app.get(
      '/send/downloadExportSendRecords',
      route({
        tag: RECORDS,
        summary: '下载准备好的发送记录 Excel（仅导出者本人，24 小时内）',
        access: 'session',
        querystring: request(ctx, 'params/export-download'),
        response: fileReply(XLSX_MIME),
      }),
      async (req, reply) => {
        const f = await records.download(sessionOf(req).account, req.query.filePath);
        return sendFile(reply, f.stream, f.name, { mime: XLSX_MIME, size: f.size });
      },
    );
    app.post(
      '/send/exportRecordsTxt',
      route({
        tag: RECORDS,
        summary: '导出发送记录号码（txt，≤ 500 万个）',
        access: 'session',
        body: recordFilter,
        response: fileReply(TXT_MIME),
      }),
      async (req, reply) => {
        const f = await records.recordsTxt(sessionOf(req).account, req.body);
        return sendFile(reply, f.stream, f.name, { mime: TXT_MIME });
      },
    );
    app.post(
      '/send/getmologs',
      route({
        tag: RECORDS,
        summary: '上行记录（每页 15；近三个月，跨度不超过一个月）',
        access: 'session',
        body: moFilter,
        response: listOf(ctx, 'entities/mo-record'),
      }),
      async (req) => ok(await records.moList(sessionOf(req).account, req.body)),
    );
    app.post(
      '/send/exportmologs',
      route({
        tag: RECORDS,
        summary: '导出上行记录（Excel，条件同列表）',
        access: 'session',
        body: moFilter,
        response: fileReply(XLSX_MIME),
      }),
      async (req, reply) => {
        const f = await records.moExport(sessionOf(req).account, req.body);
        return sendFile(reply, f.stream, f.name, { mime: XLSX_MIME });
      },
    );
  };
}

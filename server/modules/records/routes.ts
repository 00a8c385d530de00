import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { ok } from '../../http/reply';
import { BAD_PARAM, listParams, PAGE_ROWS, params, text } from '../../http/params';
import { route } from '../../http/route';
import { sessionOf } from '../auth/session';
import { attachment, TXT_MIME, XLSX_MIME, type RecordsService } from './service';

const TASKS = '发送任务';
const RECORDS = '发送记录';

/** The read side of sending: tasks, timed tasks, send records, uplink (docs/api-records.md). */
export function recordsRoutes(ctx: AppContext, records: RecordsService): FastifyPluginAsync {
  const taskFilter = listParams(ctx.schemas, 'send-task', PAGE_ROWS);
  const timedFilter = listParams(ctx.schemas, 'timed-task', PAGE_ROWS);
  const recordFilter = listParams(ctx.schemas, 'send-record', PAGE_ROWS);
  const moFilter = listParams(ctx.schemas, 'mo-record', PAGE_ROWS);
  // a task: its uid, or its numeric id (a form posts text, a JSON body may post a number)
  const ref = (title: string) => ({ title, type: ['string', 'integer'], maxLength: 40, errorMessage: BAD_PARAM });
  const taskRef = params({ id: ref('任务编号（uid 或编号）') });
  const taskPhones = params({ id: ref('任务编号（uid 或编号）'), sendTypes: text('导出的发送结果（逗号分隔：1 成功，2 失败，3 未知，4 拦截，5 待发送）', 40) });
  const timedPhones = params({ uid: ref('任务编号'), submitTime: text('提交时间（不使用）', 40), ...PAGE_ROWS });
  const download = params({ filePath: text('导出文件编号（/send/exportrecords 的 filePath）', 64) });

  return async (app) => {
    app.post('/send/sendTask', route({ tag: TASKS, summary: '发送任务列表（每页 15；代理商：自己与名下子账户）', access: 'session', body: taskFilter }), async (req) =>
      ok(await records.taskList(sessionOf(req).account, req.body)),
    );
    app.post('/send/queryTaskInfo', route({ tag: TASKS, summary: '任务详情：待发送、成功、失败、未知、拦截数量', access: 'session', body: taskRef }), async (req) =>
      ok(await records.taskInfo(sessionOf(req).account, req.body)),
    );
    app.post('/send/exportTaskInfoPhones', route({ tag: TASKS, summary: '导出任务中所选发送结果的号码（txt，每行一个）', access: 'session', body: taskPhones }), async (req, reply) => {
      const f = await records.taskPhones(sessionOf(req).account, req.body);
      return reply.header('content-type', TXT_MIME).header('content-disposition', attachment(f.name)).send(f.stream);
    });
    app.post('/send/smsTimerSend/list', route({ tag: TASKS, summary: '定时任务列表（每页 15）', access: 'session', body: timedFilter }), async (req) =>
      ok(await records.timedList(sessionOf(req).account, req.body)),
    );
    app.post('/send/getAllPhone/list', route({ tag: TASKS, summary: '任务的号码（分页）', access: 'session', body: timedPhones }), async (req) =>
      ok(await records.taskNumbers(sessionOf(req).account, req.body)),
    );

    app.post('/send/getrecords', route({ tag: RECORDS, summary: '发送记录（每页 10，默认近 90 天）', access: 'session', body: recordFilter }), async (req) =>
      ok(await records.records(sessionOf(req).account, req.body)),
    );
    app.post('/send/exportrecords', route({ tag: RECORDS, summary: '准备发送记录 Excel（≤ 100 万条），返回 filePath', access: 'session', body: recordFilter }), async (req) => {
      const r = await records.prepareRecordsExport(sessionOf(req).account, req.body);
      return ok({ filePath: r.filePath, rows: r.rows });
    });
    app.get(
      '/send/downloadExportSendRecords',
      route({ tag: RECORDS, summary: '下载准备好的发送记录 Excel（仅导出者本人，24 小时内）', access: 'session', querystring: download }),
      async (req, reply) => {
        const f = await records.download(sessionOf(req).account, (req.query as Record<string, unknown>).filePath);
        return reply.header('content-type', XLSX_MIME).header('content-length', String(f.size)).header('content-disposition', attachment(f.name)).send(f.stream);
      },
    );
    app.post('/send/exportRecordsTxt', route({ tag: RECORDS, summary: '导出发送记录号码（txt，≤ 500 万个）', access: 'session', body: recordFilter }), async (req, reply) => {
      const f = await records.recordsTxt(sessionOf(req).account, req.body);
      return reply.header('content-type', TXT_MIME).header('content-disposition', attachment(f.name)).send(f.stream);
    });
    app.post('/send/getmologs', route({ tag: RECORDS, summary: '上行记录（每页 15；近三个月，跨度不超过一个月）', access: 'session', body: moFilter }), async (req) =>
      ok(await records.moList(sessionOf(req).account, req.body)),
    );
    app.post('/send/exportmologs', route({ tag: RECORDS, summary: '导出上行记录（Excel，条件同列表）', access: 'session', body: moFilter }), async (req, reply) => {
      const f = await records.moExport(sessionOf(req).account, req.body);
      return reply.header('content-type', XLSX_MIME).header('content-disposition', attachment(f.name)).send(f.stream);
    });
  };
}

/**
 * The read side of sending (docs/api-records.md): task list and detail, the numbers of a task,
 * timed tasks, send records with their exports, uplink records.
 *
 * Scoping: every query is limited to the accounts the session reaches (ClientsService.scope): an
 * agent reads its own rows and its sub-accounts', a sub-account only its own. An agent's
 * `clientid` filter must name one of those accounts (else 无权访问); a sub-account's is ignored.
 *
 * Send records at 10,000,000 rows (bench/send-records.ts): one lateral index scan per account of
 * the scope on (account_id, created_at desc, id desc) INCLUDE (state, carrier, province_id,
 * city_id, task_id), or one per (account, province) / (account, state) on the province and state
 * indexes (migration 0011), each stopping after offset + page rows; the count stops at `recordCountCap` (totalCapped tells the console that there are more).
 * Exports count up to their limit + 1 and read in keyset batches.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/types';
import type { AppContext } from '../../context';
import type { Account } from '../../db/types';
import { ApiError, errors } from '../../http/errors';
import { listPage, pagingOf, type Paging } from '../../http/paging';
import { pageOf } from '../../db/page';
import { keysetPages, mapPages, writeXlsx, xlsxStream } from '../../lib/xlsx-export';
import { dayOf, formatDateTime } from '../../lib/time';
import type { ClientsService, ScopedAccount } from '../clients';
import {
  SendKind,
  SendTimeType,
  TaskDetailOutcome,
  TaskStatus,
  TimedTaskTimeType,
  UserType,
  type MoRecord,
  type SendRecord,
  type SendTask,
  type TimedTask,
} from '../../../common/generated/schemas';
import { findCity, findProvince } from '../../../common/sms/segments';
import { expandTask, type SendResult, type SendService } from '../send';
import { MESSAGES } from '../../../common/schema/messages';
import { escapeLike, whereFrom } from '../../db/filters';
import type { PageRows } from '../../http/contract';
import type {
  Carrier,
  NumberInputMode,
  SendRecordStatus,
  SmsType,
  TemplateType,
  TaskResendParams,
  MoRecordFilter,
  RecordRetention,
  SendRecordFilter,
  SendTaskFilter,
  TaskNumbersParams,
  TaskPhonesParams,
  TaskRefParams,
  TimedTaskFilter,
} from '../../../common/generated/schemas';
import {
  OUTCOME_STATES,
  optionalRange,
  outcomeStates,
  RECORD_MSG,
  recordRange,
  statesOf,
  uplinkRange,
  type DayRange,
} from './filters';
import { keptSince } from '../retention';

export const RECORD_PAGE_SIZE = 10;
/** failed numbers a resend reads at most (one over the manual input's 60,000: the acceptance refuses it) */
export const RESEND_MAX = 60_000;
/** most tasks a send-record content filter may match */
export const CONTENT_TASKS_MAX = 5000;
export const TASK_PAGE_SIZE = 15;
export const MO_PAGE_SIZE = 15;
/** rows read per round trip by the exports */
const BATCH = 5000;
/** prepared exports are kept this long */
export const EXPORT_TTL_MS = 24 * 3600_000;
export const EXPORT_DIR = 'exports';

export interface RecordFilter extends DayRange {
  states?: number[];
  phone?: string;
  content?: string;
  /** the tasks whose text matches `content` (resolved by withContentTasks) */
  taskIds?: number[];
  carrier?: number;
  province?: number;
  city?: number;
  /** the task number filter: the scope's task of that uid (resolved by withTask) */
  taskUid?: string;
}

interface MessageRow {
  id: number;
  account_id: number;
  task_id: number;
  phone: string;
  carrier: Carrier;
  province_id: number;
  city_id: number;
  pieces: number;
  state: SendRecordStatus;
  error_code: string;
  report: string;
  created_at: Date;
  submitted_at: Date | null;
  /** the message's own text (0017_varintl: variable SMS), else its task's */
  content: string;
  /** the number (uid) of the message's task */
  task_uid?: string | null;
  /** recordRows with `count`: the matching rows counted up to that cap + 1 (the same on every row) */
  total?: string | number;
}

/** sms_tasks as t, filtered and scoped, before its columns are chosen */
type TaskQuery = SelectQueryBuilder<Database & { t: Database['sms_tasks'] }, 't', object>;

interface TaskRow {
  id: number;
  uid: string;
  account_id: number;
  content: string;
  sign: string;
  smstype: SmsType;
  template_type: TemplateType;
  file_type: NumberInputMode;
  file_name: string;
  submit_total: number;
  err_num: number;
  repeat_num: number;
  blacklist_num: number;
  charge_num_total: number;
  status: TaskStatus;
  send_type: number;
  send_time: Date;
  created_at: Date;
  creator_name: string;
  success_num: number;
  fail_num: number;
  unknown_num: number;
  intercept_num: number;
  audit_num: number;
  send_kind: number;
}

const TASK_COLUMNS = [
  't.send_kind',
  't.id',
  't.uid',
  't.account_id',
  't.content',
  't.sign',
  't.smstype',
  't.template_type',
  't.file_type',
  't.file_name',
  't.submit_total',
  't.err_num',
  't.repeat_num',
  't.blacklist_num',
  't.charge_num_total',
  't.status',
  't.send_type',
  't.send_time',
  't.created_at',
  't.creator_name',
  't.success_num',
  't.fail_num',
  't.unknown_num',
  't.intercept_num',
  't.audit_num',
] as const;

/** pending = submit_total − success − fail − unknown − intercept (never below 0) */
export const pendingOf = (
  t: Pick<TaskRow, 'submit_total' | 'success_num' | 'fail_num' | 'unknown_num' | 'intercept_num'>,
) => Math.max(0, t.submit_total - t.success_num - t.fail_num - t.unknown_num - t.intercept_num);

/** 100 × (submit_total − pending) / submit_total, rounded down: 100 only when nothing is pending */
export function scheduleOf(t: Parameters<typeof pendingOf>[0] & { status: number }): number {
  if (t.submit_total <= 0) return t.status === TaskStatus.Completed ? 100 : 0;
  return Math.floor((100 * (t.submit_total - pendingOf(t))) / t.submit_total);
}

export class RecordsService {
  /** accounts whose xlsx export is being written (one at a time per account) */
  private readonly exporting = new Set<number>();

  constructor(
    private readonly ctx: AppContext,
    private readonly clients: ClientsService,
    /** the acceptance of a resend (the send module's, the same as /send/sending) */
    private readonly send?: SendService,
  ) {}

  private label(enumName: string, v: unknown): string {
    return this.ctx.schemas.registry.enumLabel(enumName, v) ?? '';
  }

  /** The accounts a list covers: the session's scope, narrowed by an agent's clientid filter. */
  async accountsOf(me: Account, clientid: string | undefined): Promise<ScopedAccount[]> {
    if (me.user_type !== UserType.Agent) return [{ id: me.id, clientid: me.clientid, name: me.name }];
    const scope = await this.clients.scope(me);
    const c = clientid;
    if (!c) return scope;
    const one = scope.find((a) => a.clientid === c);
    if (!one) throw errors.forbidden();
    return [one];
  }

  // ---------------------------------------------------------------- tasks

  private taskRow(
    t: TaskRow,
    rowNum: number,
    clientids: Map<number, string>,
  ): Required<Omit<SendTask, 'sentNum' | 'successNum' | 'failNum' | 'unknownNum' | 'interceptNum'>> {
    return {
      rowNum,
      id: t.id,
      uid: t.uid,
      clientId: clientids.get(t.account_id) ?? '',
      content: t.content,
      smstype: t.smstype,
      smstypeStr: this.label('sms-type', t.smstype),
      sign: t.sign,
      templateType: t.template_type,
      templateTypeStr: this.label('template-type', t.template_type),
      fileType: t.file_type,
      fileName: t.file_name,
      submitTotal: t.submit_total,
      errNum: t.err_num,
      repeatNum: t.repeat_num,
      blacklistNum: t.blacklist_num,
      chargeNumTotal: t.charge_num_total,
      status: t.status,
      statusStr: this.label('task-status', t.status),
      taskSchedule: scheduleOf(t),
      // messages held for an operator's review: the task waits for it, not for the channel (issue 27 item 13)
      auditNum: t.audit_num,
      sendtime: formatDateTime(t.send_time),
      createTimeStr: formatDateTime(t.created_at),
      creator: t.creator_name,
    };
  }

  /** POST /send/sendTask (filters/send-task.json: every field filters by its x-column / x-op) */
  async taskList(me: Account, f: SendTaskFilter & PageRows) {
    const accounts = await this.accountsOf(me, undefined);
    const q = whereFrom(this.ctx.db.selectFrom('sms_tasks as t'), this.ctx, 'filters/send-task', f, {
      scope: accounts,
      agent: me.user_type === UserType.Agent,
    });
    return this.taskPage(q, pagingOf(f, TASK_PAGE_SIZE), accounts, (t, n, ids) => this.taskRow(t, n, ids));
  }

  /** one query for the page and the total (a window count), a second only past the last page */
  private async taskPage<R>(
    q: TaskQuery,
    paging: Paging,
    accounts: ScopedAccount[],
    toRow: (t: TaskRow, rowNum: number, clientids: Map<number, string>) => R,
  ) {
    const { rows, total } = await pageOf(
      q,
      (f) =>
        f
          .select([...TASK_COLUMNS])
          .orderBy('t.created_at', 'desc')
          .orderBy('t.id', 'desc'),
      paging,
    );
    const clientids = new Map(accounts.map((a) => [a.id, a.clientid]));
    return listPage(
      rows.map((r, i) => toRow(r, paging.offset + i + 1, clientids)),
      total,
      paging,
    );
  }

  /** A task of the scope by its uid or its numeric id; 任务不存在 otherwise (another account's task included). */
  async findTask(
    me: Account,
    ref: string | number | undefined,
  ): Promise<{ task: TaskRow; clientids: Map<number, string> }> {
    const v = ref === undefined ? '' : String(ref).trim();
    if (!v || v.length > 40) throw new ApiError(400, RECORD_MSG.badParam);
    const accounts = await this.accountsOf(me, undefined);
    const ids = accounts.map((a) => a.id);
    const num = /^\d{1,10}$/.test(v) && Number(v) <= 2_147_483_647 ? Number(v) : undefined;
    const task = await this.ctx.db
      .selectFrom('sms_tasks as t')
      .select([...TASK_COLUMNS])
      .where('t.account_id', 'in', ids)
      .where((eb) => (num === undefined ? eb('t.uid', '=', v) : eb.or([eb('t.uid', '=', v), eb('t.id', '=', num)])))
      .orderBy(sql`t.uid = ${v}`, 'desc')
      .executeTakeFirst();
    if (!task) throw new ApiError(404, RECORD_MSG.taskNotFound);
    return { task, clientids: new Map(accounts.map((a) => [a.id, a.clientid])) };
  }

  /** POST /send/queryTaskInfo {id}: the task with its counts by outcome */
  async taskInfo(me: Account, b: TaskRefParams): Promise<Required<SendTask>> {
    const { task, clientids } = await this.findTask(me, b.id ?? b.uid ?? b.taskId);
    return {
      ...this.taskRow(task, 1, clientids),
      sentNum: pendingOf(task),
      successNum: task.success_num,
      failNum: task.fail_num,
      unknownNum: task.unknown_num,
      interceptNum: task.intercept_num,
    };
  }

  /** POST /send/exportTaskInfoPhones {id, sendTypes}: the task's numbers in those outcomes, one a line */
  async taskPhones(me: Account, b: TaskPhonesParams): Promise<{ name: string; stream: Readable }> {
    const states = outcomeStates(b.sendTypes);
    const { task } = await this.findTask(me, b.id ?? b.uid ?? b.taskId);
    const db = this.ctx.db;
    // a large task's numbers not yet written as rows are written first (docs/api-send.md "Large tasks")
    if (!(await expandTask(db, task.id)))
      this.ctx.log.warn(
        `task ${task.uid}: a chunk of its numbers could not be written; the export holds the numbers written so far`,
      );
    async function* lines() {
      let after = 0;
      for (;;) {
        const rows = await db
          .selectFrom('sms_messages')
          .select(['id', 'phone'])
          .where('task_id', '=', task.id)
          .where('state', 'in', states)
          .where('id', '>', after)
          .orderBy('id')
          .limit(BATCH)
          .execute();
        if (rows.length) yield rows.map((r) => `${r.phone}\n`).join('');
        if (rows.length < BATCH) return;
        after = rows[rows.length - 1].id;
      }
    }
    return { name: `${task.uid}.txt`, stream: this.guarded(Readable.from(lines()), 'task numbers export') };
  }

  /**
   * POST /send/smsTimerSend/list (filters/timed-task.json): the scheduled tasks. The date range
   * applies to the column `timeType` names (a rule of its own, beside the schema's x-column ones).
   */
  async timedList(me: Account, f: TimedTaskFilter & PageRows) {
    const accounts = await this.accountsOf(me, undefined);
    const range = optionalRange(f.startTime, f.endTime);
    const col = f.timeType === TimedTaskTimeType.SendTime ? 't.send_time' : 't.created_at';
    let q = whereFrom(this.ctx.db.selectFrom('sms_tasks as t'), this.ctx, 'filters/timed-task', f, {
      scope: accounts,
      agent: me.user_type === UserType.Agent,
    }).where('t.send_type', '=', SendTimeType.Scheduled);
    if (range.from) q = q.where(col, '>=', range.from);
    if (range.to) q = q.where(col, '<', range.to);
    const paging = pagingOf(f, TASK_PAGE_SIZE);
    return this.taskPage(q, paging, accounts, (t, rowNum, clientids): Required<TimedTask> => ({
      rowNum,
      taskId: t.uid,
      clientid: clientids.get(t.account_id) ?? '',
      chargeNumTotal: t.charge_num_total,
      templateType: t.template_type,
      templateTypeStr: this.label('template-type', t.template_type),
      setSendTimeStr: formatDateTime(t.send_time),
      smstype: t.smstype,
      smstypeStr: this.label('sms-type', t.smstype),
      sign: t.sign,
      content: t.content,
      status: t.status,
      statusStr: this.label('task-status', t.status),
      submitTimeStr: formatDateTime(t.created_at),
      creator: t.creator_name,
      // a cancelled task's numbers are deleted with it
      getAllPhoneFlag: t.status === TaskStatus.Cancelled ? 0 : 1,
      // a waiting task may be cancelled and re-edited, except a scheduled international send (spec 02 §4: charged at once, never cancelled)
      cancelFlag: t.status === TaskStatus.Waiting && t.send_kind !== SendKind.International ? 1 : 0,
    }));
  }

  /** POST /send/getAllPhone/list {uid, page, rows}: the numbers of a task, in the order they were accepted */
  async taskNumbers(me: Account, b: TaskNumbersParams) {
    const { task } = await this.findTask(me, b.uid ?? b.taskId ?? b.id);
    const paging = pagingOf(b, TASK_PAGE_SIZE);
    if (!(await expandTask(this.ctx.db, task.id)))
      this.ctx.log.warn(
        `task ${task.uid}: a chunk of its numbers could not be written; the list holds the numbers written so far`,
      );
    const numbers = this.ctx.db.selectFrom('sms_messages').where('task_id', '=', task.id);
    const { rows, total } = await pageOf(numbers, (q) => q.select(['phone']).orderBy('id'), paging);
    return listPage(
      rows.map((r) => ({ phone: r.phone })),
      total,
      paging,
    );
  }

  /**
   * POST /send/resendFailed {id}: the failed numbers of an ordinary task of the scope (the 失败
   * group of the task detail: enums/task-detail-outcome) sent again as a new task with the task's
   * account, sign, text, SMS type and template, through the same acceptance as /send/sending (its
   * checks, its charge, its refusals): the caller must be allowed to send for that account.
   */
  async resendFailed(me: Account, b: TaskResendParams): Promise<SendResult> {
    if (!this.send) throw new Error('records: the send service is not wired');
    const { task, clientids } = await this.findTask(me, b.id);
    if (task.send_kind !== SendKind.Ordinary) throw errors.refused(MESSAGES.resendKindRefused);
    const meta = await this.ctx.db
      .selectFrom('sms_tasks')
      .select(['template_id', 'template_type'])
      .where('id', '=', task.id)
      .executeTakeFirstOrThrow();
    if (!(await expandTask(this.ctx.db, task.id))) throw errors.refused(MESSAGES.taskNumbersPending);
    const failed = OUTCOME_STATES[TaskDetailOutcome.Failure];
    const rows = await this.ctx.db
      .selectFrom('sms_messages')
      .select('phone')
      .distinct()
      .where('task_id', '=', task.id)
      .where('state', 'in', [...failed])
      .limit(RESEND_MAX + 1)
      .execute();
    if (!rows.length) throw errors.refused(MESSAGES.resendNoFailed);
    return this.send.send(me, {
      clientId: clientids.get(task.account_id) ?? '',
      content: task.content,
      sign: task.sign,
      smstype: task.smstype,
      ...(meta.template_id ? { templateId: meta.template_id } : {}),
      ...(meta.template_type !== null && meta.template_type !== undefined ? { templateType: meta.template_type } : {}),
      // past the manual input's limit the acceptance refuses with its own message (号码不能大于60000个)
      mobile: rows.map((r) => r.phone).join(','),
    });
  }

  // ---------------------------------------------------------------- send records

  /** filters/send-record.json */
  recordFilter(f: SendRecordFilter): RecordFilter {
    const range = recordRange(f.beginDate, f.endDate, this.ctx.now());
    // past the kept months the partitions are gone: said, not answered with an empty table
    const months = this.ctx.config.recordsKeepMonths;
    if (range.to <= keptSince(this.ctx.now(), months))
      throw new ApiError(400, RECORD_MSG.recordRetention.replace('{months}', String(months)));
    return {
      ...range,
      states: statesOf(f.stateList),
      phone: f.phone || undefined,
      content: f.searchContent || undefined,
      // 0 全网: any carrier
      carrier: f.operatorstype || undefined,
      province: f.province || undefined,
      city: f.city || undefined,
      taskUid: f.taskId || undefined,
    };
  }

  /**
   * A task-number filter becomes that task's id within the scope's accounts (combined with a
   * content filter's tasks: both must hold); a number no task of the scope has matches nothing.
   */
  async withTask(ids: number[], f: RecordFilter): Promise<RecordFilter> {
    if (!f.taskUid) return f;
    const t = await this.ctx.db
      .selectFrom('sms_tasks')
      .select('id')
      .where('uid', '=', f.taskUid)
      .where('account_id', 'in', ids)
      .executeTakeFirst();
    const mine = t ? [t.id] : [];
    return { ...f, taskIds: f.taskIds ? f.taskIds.filter((x) => mine.includes(x)) : mine };
  }

  /** the filter of a record query: the form's values, the content's tasks and the task number resolved */
  private async filterOf(ids: number[], bd: SendRecordFilter): Promise<RecordFilter> {
    return this.withTask(ids, await this.withContentTasks(ids, this.recordFilter(bd)));
  }

  /**
   * A content filter becomes the ids of the scope's tasks whose text matches (a message is created
   * with its task, so only tasks created before the range's end count): at most
   * CONTENT_TASKS_MAX of them, else 短信内容匹配的任务过多，请缩小查询范围.
   */
  async withContentTasks(ids: number[], f: RecordFilter): Promise<RecordFilter> {
    if (!f.content) return f;
    const rows = await this.ctx.db
      .selectFrom('sms_tasks')
      .select('id')
      .where('account_id', 'in', ids)
      .where('created_at', '<', f.to)
      .where(sql<boolean>`content ilike ${`%${escapeLike(f.content)}%`}`)
      .limit(CONTENT_TASKS_MAX + 1)
      .execute();
    if (rows.length > CONTENT_TASKS_MAX) throw new ApiError(400, RECORD_MSG.tooManyTasks);
    return { ...f, taskIds: rows.map((r) => r.id) };
  }

  private recordConds(f: RecordFilter): RawBuilder<unknown>[] {
    // the id bounds name the months of the range (partitions, migration 0052): from the month before
    // its start to this month (no id is past it); the other months' partitions are not read
    const c: RawBuilder<unknown>[] = [
      sql`m.created_at >= ${f.from}`,
      sql`m.created_at < ${f.to}`,
      sql`m.id >= sms_id_floor(${f.from})`,
      sql`m.id < sms_id_ceiling()`,
    ];
    if (f.phone) c.push(sql`m.phone = ${f.phone}`);
    if (f.carrier) c.push(sql`m.carrier = ${f.carrier}`);
    if (f.states) c.push(sql`m.state in (${sql.join(f.states)})`);
    if (f.province) c.push(sql`m.province_id = ${f.province}`);
    if (f.city) c.push(sql`m.city_id = ${f.city}`);
    // `+ 0`: checked on the scan's INCLUDEd task_id, never a plan driven by the task index
    if (f.taskIds) c.push(f.taskIds.length ? sql`m.task_id + 0 in (${sql.join(f.taskIds)})` : sql`false`);
    return c;
  }

  /**
   * The lateral scans of a record query, each an ordered index range (a number's rows, few, on the
   * phone index instead): per (account, province) on
   * sms_messages_province with a province or city filter (a city id is its province id × 10000 +
   * n), else per (account, state) on sms_messages_state with a state filter, else per account on
   * sms_messages_record. The other filters are checked on the index's INCLUDEd columns.
   */
  private scans(ids: number[], f: RecordFilter): { from: RawBuilder<unknown>; key: RawBuilder<unknown> } {
    const accounts = sql`unnest(array[${sql.join(ids)}]::int[]) as a(id)`;
    // one task (the task-number filter): its own rows on the task index, not the accounts' range
    if (f.taskUid && f.taskIds?.length === 1)
      return {
        from: sql`(values (${f.taskIds[0]}::int)) as a(id)`,
        key: sql`m.task_id = a.id and m.account_id in (${sql.join(ids)})`,
      };
    // a number: its few rows on the phone index (hash), kept to the scope's accounts (`+ 0`: never a
    // walk of an account's whole range checking the number, which a generic plan would pick, taking
    // an account for an average one: 180 ms for a heavy account at 30,000,000 records, 0.5 ms this way)
    if (f.phone) return { from: sql`(values (0)) as a(id)`, key: sql`m.account_id + 0 in (${sql.join(ids)})` };
    const province = f.province ?? (f.city ? Math.floor(f.city / 10_000) : undefined);
    if (province) return { from: accounts, key: sql`m.account_id = a.id and m.province_id = ${province}` };
    if (f.states)
      return {
        from: sql`${accounts} cross join unnest(array[${sql.join(f.states)}]::smallint[]) as s(state)`,
        key: sql`m.account_id = a.id and m.state = s.state`,
      };
    return { from: accounts, key: sql`m.account_id = a.id` };
  }

  /**
   * Rows of the filter, newest first, after a keyset position, `limit` from `offset`. The scans
   * pick (id, created_at) from the indexes alone (every filter column is in them); only the rows
   * of the page are then read from the table, with their task's text when the message has none of
   * its own (one statement: no second round trip for the texts). `count`: each row also carries
   * the matching rows counted up to that cap + 1 (recordCount's count, in the same statement).
   */
  private async recordRows(
    ids: number[],
    f: RecordFilter,
    o: { limit: number; offset?: number; after?: { t: Date; id: number }; count?: number },
  ): Promise<MessageRow[]> {
    const conds = this.recordConds(f);
    if (o.after) conds.push(sql`(m.created_at, m.id) < (${o.after.t}, ${o.after.id})`);
    const offset = o.offset ?? 0;
    const { from, key } = this.scans(ids, f);
    const total = o.count === undefined ? sql`` : sql`, (${this.countQuery(ids, f, o.count)}) as total`;
    const r =
      await sql<MessageRow>`select m.id, m.account_id, m.task_id, m.phone, m.carrier, m.province_id, m.city_id, m.pieces, m.state, m.error_code, m.report, m.created_at, m.submitted_at,
        coalesce(m.content, t.content, '') as content, t.uid as task_uid${total}
      from (
        select r.id, r.created_at from ${from}
        cross join lateral (
          select m.id, m.created_at from sms_messages m
          where ${key} and ${sql.join(conds, sql` and `)}
          order by m.created_at desc, m.id desc
          limit ${offset + o.limit}
        ) r
        order by r.created_at desc, r.id desc
        limit ${o.limit} offset ${offset}
      ) p
      join sms_messages m on m.id = p.id
      left join sms_tasks t on t.id = m.task_id
      order by m.created_at desc, m.id desc`.execute(this.ctx.db);
    return r.rows.map((x) => ({
      ...x,
      created_at: new Date(x.created_at),
      submitted_at: x.submitted_at ? new Date(x.submitted_at) : null,
    }));
  }

  /** matching rows, counted up to `cap` + 1 in all (so "more than cap" is known without counting them all) */
  private countQuery(ids: number[], f: RecordFilter, cap: number): RawBuilder<{ n: string | number }> {
    const { from, key } = this.scans(ids, f);
    // the outer limit stops the nested loop once cap + 1 rows came from any of the scans
    return sql<{ n: string | number }>`select count(*) as n from (
        select 1 from ${from}
        cross join lateral (select 1 from sms_messages m where ${key} and ${sql.join(this.recordConds(f), sql` and `)} limit ${cap + 1}) x
        limit ${cap + 1}
      ) y`;
  }

  private async recordCount(ids: number[], f: RecordFilter, cap: number): Promise<number> {
    const r = await this.countQuery(ids, f, cap).execute(this.ctx.db);
    return Number(r.rows[0]?.n ?? 0);
  }

  private recordRow(r: MessageRow, clientids: Map<number, string>): Required<SendRecord> {
    return {
      id: r.id,
      clientid: clientids.get(r.account_id) ?? '',
      taskId: r.task_uid ?? '',
      phone: r.phone,
      operatorstype: r.carrier,
      provinceName: r.province_id ? (findProvince(r.province_id)?.provinceName ?? '') : '',
      cityName: r.city_id ? (findCity(r.city_id)?.cityName ?? '') : '',
      content: r.content,
      state: r.state,
      stateStr: this.label('send-record-status', r.state),
      errorcode: r.error_code,
      report: r.report,
      dateStr: formatDateTime(r.submitted_at ?? r.created_at),
      smsNum: r.pieces,
    };
  }

  /** POST /send/getrecords: a page of 10 by default; totalCount counted up to recordCountCap */
  async records(me: Account, bd: SendRecordFilter & PageRows) {
    const accounts = await this.accountsOf(me, bd.clientid);
    const ids = accounts.map((a) => a.id);
    const f = await this.filterOf(ids, bd);
    const paging = pagingOf(bd, RECORD_PAGE_SIZE);
    const cap = this.ctx.config.recordCountCap;
    const clientids = new Map(accounts.map((a) => [a.id, a.clientid]));
    // one statement for the page and its count; pages past the counted rows are not read (the
    // list is bounded by the cap), and a page past the last row counts alone
    const rows =
      paging.offset < cap
        ? await this.recordRows(ids, f, {
            limit: Math.min(paging.size, cap - paging.offset),
            offset: paging.offset,
            count: cap,
          })
        : [];
    const counted = rows.length ? Number(rows[0].total) : await this.recordCount(ids, f, cap);
    return {
      ...listPage(
        rows.map((r) => this.recordRow(r, clientids)),
        Math.min(counted, cap),
        paging,
      ),
      totalCapped: counted > cap,
      ...this.retentionNote(f),
    };
  }

  /**
   * A range that starts before the kept months (RECORDS_KEEP_MONTHS: those partitions are dropped)
   * is answered with the kept part and says so: the console's notice above the list.
   */
  private retentionNote(f: RecordFilter): { retention?: RecordRetention } {
    const months = this.ctx.config.recordsKeepMonths;
    const kept = keptSince(this.ctx.now(), months);
    return f.from < kept ? { retention: { months, from: dayOf(kept) } } : {};
  }

  /** every matching record in keyset batches of BATCH (at most `max`) */
  private recordBatches(ids: number[], f: RecordFilter, max?: number): AsyncGenerator<MessageRow[]> {
    return keysetPages(
      (after: { t: Date; id: number } | undefined, limit) => this.recordRows(ids, f, { limit, after }),
      (last) => ({ t: last.created_at, id: last.id }),
      { batch: BATCH, max },
    );
  }

  /** counts for an export: over `max` → `tooMany`; none → 当前条件没有数据，无法导出 */
  private async exportCount(ids: number[], f: RecordFilter, max: number, tooMany: string): Promise<number> {
    const n = await this.recordCount(ids, f, max);
    if (n > max) throw errors.refused(tooMany);
    if (n === 0) throw errors.refused(RECORD_MSG.noData);
    return n;
  }

  /** POST /send/exportRecordsTxt: the numbers of the matching records, one a line, streamed */
  async recordsTxt(me: Account, bd: SendRecordFilter): Promise<{ name: string; stream: Readable }> {
    const accounts = await this.accountsOf(me, bd.clientid);
    const ids = accounts.map((a) => a.id);
    const f = await this.filterOf(ids, bd);
    await this.exportCount(ids, f, this.ctx.config.recordTxtExportMax, RECORD_MSG.exportTxtTooMany);
    const batches = this.recordBatches(ids, f, this.ctx.config.recordTxtExportMax);
    async function* lines() {
      for await (const rows of batches) yield rows.map((r) => `${r.phone}\n`).join('');
    }
    return {
      name: `发送记录号码_${stamp(this.ctx.now())}.txt`,
      stream: this.guarded(Readable.from(lines()), 'record numbers export'),
    };
  }

  /**
   * POST /send/exportrecords: writes the matching records into DATA_DIR/exports/<id>.xlsx (a
   * temporary name until complete), remembers it in export_files for this account, and answers
   * its id; GET /send/downloadExportSendRecords?filePath=<id> serves it to the same account only.
   */
  async prepareRecordsExport(me: Account, bd: SendRecordFilter): Promise<{ filePath: string; rows: number }> {
    const accounts = await this.accountsOf(me, bd.clientid);
    const ids = accounts.map((a) => a.id);
    const f = await this.filterOf(ids, bd);
    if (this.exporting.has(me.id)) throw errors.refused(RECORD_MSG.exportBusy);
    this.exporting.add(me.id);
    try {
      await this.exportCount(ids, f, this.ctx.config.recordExportMax, RECORD_MSG.exportTooMany);
      await this.purgeExports(me.id);
      const id = crypto.randomBytes(16).toString('hex');
      const rel = path.join(EXPORT_DIR, `${id}.xlsx`);
      const dir = path.join(this.ctx.dataDir, EXPORT_DIR);
      fs.mkdirSync(dir, { recursive: true });
      const tmp = path.join(dir, `${id}.part`);
      const clientids = new Map(accounts.map((a) => [a.id, a.clientid]));
      let rows = 0;
      try {
        const out = fs.createWriteStream(tmp);
        const done = new Promise<void>((resolve, reject) => {
          out.on('finish', resolve);
          out.on('error', reject);
        });
        // awaited below; a write failure is already what writeXlsx throws
        done.catch(() => {});
        // rows arriving after the count may follow; never more than the limit
        rows = await writeXlsx(this.ctx.schemas.registry, out, {
          sheet: '发送记录',
          entity: 'entities/send-record',
          columns: [
            { key: 'clientid', width: 12 },
            { key: 'phone', width: 14 },
            { key: 'operatorStr', field: 'operatorstype', width: 8 },
            { key: 'provinceName', width: 10 },
            { key: 'cityName', width: 14 },
            { key: 'content', width: 60 },
            { key: 'stateStr', field: 'state', width: 12 },
            { key: 'errorcode', width: 12 },
            { key: 'report', width: 12 },
            { key: 'dateStr', width: 20 },
            { key: 'smsNum', width: 10 },
          ],
          rows: mapPages(this.recordBatches(ids, f, this.ctx.config.recordExportMax), (r) => {
            const row = this.recordRow(r, clientids);
            return { ...row, operatorStr: this.label('carrier', row.operatorstype) };
          }),
        });
        await done;
        fs.renameSync(tmp, path.join(this.ctx.dataDir, rel));
      } catch (e) {
        fs.rmSync(tmp, { force: true });
        throw e;
      }
      await this.ctx.db
        .insertInto('export_files')
        .values({
          id,
          account_id: me.id,
          file_name: `发送记录_${stamp(this.ctx.now())}.xlsx`,
          path: rel,
          rows,
          created_at: this.ctx.now(),
        })
        .execute();
      return { filePath: id, rows };
    } finally {
      this.exporting.delete(me.id);
    }
  }

  /** this account's prepared exports older than EXPORT_TTL_MS: rows and files removed */
  private async purgeExports(accountId: number) {
    const old = await this.ctx.db
      .selectFrom('export_files')
      .select(['id', 'path'])
      .where('account_id', '=', accountId)
      .where('created_at', '<', new Date(this.ctx.now().getTime() - EXPORT_TTL_MS))
      .execute();
    for (const o of old) {
      const file = this.exportFile(o.path);
      if (file) fs.rmSync(file, { force: true });
      await this.ctx.db.deleteFrom('export_files').where('id', '=', o.id).execute();
    }
  }

  /** the absolute path of a stored export, only when inside DATA_DIR/exports */
  private exportFile(rel: string): string | undefined {
    const dir = path.resolve(this.ctx.dataDir, EXPORT_DIR);
    const abs = path.resolve(this.ctx.dataDir, rel);
    return abs.startsWith(dir + path.sep) ? abs : undefined;
  }

  /** GET /send/downloadExportSendRecords?filePath=<id>: the account's own prepared export */
  async download(me: Account, filePath: string | undefined): Promise<{ name: string; stream: Readable; size: number }> {
    const id = filePath ?? '';
    if (!/^[0-9a-f]{32}$/.test(id)) throw new ApiError(400, RECORD_MSG.badParam);
    const row = await this.ctx.db
      .selectFrom('export_files')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', me.id)
      .executeTakeFirst();
    const file =
      row && row.created_at.getTime() > this.ctx.now().getTime() - EXPORT_TTL_MS
        ? this.exportFile(row.path)
        : undefined;
    if (!row || !file || !fs.existsSync(file)) throw new ApiError(404, RECORD_MSG.fileNotFound);
    return { name: row.file_name, stream: fs.createReadStream(file), size: fs.statSync(file).size };
  }

  // ---------------------------------------------------------------- uplink

  private moQuery(ids: number[], f: MoRecordFilter) {
    const range = uplinkRange(f.startReceivedate, f.endReceivedate, this.ctx.now());
    const phone = f.phone;
    const content = f.searchContent;
    let q = this.ctx.db
      .selectFrom('sms_mo as o')
      .where('o.account_id', 'in', ids)
      .where('o.received_at', '>=', range.from)
      .where('o.received_at', '<', range.to);
    if (phone) q = q.where('o.phone', '=', phone);
    if (content) q = q.where(sql<boolean>`o.content ilike ${`%${escapeLike(content)}%`}`);
    return q;
  }

  private moRow(
    r: { account_id: number; phone: string; content: string; received_at: Date },
    rowNum: number,
    clientids: Map<number, string>,
  ): Required<MoRecord> {
    return {
      rowNum,
      clientid: clientids.get(r.account_id) ?? '',
      phone: r.phone,
      content: r.content,
      receivedateStr: formatDateTime(r.received_at),
    };
  }

  /** POST /send/getmologs (filters/mo-record.json): last three months, a span of one month at most */
  async moList(me: Account, bd: MoRecordFilter & PageRows) {
    const accounts = await this.accountsOf(me, bd.clientid);
    const ids = accounts.map((a) => a.id);
    const q = this.moQuery(ids, bd);
    const paging = pagingOf(bd, MO_PAGE_SIZE);
    const { rows, total } = await pageOf(
      q,
      (f) =>
        f
          .select(['o.id', 'o.account_id', 'o.phone', 'o.content', 'o.received_at'])
          .orderBy('o.received_at', 'desc')
          .orderBy('o.id', 'desc'),
      paging,
    );
    const clientids = new Map(accounts.map((a) => [a.id, a.clientid]));
    return listPage(
      rows.map((r, i) => this.moRow(r, paging.offset + i + 1, clientids)),
      total,
      paging,
    );
  }

  /** POST /send/exportmologs: the same rows as an xlsx, streamed (≤ recordExportMax) */
  async moExport(me: Account, bd: MoRecordFilter): Promise<{ name: string; stream: Readable }> {
    const accounts = await this.accountsOf(me, bd.clientid);
    const ids = accounts.map((a) => a.id);
    const q = this.moQuery(ids, bd);
    const max = this.ctx.config.recordExportMax;
    const { n } = await this.ctx.db
      .selectFrom(
        q
          .select('o.id')
          .limit(max + 1)
          .as('x'),
      )
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(n) > max) throw errors.refused(RECORD_MSG.exportTooMany);
    if (Number(n) === 0) throw errors.refused(RECORD_MSG.noData);
    const clientids = new Map(accounts.map((a) => [a.id, a.clientid]));
    let rowNum = 0;
    const pages = keysetPages(
      (after: { t: Date; id: number } | undefined, limit) => {
        let page = q
          .select(['o.id', 'o.account_id', 'o.phone', 'o.content', 'o.received_at'])
          .orderBy('o.received_at', 'desc')
          .orderBy('o.id', 'desc')
          .limit(limit);
        if (after)
          page = page.where((eb) => eb(eb.refTuple('o.received_at', 'o.id'), '<', eb.tuple(after.t, after.id)));
        return page.execute();
      },
      (last) => ({ t: last.received_at, id: last.id }),
      { batch: BATCH, max },
    );
    const out = xlsxStream(this.ctx, 'uplink', {
      sheet: '上行记录',
      entity: 'entities/mo-record',
      columns: [
        { key: 'rowNum', width: 8 },
        { key: 'clientid', width: 12 },
        { key: 'phone', width: 14 },
        { key: 'content', width: 60 },
        { key: 'receivedateStr', width: 20 },
      ],
      rows: mapPages(pages, (r) => this.moRow(r, ++rowNum, clientids)),
    });
    return { name: `上行记录_${stamp(this.ctx.now())}.xlsx`, stream: out };
  }

  /** a stream whose failure is logged (the response is then cut short) */
  private guarded(stream: Readable, what: string): Readable {
    const out = new PassThrough();
    pipeline(stream, out).catch((err) => {
      this.ctx.log.error({ err }, `${what} failed`);
    });
    return out;
  }
}

/** 'YYYYMMDDHHmmss' in Asia/Shanghai */
const stamp = (d: Date) => formatDateTime(d).replace(/\D/g, '');

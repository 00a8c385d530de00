/**
 * What the customers' HTTP API reads and hands out (docs/api-openapi.md): the send (through the
 * send module's interface acceptance, with its idempotency key), a task's per-number states, the
 * report and uplink pull queues (api_pull: needreport 3 / needmo 3), balance and pools, signs and
 * templates. Every call is the caller's own account.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import type { Account } from '../../db/types';
import { formatDateTime } from '../../lib/time';
import { money2 } from '../../lib/money';
import { poolFigure } from '../billing';
import { stateTitle, type MoRecord, type ReportRecord } from '../push';
import { expandTask } from '../send';
import type { InterfaceSend, InterfaceSendInput, InterfaceSendResult } from '../send';
import {
  NeedMo,
  NeedReport,
  ProductType,
  SignState,
  TemplateAuditState,
  TemplateBusiness,
  type OpenApiBalance,
  type OpenApiSendAnswer,
} from '../../../common/generated/schemas';
import { apiError, openApiMessage } from './errors';

/** a pulled row not acknowledged comes back after this long */
export const PULL_LEASE_MS = 60_000;
/** idempotency keys are kept this long */
export const IDEMPOTENCY_MS = 24 * 3600_000;
/** pull rows nobody took are dropped after this long (72 h) */
export const PULL_KEEP_MS = 72 * 3600_000;

export const PULL_KIND = { report: 1, mo: 2 } as const;

/** the stored answer of an idempotent send (the answer without `replayed`) */
export type SendAnswer = Omit<OpenApiSendAnswer, 'replayed'>;

const answerOf = (r: InterfaceSendResult): SendAnswer => ({
  taskId: r.taskId,
  submitTotal: r.submitTotal,
  smsNum: r.smsNum,
  chargeNum: r.chargeNum,
  amount: r.amount,
  repeatNum: r.repeatNum,
  invalidNumbers: r.invalidNumbers,
  blacklistNum: r.blacklistNum ?? 0,
  blacklistNumbers: r.blacklistNumbers,
  messages: r.messages,
  msg: r.msg,
});

/**
 * A message's done time as answered: never before its submit time. The carrier's receipt gives the
 * done time (SMPP's `done date` to the minute, its seconds dropped; the carrier's own clock), the
 * record the submit time (this server's clock, to the millisecond), so a receipt within the minute
 * of its submit read 12:00:00 done for a 12:00:41 submit (issue 41 item 10: doneTime before
 * submitTime). Such a receipt is answered as done at the submit time.
 */
export function doneNotBefore(done: Date | string, submitted: Date | string | null): Date | string {
  if (!submitted) return done;
  return new Date(done).getTime() < new Date(submitted).getTime() ? submitted : done;
}

const parseJson = <T>(v: T | string): T => (typeof v === 'string' ? JSON.parse(v) : v);

export class OpenApiService {
  constructor(
    private readonly ctx: AppContext,
    private readonly iface: InterfaceSend,
  ) {}

  /**
   * A send; with an idempotency key, the first request's answer is stored in the send's own
   * transaction and every retry with the same key (and the same body) gets it back (`replayed`);
   * the same key with another body is refused. Two requests with one key at the same moment: the
   * second waits on the key's row and then answers the first one's result.
   */
  async send(
    me: Account,
    input: InterfaceSendInput,
    idem: { key: string; bodySha256: string } | null,
  ): Promise<{ answer: SendAnswer; replayed: boolean }> {
    const hash = idem ? idem.bodySha256 : '';
    const stored = async () => {
      if (!idem) return null;
      const row = await this.ctx.db
        .selectFrom('api_idempotency')
        .select(['request_hash', 'answer'])
        .where('account_id', '=', me.id)
        .where('idem_key', '=', idem.key)
        .executeTakeFirst();
      if (!row) return null;
      if (row.request_hash !== hash) throw apiError('IDEMPOTENCY_CONFLICT');
      return { answer: parseJson(row.answer), replayed: true };
    };
    const before = await stored();
    if (before) return before;
    try {
      const r = await this.iface.accept(me, input, async (trx, res) => {
        if (!idem) return;
        const ins = await trx
          .insertInto('api_idempotency')
          .values({
            account_id: me.id,
            idem_key: idem.key,
            request_hash: hash,
            task_uid: res.taskId,
            answer: JSON.stringify(answerOf(res)),
            created_at: this.ctx.now(),
          })
          .onConflict((oc) => oc.columns(['account_id', 'idem_key']).doNothing())
          .returning('idem_key')
          .executeTakeFirst();
        // another request with this key committed first: this one is rolled back, its answer returned
        if (!ins) throw new IdempotentRace();
      });
      return { answer: answerOf(r), replayed: false };
    } catch (err) {
      if (err instanceof IdempotentRace) {
        const again = await stored();
        if (again) return again;
      }
      throw err;
    }
  }

  /** A task of the account with its numbers' states, a page of `rows` (by message id). */
  async task(me: Account, uid: string, page: number, rows: number) {
    const t = await this.ctx.db
      .selectFrom('sms_tasks')
      .select([
        'id',
        'uid',
        'status',
        'content',
        'sign',
        'smstype',
        'submit_total',
        'success_num',
        'fail_num',
        'unknown_num',
        'intercept_num',
        'audit_num',
        'charge_num_total',
        'amount',
        'send_time',
        'created_at',
        'extension',
      ])
      .where('uid', '=', uid)
      .where('account_id', '=', me.id)
      .executeTakeFirst();
    if (!t) throw apiError('TASK_NOT_FOUND');
    await expandTask(this.ctx.db, t.id);
    const list = await this.ctx.db
      .selectFrom('sms_messages')
      .select(['id', 'phone', 'state', 'error_code', 'report', 'pieces', 'submitted_at', 'done_at'])
      .where('task_id', '=', t.id)
      .orderBy('id')
      .offset((page - 1) * rows)
      .limit(rows)
      .execute();
    return {
      taskId: t.uid,
      status: t.status,
      content: t.content,
      smstype: t.smstype,
      extension: t.extension,
      submitTotal: t.submit_total,
      successNum: t.success_num,
      failNum: t.fail_num,
      unknownNum: t.unknown_num,
      interceptNum: t.intercept_num,
      auditNum: t.audit_num,
      chargeNum: t.charge_num_total,
      amount: money2(t.amount),
      sendTime: formatDateTime(t.send_time),
      createTime: formatDateTime(t.created_at),
      page,
      rows,
      list: list.map((m) => ({
        msgid: Number(m.id),
        mobile: m.phone,
        state: m.state,
        stateStr: stateTitle(m.state),
        errorcode: m.error_code,
        report: m.report,
        smsNum: m.pieces,
        submitTime: m.submitted_at ? formatDateTime(m.submitted_at) : '',
        doneTime: m.done_at ? formatDateTime(doneNotBefore(m.done_at, m.submitted_at)) : '',
      })),
    };
  }

  /**
   * The next rows of the account's pull queue (`kind`): `ack` (the token of the previous pull)
   * deletes what that pull handed out; then up to `limit` rows not handed out (or handed out more
   * than PULL_LEASE_MS ago and never acknowledged) are handed out under a new token. Rows another
   * process is handing out at the same moment are skipped (each row goes to one pull).
   */
  private async claim(me: Account, kind: number, ack: string | undefined, limit: number) {
    const now = this.ctx.now();
    const token = randomUUID();
    return this.ctx.db.transaction().execute(async (trx) => {
      if (ack)
        await trx
          .deleteFrom('api_pull')
          .where('account_id', '=', me.id)
          .where('kind', '=', kind)
          .where('batch', '=', ack)
          .execute();
      const leaseEnd = new Date(now.getTime() - PULL_LEASE_MS).toISOString();
      // the rows picked once, as an array (door-core.ts pump: a queue's plan made while it was nearly
      // empty must not run the locking subquery for each row)
      const r = await sql<{ id: number; ref_id: number }>`
        update api_pull set handed_at = ${now.toISOString()}::timestamptz, batch = ${token}
        where id = any(array(
          select id from api_pull
          where account_id = ${me.id} and kind = ${kind} and (handed_at is null or handed_at < ${leaseEnd}::timestamptz)
          order by id limit ${limit}
          for update skip locked))
        returning id, ref_id`.execute(trx);
      const more = r.rows.length === limit;
      return {
        token: r.rows.length ? token : null,
        refs: r.rows.map((x) => Number(x.ref_id)).sort((a, b) => a - b),
        more,
      };
    });
  }

  /**
   * A pull of an account whose mode (needreport / needmo) is not 用户拉取 is refused (NOT_PULL_MODE,
   * naming the mode it has) rather than answered with an empty list that reads as "nothing yet"
   * (issue 41 item 10). What was queued while the mode was 3 stays until it expires (72 h) and is
   * handed out again if the mode goes back to 3.
   */
  private assertPull(
    me: Account,
    enumName: 'need-report' | 'need-mo',
    mode: number,
    pull: number,
    message: 'reportsNotPull' | 'moNotPull',
    field: 'needreport' | 'needmo',
  ) {
    if (mode === pull) return;
    const label = this.ctx.schemas.registry.enumLabel(enumName, mode) ?? String(mode);
    throw apiError('NOT_PULL_MODE', openApiMessage(message, { mode: label }), undefined, {
      [field]: mode,
      [`${field}Str`]: label,
    });
  }

  /** needreport 3: final states of the account's messages, each handed out once (until acknowledged). */
  async pullReports(me: Account, ack: string | undefined, limit: number) {
    this.assertPull(me, 'need-report', me.needreport, NeedReport.Pull, 'reportsNotPull', 'needreport');
    const c = await this.claim(me, PULL_KIND.report, ack, limit);
    const rows = c.refs.length
      ? await this.ctx.db
          .selectFrom('sms_messages as m')
          .innerJoin('sms_tasks as t', 't.id', 'm.task_id')
          .select(['m.id', 't.uid', 'm.phone', 'm.state', 'm.error_code', 'm.report', 'm.done_at', 'm.pieces'])
          .where('m.id', 'in', c.refs)
          .orderBy('m.id')
          .execute()
      : [];
    const list: ReportRecord[] = rows.map((m) => ({
      clientid: me.clientid,
      id: Number(m.id),
      taskId: m.uid,
      phone: m.phone,
      state: m.state,
      stateStr: stateTitle(m.state),
      errorcode: m.error_code,
      report: m.report,
      dateStr: m.done_at ? formatDateTime(m.done_at) : '',
      smsNum: m.pieces,
    }));
    return { list, ack: c.token, more: c.more };
  }

  /** needmo 3: the account's uplink, each handed out once (until acknowledged). */
  async pullMo(me: Account, ack: string | undefined, limit: number) {
    this.assertPull(me, 'need-mo', me.needmo, NeedMo.Pull, 'moNotPull', 'needmo');
    const c = await this.claim(me, PULL_KIND.mo, ack, limit);
    const rows = c.refs.length
      ? await this.ctx.db
          .selectFrom('sms_mo')
          .select(['id', 'phone', 'content', 'dest', 'received_at'])
          .where('id', 'in', c.refs)
          .orderBy('id')
          .execute()
      : [];
    const list: MoRecord[] = rows.map((m) => ({
      clientid: me.clientid,
      id: Number(m.id),
      phone: m.phone,
      content: m.content,
      dest: m.dest,
      receivedateStr: formatDateTime(m.received_at),
    }));
    return { list, ack: c.token, more: c.more };
  }

  /** Balance (of the payer: a postpaid sub-account's agent pays) and the usable pools. */
  async balance(me: Account, payerId: number): Promise<OpenApiBalance> {
    const now = this.ctx.now();
    const payer = await this.ctx.db
      .selectFrom('accounts')
      .select(['balance'])
      .where('id', '=', payerId)
      .executeTakeFirstOrThrow();
    const pools = await this.ctx.db
      .selectFrom('product_pools')
      .select(['id', 'product_type', 'operator_code', 'product_name', 'total', 'remaining', 'due_time'])
      .where('account_id', '=', payerId)
      .where('remaining', '>', 0)
      .where('due_time', '>', now)
      .orderBy('due_time')
      .orderBy('id')
      .execute();
    return {
      clientid: me.clientid,
      operationMode: Number(me.operation_mode),
      balance: money2(payer.balance),
      pools: pools.map((p) => ({
        id: p.id,
        productType: p.product_type,
        operatorCode: p.operator_code,
        productName: p.product_name,
        /** pieces; yuan for an international pool */
        remaining: poolFigure(p.product_type, p.remaining),
        unit: p.product_type === ProductType.International ? '元' : '条',
        dueTime: formatDateTime(p.due_time),
      })),
    };
  }

  async signs(me: Account) {
    const rows = await this.ctx.db
      .selectFrom('signs')
      .select(['id', 'sign', 'state', 'cause', 'create_time'])
      .where('account_id', '=', me.id)
      .where('state', '<>', SignState.Deleted)
      .orderBy('id')
      .execute();
    return rows.map((s) => ({
      id: s.id,
      sign: s.sign,
      state: s.state,
      approved: s.state === SignState.Approved,
      cause: s.cause,
      createTime: formatDateTime(s.create_time),
    }));
  }

  async templates(me: Account) {
    const rows = await this.ctx.db
      .selectFrom('templates')
      .select([
        'id',
        'sms_type',
        'template_type',
        'business',
        'smstype',
        'sign',
        'content',
        'state',
        'remark',
        'create_time',
      ])
      .where((eb) => eb.or([eb('owner_id', '=', me.id), eb('owner_id', 'is', null)]))
      .where('business', '=', TemplateBusiness.Domestic)
      .orderBy('id')
      .execute();
    return rows.map((t) => ({
      id: t.id,
      category: t.sms_type,
      templateType: t.template_type,
      smstype: t.smstype,
      sign: t.sign,
      content: t.content,
      state: t.state,
      approved: t.state === TemplateAuditState.Approved,
      remark: t.remark,
      createTime: formatDateTime(t.create_time),
    }));
  }

  /** Expired nonces, idempotency keys and pull rows (every process may run it). */
  async purge() {
    const now = this.ctx.now();
    await this.ctx.db.deleteFrom('api_nonces').where('expires_at', '<', now).execute();
    await this.ctx.db
      .deleteFrom('api_idempotency')
      .where('created_at', '<', new Date(now.getTime() - IDEMPOTENCY_MS))
      .execute();
    await this.ctx.db
      .deleteFrom('api_pull')
      .where('created_at', '<', new Date(now.getTime() - PULL_KEEP_MS))
      .execute();
  }
}

class IdempotentRace extends Error {}

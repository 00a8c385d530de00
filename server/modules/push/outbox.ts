/**
 * Push outbox: delivery reports (PushKind.Report, to the account's deliveryurl when needreport = 1) and
 * uplink (PushKind.Mo, to mourl when needmo = 1) are written into push_outbox in the caller's
 * transaction (the one that records the receipt / MO), several records per row; the Pusher
 * (pusher.ts) sends them. Rules and payloads: docs/api-dispatch.md "Push". A template review result
 * (PushKind.TemplateReview) goes to the auto_template_callback_url the same way (enqueueTemplateReview).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { formatDateTime } from '../../lib/time';
import statusEnum from '../../../schemas/enums/send-record-status.json';
import templateStateEnum from '../../../schemas/enums/template-audit-state.json';
import { NeedMo, NeedReport, PushKind } from '../../../common/generated/schemas';

/** records per push row (one POST) */
export const PUSH_RECORDS_PER_ROW = 200;

/** A final (or submit-failed) message outcome to report. */
export interface ReportRow {
  accountId: number;
  /** sms_messages.id */
  messageId: number;
  /** sms_tasks.uid (the taskId the send answered) */
  taskId?: string;
  phone: string;
  /** enums/send-record-status.json */
  state: number;
  errorcode?: string;
  report?: string;
  /** when the outcome happened (receipt done date) */
  doneAt: Date;
  /** pieces charged (smsNum) */
  pieces?: number;
}

/** An uplink (reply) to push. */
export interface MoRow {
  accountId: number;
  /** sms_mo.id */
  moId?: number;
  phone: string;
  content: string;
  /** the number the reply was sent to (our source address + extension) */
  dest?: string;
  receivedAt: Date;
}

/** JSON records, field names of entities/send-record.json and entities/mo-record.json */
export interface ReportRecord {
  clientid: string;
  id: number;
  taskId: string;
  phone: string;
  state: number;
  stateStr: string;
  errorcode: string;
  report: string;
  dateStr: string;
  smsNum: number;
}
export interface MoRecord {
  clientid: string;
  id: number | null;
  phone: string;
  content: string;
  dest: string;
  receivedateStr: string;
}

const STATE_TITLES = new Map<number, string>(
  (statusEnum.oneOf as { const: number; title: string }[]).map((o) => [o.const, o.title]),
);

export function stateTitle(state: number): string {
  return STATE_TITLES.get(state) ?? String(state);
}

type Db = Kysely<Database>;

async function targets(
  trx: Db,
  accountIds: number[],
  kind: number,
): Promise<Map<number, { clientid: string; url: string }>> {
  const out = new Map<number, { clientid: string; url: string }>();
  const ids = [...new Set(accountIds)];
  for (let i = 0; i < ids.length; i += 1000) {
    const chunk = ids.slice(i, i + 1000);
    const rows =
      kind === PushKind.Report
        ? await trx
            .selectFrom('accounts')
            .select(['id', 'clientid', 'deliveryurl as url'])
            .where('id', 'in', chunk)
            .where('needreport', '=', NeedReport.SimplePush)
            .where('deliveryurl', '<>', '')
            .execute()
        : await trx
            .selectFrom('accounts')
            .select(['id', 'clientid', 'mourl as url'])
            .where('id', 'in', chunk)
            .where('needmo', '=', NeedMo.Push)
            .where('mourl', '<>', '')
            .execute();
    for (const r of rows) out.set(r.id, { clientid: r.clientid, url: r.url });
  }
  return out;
}

async function insertGrouped<T>(
  trx: Db,
  kind: number,
  byAccount: Map<number, T[]>,
  urls: Map<number, { url: string }>,
): Promise<number> {
  const values: { account_id: number; kind: number; url: string; payload: string }[] = [];
  for (const [accountId, records] of byAccount) {
    const url = urls.get(accountId)!.url;
    for (let i = 0; i < records.length; i += PUSH_RECORDS_PER_ROW) {
      values.push({
        account_id: accountId,
        kind,
        url,
        payload: JSON.stringify(records.slice(i, i + PUSH_RECORDS_PER_ROW)),
      });
    }
  }
  for (let i = 0; i < values.length; i += 500)
    await trx
      .insertInto('push_outbox')
      .values(values.slice(i, i + 500))
      .execute();
  return values.length;
}

/** Queues delivery reports for the accounts that want them; returns the push rows written. */
export async function enqueueReports(trx: Db, rows: ReportRow[]): Promise<number> {
  if (!rows.length) return 0;
  const urls = await targets(
    trx,
    rows.map((r) => r.accountId),
    PushKind.Report,
  );
  if (!urls.size) return 0;
  const byAccount = new Map<number, ReportRecord[]>();
  for (const r of rows) {
    const t = urls.get(r.accountId);
    if (!t) continue;
    let list = byAccount.get(r.accountId);
    if (!list) byAccount.set(r.accountId, (list = []));
    list.push({
      clientid: t.clientid,
      id: r.messageId,
      taskId: r.taskId ?? '',
      phone: r.phone,
      state: r.state,
      stateStr: stateTitle(r.state),
      errorcode: r.errorcode ?? '',
      report: r.report ?? '',
      dateStr: formatDateTime(r.doneAt),
      smsNum: r.pieces ?? 1,
    });
  }
  return insertGrouped(trx, PushKind.Report, byAccount, urls);
}

/** Queues uplink for the accounts that want it; returns the push rows written. */
export async function enqueueMo(trx: Db, rows: MoRow[]): Promise<number> {
  if (!rows.length) return 0;
  const urls = await targets(
    trx,
    rows.map((r) => r.accountId),
    PushKind.Mo,
  );
  if (!urls.size) return 0;
  const byAccount = new Map<number, MoRecord[]>();
  for (const r of rows) {
    const t = urls.get(r.accountId);
    if (!t) continue;
    let list = byAccount.get(r.accountId);
    if (!list) byAccount.set(r.accountId, (list = []));
    list.push({
      clientid: t.clientid,
      id: r.moId ?? null,
      phone: r.phone,
      content: r.content,
      dest: r.dest ?? '',
      receivedateStr: formatDateTime(r.receivedAt),
    });
  }
  return insertGrouped(trx, PushKind.Mo, byAccount, urls);
}

/** A template's review outcome to push (approved or refused by an operator). */
export interface TemplateReviewRow {
  /** the template's account (templates.owner_id) */
  accountId: number;
  templateId: number;
  /** enums/template-audit-state.json: 1 审核通过, 3 审核不通过 */
  state: number;
  remark: string;
  sign: string;
  content: string;
  reviewedAt: Date;
}

/** JSON record of a template review, field names of entities/template.json */
export interface TemplateReviewRecord {
  clientId: string;
  templateId: number;
  state: number;
  stateStr: string;
  remark: string;
  sign: string;
  content: string;
  updateTimeStr: string;
}

const AUDIT_TITLES = new Map<number, string>(
  (templateStateEnum.oneOf as { const: number; title: string }[]).map((o) => [o.const, o.title]),
);

/**
 * Queues a template's review result for auto_template_callback_url: the template account's own
 * URL, else its agent's (the agent sets it in 基本资料 for the templates of its sub-accounts).
 * Nothing when neither is set; returns the push rows written.
 */
export async function enqueueTemplateReview(trx: Db, row: TemplateReviewRow): Promise<number> {
  const target = await trx
    .selectFrom('accounts as a')
    .leftJoin('accounts as g', 'g.id', 'a.agent_id')
    .select(['a.clientid', 'a.auto_template_callback_url as own', 'g.auto_template_callback_url as agent'])
    .where('a.id', '=', row.accountId)
    .executeTakeFirst();
  const url = target?.own || target?.agent || '';
  if (!target || !url) return 0;
  const record: TemplateReviewRecord = {
    clientId: target.clientid,
    templateId: row.templateId,
    state: row.state,
    stateStr: AUDIT_TITLES.get(row.state) ?? String(row.state),
    remark: row.remark,
    sign: row.sign,
    content: row.content,
    updateTimeStr: formatDateTime(row.reviewedAt),
  };
  await trx
    .insertInto('push_outbox')
    .values({ account_id: row.accountId, kind: PushKind.TemplateReview, url, payload: JSON.stringify([record]) })
    .execute();
  return 1;
}

/**
 * The audit log (issue 39, docs/api-operator.md "Audit log"): one row per operator action, written
 * in the action's own transaction (`audit(trx, …)` is the last statement before its commit, so the
 * change and its row commit together or not at all), and read by the 审计日志 screen.
 */
import { pageOf } from '../../db/page';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../context';
import type { Database } from '../../db/types';
import type { AuditAction, AuditEntry, AuditLogFilter } from '../../../common/generated/schemas';
import { whereFrom } from '../../db/filters';
import { listPage, pagingOf } from '../../http/paging';
import type { CurrentPaging } from '../../http/contract';
import { formatDateTime } from '../../lib/time';

/** who acts: the operator's id and name (the name is kept in the row: an operator removed later still shows) */
export interface Actor {
  id: number;
  name: string;
}

export interface AuditInput {
  action: AuditAction;
  /** the table of the row acted on */
  target: string;
  targetId: number | string;
  /** the account the action concerns (filter 账户) */
  accountId?: number | null;
  before?: unknown;
  after?: unknown;
  remark?: string;
  at: Date;
}

const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));

/** Writes the audit row of an action, in the action's transaction. */
export async function audit(trx: Transaction<Database>, who: Actor, e: AuditInput): Promise<void> {
  await trx
    .insertInto('audit_log')
    .values({
      at: e.at,
      operator_id: who.id,
      operator_name: who.name,
      action: e.action,
      target: e.target,
      target_id: String(e.targetId),
      account_id: e.accountId ?? null,
      before: json(e.before),
      after: json(e.after),
      remark: (e.remark ?? '').slice(0, 500),
    })
    .execute();
}

/** The 审计日志 list: newest first, filtered by operator, action, account and date (filters/audit-log.json). */
export async function auditList(ctx: AppContext, f: AuditLogFilter & CurrentPaging) {
  const paging = pagingOf(f);
  const base = whereFrom(
    ctx.db.selectFrom('audit_log as l').leftJoin('accounts as a', 'a.id', 'l.account_id'),
    ctx,
    'filters/audit-log',
    f,
  );
  const { rows, total } = await pageOf(
    base,
    (q) =>
      q
        .select([
          'l.id',
          'l.at',
          'l.operator_name',
          'l.action',
          'l.target',
          'l.target_id',
          'l.before',
          'l.after',
          'l.remark',
          'a.clientid',
        ])
        .orderBy('l.at', 'desc')
        .orderBy('l.id', 'desc'),
    paging,
  );
  const list: AuditEntry[] = rows.map((r) => ({
    id: r.id,
    at: formatDateTime(r.at),
    operator: r.operator_name,
    action: r.action,
    target: r.target,
    targetId: r.target_id,
    clientid: r.clientid ?? '',
    // written by audit() from objects only
    ...(r.before !== null ? { before: r.before } : {}),
    ...(r.after !== null ? { after: r.after } : {}),
    remark: r.remark,
  }));
  return listPage(list, total, paging);
}

/**
 * 审核 (issue 39, docs/api-operator.md "Review"): the operators' lists of certifications, signs,
 * templates and invoices, and their decisions. A decision goes through the same function as the
 * CLI's (account/certification.ts reviewCertification, sign reviewSign, template reviewTemplate
 * with its result push, invoice setInvoiceStatus along its transitions), in one transaction with
 * its audit row. Idempotent: the same decision again changes nothing and says who took it.
 */
import { sql, type Transaction } from 'kysely';
import type { AppContext } from '../../context';
import type { Database } from '../../db/types';
import { ApiError } from '../../http/errors';
import { listPage, pagingOf } from '../../http/paging';
import type { CurrentPaging } from '../../http/contract';
import { formatDateTime } from '../../lib/time';
import {
  AuthStatus,
  InvoiceStatus,
  SignState,
  TemplateAuditState,
  type ReviewCertification,
  type ReviewCounts,
  type ReviewFilter,
  type ReviewInvoice,
  type ReviewSign,
  type ReviewTemplate,
} from '../../../common/generated/schemas';
import { reviewCertification, ReviewError } from '../account';
import { reviewSign } from '../sign';
import { reviewTemplate } from '../template';
import { INVOICE_TRANSITIONS, InvoiceStatusError, setInvoiceStatus } from '../invoice';
import { FILES_BASE_URL } from '../upload';
import { audit, type Actor } from './audit';

type Tx = Transaction<Database>;

export const REVIEW_MESSAGES = {
  approved: '已通过',
  rejected: '已驳回',
  reasonRequired: '请填写驳回原因',
  /** the same decision was taken before (by whom) */
  already: (by: string) => `已审核${by ? `（${by}）` : ''}`,
  notFound: (what: string) => `${what}不存在`,
  statusChanged: '状态已变更',
} as const;

/** the menu's badge counts stop here (review-counts.json) */
export const COUNTS_CAP = 1000;

/** where an operator opens a certification's image (operator routes: /operator/files/…) */
export const OPERATOR_FILES_URL = '/api/operator/files/';

/** a review list's filter: pending only (default) and an account */
interface Filter extends ReviewFilter, CurrentPaging {}

export class ReviewService {
  constructor(private readonly ctx: AppContext) {}

  /**
   * How many wait, per kind (the menu's badges), counted up to COUNTS_CAP each: a badge shows 99+
   * beyond 99 anyway, and a capped count reads at most that many index entries (the lists give
   * their exact totals).
   */
  async counts(): Promise<ReviewCounts> {
    const cap = sql.lit(COUNTS_CAP);
    const r = await sql<{ c: string; s: string; t: string; i: string }>`
      select
        (select count(*) from (select 1 from certifications where state = ${AuthStatus.Pending} limit ${cap}) x) as c,
        (select count(*) from (select 1 from signs where state = ${SignState.Pending} limit ${cap}) x) as s,
        (select count(*) from (select 1 from templates where state = ${TemplateAuditState.Pending} and owner_id is not null limit ${cap}) x) as t,
        (select count(*) from (select 1 from invoices where status in (${InvoiceStatus.Pending}, ${InvoiceStatus.Issuing}) limit ${cap}) x) as i`.execute(
      this.ctx.db,
    );
    const x = r.rows[0];
    return { certifications: Number(x.c), signs: Number(x.s), templates: Number(x.t), invoices: Number(x.i) };
  }

  /**
   * A page of a list and its total, as two statements at once: the count reads the list's partial
   * index alone (migration 0046: what waits, by time), the page walks the same index to its offset
   * (a window count over every match would fetch every matching row for each page).
   */
  private async page<T, R>(rows: Promise<R[]>, count: Promise<{ n: string }>, f: Filter, map: (r: R) => T) {
    const [list, n] = await Promise.all([rows, count]);
    return listPage(list.map(map), Number(n.n), pagingOf(f));
  }

  /** the account named by the filter (its id: the lists' indexes are by account id), -1 for none */
  private async accountIdOf(clientid: string): Promise<number> {
    const a = await this.ctx.db.selectFrom('accounts').select('id').where('clientid', '=', clientid).executeTakeFirst();
    return a?.id ?? -1;
  }

  async certifications(f: Filter) {
    const paging = pagingOf(f);
    let q = this.ctx.db.selectFrom('certifications as c');
    // waiting: the submission is 待审核 (reviewCertification moves it and its account together)
    if (f.pending !== false) q = q.where('c.state', '=', AuthStatus.Pending);
    if (f.clientid) q = q.where('c.account_id', '=', await this.accountIdOf(f.clientid));
    const dir = f.pending !== false ? 'asc' : 'desc';
    // the page's ids first (an index-only walk to the offset), then their rows
    const ids = q
      .select('c.id')
      .orderBy('c.submitted_at', dir)
      .orderBy('c.id', dir)
      .limit(paging.size)
      .offset(paging.offset);
    const rows = this.ctx.db
      .selectFrom('certifications as c')
      .innerJoin('accounts as a', 'a.id', 'c.account_id')
      .where('c.id', 'in', ids)
      .select([
        'c.id',
        'a.clientid',
        'a.user_type',
        'c.cert_type',
        'c.company',
        'c.id_nbr',
        'c.img_url',
        'c.state',
        'c.remark',
        'c.submitted_at',
        'c.reviewed_at',
        'c.reviewed_by',
      ])
      .orderBy('c.submitted_at', dir)
      .orderBy('c.id', dir)
      .execute();
    return this.page(
      rows,
      q.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
      f,
      (r): ReviewCertification => ({
        id: r.id,
        clientid: r.clientid,
        userType: r.user_type,
        certType: r.cert_type,
        company: r.company,
        idNbr: r.id_nbr,
        images: r.img_url
          .split('|')
          .filter(Boolean)
          .map((p) => OPERATOR_FILES_URL + p.split('/').map(encodeURIComponent).join('/')),
        state: r.state,
        remark: r.remark,
        submittedAt: formatDateTime(r.submitted_at),
        reviewedAt: formatDateTime(r.reviewed_at),
        reviewedBy: r.reviewed_by,
      }),
    );
  }

  async signs(f: Filter) {
    const paging = pagingOf(f);
    let q = this.ctx.db.selectFrom('signs as s');
    q =
      f.pending !== false
        ? q.where('s.state', '=', SignState.Pending)
        : q.where('s.state', 'in', [SignState.Pending, SignState.Approved, SignState.Rejected]);
    if (f.clientid) q = q.where('s.account_id', '=', await this.accountIdOf(f.clientid));
    const dir = f.pending !== false ? 'asc' : 'desc';
    const ids = q
      .select('s.id')
      .orderBy('s.create_time', dir)
      .orderBy('s.id', dir)
      .limit(paging.size)
      .offset(paging.offset);
    const rows = this.ctx.db
      .selectFrom('signs as s')
      .where('s.id', 'in', ids)
      .select(['s.id', 's.clientid', 's.sign', 's.remarks', 's.state', 's.cause', 's.create_time', 's.reviewed_by'])
      .orderBy('s.create_time', dir)
      .orderBy('s.id', dir)
      .execute();
    return this.page(rows, q.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(), f, (r): ReviewSign => ({
      id: r.id,
      clientid: r.clientid,
      sign: r.sign,
      remarks: r.remarks,
      state: r.state,
      cause: r.cause,
      createTime: formatDateTime(r.create_time),
      reviewedBy: r.reviewed_by,
    }));
  }

  async templates(f: Filter) {
    const paging = pagingOf(f);
    let q = this.ctx.db.selectFrom('templates as t').where('t.owner_id', 'is not', null);
    if (f.pending !== false) q = q.where('t.state', '=', TemplateAuditState.Pending);
    if (f.clientid) q = q.where('t.owner_id', '=', await this.accountIdOf(f.clientid));
    const dir = f.pending !== false ? 'asc' : 'desc';
    const ids = q
      .select('t.id')
      .orderBy('t.create_time', dir)
      .orderBy('t.id', dir)
      .limit(paging.size)
      .offset(paging.offset);
    const rows = this.ctx.db
      .selectFrom('templates as t')
      .innerJoin('accounts as a', 'a.id', 't.owner_id')
      .where('t.id', 'in', ids)
      .select([
        't.id',
        'a.clientid',
        't.sign',
        't.content',
        't.template_type',
        't.state',
        't.remark',
        't.create_time',
        't.reviewed_by',
      ])
      .orderBy('t.create_time', dir)
      .orderBy('t.id', dir)
      .execute();
    return this.page(
      rows,
      q.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
      f,
      (r): ReviewTemplate => ({
        id: r.id,
        clientid: r.clientid,
        sign: r.sign,
        content: r.content,
        templateType: r.template_type,
        state: r.state,
        remark: r.remark,
        createTime: formatDateTime(r.create_time),
        reviewedBy: r.reviewed_by,
      }),
    );
  }

  async invoices(f: Filter) {
    const paging = pagingOf(f);
    let q = this.ctx.db.selectFrom('invoices as i');
    // pending: what an operator still has to move (待审核, 开票中)
    if (f.pending !== false) q = q.where('i.status', 'in', [InvoiceStatus.Pending, InvoiceStatus.Issuing]);
    if (f.clientid) q = q.where('i.account_id', '=', await this.accountIdOf(f.clientid));
    const dir = f.pending !== false ? 'asc' : 'desc';
    const ids = q
      .select('i.id')
      .orderBy('i.create_time', dir)
      .orderBy('i.id', dir)
      .limit(paging.size)
      .offset(paging.offset);
    const rows = this.ctx.db
      .selectFrom('invoices as i')
      .innerJoin('accounts as a', 'a.id', 'i.account_id')
      .where('i.id', 'in', ids)
      .select([
        'i.id',
        'i.invoice_no',
        'a.clientid',
        'i.invoice_type',
        'i.invoice_amount',
        'i.invoice_head',
        'i.status',
        'i.audit_fail_cause',
        'i.express_company',
        'i.express_order',
        'i.create_time',
        'i.reviewed_by',
      ])
      .orderBy('i.create_time', dir)
      .orderBy('i.id', dir)
      .execute();
    return this.page(
      rows,
      q.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
      f,
      (r): ReviewInvoice => ({
        id: r.id,
        invoiceNo: r.invoice_no,
        clientid: r.clientid,
        invoiceType: r.invoice_type,
        invoiceAmount: r.invoice_amount,
        invoiceHead: r.invoice_head,
        status: r.status,
        next: INVOICE_TRANSITIONS[r.status] ?? [],
        reason: r.audit_fail_cause,
        express: [r.express_company, r.express_order].filter(Boolean).join(' '),
        createTime: formatDateTime(r.create_time),
        reviewedBy: r.reviewed_by,
      }),
    );
  }

  private reason(approve: boolean, reason: string | undefined): string {
    const r = (reason ?? '').trim();
    if (!approve && !r) throw new ApiError(400, REVIEW_MESSAGES.reasonRequired);
    return approve ? '' : r;
  }

  private tx<T>(fn: (trx: Tx) => Promise<T>): Promise<T> {
    return this.ctx.db.transaction().execute(fn);
  }

  /** Approves or rejects a certification (by its id: the account's latest submission). */
  async decideCertification(who: Actor, d: { id: number; approve: boolean; reason?: string }): Promise<string> {
    const reason = this.reason(d.approve, d.reason);
    const now = this.ctx.now();
    return this.tx(async (trx) => {
      const c = await trx
        .selectFrom('certifications as c')
        .innerJoin('accounts as a', 'a.id', 'c.account_id')
        .select(['c.id', 'c.account_id', 'c.state', 'c.remark', 'c.reviewed_by', 'a.clientid', 'a.oauth_status'])
        .where('c.id', '=', d.id)
        .forUpdate()
        .executeTakeFirst();
      if (!c) throw new ApiError(404, REVIEW_MESSAGES.notFound('认证'));
      const want = d.approve ? AuthStatus.Certified : AuthStatus.Rejected;
      if (c.state === want) return REVIEW_MESSAGES.already(c.reviewed_by);
      if (c.state !== AuthStatus.Pending) throw new ApiError(409, REVIEW_MESSAGES.already(c.reviewed_by));
      try {
        await reviewCertification(
          trx,
          c.clientid,
          d.approve ? { approve: true } : { approve: false, reason },
          now,
          who.name,
        );
      } catch (e) {
        if (e instanceof ReviewError) throw new ApiError(409, e.message);
        throw e;
      }
      await audit(trx, who, {
        action: d.approve ? 'certification.approve' : 'certification.reject',
        target: 'certifications',
        targetId: c.id,
        accountId: c.account_id,
        before: { state: c.state, oauth_status: c.oauth_status },
        after: { state: want, remark: reason },
        remark: reason,
        at: now,
      });
      return d.approve ? REVIEW_MESSAGES.approved : REVIEW_MESSAGES.rejected;
    });
  }

  async decideSign(who: Actor, d: { id: number; approve: boolean; reason?: string }): Promise<string> {
    const reason = this.reason(d.approve, d.reason);
    const now = this.ctx.now();
    return this.tx(async (trx) => {
      const s = await trx
        .selectFrom('signs')
        .select(['id', 'account_id', 'state', 'cause', 'reviewed_by'])
        .where('id', '=', d.id)
        .forUpdate()
        .executeTakeFirst();
      if (!s || s.state === SignState.Deleted) throw new ApiError(404, REVIEW_MESSAGES.notFound('签名'));
      const want = d.approve ? SignState.Approved : SignState.Rejected;
      if (s.state === want && (d.approve || s.cause === reason)) return REVIEW_MESSAGES.already(s.reviewed_by);
      await reviewSign(trx, now, d.id, d.approve, reason, who.name);
      await audit(trx, who, {
        action: d.approve ? 'sign.approve' : 'sign.reject',
        target: 'signs',
        targetId: s.id,
        accountId: s.account_id,
        before: { state: s.state, cause: s.cause },
        after: { state: want, cause: reason },
        remark: reason,
        at: now,
      });
      return d.approve ? REVIEW_MESSAGES.approved : REVIEW_MESSAGES.rejected;
    });
  }

  async decideTemplate(who: Actor, d: { id: number; approve: boolean; reason?: string }): Promise<string> {
    const reason = this.reason(d.approve, d.reason);
    const now = this.ctx.now();
    return this.tx(async (trx) => {
      const t = await trx
        .selectFrom('templates')
        .select(['id', 'owner_id', 'state', 'remark', 'reviewed_by'])
        .where('id', '=', d.id)
        .forUpdate()
        .executeTakeFirst();
      if (!t || t.owner_id === null) throw new ApiError(404, REVIEW_MESSAGES.notFound('模板'));
      const want = d.approve ? TemplateAuditState.Approved : TemplateAuditState.Rejected;
      if (t.state === want && (d.approve || t.remark === reason)) return REVIEW_MESSAGES.already(t.reviewed_by);
      // the result is queued for the account's template callback in this transaction (push module)
      await reviewTemplate(trx, d.id, want, reason, now, who.name);
      await audit(trx, who, {
        action: d.approve ? 'template.approve' : 'template.reject',
        target: 'templates',
        targetId: t.id,
        accountId: t.owner_id,
        before: { state: t.state, remark: t.remark },
        after: { state: want, remark: reason },
        remark: reason,
        at: now,
      });
      return d.approve ? REVIEW_MESSAGES.approved : REVIEW_MESSAGES.rejected;
    });
  }

  async invoiceStatus(
    who: Actor,
    d: { id: number; status: InvoiceStatus; reason?: string; expressCompany?: string; expressNo?: string },
  ): Promise<string> {
    const now = this.ctx.now();
    return this.tx(async (trx) => {
      const cur = await trx
        .selectFrom('invoices')
        .select(['id', 'account_id', 'status', 'audit_fail_cause', 'express_company', 'express_order', 'reviewed_by'])
        .where('id', '=', d.id)
        .forUpdate()
        .executeTakeFirst();
      if (!cur) throw new ApiError(404, REVIEW_MESSAGES.notFound('发票'));
      if (cur.status === d.status) return REVIEW_MESSAGES.already(cur.reviewed_by);
      try {
        await setInvoiceStatus({ db: trx, now: () => now }, d.id, d.status, {
          reason: d.reason,
          expressCompany: d.expressCompany,
          expressNo: d.expressNo,
          by: who.name,
        });
      } catch (e) {
        if (e instanceof InvoiceStatusError) throw new ApiError(409, e.message);
        throw e;
      }
      await audit(trx, who, {
        action: 'invoice.status',
        target: 'invoices',
        targetId: cur.id,
        accountId: cur.account_id,
        before: {
          status: cur.status,
          reason: cur.audit_fail_cause,
          express: [cur.express_company, cur.express_order].filter(Boolean).join(' '),
        },
        after: {
          status: d.status,
          reason: d.reason ?? '',
          express: [d.expressCompany, d.expressNo].filter(Boolean).join(' '),
        },
        remark: d.reason ?? '',
        at: now,
      });
      return REVIEW_MESSAGES.statusChanged;
    });
  }

  /** Whether a stored file is one of a certification's images (the only files operators open). */
  async isCertificationImage(p: string): Promise<boolean> {
    if (!p || p.includes('|')) return false;
    const r = await sql<{ n: number }>`
      select 1 as n from certifications where ('|' || img_url || '|') like ${`%|${p.replace(/[\\%_]/g, (c) => `\\${c}`)}|%`} limit 1`.execute(
      this.ctx.db,
    );
    return r.rows.length > 0;
  }
}

export { FILES_BASE_URL };

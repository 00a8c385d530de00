/**
 * 短信模板: smart templates of sub-accounts and the platform's general templates.
 *
 * Scope: an agent reaches the templates of its own account and its sub-accounts, a sub-account
 * its own. Only the creator (isCreateor 1) edits or deletes. A save is validated with
 * forms/template.json (the console's rules and messages) plus the shared rules of
 * common/template/rules.ts and the sensitive-word list; a save (add or edit) puts the template
 * in review (state 0), or approves it at once when auto-review is on (AUTO_REVIEW=1, demos).
 * Operators approve and reject with the CLI (server/cli/templates.ts).
 */
import { whereFrom, type ScopeAccount } from '../../db/filters';
import type { CurrentPaging } from '../../http/contract';
import type { AppContext } from '../../context';
import type { Selectable, Transaction } from 'kysely';
import type { Account, Database } from '../../db/types';

/** A template row as TemplateService.COLUMNS selects it (owner and creator joined). */
type TemplateDbRow = Pick<
  Selectable<Database['templates']>,
  | 'id'
  | 'owner_id'
  | 'sms_type'
  | 'template_type'
  | 'business'
  | 'smstype'
  | 'sign'
  | 'content'
  | 'variable_count'
  | 'state'
  | 'remark'
  | 'creator_id'
  | 'order_no'
  | 'create_time'
  | 'update_time'
> & { owner_clientid: string | null; creator_clientid: string | null };
import { ApiError, errors } from '../../http/errors';
import { INT4_MAX } from '../../http/guards';
import { entityPage, pagingOf } from '../../http/paging';
import { validateForm } from '../../http/validation';
import { formatDateTime } from '../../lib/time';
import { SensitiveWords } from '../content';
import { enqueueTemplateReview } from '../push';
import {
  checkTemplateRules,
  countVariables,
  effectiveSmsType,
  sensitiveWordsMessage,
  type TemplateRuleConfig,
} from '../../../common/template/rules';
import {
  AccountStatus,
  TemplateAuditState,
  UserType,
  YesNo,
  type GeneralTemplateFilter,
  type SmartTemplateFilter,
  type SmsTemplate,
  type TemplateRefParams,
} from '../../../common/generated/schemas';
import { MESSAGES } from '../../../common/schema/messages';
import { requiredMessageOf } from '../../../common/schema/registry';
import { approvedSigns, SIGN_NOT_APPROVED } from '../sign';

export const TEMPLATE_FORM = 'forms/template';

/** A row of /autoTemplate/list and /autoTemplate/commonlist: schemas/entities/template.json (smstype may be absent). */
export type TemplateRow = Required<Omit<SmsTemplate, 'smstype'>> & Pick<SmsTemplate, 'smstype'>;

export interface TemplateForm {
  templateId?: number;
  clientId?: string;
  smsType: number;
  templateType: number;
  business: number;
  smstype?: number;
  sign: string;
  content: string;
}

/**
 * A template number as given (the list's templateId filter, params/template-ref): digits within
 * int4, else -1 (matches no template: the list is empty, an edit or delete answers 404).
 */
export function templateIdOf(v: string | number | undefined): number {
  const s = v === undefined ? '' : String(v).trim();
  return /^\d{1,10}$/.test(s) && Number(s) <= INT4_MAX ? Number(s) : -1;
}

export class TemplateService {
  readonly words: SensitiveWords;
  /** approve every save at once (AUTO_REVIEW=1: demos) */
  autoReview: boolean;

  constructor(
    private readonly ctx: AppContext,
    opts: { words?: SensitiveWords; autoReview?: boolean } = {},
  ) {
    // the platform's one word list (AppContext) and review setting (config), unless a test gives its own
    this.words = opts.words ?? ctx.words;
    this.autoReview = opts.autoReview ?? ctx.config.autoReview;
  }

  get rules(): TemplateRuleConfig {
    return this.ctx.schemas.registry.get(TEMPLATE_FORM)['x-rules'] as TemplateRuleConfig;
  }

  private requiredMessage(field: string): string {
    return requiredMessageOf(this.ctx.schemas.registry.get(TEMPLATE_FORM), field) ?? MESSAGES.badParam;
  }

  /** The operation mode that governs an account: a sub-account follows its agent. */
  private async operationMode(a: Account): Promise<string> {
    if (a.user_type === UserType.SubAccount && a.agent_id !== null) {
      const agent = await this.ctx.db
        .selectFrom('accounts')
        .select('operation_mode')
        .where('id', '=', a.agent_id)
        .executeTakeFirst();
      if (agent) return agent.operation_mode;
    }
    return a.operation_mode;
  }

  /** The accounts whose templates the caller reaches: itself and, for an agent, every sub-account. */
  private async scope(a: Account): Promise<ScopeAccount[]> {
    if (a.user_type !== UserType.Agent) return [{ id: a.id, clientid: a.clientid }];
    const subs = await this.ctx.db
      .selectFrom('accounts')
      .select(['id', 'clientid'])
      .where('agent_id', '=', a.id)
      .execute();
    return [{ id: a.id, clientid: a.clientid }, ...subs];
  }

  /** Account ids whose templates the caller reaches. */
  private async scopeIds(a: Account): Promise<number[]> {
    return (await this.scope(a)).map((s) => s.id);
  }

  /** The account a clientid names, if the caller reaches it (else 403). */
  private async reachable(a: Account, clientid: string): Promise<{ id: number; clientid: string }> {
    if (clientid === a.clientid) return { id: a.id, clientid: a.clientid };
    if (a.user_type !== UserType.Agent) throw errors.forbidden();
    const sub = await this.ctx.db
      .selectFrom('accounts')
      .select(['id', 'clientid'])
      .where('clientid', '=', clientid)
      .where('agent_id', '=', a.id)
      .executeTakeFirst();
    if (!sub) throw errors.forbidden();
    return sub;
  }

  private baseQuery() {
    return this.ctx.db
      .selectFrom('templates as t')
      .leftJoin('accounts as o', 'o.id', 't.owner_id')
      .leftJoin('accounts as c', 'c.id', 't.creator_id');
  }

  private toRow(r: TemplateDbRow, caller: Account | null): TemplateRow {
    const row: TemplateRow = {
      templateId: r.id,
      clientId: r.owner_clientid ?? '',
      smsType: r.sms_type,
      templateType: r.template_type,
      business: r.business,
      content: r.content,
      varibleCount: r.variable_count,
      sign: r.sign,
      state: r.state,
      remark: r.remark,
      userName: r.creator_clientid ?? '',
      createTimeStr: formatDateTime(r.create_time),
      updateTimeStr: formatDateTime(r.update_time),
      orderNo: r.order_no,
      isCreateor: caller && r.creator_id === caller.id ? 1 : 0,
    };
    if (r.smstype !== null && r.smstype !== undefined) row.smstype = r.smstype;
    return row;
  }

  private static COLUMNS = [
    't.id',
    't.owner_id',
    't.sms_type',
    't.template_type',
    't.business',
    't.smstype',
    't.sign',
    't.content',
    't.variable_count',
    't.state',
    't.remark',
    't.creator_id',
    't.order_no',
    't.create_time',
    't.update_time',
    'o.clientid as owner_clientid',
    'c.clientid as creator_clientid',
  ] as const;

  /** POST /autoTemplate/list: filters/template-smart (the owner within the caller's scope). */
  async list(caller: Account, f: SmartTemplateFilter & CurrentPaging) {
    const paging = pagingOf(f);
    // a sub-account's clientId is checked as well (its own, else 403 无权访问), hence `agent: true`
    let q = whereFrom(this.baseQuery(), this.ctx, 'filters/template-smart', f, {
      scope: await this.scope(caller),
      agent: true,
      skip: ['templateId'],
    });
    if (f.templateId) q = q.where('t.id', '=', templateIdOf(f.templateId));
    const [{ n }] = await q.select((eb) => eb.fn.countAll<number>().as('n')).execute();
    const rows = await q
      .select([...TemplateService.COLUMNS])
      .orderBy('t.create_time', 'desc')
      .orderBy('t.id', 'desc')
      .limit(paging.size)
      .offset(paging.offset)
      .execute();
    return entityPage(
      rows.map((r) => this.toRow(r, caller)),
      Number(n),
      paging,
    );
  }

  /** POST /autoTemplate/commonlist: the platform's general templates (approved), filters/template-general. */
  async commonList(f: GeneralTemplateFilter & CurrentPaging) {
    const paging = pagingOf(f);
    const q = whereFrom(
      this.baseQuery().where('t.owner_id', 'is', null).where('t.state', '=', TemplateAuditState.Approved),
      this.ctx,
      'filters/template-general',
      f,
    );
    const [{ n }] = await q.select((eb) => eb.fn.countAll<number>().as('n')).execute();
    const rows = await q
      .select([...TemplateService.COLUMNS])
      .orderBy('t.order_no')
      .orderBy('t.id')
      .limit(paging.size)
      .offset(paging.offset)
      .execute();
    return entityPage(
      rows.map((r) => this.toRow(r, null)),
      Number(n),
      paging,
    );
  }

  /** GET /autoTemplate/autoTemplateAccounts: the agent's usable sub-accounts. */
  async accounts(agent: Account, agentId: string | undefined) {
    if (agentId && agentId !== agent.clientid) throw errors.forbidden();
    return this.ctx.db
      .selectFrom('accounts')
      .select(['clientid', 'name'])
      .where('agent_id', '=', agent.id)
      .where('status', 'in', [AccountStatus.Active, AccountStatus.Locked])
      .orderBy('clientid')
      .execute();
  }

  /** Validates a save; returns the values to store. */
  private async prepare(caller: Account, body: unknown) {
    const form = validateForm<TemplateForm>(this.ctx.schemas, TEMPLATE_FORM, body);
    let owner: { id: number; clientid: string };
    if (caller.user_type === UserType.Agent) {
      const clientId = (form.clientId ?? '').trim();
      if (!clientId)
        throw new ApiError(400, this.requiredMessage('clientId'), {
          errors: [{ field: 'clientId', message: this.requiredMessage('clientId') }],
        });
      owner = await this.reachable(caller, clientId);
      if (owner.id === caller.id)
        throw new ApiError(400, this.requiredMessage('clientId'), {
          errors: [{ field: 'clientId', message: this.requiredMessage('clientId') }],
        });
    } else {
      // a sub-account's templates are its own, whatever the payload says
      owner = { id: caller.id, clientid: caller.clientid };
    }
    const mode = await this.operationMode(caller);
    const broken = checkTemplateRules(form, mode, this.rules);
    if (broken) throw new ApiError(400, broken.message, { errors: [broken] });
    const hits = [
      ...new Set([
        ...this.words.find(form.content).map(([s, e]) => form.content.slice(s, e)),
        ...this.words.find(form.sign).map(([s, e]) => form.sign.slice(s, e)),
      ]),
    ];
    if (hits.length) {
      const message = sensitiveWordsMessage(this.rules, hits);
      throw new ApiError(400, message, { errors: [{ field: 'content', message }], words: hits });
    }
    // the sign of a template is one the account has had approved (签名报备), as every send requires
    if (!(await approvedSigns(this.ctx.db, owner.id, [form.sign])).has(form.sign))
      throw new ApiError(400, SIGN_NOT_APPROVED, { errors: [{ field: 'sign', message: SIGN_NOT_APPROVED }] });
    return {
      owner_id: owner.id,
      sms_type: form.smsType,
      template_type: form.templateType,
      business: form.business,
      smstype: effectiveSmsType(form.smsType, form.smstype, mode) ?? null,
      sign: form.sign,
      content: form.content,
      variable_count: countVariables(form.content),
    };
  }

  /** POST /autoTemplate/add */
  async add(caller: Account, body: unknown): Promise<TemplateRow> {
    const values = await this.prepare(caller, body);
    const now = this.ctx.now();
    const { id } = await this.ctx.db
      .insertInto('templates')
      .values({
        ...values,
        state: this.autoReview ? 1 : 0,
        remark: '',
        creator_id: caller.id,
        create_time: now,
        update_time: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return (await this.one(caller, id))!;
  }

  /** A template in the caller's scope, or null. */
  async one(caller: Account, id: number): Promise<TemplateRow | null> {
    const r = await this.baseQuery()
      .select([...TemplateService.COLUMNS])
      .where('t.id', '=', id)
      .where('t.owner_id', 'in', await this.scopeIds(caller))
      .executeTakeFirst();
    return r ? this.toRow(r, caller) : null;
  }

  /** The caller's own template (it created it), else 404 / 403. */
  private async ownTemplate(caller: Account, templateId: string | number | undefined): Promise<TemplateRow> {
    const id = templateIdOf(templateId);
    const row = id >= 0 ? await this.one(caller, id) : null;
    if (!row) throw new ApiError(404, this.rules.messages.notFound);
    if (row.isCreateor !== YesNo.Yes) throw new ApiError(403, this.rules.messages.notCreator);
    return row;
  }

  /** POST /autoTemplate/edit: the creator changes it; it goes back to review. */
  async edit(caller: Account, body: TemplateRefParams): Promise<TemplateRow> {
    const row = await this.ownTemplate(caller, body.templateId);
    const values = await this.prepare(caller, body);
    await this.ctx.db
      .updateTable('templates')
      .set({ ...values, state: this.autoReview ? 1 : 0, remark: '', update_time: this.ctx.now() })
      .where('id', '=', row.templateId)
      .execute();
    return (await this.one(caller, row.templateId))!;
  }

  /** POST /autoTemplate/addBatch: each row as a single add; good rows saved together, bad rows reported. */
  async importRows(caller: Account, rows: { row: number; values: Record<string, unknown> }[]): Promise<ImportResult> {
    const good: Awaited<ReturnType<TemplateService['prepare']>>[] = [];
    const errors: ImportResult['errors'] = [];
    for (const r of rows) {
      try {
        good.push(await this.prepare(caller, r.values));
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        errors.push({ row: r.row, msg: e.message });
      }
    }
    if (good.length) {
      const now = this.ctx.now();
      const state = this.autoReview ? 1 : 0;
      await this.ctx.db
        .insertInto('templates')
        .values(
          good.map((v) => ({ ...v, state, remark: '', creator_id: caller.id, create_time: now, update_time: now })),
        )
        .execute();
    }
    return { importTotal: rows.length, importSuccess: good.length, importFall: errors.length, errors };
  }

  /** POST /autoTemplate/del */
  async remove(caller: Account, templateId: string | number | undefined): Promise<void> {
    const row = await this.ownTemplate(caller, templateId);
    await this.ctx.db.deleteFrom('templates').where('id', '=', row.templateId).execute();
  }
}

export interface ImportResult {
  importTotal: number;
  importSuccess: number;
  importFall: number;
  /** refused rows: Excel row number and the message a single add would have given */
  errors: { row: number; msg: string }[];
}

/**
 * Operator review (CLI): approve or reject a sub-account's template. Returns false when no such
 * template. The result is queued, in the same transaction, for the account's
 * auto_template_callback_url (server/modules/push: sent by the Pusher with the report pushes' URL
 * rules and retries).
 */
export async function reviewTemplate(
  db: AppContext['db'],
  id: number,
  state: typeof TemplateAuditState.Approved | typeof TemplateAuditState.Rejected,
  remark: string,
  now: Date,
  /** the operator who reviews ('' = the CLI) */
  by = '',
): Promise<boolean> {
  // in the caller's transaction when given one (the operator console writes its audit row there)
  const run = <T>(fn: (trx: Transaction<Database>) => Promise<T>) =>
    db.isTransaction ? fn(db as Transaction<Database>) : db.transaction().execute(fn);
  return run(async (trx) => {
    const t = await trx
      .updateTable('templates')
      .set({ state, remark, update_time: now, reviewed_by: by })
      .where('id', '=', id)
      .where('owner_id', 'is not', null)
      .returning(['id', 'owner_id', 'sign', 'content'])
      .executeTakeFirst();
    if (!t) return false;
    await enqueueTemplateReview(trx, {
      accountId: t.owner_id!,
      templateId: t.id,
      state,
      remark,
      sign: t.sign,
      content: t.content,
      reviewedAt: now,
    });
    return true;
  });
}

/**
 * Ordinary send (普通短信发送): who may send for which account, what a send must satisfy, and its
 * acceptance in one transaction (task + one message per distinct valid number + the charge).
 * Rules: docs/api-send.md ("Sending", "Billing"). Billing: ./billing.ts. Bulk insert: ./messages.ts.
 */
import { randomInt } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { AppContext } from '../../context';
import type { Account, Database } from '../../db/types';
import { ApiError, errors } from '../../http/errors';
import { validateForm } from '../../http/validation';
import { formatDateTime } from '../../lib/time';
import { assertTestRecipients, type ClientsService } from '../clients';
import { Money, money2 } from '../../lib/money';
import { LedgerService } from '../ledger';
import {
  CARRIERS,
  ceilCent,
  chargePlan,
  planCost,
  planPieces,
  refundWholeTask,
  remainOf,
  usablePools,
  type CarrierCode,
  type ChargePlan,
  type ChargeResult,
} from '../billing';
import { dropStaged, expandTask, insertMessages, stageChunks, type UnplacedBatch } from './messages';
import { assertDeferredRoom, assertMaySend } from './gate';
import { blacklistedOf, honoursBlacklist, withoutBlocked } from '../blacklist';
import { assertApprovedSign } from '../sign';
import { resolveUpload } from '../files';
import { parseNumberFile } from '../files';
import { checkNumbers, NUMBER_MESSAGES, numberPoolError, type NumberCheck } from '../../../common/sms/numbers';
import { countPieces } from '../../../common/sms/pieces';
import { VARIABLE_PATTERN } from '../../../common/template/rules';
import {
  Carrier,
  ChargeMode,
  ChargeState,
  NeedAudit,
  NumberInputMode,
  OperationMode,
  PayType,
  PriceType,
  ProductType,
  SendKind,
  SendRecordStatus,
  SmsType,
  TaskStatus,
  TemplateAuditState,
  TemplateBusiness,
  TemplateCategory,
  TemplateType,
  UserType,
  type SendChargeInfoParams,
  type SendForm,
  type SendTimedParams,
} from '../../../common/generated/schemas';
import sendForm from '../../../schemas/forms/send.json';
import { MESSAGES } from '../../../common/schema/messages';
import { allowsDomestic, parseSendTime, sendTimeError } from '../../../common/send';

type Tx = Transaction<Database>;

export const SEND_FORM = 'forms/send';
/** forms/send.json x-messages */
export const X = sendForm['x-messages'];

export const MSG = {
  clientRequired: sendForm.errorMessage.required.clientId,
  notOwnClient: '子账户不存在或不属于当前账户',
  noDomestic: '该账户未开通国内短信发送',
  templateRequired: sendForm.properties.templateId.errorMessage,
  templateInvalid: '模板不存在或未审核通过',
  templateMismatch: '短信内容与模板不一致，请勿修改模板内容',
  smstypeMismatch: '短信类型与模板不一致',
  smstypeNotAllowed: '该账户不能发送此类型的短信',
  tooLong: sendForm.properties.content.errorMessage.maxLength,
  badSendTime: sendForm.properties.sendtime.errorMessage,
  taskNotFound: '任务不存在',
  notWaiting: '任务已开始发送或已取消，无法操作',
  noPhones: '任务没有号码',
} as const;

/** the submit lock (spec 02 §9: 3 s) */
export const SUBMIT_LOCK_MS = 3000;

/** forms/send (after validation): the type generated from schemas/forms/send.json */
export type { SendForm };

export interface SendResult {
  taskId: string;
  smsNum: number;
  chargeNum: number;
  submitTotal: number;
  amount: string;
  /** accepted as intercepted (sensitive words) or awaiting review: the answer's msg */
  msg: string;
  /** numbers of a marketing send skipped as blacklisted (not sent, not charged) */
  blacklistNum?: number;
}

/** The answer's msg with the blacklisted numbers a send skipped (forms/send.json x-messages). */
export function withBlacklistMsg(msg: string, blacklistNum: number): string {
  return blacklistNum > 0 ? X.blacklistSkipped.replace('{msg}', msg).replace('{n}', String(blacklistNum)) : msg;
}

/**
 * A marketing send's numbers without those on the sending account's or the platform's blacklist
 * (docs/api-blacklist.md); other SMS types unchanged. Every number blacklisted: refused.
 */
export async function skipBlacklisted<C extends NumberCheck>(
  db: AppContext['db'],
  accountId: number,
  smstype: number,
  check: C,
): Promise<{ check: C; blacklistNum: number }> {
  if (!honoursBlacklist(smstype)) return { check, blacklistNum: 0 };
  const r = withoutBlocked(check, await blacklistedOf(db, accountId, check.unique));
  if (r.blacklistNum > 0 && r.check.unique.length === 0) throw errors.refused(X.allBlacklisted);
  return r;
}

/** A leading 【sign】 (or [sign]) equal to the sign is removed: the form's content carries it as the spec shows. */
export function stripSign(content: string, sign: string): string {
  for (const p of [`【${sign}】`, `[${sign}]`]) if (content.startsWith(p)) return content.slice(p.length);
  return content;
}

/**
 * Whether content fills a variable template: its text with every `{var}` replaced by 1 or more
 * characters (no variable may be empty). Linear: the literal parts are found left to right.
 */
export function fillsTemplate(template: string, content: string): boolean {
  const parts = template.split(new RegExp(VARIABLE_PATTERN.source, 'u'));
  // split with a capture group: literals at even indexes
  const literals = parts.filter((_, i) => i % 2 === 0);
  if (literals.length === 1) return template === content;
  const first = literals[0];
  const last = literals[literals.length - 1];
  if (!content.startsWith(first)) return false;
  let pos = first.length;
  for (let i = 1; i < literals.length - 1; i++) {
    const at = content.indexOf(literals[i], pos + 1);
    if (at < 0) return false;
    pos = at + literals[i].length;
  }
  return content.length - last.length >= pos + 1 && content.endsWith(last);
}

/** SMS types an account sends (/send/getsmstypes): package accounts all three; direct accounts their configured one. */
export function smsTypesOf(a: Pick<Account, 'operation_mode' | 'smstype'>): number[] {
  const all = [SmsType.Notification, SmsType.VerificationCode, SmsType.Marketing];
  if (a.operation_mode === OperationMode.Package) return all;
  return (all as number[]).includes(a.smstype) ? [a.smstype] : all;
}

/** A task number: 'T' + yyyyMMddHHmmss (Asia/Shanghai) + 6 random digits. */
export function newTaskUid(now: Date): string {
  return `T${formatDateTime(now).replace(/\D/g, '')}${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
}

export function refusalOf(r: Exclude<ChargeResult, { ok: true }>): string {
  if (r.kind === 'balance') return `${X.notEnoughBalance}（本次需 ${r.needed} 元，当前余额 ${r.balance} 元）`;
  // international pools of a package account hold yuan
  if (r.kind === 'intlPools') return `${X.notEnoughPieces}（本次需 ${r.needed} 元，国际短信余额 ${r.remain} 元）`;
  return `${X.notEnoughPieces}（本次需 ${r.needed} 条，剩余 ${r.remain} 条）`;
}

interface Prepared {
  account: Account;
  payerId: number;
  mode: ChargeMode;
  content: string;
  sign: string;
  text: string;
  pieces: number;
  numbers: NumberCheck;
  smstype: number;
  templateId: number | null;
  templateType: number;
  prices: Record<CarrierCode, string>;
  intercepted: boolean;
  audit: boolean;
  /** the uploaded number file's name (a send from importFilePath) */
  fileName?: string;
  /** numbers skipped as blacklisted (marketing) */
  blacklistNum: number;
}

export class SendService {
  constructor(
    private readonly ctx: AppContext,
    private readonly clients: ClientsService,
  ) {}

  /** The account a send (or its charge preview) is for: an agent's own sub-account or itself; anyone else sends as itself. */
  async target(me: Account, clientId: unknown): Promise<Account> {
    let id = me.id;
    if (me.user_type === UserType.Agent) {
      const c = String(clientId ?? '').trim();
      if (!c) throw new ApiError(400, MSG.clientRequired);
      if (c !== me.clientid) {
        const sub = await this.clients.ownSubAccount(me, c);
        if (!sub) throw new ApiError(400, MSG.notOwnClient);
        id = sub.id;
      }
    }
    return this.ctx.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  /** /send/getsmstypes */
  async getSmsTypes(me: Account, clientid: string | undefined) {
    const a = await this.target(me, me.user_type === UserType.Agent ? clientid : me.clientid);
    return smsTypesOf(a).map((v) => ({
      value: v,
      label: this.ctx.schemas.registry.enumLabel('sms-type', v) ?? String(v),
      accountExtAttr: a.operation_mode,
    }));
  }

  pricesOf(a: Account): Record<CarrierCode, string> {
    if (a.operation_mode === OperationMode.Package) return { 1: '0', 2: '0', 3: '0' };
    if (a.price_type === PriceType.Unified) return { 1: a.unified_price, 2: a.unified_price, 3: a.unified_price };
    return { 1: a.mobile_price, 2: a.unicom_price, 3: a.telecom_price };
  }

  payerOf(a: Account): number {
    return a.user_type === UserType.SubAccount && a.paytype === PayType.Postpaid && a.agent_id ? a.agent_id : a.id;
  }

  private plan(
    p: Pick<Prepared, 'account' | 'payerId' | 'mode' | 'smstype' | 'pieces' | 'prices' | 'numbers'>,
    taskId: number,
    uid: string,
  ): ChargePlan {
    const perCarrier = {
      1: { count: 0, cost: new Money(0) },
      2: { count: 0, cost: new Money(0) },
      3: { count: 0, cost: new Money(0) },
    };
    for (const c of CARRIERS) {
      const n = p.numbers.carriers[c];
      perCarrier[c] = { count: n, cost: new Money(p.prices[c]).times(p.pieces).times(n) };
    }
    return {
      taskId,
      uid,
      mode: p.mode,
      accountId: p.account.id,
      payerId: p.payerId,
      smstype: p.smstype,
      piecesPerMsg: p.pieces,
      perCarrier,
    };
  }

  /** Every rule of a send but the time and the charge. */
  async prepare(me: Account, f: SendForm): Promise<Prepared> {
    const account = await this.target(me, f.clientId);
    assertMaySend(account);
    if (!allowsDomestic(account.phone_inout_type)) throw errors.refused(MSG.noDomestic);
    const sign = f.sign.trim();
    const content = stripSign(f.content, sign);
    if (!content.trim()) throw new ApiError(400, sendForm.properties.content.errorMessage.minLength);
    const pc = countPieces({ content, sign });
    if (pc.tooLong) throw new ApiError(400, MSG.tooLong);
    if (!f.templateId) throw new ApiError(400, MSG.templateRequired);
    const tpl = await this.ctx.db.selectFrom('templates').selectAll().where('id', '=', f.templateId).executeTakeFirst();
    if (
      !tpl ||
      tpl.state !== TemplateAuditState.Approved ||
      tpl.business !== TemplateBusiness.Domestic ||
      (tpl.owner_id !== null && tpl.owner_id !== account.id)
    )
      throw errors.refused(MSG.templateInvalid);
    if (!smsTypesOf(account).includes(f.smstype)) throw errors.refused(MSG.smstypeNotAllowed);
    const categoryOk =
      tpl.sms_type === TemplateCategory.MemberMarketing
        ? f.smstype === SmsType.Marketing
        : f.smstype !== SmsType.Marketing;
    if (!categoryOk || (tpl.smstype !== null && tpl.smstype !== f.smstype)) throw errors.refused(MSG.smstypeMismatch);
    await assertApprovedSign(this.ctx.db, account.id, sign);
    const fits =
      tpl.template_type === TemplateType.Fixed ? content === tpl.content : fillsTemplate(tpl.content, content);
    if (!fits) throw errors.refused(MSG.templateMismatch);
    const file = f.importFilePath ? await this.fileNumbers(me, f.importFilePath) : undefined;
    const checked = file ? file.check : checkNumbers(f.mobile ?? '');
    const poolError = file ? (checked.valid === 0 ? NUMBER_MESSAGES.empty : null) : numberPoolError(checked);
    if (poolError) throw new ApiError(400, poolError);
    // a test account sends only to its agent's own verified mobile (docs/api-subaccounts.md "Test accounts")
    await assertTestRecipients(this.ctx, account, checked.unique);
    // marketing: not to the account's or the platform's blacklisted numbers (docs/api-blacklist.md)
    const { check: numbers, blacklistNum } = await skipBlacklisted(this.ctx.db, account.id, f.smstype, checked);
    const hit = this.ctx.words.contains(pc.text);
    const audit =
      account.needaudit === NeedAudit.All ||
      (account.needaudit === NeedAudit.Marketing && f.smstype === SmsType.Marketing) ||
      (account.needaudit === NeedAudit.Keyword && hit);
    return {
      account,
      payerId: this.payerOf(account),
      mode: account.operation_mode === OperationMode.Package ? 1 : 0,
      content,
      sign,
      text: pc.text,
      pieces: pc.pieces,
      numbers,
      smstype: f.smstype,
      templateId: tpl.id,
      templateType: tpl.template_type,
      prices: this.pricesOf(account),
      intercepted: hit && !audit,
      audit,
      fileName: file?.result.fileName,
      blacklistNum,
    };
  }

  /**
   * The numbers of an uploaded number file (importFilePath of the session's account: the file
   * service, docs/api-files.md), read as a stream with the shared number rules. A file is not
   * held to the 60,000 of the manual input: up to FILE_MAX_NUMBERS.
   */
  private async fileNumbers(me: Account, importFilePath: string) {
    return parseNumberFile(await resolveUpload(this.ctx, me, importFilePath), { keep: true });
  }

  /** /send/chargeInfo: the confirm dialog's figures (template not needed). */
  async chargeInfo(me: Account, b: SendChargeInfoParams) {
    const account = await this.target(me, b.clientId ?? b.clientid);
    assertMaySend(account);
    const sign = String(b.sign ?? '').trim();
    const content = stripSign(String(b.content ?? ''), sign);
    const pc = countPieces({ content, sign });
    const file =
      typeof b.importFilePath === 'string' && b.importFilePath
        ? await this.fileNumbers(me, b.importFilePath)
        : undefined;
    const checked = file ? file.check : checkNumbers(String(b.mobile ?? '').slice(0, 1_000_000));
    const poolError = file ? (checked.valid === 0 ? NUMBER_MESSAGES.empty : null) : numberPoolError(checked);
    if (poolError) throw new ApiError(400, poolError);
    const { check: numbers, blacklistNum } =
      b.smstype !== undefined
        ? await skipBlacklisted(this.ctx.db, account.id, b.smstype, checked)
        : { check: checked, blacklistNum: 0 };
    const submitTotal = numbers.unique.length;
    const chargeNum = submitTotal * pc.pieces;
    const payerId = this.payerOf(account);
    if (account.operation_mode === OperationMode.Package) {
      const st = b.smstype;
      const pools =
        st !== undefined && Number.isInteger(st)
          ? await usablePools(this.ctx.db, payerId, st, this.ctx.now())
          : await this.ctx.db
              .selectFrom('product_pools')
              .select(['id', 'product_type', 'operator_code', 'remaining', 'due_time'])
              .where('account_id', '=', payerId)
              .where('operator_code', '<>', Carrier.International)
              .where('product_type', '<>', ProductType.International)
              .where('due_time', '>', this.ctx.now())
              .execute();
      return {
        smsNum: pc.pieces,
        chargeNum,
        submitTotal,
        blacklistNum,
        chargeMode: ChargeMode.Pool,
        remainPieces: remainOf(pools),
      };
    }
    const plan = this.plan(
      {
        account,
        payerId,
        mode: ChargeMode.Money,
        smstype: SmsType.Notification,
        pieces: pc.pieces,
        prices: this.pricesOf(account),
        numbers,
      },
      0,
      '',
    );
    return {
      smsNum: pc.pieces,
      chargeNum,
      submitTotal,
      blacklistNum,
      chargeMode: ChargeMode.Money,
      amount: money2(ceilCent(planCost(plan))),
      balance: await new LedgerService(this.ctx).balanceOf(payerId),
    };
  }

  /** The 3 s submit lock of an account, inside the acceptance transaction (shared by every process through the database). */
  async takeSubmitLock(trx: Tx, accountId: number) {
    const now = this.ctx.now();
    const r = await trx
      .insertInto('send_submit_locks')
      .values({ account_id: accountId, last_at: now })
      .onConflict((oc) =>
        oc
          .column('account_id')
          .doUpdateSet({ last_at: now })
          .where(
            sql<boolean>`send_submit_locks.last_at <= ${new Date(now.getTime() - SUBMIT_LOCK_MS)}::timestamptz or send_submit_locks.last_at > ${now}::timestamptz`,
          ),
      )
      .returning('account_id')
      .executeTakeFirst();
    if (!r) throw errors.refused(X.submitLock);
  }

  /** A task the session reaches (an agent: its own and its sub-accounts'; anyone else: its own), locked. */
  private async lockTask(trx: Tx, me: Account, uid: string) {
    const t = await trx
      .selectFrom('sms_tasks')
      .selectAll()
      .where('uid', '=', uid)
      .where((eb) =>
        me.user_type === UserType.Agent
          ? eb.or([eb('account_id', '=', me.id), eb('agent_id', '=', me.id)])
          : eb('account_id', '=', me.id),
      )
      .forUpdate()
      .executeTakeFirst();
    if (!t) throw errors.refused(MSG.taskNotFound);
    return t;
  }

  /** Cancels a waiting timed task: its messages are deleted, its charge returned. */
  private async cancelWaiting(
    trx: Tx,
    t: { id: number; status: number; send_time: Date; charge_state: number; send_kind?: number },
  ) {
    if (t.status !== TaskStatus.Waiting) throw errors.refused(MSG.notWaiting);
    // 0017_varintl: a scheduled international send cannot be cancelled (spec 02 §4)
    if (t.send_kind === SendKind.International) throw errors.refused(MESSAGES.intlTimedNoCancel);
    if (t.send_time.getTime() <= this.ctx.now().getTime()) throw errors.refused(X.undoTooLate);
    // chunks first: one a worker is writing is waited for, then its rows are deleted too
    await trx.deleteFrom('sms_task_chunks').where('task_id', '=', t.id).execute();
    await trx.deleteFrom('sms_messages').where('task_id', '=', t.id).execute();
    await trx
      .updateTable('sms_tasks')
      .set({ status: TaskStatus.Cancelled, audit_num: 0, updated_at: this.ctx.now(), finished_at: this.ctx.now() })
      .where('id', '=', t.id)
      .execute();
    if (t.charge_state === ChargeState.Charged) await refundWholeTask(trx, this.ctx, t.id);
  }

  /**
   * Accepts a send: immediate (`sendTime` undefined) or timed. `checkCredit` false (timed only)
   * accepts it uncharged; it is charged when it fires. `replaceUid` (re-edit) cancels that waiting
   * task in the same transaction.
   */
  async send(
    me: Account,
    f: SendForm,
    opts: { timed?: boolean; checkCredit?: boolean; replaceUid?: string } = {},
  ): Promise<SendResult> {
    const p = await this.prepare(me, f);
    const now = this.ctx.now();
    let sendTime = now;
    if (opts.timed) {
      const t = parseSendTime(f.sendtime);
      if (!t) throw new ApiError(400, MSG.badSendTime);
      const e = sendTimeError('ordinary', t, now);
      if (e) throw new ApiError(400, e);
      sendTime = t;
    }
    const chargeNow = !p.intercepted && (!opts.timed || opts.checkCredit !== false);
    const refuse = (msg: string) => (opts.timed ? new ApiError(403, msg) : errors.refused(msg));
    const previewPlan = this.plan(p, 0, '');
    // a refusal without locking or writing anything, in the usual case (checked again on locked rows
    // below); not for a re-edit, whose original's refund comes first inside the transaction
    if (chargeNow && !opts.replaceUid) {
      if (p.mode === ChargeMode.Money) {
        const balance = await new LedgerService(this.ctx).balanceOf(p.payerId);
        const needed = ceilCent(planCost(previewPlan));
        if (new Money(balance).lt(needed))
          throw refuse(refusalOf({ ok: false, kind: 'balance', balance, needed: money2(needed) }));
      } else {
        const pools = await usablePools(this.ctx.db, p.payerId, p.smstype, now);
        if (remainOf(pools) < planPieces(previewPlan))
          throw refuse(
            refusalOf({ ok: false, kind: 'pieces', remain: remainOf(pools), needed: planPieces(previewPlan) }),
          );
      }
    }
    const uid = newTaskUid(now);
    const n = p.numbers.unique.length;
    const state = p.intercepted
      ? SendRecordStatus.GatewayReceiveIntercepted
      : p.audit
        ? SendRecordStatus.AwaitingReview
        : SendRecordStatus.NotSent;
    const status = p.intercepted ? TaskStatus.Completed : opts.timed ? TaskStatus.Waiting : TaskStatus.Processing;
    const batch: UnplacedBatch = {
      accountId: p.account.id,
      phones: p.numbers.unique,
      carriers: p.numbers.uniqueCarriers,
      pieces: p.pieces,
      // never-charged messages (intercepted at acceptance) cost nothing
      prices: p.intercepted ? { 1: '0', 2: '0', 3: '0' } : p.prices,
      state,
      nextAt: state === SendRecordStatus.NotSent && !opts.timed ? now : null,
      createdAt: now,
      doneAt: p.intercepted ? now : null,
    };
    // a large task's chunks are compressed and written before the transaction (send/messages.ts)
    const staged = await stageChunks(this.ctx.db, batch);
    const result = await this.ctx.db
      .transaction()
      .execute(async (trx) => {
        await this.takeSubmitLock(trx, p.account.id);
        if (opts.replaceUid) await this.cancelWaiting(trx, await this.lockTask(trx, me, opts.replaceUid));
        if (!chargeNow && !p.intercepted)
          await assertDeferredRoom(this.ctx, trx, p.account.id, planPieces(previewPlan));
        const task = await trx
          .insertInto('sms_tasks')
          .values({
            uid,
            account_id: p.account.id,
            agent_id: p.account.agent_id,
            creator_id: me.id,
            creator_name: me.clientid,
            payer_id: p.payerId,
            charge_mode: p.mode,
            content: p.text,
            sign: p.sign,
            smstype: p.smstype,
            template_id: p.templateId,
            template_type: p.templateType,
            file_type: p.fileName !== undefined ? NumberInputMode.File : (f.fileType ?? 0),
            file_name: (p.fileName ?? f.fileName ?? '').slice(0, 100),
            submit_total: n,
            err_num: p.numbers.invalid,
            repeat_num: p.numbers.repeat,
            blacklist_num: p.blacklistNum,
            pieces_per_msg: p.pieces,
            status,
            send_type: opts.timed ? 1 : 0,
            send_time: sendTime,
            intercept_num: p.intercepted ? n : 0,
            audit_num: p.audit ? n : 0,
            charge_state: chargeNow ? ChargeState.Charged : p.intercepted ? ChargeState.Charged : ChargeState.Deferred,
            created_at: now,
            updated_at: now,
            finished_at: p.intercepted ? now : null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await insertMessages(trx, { ...batch, taskId: task.id, staged });
        let amount = '0.00';
        let chargeNum = 0;
        if (chargeNow) {
          const r = await chargePlan(trx, this.ctx, this.plan(p, task.id, uid));
          if (!r.ok) throw refuse(refusalOf(r));
          amount = r.amount;
          chargeNum = r.chargeNum;
          await trx
            .updateTable('sms_tasks')
            .set({ amount: r.amount, cost: r.cost, charge_num_total: r.chargeNum })
            .where('id', '=', task.id)
            .execute();
        } else if (!p.intercepted) {
          // deferred: the figures it will be charged with are shown, nothing is charged yet
          chargeNum = planPieces(previewPlan);
          await trx.updateTable('sms_tasks').set({ charge_num_total: chargeNum }).where('id', '=', task.id).execute();
        }
        return { amount, chargeNum };
      })
      .catch(async (err: unknown) => {
        await dropStaged(this.ctx.db, staged);
        throw err;
      });
    return {
      taskId: uid,
      smsNum: p.pieces,
      submitTotal: n,
      chargeNum: result.chargeNum,
      amount: result.amount,
      msg: withBlacklistMsg(p.intercepted ? X.intercepted : p.audit ? X.awaitingReview : X.sent, p.blacklistNum),
      blacklistNum: p.blacklistNum,
    };
  }

  /** /send/sendTim: the JSON body's jsmsAccessTimerSms mapped onto forms/send. */
  async sendTimed(me: Account, body: SendTimedParams): Promise<SendResult> {
    const j: Record<string, unknown> =
      body.jsmsAccessTimerSms && typeof body.jsmsAccessTimerSms === 'object' && !Array.isArray(body.jsmsAccessTimerSms)
        ? { ...body.jsmsAccessTimerSms }
        : {};
    const raw: Record<string, unknown> = {
      clientId: me.user_type === UserType.Agent ? (j.clientid ?? j.clientId) : me.clientid,
      content: j.content,
      sign: j.sign,
      smstype: j.smstype,
      mobile: j.mobilelist ?? j.mobile,
      importFilePath: j.importFilePath ?? body.importFilePath,
      templateId: j.templateId,
      templateType: j.templateType,
      sendtime: j.sendtime,
    };
    for (const k of Object.keys(raw)) {
      if (raw[k] === undefined || raw[k] === null) delete raw[k];
      else if (
        typeof raw[k] === 'number' &&
        (k === 'clientId' || k === 'content' || k === 'sign' || k === 'mobile' || k === 'sendtime')
      )
        raw[k] = String(raw[k]);
    }
    if (raw.sendtime === undefined) throw new ApiError(400, MSG.badSendTime);
    const f = validateForm<SendForm>(this.ctx.schemas, SEND_FORM, raw);
    const check = body.isCheckAvailableCredit ?? 1;
    const replace = typeof body.taskId === 'string' && body.taskId.trim() ? body.taskId.trim().slice(0, 40) : undefined;
    return this.send(me, f, { timed: true, checkCredit: check !== 0, replaceUid: replace });
  }

  /** /send/edit: a waiting timed task, for re-editing. */
  async edit(me: Account, uid: string) {
    const scope = (await this.clients.scope(me)).map((s) => s.id);
    const t = await this.ctx.db
      .selectFrom('sms_tasks as t')
      .innerJoin('accounts as a', 'a.id', 't.account_id')
      .select([
        't.id',
        't.uid',
        't.content',
        't.sign',
        't.smstype',
        't.template_id',
        't.template_type',
        't.send_time',
        't.status',
        'a.clientid',
      ])
      .where('t.uid', '=', uid)
      .where('t.account_id', 'in', scope)
      .executeTakeFirst();
    if (!t) throw errors.refused(MSG.taskNotFound);
    if (t.status !== TaskStatus.Waiting) throw errors.refused(MSG.notWaiting);
    // the form must get every number: its resubmission replaces the task (a chunk that cannot be written now: refused, nothing lost)
    if (!(await expandTask(this.ctx.db, t.id))) throw errors.refused(MESSAGES.taskNumbersPending);
    const phones = await this.ctx.db
      .selectFrom('sms_messages')
      .select('phone')
      .where('task_id', '=', t.id)
      .orderBy('id')
      .execute();
    return {
      clientId: t.clientid,
      content: stripSign(t.content, t.sign),
      sign: t.sign,
      smstype: t.smstype,
      templateId: t.template_id,
      templateType: t.template_type,
      mobile: phones.map((r) => r.phone).join(','),
      sendtime: formatDateTime(t.send_time),
      taskId: t.uid,
    };
  }

  /** /send/undoSend: cancels a waiting timed task before its time, returning its charge. */
  async undo(me: Account, uid: string): Promise<void> {
    await this.ctx.db.transaction().execute(async (trx) => this.cancelWaiting(trx, await this.lockTask(trx, me, uid)));
  }
}

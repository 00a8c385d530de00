/**
 * Interface sends (customers' systems: the HTTP API, server/modules/openapi; the SMPP server may
 * share it): the same acceptance as a console send — gate (`assertMaySend`), domestic side, SMS
 * type, sensitive words and needaudit, the charge through billing (pools / ledger) in the same
 * transaction as the task and its messages (send/messages.ts), dispatch through dispatch_queue —
 * but not tied to a template: each text carries 【sign】 of an approved sign of the account
 * (docs/api-openapi.md "Send"). One text to many numbers, or a text per number.
 *
 * Differences from the console's form on purpose: no 3 s submit lock (the account's accessSpeed
 * throttles an interface), a timed interface send is always charged when accepted.
 */
import { sql, type Transaction } from 'kysely';
import type { AppContext } from '../../context';
import type { Account, Database } from '../../db/types';
import { ApiError } from '../../http/errors';
import sendForm from '../../../schemas/forms/send.json';
import { LedgerService, Money } from '../ledger';
import { ceilCent, chargePlan, planCost, planPieces, remainOf, usablePools, type ChargePlan } from '../billing';
import { dropStaged, insertMessages, stageChunks, type UnplacedBatch } from './messages';
import { assertMaySend } from './gate';
import { MSG, newTaskUid, refusalOf, smsTypesOf, X, type SendResult, type SendService } from './service';
import { checkNumbers, MAX_NUMBERS, NUMBER_MESSAGES, numberPoolError } from '../../../common/sms/numbers';
import { countPieces } from '../../../common/sms/pieces';
import { sendTimeError } from '../../../common/send/time';
import {
  ChargeMode,
  ChargeState,
  NeedAudit,
  OperationMode,
  PhoneInoutType,
  SendKind,
  SendRecordStatus,
  SignState,
  SmsType,
  TaskStatus,
  TemplateType,
} from '../../../common/generated/schemas';

type Tx = Transaction<Database>;

const CONTENT_EMPTY = sendForm.properties.content.errorMessage.minLength;

/** 【sign】 at the start of an interface text (up to 20 characters, no brackets inside). */
const SIGN_AT_START = /^【([^【】]{1,20})】/u;

export const INTERFACE_MSG = {
  signMissing: '短信内容须以【签名】开头',
  signNotApproved: '签名未报备或未审核通过',
  badMobile: '号码格式错误',
} as const;

/** A refusal of an interface send: `kind` says which stable error the caller answers. */
export class InterfaceRefusal extends ApiError {
  constructor(
    readonly kind: 'signMissing' | 'signNotApproved' | 'tooMany' | 'badInput' | 'refused',
    msg: string,
  ) {
    super(kind === 'refused' ? 500 : 400, msg);
  }
}

export interface InterfaceSendInput {
  /** enums/sms-type.json; default: notification when the account sends it, else its own type */
  smstype?: number;
  /** one text (starting with 【sign】) to every number of `mobiles` */
  content?: string;
  mobiles?: readonly string[];
  /** or a text per number */
  items?: readonly { mobile: string; content: string }[];
  /** a timed send (undefined: at once) */
  sendTime?: Date;
  /** digits appended to the account's source number (needextend 1) */
  extension?: string;
}

export interface InterfaceSendResult extends SendResult {
  /** the message id of each accepted number; null for a number of a large task whose row is not written yet (query the task) */
  messages: { mobile: string; msgid: number | null }[];
  invalidNumbers: string[];
  repeatNum: number;
}

interface Split {
  sign: string;
  content: string;
}

function splitSign(text: string): Split {
  const m = SIGN_AT_START.exec(text);
  if (!m) throw new InterfaceRefusal('signMissing', INTERFACE_MSG.signMissing);
  const content = text.slice(m[0].length);
  if (!content.trim()) throw new InterfaceRefusal('badInput', CONTENT_EMPTY);
  return { sign: m[1].trim(), content };
}

/** The interface acceptance (one per app; stateless). */
export class InterfaceSend {
  constructor(
    private readonly ctx: AppContext,
    private readonly send: Pick<SendService, 'pricesOf' | 'payerOf'>,
  ) {}

  /**
   * Accepts an interface send of `account` (the caller itself: an interface has no agent acting for
   * a sub-account). `inTransaction` runs last in the accepting transaction (the HTTP API stores its
   * idempotency answer there: the task and its answer commit together or not at all).
   */
  async accept(account: Account, input: InterfaceSendInput, inTransaction?: (trx: Tx, r: InterfaceSendResult) => Promise<void>): Promise<InterfaceSendResult> {
    const now = this.ctx.now();
    assertMaySend(account);
    if (account.phone_inout_type !== PhoneInoutType.Domestic && account.phone_inout_type !== PhoneInoutType.Both) throw new InterfaceRefusal('refused', MSG.noDomestic);
    const allowed = smsTypesOf(account);
    const smstype = input.smstype ?? (allowed.includes(SmsType.Notification) ? SmsType.Notification : allowed[0]);
    if (!allowed.includes(smstype)) throw new InterfaceRefusal('refused', MSG.smstypeNotAllowed);
    if (input.sendTime) {
      const e = sendTimeError('ordinary', input.sendTime, now);
      if (e) throw new InterfaceRefusal('badInput', e);
    }

    // numbers and texts
    const perNumber = !!input.items;
    const rawPhones = perNumber ? input.items!.map((i) => i.mobile) : (input.mobiles ?? []);
    if (rawPhones.length > MAX_NUMBERS) throw new InterfaceRefusal('tooMany', NUMBER_MESSAGES.tooMany);
    const numbers = checkNumbers(rawPhones);
    const poolError = numberPoolError(numbers);
    if (poolError) throw new InterfaceRefusal(numbers.total > MAX_NUMBERS ? 'tooMany' : 'badInput', poolError);
    const phones = numbers.unique;
    const n = phones.length;
    const pieces = new Uint16Array(n);
    let texts: string[] | null = null;
    const signs = new Set<string>();
    let taskText: string;
    let taskSign: string;
    let hit = false;
    if (!perNumber) {
      const s = splitSign(input.content ?? '');
      const pc = countPieces(s);
      if (pc.tooLong) throw new InterfaceRefusal('badInput', MSG.tooLong);
      pieces.fill(pc.pieces);
      signs.add(s.sign);
      taskText = pc.text;
      taskSign = s.sign;
      hit = this.ctx.words.contains(pc.text);
    } else {
      // the first text of each number (a repeated number is counted in repeatNum, as the console does)
      const textOf = new Map<string, string>();
      for (const it of input.items!) if (!textOf.has(it.mobile)) textOf.set(it.mobile, it.content);
      texts = new Array<string>(n);
      const counted = new Map<string, { pieces: number; text: string; sign: string }>();
      for (let i = 0; i < n; i++) {
        const raw = textOf.get(phones[i]) ?? '';
        let c = counted.get(raw);
        if (!c) {
          const s = splitSign(raw);
          const pc = countPieces(s);
          if (pc.tooLong) throw new InterfaceRefusal('badInput', MSG.tooLong);
          c = { pieces: pc.pieces, text: pc.text, sign: s.sign };
          counted.set(raw, c);
          if (!hit && this.ctx.words.contains(pc.text)) hit = true;
        }
        pieces[i] = c.pieces;
        texts[i] = c.text;
        signs.add(c.sign);
      }
      taskText = texts[0];
      taskSign = counted.get(textOf.get(phones[0]) ?? '')!.sign;
    }
    const approved = await this.ctx.db
      .selectFrom('signs')
      .select('sign')
      .where('account_id', '=', account.id)
      .where('state', '=', SignState.Approved)
      .where('sign', 'in', [...signs])
      .execute();
    if (approved.length < signs.size) throw new InterfaceRefusal('signNotApproved', INTERFACE_MSG.signNotApproved);

    const audit =
      account.needaudit === NeedAudit.All || (account.needaudit === NeedAudit.Marketing && smstype === SmsType.Marketing) || (account.needaudit === NeedAudit.Keyword && hit);
    const intercepted = hit && !audit;
    const prices = this.send.pricesOf(account);
    const payerId = this.send.payerOf(account);
    const mode: ChargeMode = account.operation_mode === OperationMode.Package ? ChargeMode.Pool : ChargeMode.Money;
    const piecesBy = { 1: 0, 2: 0, 3: 0 } as Record<1 | 2 | 3, number>;
    for (let i = 0; i < n; i++) piecesBy[numbers.uniqueCarriers[i] as 1 | 2 | 3] += pieces[i];
    const perCarrier = {} as ChargePlan['perCarrier'];
    for (const k of [1, 2, 3] as const) perCarrier[k] = { count: piecesBy[k], cost: new Money(prices[k]).times(piecesBy[k]) };
    const plan: ChargePlan = { taskId: 0, uid: '', mode, accountId: account.id, payerId, smstype, piecesPerMsg: 1, perCarrier };
    const chargeNow = !intercepted;
    if (chargeNow) {
      // the usual refusal before anything is written (checked again on locked rows by chargePlan)
      if (mode === ChargeMode.Money) {
        const balance = await new LedgerService(this.ctx).balanceOf(payerId);
        const needed = ceilCent(planCost(plan));
        if (new Money(balance).lt(needed)) throw new InterfaceRefusal('refused', refusalOf({ ok: false, kind: 'balance', balance, needed: needed.toFixed(2) }));
      } else {
        const pools = await usablePools(this.ctx.db, payerId, smstype, now);
        if (remainOf(pools) < planPieces(plan)) throw new InterfaceRefusal('refused', refusalOf({ ok: false, kind: 'pieces', remain: remainOf(pools), needed: planPieces(plan) }));
      }
    }

    const timed = !!input.sendTime;
    const uid = newTaskUid(now);
    const state = intercepted ? SendRecordStatus.GatewayReceiveIntercepted : audit ? SendRecordStatus.AwaitingReview : SendRecordStatus.NotSent;
    const status = intercepted ? TaskStatus.Completed : timed ? TaskStatus.Waiting : TaskStatus.Processing;
    const maxPieces = pieces.reduce((m, p) => Math.max(m, p), 0);
    const batch: UnplacedBatch = {
      accountId: account.id,
      phones,
      carriers: numbers.uniqueCarriers,
      pieces: maxPieces,
      prices: intercepted ? { 1: '0', 2: '0', 3: '0' } : prices,
      state,
      nextAt: state === SendRecordStatus.NotSent && !timed ? now : null,
      createdAt: now,
      doneAt: intercepted ? now : null,
      each: { pieces, ...(texts ? { texts } : {}) },
    };
    const staged = await stageChunks(this.ctx.db, batch);
    try {
      return await this.ctx.db.transaction().execute(async (trx) => {
        const task = await trx
          .insertInto('sms_tasks')
          .values({
            uid,
            account_id: account.id,
            agent_id: account.agent_id,
            creator_id: account.id,
            creator_name: account.clientid,
            payer_id: payerId,
            charge_mode: mode,
            content: taskText,
            sign: taskSign,
            smstype,
            template_id: null,
            template_type: TemplateType.Fixed,
            file_type: 0,
            file_name: '',
            submit_total: n,
            err_num: numbers.invalid,
            repeat_num: numbers.repeat,
            pieces_per_msg: maxPieces,
            status,
            send_type: timed ? 1 : 0,
            send_time: input.sendTime ?? now,
            intercept_num: intercepted ? n : 0,
            audit_num: audit ? n : 0,
            charge_state: ChargeState.Charged,
            send_kind: texts ? SendKind.Variable : SendKind.Ordinary,
            extension: input.extension ?? '',
            created_at: now,
            updated_at: now,
            finished_at: intercepted ? now : null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await insertMessages(trx, { ...batch, taskId: task.id, staged });
        let amount = '0.00';
        let chargeNum = 0;
        if (chargeNow) {
          const r = await chargePlan(trx, this.ctx, { ...plan, taskId: task.id, uid });
          if (!r.ok) throw new InterfaceRefusal('refused', refusalOf(r));
          amount = r.amount;
          chargeNum = r.chargeNum;
          await trx.updateTable('sms_tasks').set({ amount: r.amount, cost: r.cost, charge_num_total: r.chargeNum }).where('id', '=', task.id).execute();
        }
        const ids = await sql<{ id: number; phone: string }>`select id, phone from sms_messages where task_id = ${task.id} order by id`.execute(trx);
        const idOf = new Map(ids.rows.map((r) => [r.phone, Number(r.id)]));
        const result: InterfaceSendResult = {
          taskId: uid,
          smsNum: maxPieces,
          submitTotal: n,
          chargeNum,
          amount,
          msg: intercepted ? X.intercepted : audit ? X.awaitingReview : X.sent,
          messages: phones.map((p) => ({ mobile: p, msgid: idOf.get(p) ?? null })),
          invalidNumbers: numbers.invalidNumbers.slice(0, 1000),
          repeatNum: numbers.repeat,
        };
        if (inTransaction) await inTransaction(trx, result);
        return result;
      });
    } catch (err) {
      await dropStaged(this.ctx.db, staged);
      if (err instanceof ApiError && !(err instanceof InterfaceRefusal) && err.code === 500) throw new InterfaceRefusal('refused', err.message);
      throw err;
    }
  }
}


/**
 * One message from a customer's system (SMPP submit_sm, issue 24; docs/api-smpp.md "submit_sm"):
 * accepted through the same rules, charge and dispatch queue as a console send, but not tied to a
 * template (the customer's system composes the text) and without the console's 3 s submit lock.
 *
 * - who may send: `assertMaySend` (active and certified), domestic sends allowed;
 * - the text carries 【sign】 (leading or trailing) of an approved sign of the account;
 * - one domestic number (86 / +86 / 0086 prefixes dropped), the platform's piece rule, at most
 *   500 characters;
 * - sensitive words and needaudit as `SendService.prepare`; the charge (pools / ledger) in the same
 *   transaction as the task and its message row; the message waits for dispatch like any other.
 *
 * A refusal is an `InterfaceRefusal` with its reason (the SMPP listener maps it to a status);
 * nothing is written or charged then.
 */
import type { AppContext } from '../../context';
import type { Account } from '../../db/types';
import { ApiError } from '../../http/errors';
import { chargePlan, CARRIERS, type ChargePlan } from '../billing';
import { Money } from '../ledger';
import { assertMaySend } from './gate';
import { insertMessages } from './messages';
import { newTaskUid, refusalOf, smsTypesOf, type SendService } from './service';
import { checkNumbers } from '../../../common/sms/numbers';
import { countPieces } from '../../../common/sms/pieces';
import { ChargeMode, ChargeState, NeedAudit, OperationMode, PhoneInoutType, SendRecordStatus, SignState, SmsType, TaskStatus } from '../../../common/generated/schemas';

export type InterfaceRefusalReason = 'account' | 'domestic' | 'sign' | 'number' | 'length' | 'credit';

export class InterfaceRefusal extends Error {
  constructor(
    readonly reason: InterfaceRefusalReason,
    message: string,
  ) {
    super(message);
  }
}

export const INTERFACE_MSG = {
  noSign: '短信内容须带已审核通过的签名【签名】',
  badNumber: '号码格式错误',
  tooLong: '短信内容超过500字',
  empty: '短信内容不能为空',
} as const;

export interface InterfaceMessage {
  phone: string;
  text: string;
  /** digits appended to the account's source number (needextend 1; the caller checks) */
  extension?: string;
  /** the receipt asked for (SMPP registered_delivery): 0 none, 1 every final state (default), 2 failures only */
  registeredDelivery?: number;
}

export interface InterfaceAccepted {
  /** the platform's message id (sms_messages.id, decimal) */
  msgId: string;
  taskUid: string;
  pieces: number;
  /** accepted as intercepted (sensitive words) or held for review */
  state: number;
}

const SIGN_AT = /^[【[]([^】\]]{1,20})[】\]]|[【[]([^】\]]{1,20})[】\]]$/u;

/** The sign of a text (its leading, else trailing 【sign】) and the content without it. */
export function signOf(text: string): { sign: string; content: string } | null {
  const t = text.trim();
  const m = SIGN_AT.exec(t);
  if (!m) return null;
  const sign = (m[1] ?? m[2]).trim();
  const content = m.index === 0 ? t.slice(m[0].length) : t.slice(0, m.index);
  return sign ? { sign, content } : null;
}

/** A destination as customers write it: 86 / +86 / 0086 before an 11-digit mobile dropped. */
export function domesticNumber(addr: string): string {
  const d = addr.trim().replace(/^\+/, '');
  const m = /^(?:0086|86)(1\d{10})$/.exec(d);
  return m ? m[1] : d;
}

export async function acceptInterfaceMessage(ctx: AppContext, send: SendService, account: Account, m: InterfaceMessage): Promise<InterfaceAccepted> {
  try {
    assertMaySend(account);
  } catch (err) {
    throw new InterfaceRefusal('account', err instanceof ApiError ? err.message : String(err));
  }
  if (account.phone_inout_type !== PhoneInoutType.Domestic && account.phone_inout_type !== PhoneInoutType.Both) throw new InterfaceRefusal('domestic', '该账户未开通国内短信发送');
  const signed = signOf(m.text);
  if (!signed) throw new InterfaceRefusal('sign', INTERFACE_MSG.noSign);
  if (!signed.content.trim()) throw new InterfaceRefusal('length', INTERFACE_MSG.empty);
  const approved = await ctx.db
    .selectFrom('signs')
    .select('id')
    .where('account_id', '=', account.id)
    .where('sign', '=', signed.sign)
    .where('state', '=', SignState.Approved)
    .executeTakeFirst();
  if (!approved) throw new InterfaceRefusal('sign', INTERFACE_MSG.noSign);
  const pc = countPieces({ content: signed.content, sign: signed.sign });
  if (pc.tooLong) throw new InterfaceRefusal('length', INTERFACE_MSG.tooLong);
  const numbers = checkNumbers(domesticNumber(m.phone));
  if (numbers.unique.length !== 1 || numbers.invalid > 0) throw new InterfaceRefusal('number', INTERFACE_MSG.badNumber);
  const types = smsTypesOf(account);
  const smstype = types.includes(account.smstype) ? account.smstype : SmsType.Notification;
  const hit = ctx.words.contains(pc.text);
  const audit = account.needaudit === NeedAudit.All || (account.needaudit === NeedAudit.Marketing && smstype === SmsType.Marketing) || (account.needaudit === NeedAudit.Keyword && hit);
  const intercepted = hit && !audit;
  const state = intercepted ? SendRecordStatus.GatewayReceiveIntercepted : audit ? SendRecordStatus.AwaitingReview : SendRecordStatus.NotSent;
  const payerId = send.payerOf(account);
  const mode = account.operation_mode === OperationMode.Package ? ChargeMode.Pool : ChargeMode.Money;
  const prices = send.pricesOf(account);
  const now = ctx.now();
  const uid = newTaskUid(now);
  return ctx.db.transaction().execute(async (trx) => {
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
        content: pc.text,
        sign: signed.sign,
        smstype,
        template_id: null,
        file_name: 'SMPP',
        extension: m.extension ?? '',
        registered_delivery: m.registeredDelivery ?? 1,
        submit_total: 1,
        pieces_per_msg: pc.pieces,
        status: intercepted ? TaskStatus.Completed : TaskStatus.Processing,
        send_type: 0,
        send_time: now,
        intercept_num: intercepted ? 1 : 0,
        audit_num: audit ? 1 : 0,
        charge_state: ChargeState.Charged,
        created_at: now,
        updated_at: now,
        finished_at: intercepted ? now : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await insertMessages(trx, {
      taskId: task.id,
      accountId: account.id,
      phones: numbers.unique,
      carriers: numbers.uniqueCarriers,
      pieces: pc.pieces,
      prices: intercepted ? { 1: '0', 2: '0', 3: '0' } : prices,
      state,
      nextAt: state === SendRecordStatus.NotSent ? now : null,
      createdAt: now,
      doneAt: intercepted ? now : null,
    });
    if (!intercepted) {
      const perCarrier = {} as ChargePlan['perCarrier'];
      for (const c of CARRIERS) perCarrier[c] = { count: numbers.carriers[c], cost: new Money(prices[c]).times(pc.pieces).times(numbers.carriers[c]) };
      const r = await chargePlan(trx, ctx, { taskId: task.id, uid, mode, accountId: account.id, payerId, smstype, piecesPerMsg: pc.pieces, perCarrier });
      if (!r.ok) throw new InterfaceRefusal('credit', refusalOf(r));
      await trx.updateTable('sms_tasks').set({ amount: r.amount, cost: r.cost, charge_num_total: r.chargeNum }).where('id', '=', task.id).execute();
    }
    const row = await trx.selectFrom('sms_messages').select('id').where('task_id', '=', task.id).executeTakeFirstOrThrow();
    return { msgId: String(row.id), taskUid: uid, pieces: pc.pieces, state };
  });
}

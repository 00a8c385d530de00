/**
 * The one acceptance of interface sends (issue 24; docs/api-smpp.md "submit_sm", docs/api-openapi.md
 * "Send"): messages composed by a customer's system, through the customer HTTP API
 * (server/modules/openapi: `InterfaceSend.accept`, one request = one task) and through SMPP
 * (server/modules/smpp-server: `acceptInterfaceMessage`, one submit_sm = one message; the submits
 * arriving together are accepted together, below). Both are the same kind of message, with the same
 * rules as a console send but not tied to a template:
 *
 * - who may send: `assertInterfaceAllowed` (active and certified, not a test account); domestic
 *   sends allowed (phone_inout_type);
 * - the SMS type: one the account may send (default: notification when allowed);
 * - each text carries 【sign】 (leading or trailing) of an approved sign of the account, and every
 *   other 【…】 at its start or end is one too (edgeSigns: no second, unapproved sign rides along);
 * - domestic numbers (86 / +86 / 0086 before an 11-digit mobile dropped), the platform's piece
 *   rule, at most 500 characters;
 * - sensitive words and needaudit as `SendService.prepare`; the charge (pools / ledger) in the same
 *   transaction as the task and its message rows (send/messages.ts); dispatch through the queue;
 * - by amount, through the payer's rounding carry (billing.ts `plan.carry`): one message a task
 *   pays what the same messages cost in one console task.
 *
 * Differences from the console's form on purpose: no 3 s submit lock (the account's accessSpeed
 * throttles an interface), a timed interface send is always charged when accepted.
 *
 * A refusal is an `InterfaceRefusal`: `kind` is the HTTP API's stable error, `reason` the SMPP
 * status's; nothing is written or charged then.
 */
import { sql, type Transaction } from 'kysely';
import type { AppContext } from '../../context';
import type { Account, Database } from '../../db/types';
import { ApiError } from '../../http/errors';
import sendForm from '../../../schemas/forms/send.json';
import { LedgerService } from '../ledger';
import { Money } from '../../lib/money';
import {
  carryOf,
  ceilCent,
  chargePlan,
  planCost,
  planPieces,
  remainOf,
  usablePools,
  type ChargePlan,
} from '../billing';
import { dropStaged, insertMessages, stageChunks, type UnplacedBatch } from './messages';
import { assertInterfaceAllowed } from './gate';
import { approvedSigns, SIGN_NOT_APPROVED } from '../sign';
import {
  MSG,
  newTaskUid,
  refusalOf,
  smsTypesOf,
  withBlacklistMsg,
  X,
  type SendResult,
  type SendService,
} from './service';
import { blacklistedOf, honoursBlacklist, withoutBlocked } from '../blacklist';
import {
  checkNumbers,
  isChineseMobile,
  MAX_NUMBERS,
  NUMBER_MESSAGES,
  numberPoolError,
} from '../../../common/sms/numbers';
import { countPieces } from '../../../common/sms/pieces';
import { allowsDomestic } from '../../../common/send';
import { sendTimeError } from '../../../common/send/time';
import {
  ChargeMode,
  ChargeState,
  NeedAudit,
  OperationMode,
  SendKind,
  SendRecordStatus,
  SmsType,
  TaskStatus,
  TemplateType,
} from '../../../common/generated/schemas';
import { isRetryableDbError } from '../../lib/error-code';

type Tx = Transaction<Database>;

const CONTENT_EMPTY = sendForm.properties.content.errorMessage.minLength;

export const INTERFACE_MSG = {
  signMissing: '短信内容须以【签名】开头或结尾',
  signNotApproved: SIGN_NOT_APPROVED,
  badMobile: '号码格式错误',
  /** every number given is invalid (the HTTP API says how many: schemas/messages/openapi.json noValidNumber) */
  noValidNumber: '没有有效号码',
  busy: '系统繁忙，请稍后重试',
} as const;

/** invalid numbers an answer lists (the rest are counted) */
const INVALID_SHOWN = 1000;

/** Why an SMPP submit was refused (smpp-server maps it to a status). */
export type InterfaceRefusalReason =
  'account' | 'domestic' | 'sign' | 'number' | 'length' | 'credit' | 'busy' | 'blacklist';
/** Which stable error the HTTP API answers (openapi/routes.ts). */
export type InterfaceRefusalKind =
  'signMissing' | 'signNotApproved' | 'tooMany' | 'noValidNumber' | 'badInput' | 'refused';

const REASON_OF: Record<InterfaceRefusalKind, InterfaceRefusalReason> = {
  signMissing: 'sign',
  signNotApproved: 'sign',
  tooMany: 'number',
  noValidNumber: 'number',
  badInput: 'length',
  refused: 'account',
};

/** A refusal of an interface send. */
export class InterfaceRefusal extends ApiError {
  readonly reason: InterfaceRefusalReason;
  constructor(
    readonly kind: InterfaceRefusalKind,
    msg: string,
    reason?: InterfaceRefusalReason,
    data?: unknown,
  ) {
    super(kind === 'refused' ? 500 : 400, msg, data);
    this.reason = reason ?? REASON_OF[kind];
  }
}

export interface InterfaceSendInput {
  /** enums/sms-type.json; default: notification when the account sends it, else its own type */
  smstype?: number;
  /** one text (with 【sign】) to every number of `mobiles` */
  content?: string;
  mobiles?: readonly string[];
  /** or a text per number */
  items?: readonly { mobile: string; content: string }[];
  /** a timed send (undefined: at once) */
  sendTime?: Date;
  /** digits appended to the account's source number (needextend 1) */
  extension?: string;
  /** the receipt asked for (SMPP registered_delivery): 0 none, 1 every final state (default), 2 failures only */
  registeredDelivery?: number;
  /** where the task came from, shown as its file name ('SMPP'; the HTTP API: none) */
  source?: string;
}

export interface InterfaceSendResult extends SendResult {
  /** the message id of each accepted number; null for a number of a large task whose row is not written yet (query the task) */
  messages: { mobile: string; msgid: number | null }[];
  invalidNumbers: string[];
  repeatNum: number;
  /** the numbers of a marketing send skipped as blacklisted (not sent, not charged; at most 1000) */
  blacklistNumbers: string[];
  /** the state of the accepted messages (enums/send-record-status.json) */
  state: number;
  /** the messages' created_at (a door's ids carry its time: the CMPP door's Msg_Id) */
  createdAt: Date;
}

const SIGN_AT = /^[【[]([^【】[\]]{1,20})[】\]]|[【[]([^【】[\]]{1,20})[】\]]$/u;

/** what may stand between a text's edge and a 【sign】 there: whitespace and what shows nothing (content/normalize.ts' removed characters) */
const EDGE_GAP = /^[\s\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Noncharacter_Code_Point}\p{Default_Ignorable_Code_Point}]$/u;
/**
 * Whether a bracketed group reads as a sign: every 【…】; an ASCII [...] only when it holds a letter
 * of some script (`[中国银行]`, `[Apple]`), so that a code at the end of a text (`验证码[123456]`) is
 * text, not a sign to approve.
 */
const signLike = (open: string, inner: string) => open === '【' || /\p{L}/u.test(inner);
const OPEN = '【[';
const CLOSE = '】]';

/** the code point ending at `end` (exclusive) and its length in units */
function cpBefore(t: string, end: number): [string, number] {
  const lo = t.charCodeAt(end - 1);
  if (lo >= 0xdc00 && lo <= 0xdfff && end >= 2) {
    const hi = t.charCodeAt(end - 2);
    if (hi >= 0xd800 && hi <= 0xdbff) return [t.slice(end - 2, end), 2];
  }
  return [t[end - 1], 1];
}

/**
 * Every 【…】 (or [...], as signOf reads them) a text carries at its start or at its end (issue 35
 * item 7): the runs of bracketed groups there, whitespace and invisible characters around them
 * skipped. Each must be an approved sign of the account (`【好易购】…【中国银行】` carries two).
 * Linear in the text's length.
 */
export function edgeSigns(text: string): string[] {
  const out: string[] = [];
  let a = 0;
  let b = text.length;
  const skipStart = () => {
    while (a < b) {
      const cp = String.fromCodePoint(text.codePointAt(a)!);
      if (!EDGE_GAP.test(cp)) break;
      a += cp.length;
    }
  };
  const skipEnd = () => {
    while (b > a) {
      const [cp, n] = cpBefore(text, b);
      if (!EDGE_GAP.test(cp)) break;
      b -= n;
    }
  };
  for (skipStart(); a < b && OPEN.includes(text[a]); skipStart()) {
    let j = a + 1;
    while (j < b && !OPEN.includes(text[j]) && !CLOSE.includes(text[j])) j++;
    if (j >= b || !CLOSE.includes(text[j]) || !signLike(text[a], text.slice(a + 1, j))) break;
    out.push(text.slice(a + 1, j).trim());
    a = j + 1;
  }
  for (skipEnd(); b > a && CLOSE.includes(text[b - 1]); skipEnd()) {
    let j = b - 2;
    while (j >= a && !OPEN.includes(text[j]) && !CLOSE.includes(text[j])) j--;
    if (j < a || !OPEN.includes(text[j]) || !signLike(text[j], text.slice(j + 1, b - 1))) break;
    out.push(text.slice(j + 1, b - 1).trim());
    b = j;
  }
  return out;
}

/**
 * The sign of a text (its leading, else trailing 【sign】) and the content without it; `signs`:
 * every sign the text carries at its start or end (that one included), each of which must be an
 * approved sign of the account.
 */
export function signOf(text: string): { sign: string; content: string; signs: string[] } | null {
  const t = text.trim();
  const m = SIGN_AT.exec(t);
  if (!m) return null;
  const sign = (m[1] ?? m[2]).trim();
  const content = m.index === 0 ? t.slice(m[0].length) : t.slice(0, m.index);
  return sign ? { sign, content, signs: [...new Set([sign, ...edgeSigns(text)])] } : null;
}

function splitSign(text: string): { sign: string; content: string; signs: string[] } {
  const s = signOf(text);
  if (!s) throw new InterfaceRefusal('signMissing', INTERFACE_MSG.signMissing);
  if (!s.content.trim()) throw new InterfaceRefusal('badInput', CONTENT_EMPTY, 'length');
  return s;
}

/** A destination as customers write it: 86 / +86 / 0086 before an 11-digit mobile dropped. */
export function domesticNumber(addr: string): string {
  const d = addr.trim().replace(/^\+/, '');
  const m = /^(?:0086|86)(1\d{10})$/.exec(d);
  return m ? m[1] : d;
}

/**
 * Runs an accepting transaction again when PostgreSQL chose it as a deadlock's victim (40P01) or
 * could not serialise it (40001): the accept locks the payer, its pools and the rows it writes
 * while other writers of the same account (the ledger, the dispatcher's recording) lock theirs.
 * Nothing of a rolled-back attempt stays (the staged chunks are moved only by a committed one).
 */
async function retryDeadlock<T>(run: () => Promise<T>, attempts = 8): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await run();
    } catch (err) {
      if (i >= attempts || !isRetryableDbError(err)) throw err;
      await new Promise((r) => setTimeout(r, Math.random() * 20 * i));
    }
  }
}

/** `assertInterfaceAllowed` as an interface refusal ('refused', reason 'account'). */
function assertAccountMaySend(account: Account) {
  try {
    assertInterfaceAllowed(account);
  } catch (err) {
    throw err instanceof ApiError ? new InterfaceRefusal('refused', err.message, 'account') : err;
  }
}

/** What a caller of `InterfaceSend.accept` has already checked (the SMPP batcher), to save round trips. */
export interface AcceptOptions {
  /** every sign of the texts was found approved just before (the batcher checks a whole batch at once) */
  signsApproved?: boolean;
  /**
   * no balance / pool look before the transaction: the charge checks them on locked rows anyway and
   * a refusal rolls back whatever was written (the batcher's groups are small and never staged)
   */
  skipCreditPrecheck?: boolean;
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
  async accept(
    account: Account,
    input: InterfaceSendInput,
    inTransaction?: (trx: Tx, r: InterfaceSendResult) => Promise<void>,
    opts: AcceptOptions = {},
  ): Promise<InterfaceSendResult> {
    const now = this.ctx.now();
    assertAccountMaySend(account);
    if (!allowsDomestic(account.phone_inout_type)) throw new InterfaceRefusal('refused', MSG.noDomestic, 'domestic');
    const allowed = smsTypesOf(account);
    const smstype = input.smstype ?? (allowed.includes(SmsType.Notification) ? SmsType.Notification : allowed[0]);
    if (!allowed.includes(smstype)) throw new InterfaceRefusal('refused', MSG.smstypeNotAllowed);
    if (input.sendTime) {
      const e = sendTimeError('ordinary', input.sendTime, now);
      if (e) throw new InterfaceRefusal('badInput', e);
    }

    // numbers and texts
    const perNumber = !!input.items;
    const rawPhones = (perNumber ? input.items!.map((i) => i.mobile) : (input.mobiles ?? [])).map(domesticNumber);
    if (rawPhones.length > MAX_NUMBERS) throw new InterfaceRefusal('tooMany', NUMBER_MESSAGES.tooMany);
    const checked = checkNumbers(rawPhones);
    // numbers were given but none is valid: say so (the console's 号码池不能为空 reads as "none given";
    // issue 41 item 10), with how many and which (every one given is invalid)
    if (checked.valid === 0 && rawPhones.length > 0)
      throw new InterfaceRefusal('noValidNumber', INTERFACE_MSG.noValidNumber, 'number', {
        invalidNum: rawPhones.length,
        invalidNumbers: rawPhones.slice(0, INVALID_SHOWN).map((p) => String(p).slice(0, 20)),
      });
    const poolError = numberPoolError(checked);
    if (poolError)
      throw new InterfaceRefusal(checked.total > MAX_NUMBERS ? 'tooMany' : 'badInput', poolError, 'number');
    // marketing: not to the account's or the platform's blacklisted numbers (docs/api-blacklist.md)
    const blocked = honoursBlacklist(smstype)
      ? await blacklistedOf(this.ctx.db, account.id, checked.unique)
      : new Set<string>();
    const { check: numbers, blacklistNum } = withoutBlocked(checked, blocked);
    if (blacklistNum > 0 && !numbers.unique.length)
      throw new InterfaceRefusal('refused', X.allBlacklisted, 'blacklist');
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
      if (pc.tooLong) throw new InterfaceRefusal('badInput', MSG.tooLong, 'length');
      pieces.fill(pc.pieces);
      for (const x of s.signs) signs.add(x);
      taskText = pc.text;
      taskSign = s.sign;
      hit = this.ctx.words.contains(pc.text);
    } else {
      // the first text of each number (a repeated number is counted in repeatNum, as the console does)
      const textOf = new Map<string, string>();
      for (let i = 0; i < rawPhones.length; i++)
        if (!textOf.has(rawPhones[i])) textOf.set(rawPhones[i], input.items![i].content);
      texts = new Array<string>(n);
      const counted = new Map<string, { pieces: number; text: string; sign: string; signs: string[] }>();
      for (let i = 0; i < n; i++) {
        const raw = textOf.get(phones[i]) ?? '';
        let c = counted.get(raw);
        if (!c) {
          const s = splitSign(raw);
          const pc = countPieces(s);
          if (pc.tooLong) throw new InterfaceRefusal('badInput', MSG.tooLong, 'length');
          c = { pieces: pc.pieces, text: pc.text, sign: s.sign, signs: s.signs };
          counted.set(raw, c);
          if (!hit && this.ctx.words.contains(pc.text)) hit = true;
        }
        pieces[i] = c.pieces;
        texts[i] = c.text;
        for (const x of c.signs) signs.add(x);
      }
      taskText = texts[0];
      taskSign = counted.get(textOf.get(phones[0]) ?? '')!.sign;
    }
    if (!opts.signsApproved) {
      const approved = await this.approvedSigns(account.id, [...signs]);
      if (approved.size < signs.size) throw new InterfaceRefusal('signNotApproved', INTERFACE_MSG.signNotApproved);
    }

    const audit =
      account.needaudit === NeedAudit.All ||
      (account.needaudit === NeedAudit.Marketing && smstype === SmsType.Marketing) ||
      (account.needaudit === NeedAudit.Keyword && hit);
    const intercepted = hit && !audit;
    const prices = this.send.pricesOf(account);
    const payerId = this.send.payerOf(account);
    const mode: ChargeMode = account.operation_mode === OperationMode.Package ? ChargeMode.Pool : ChargeMode.Money;
    const piecesBy = { 1: 0, 2: 0, 3: 0 } as Record<1 | 2 | 3, number>;
    for (let i = 0; i < n; i++) piecesBy[numbers.uniqueCarriers[i] as 1 | 2 | 3] += pieces[i];
    const perCarrier = {} as ChargePlan['perCarrier'];
    for (const k of [1, 2, 3] as const)
      perCarrier[k] = { count: piecesBy[k], cost: new Money(prices[k]).times(piecesBy[k]) };
    // by amount: through the payer's rounding carry (one message a task pays what a console task of them all would: billing.ts)
    const plan: ChargePlan = {
      taskId: 0,
      uid: '',
      mode,
      accountId: account.id,
      payerId,
      smstype,
      piecesPerMsg: 1,
      perCarrier,
      carry: mode === ChargeMode.Money,
    };
    const chargeNow = !intercepted;
    if (chargeNow && !opts.skipCreditPrecheck) {
      // the usual refusal before anything is written (checked again on locked rows by chargePlan)
      if (mode === ChargeMode.Money) {
        const [balance, carry] = await Promise.all([
          new LedgerService(this.ctx).balanceOf(payerId),
          carryOf(this.ctx.db, payerId),
        ]);
        const needed = Money.max(ceilCent(planCost(plan).minus(carry)), 0);
        if (new Money(balance).lt(needed))
          throw new InterfaceRefusal(
            'refused',
            refusalOf({ ok: false, kind: 'balance', balance, needed: needed.toFixed(2) }),
            'credit',
          );
      } else {
        const pools = await usablePools(this.ctx.db, payerId, smstype, now);
        if (remainOf(pools) < planPieces(plan))
          throw new InterfaceRefusal(
            'refused',
            refusalOf({ ok: false, kind: 'pieces', remain: remainOf(pools), needed: planPieces(plan) }),
            'credit',
          );
      }
    }

    const timed = !!input.sendTime;
    const uid = newTaskUid(now);
    const state = intercepted
      ? SendRecordStatus.GatewayReceiveIntercepted
      : audit
        ? SendRecordStatus.AwaitingReview
        : SendRecordStatus.NotSent;
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
      return await retryDeadlock(() =>
        this.ctx.db.transaction().execute(async (trx) => {
          // one accepting transaction per payer at a time, first thing: two concurrent ones (HTTP
          // requests in parallel) take the payer's ledger and pool rows in one order. FOR NO KEY
          // UPDATE, as the ledger's: a row referencing the account (the dispatcher queueing a receipt
          // for it, smpp_receipts' foreign key: FOR KEY SHARE) does not wait for this commit. The lock
          // is taken by the task's insert itself: its payer_id reads the locked row (one round trip)
          // it also reads the payer's balance and carry for the charge (the ledger's lock, taken here)
          const task = await trx
            .with('payer', (db) =>
              db
                .selectFrom('accounts')
                .select(['id', 'balance', 'charge_carry'])
                .where('id', '=', payerId)
                .forNoKeyUpdate(),
            )
            .insertInto('sms_tasks')
            .values({
              uid,
              account_id: account.id,
              agent_id: account.agent_id,
              creator_id: account.id,
              creator_name: account.clientid,
              payer_id: sql<number>`(select id from payer)`,
              charge_mode: mode,
              content: taskText,
              sign: taskSign,
              smstype,
              template_id: null,
              template_type: TemplateType.Fixed,
              file_type: 0,
              file_name: input.source ?? '',
              submit_total: n,
              err_num: numbers.invalid,
              repeat_num: numbers.repeat,
              blacklist_num: blacklistNum,
              pieces_per_msg: maxPieces,
              status,
              send_type: timed ? 1 : 0,
              send_time: input.sendTime ?? now,
              intercept_num: intercepted ? n : 0,
              audit_num: audit ? n : 0,
              charge_state: ChargeState.Charged,
              carry_settled: chargeNow && plan.carry ? '0' : null,
              send_kind: texts ? SendKind.Variable : SendKind.Ordinary,
              extension: input.extension ?? '',
              registered_delivery: input.registeredDelivery ?? 1,
              created_at: now,
              updated_at: now,
              finished_at: intercepted ? now : null,
            })
            .returning([
              'id',
              sql<string>`(select balance from payer)`.as('payer_balance'),
              sql<string>`(select charge_carry from payer)`.as('payer_carry'),
            ])
            .executeTakeFirstOrThrow();
          let amount = '0.00';
          let chargeNum = 0;
          let cost = '0.0000';
          if (chargeNow) {
            const r = await chargePlan(trx, this.ctx, {
              ...plan,
              taskId: task.id,
              uid,
              payerRow: { balance: task.payer_balance, carry: task.payer_carry },
            });
            if (!r.ok) throw new InterfaceRefusal('refused', refusalOf(r), 'credit');
            amount = r.amount;
            chargeNum = r.chargeNum;
            cost = r.cost;
          }
          // the message rows after the charge (their report figures are appended as deltas by the
          // triggers, migration 0041: no row shared with the dispatcher's recording transactions)
          await insertMessages(trx, { ...batch, taskId: task.id, staged });
          // the task's charge written in the statement that reads the message ids back (one round trip)
          const ids = chargeNow
            ? await sql<{ id: number; phone: string }>`
                with charged as (update sms_tasks set amount = ${amount}, cost = ${cost}, charge_num_total = ${chargeNum} where id = ${task.id})
                select id, phone from sms_messages where task_id = ${task.id} order by id`.execute(trx)
            : await sql<{
                id: number;
                phone: string;
              }>`select id, phone from sms_messages where task_id = ${task.id} order by id`.execute(trx);
          const idOf = new Map(ids.rows.map((r) => [r.phone, Number(r.id)]));
          const result: InterfaceSendResult = {
            taskId: uid,
            smsNum: maxPieces,
            submitTotal: n,
            chargeNum,
            amount,
            msg: withBlacklistMsg(intercepted ? X.intercepted : audit ? X.awaitingReview : X.sent, blacklistNum),
            messages: phones.map((p) => ({ mobile: p, msgid: idOf.get(p) ?? null })),
            invalidNumbers: numbers.invalidNumbers.slice(0, INVALID_SHOWN),
            repeatNum: numbers.repeat,
            blacklistNum,
            blacklistNumbers: blacklistNum ? checked.unique.filter((p) => blocked.has(p)).slice(0, 1000) : [],
            state,
            createdAt: now,
          };
          if (inTransaction) await inTransaction(trx, result);
          return result;
        }),
      );
    } catch (err) {
      await dropStaged(this.ctx.db, staged);
      if (err instanceof ApiError && !(err instanceof InterfaceRefusal) && err.code === 500)
        throw new InterfaceRefusal('refused', err.message);
      throw err;
    }
  }

  /** the approved signs of the account among `signs` (the check every send path shares: sign/approved.ts) */
  approvedSigns(accountId: number, signs: string[]): Promise<Set<string>> {
    return approvedSigns(this.ctx.db, accountId, signs);
  }
}

// ---------------------------------------------------------------------------------------------
// The SMPP adapter: one submit_sm = one message.

export interface InterfaceMessage {
  phone: string;
  text: string;
  /** digits appended to the account's source number (needextend 1; the caller checks) */
  extension?: string;
  /** the receipt asked for (SMPP registered_delivery): 0 none, 1 every final state (default), 2 failures only */
  registeredDelivery?: number;
  /** the ids the door answered the earlier parts of this long message with: receipts are queued for each (migration 0043) */
  partIds?: string[];
  /** partIds name every submit of the message, its last too (SGIP's submit sequence numbers): no receipt for the message's own id (migration 0045) */
  partIdsWhole?: boolean;
}

export interface InterfaceAccepted {
  /** the platform's message id (sms_messages.id, decimal) */
  msgId: string;
  taskUid: string;
  pieces: number;
  /** accepted as intercepted (sensitive words) or held for review */
  state: number;
  /** sms_messages.created_at of the message (what its receipt row's submit_at holds) */
  createdAt: Date;
}

interface Pending {
  account: Account;
  phone: string;
  text: string;
  extension: string;
  registeredDelivery: number;
  partIds?: string[];
  partIdsWhole: boolean;
  hit: boolean;
  resolve(r: InterfaceAccepted): void;
  reject(err: unknown): void;
}

/** The most messages one accepting transaction of the SMPP adapter takes. */
export const INTERFACE_BATCH_MAX = 2000;

/**
 * Group commit of the SMPP adapter: the messages of an account that arrive while its previous
 * transaction runs are accepted together in the next one (one task, a row per message, one charge;
 * `InterfaceSend.accept` with `items`), at most one transaction per account at a time (no two
 * charges of one payer race: no deadlocks). A message alone is accepted at once. Each submit's
 * promise settles after the transaction that holds its row commits, so the submit_sm_resp always
 * follows a durable row. A message the batch cannot take (its own refusal) is refused alone; a
 * batch the balance cannot pay is accepted message by message, so that each gets its own answer.
 */
class InterfaceBatcher {
  private readonly queues = new Map<number, Pending[]>();
  private readonly busy = new Set<number>();
  readonly iface: InterfaceSend;

  constructor(
    private readonly ctx: AppContext,
    send: Pick<SendService, 'pricesOf' | 'payerOf'>,
  ) {
    this.iface = new InterfaceSend(ctx, send);
  }

  submit(account: Account, m: InterfaceMessage): Promise<InterfaceAccepted> {
    return new Promise<InterfaceAccepted>((resolve, reject) => {
      const q = this.queues.get(account.id) ?? [];
      this.queues.set(account.id, q);
      q.push({
        account,
        phone: domesticNumber(m.phone),
        text: m.text,
        extension: m.extension ?? '',
        registeredDelivery: m.registeredDelivery ?? 1,
        partIds: m.partIds?.length ? m.partIds : undefined,
        partIdsWhole: !!m.partIdsWhole && !!m.partIds?.length,
        hit: false,
        resolve,
        reject,
      });
      if (!this.busy.has(account.id)) {
        this.busy.add(account.id);
        // the submits of this turn of the event loop join the first batch
        setImmediate(() => void this.drain(account.id));
      }
    });
  }

  private async drain(accountId: number) {
    try {
      for (;;) {
        const q = this.queues.get(accountId);
        if (!q?.length) break;
        const batch = q.splice(0, INTERFACE_BATCH_MAX);
        await this.acceptBatch(batch).catch((err) => {
          for (const p of batch) p.reject(err);
        });
      }
    } finally {
      this.queues.delete(accountId);
      this.busy.delete(accountId);
    }
  }

  private async acceptBatch(batch: Pending[]) {
    // the newest account row of the batch (the listener reads it for each submit)
    const account = batch[batch.length - 1].account;
    // who may send first (as the acceptance): no sign look-up for an account the interfaces refuse
    try {
      assertAccountMaySend(account);
    } catch (err) {
      for (const p of batch) p.reject(err);
      return;
    }
    // a message's own refusals (sign, text, number), each answered alone
    const fit: Pending[] = [];
    // every sign each text carries at its start or end (signOf)
    const signsOfP = new Map<Pending, string[]>();
    for (const p of batch) {
      try {
        const s = splitSign(p.text);
        const pc = countPieces(s);
        if (pc.tooLong) throw new InterfaceRefusal('badInput', MSG.tooLong, 'length');
        // one number: the segment check alone (checkNumbers' tables are for lists)
        if (!isChineseMobile(p.phone)) throw new InterfaceRefusal('badInput', INTERFACE_MSG.badMobile, 'number');
        p.hit = this.ctx.words.contains(pc.text);
        signsOfP.set(p, s.signs);
        fit.push(p);
      } catch (err) {
        p.reject(err);
      }
    }
    if (!fit.length) return;
    const approved = await this.iface.approvedSigns(account.id, [...new Set([...signsOfP.values()].flat())]);
    // groups accepted as one task: the same number twice, sensitive words in some texts, or another
    // extension / registered_delivery (kept per task) go apart
    const groups: Pending[][] = [];
    const open = new Map<string, { list: Pending[]; phones: Set<string> }[]>();
    for (const p of fit) {
      if (!signsOfP.get(p)!.every((x) => approved.has(x))) {
        p.reject(new InterfaceRefusal('signNotApproved', INTERFACE_MSG.signNotApproved));
        continue;
      }
      const key = `${p.hit ? 1 : 0}|${p.extension}|${p.registeredDelivery}`;
      let lists = open.get(key);
      if (!lists) open.set(key, (lists = []));
      let g = lists.find((x) => !x.phones.has(p.phone));
      if (!g) {
        g = { list: [], phones: new Set() };
        lists.push(g);
        groups.push(g.list);
      }
      g.list.push(p);
      g.phones.add(p.phone);
    }
    for (const g of groups) await this.acceptGroup(account, g);
  }

  private async acceptGroup(account: Account, g: Pending[]) {
    const smstype = smsTypesOf(account).includes(account.smstype) ? account.smstype : SmsType.Notification;
    try {
      const r = await this.iface.accept(
        account,
        {
          smstype,
          items: g.map((p) => ({ mobile: p.phone, content: p.text })),
          extension: g[0].extension,
          registeredDelivery: g[0].registeredDelivery,
          source: 'SMPP',
        },
        // the part ids of long messages, with their message rows in the accepting transaction
        (trx, r) => recordPartIds(trx, g, r, this.ctx.now()),
        { signsApproved: true, skipCreditPrecheck: true },
      );
      const idOf = new Map(r.messages.map((m) => [m.mobile, m.msgid]));
      for (const p of g) {
        const id = idOf.get(p.phone);
        // a blacklisted number of a marketing batch: refused alone, not sent, not charged
        if (id === undefined) p.reject(new InterfaceRefusal('refused', X.allBlacklisted, 'blacklist'));
        else
          p.resolve({ msgId: String(id), taskUid: r.taskId, pieces: r.smsNum, state: r.state, createdAt: r.createdAt });
      }
    } catch (err) {
      // the balance or pools cannot pay for all: each message on its own, in order
      if (err instanceof InterfaceRefusal && err.reason === 'credit' && g.length > 1) {
        for (const p of g) await this.acceptGroup(account, [p]);
        return;
      }
      // still a deadlock victim after the retries (another writer of the account's rows meanwhile): nothing was written or charged, the messages are refused as "busy"
      // (SMPP 0x58 ESME_RTHROTTLED, which a gateway sends again) instead of a system error: the
      // likely cause of the bench's unexplained refusals, a whole group at once (362; 999 in an
      // earlier run) — not reproduced since, the listener now counts each refusal with its reason
      let refusal = err;
      if (isRetryableDbError(err)) {
        this.ctx.log.warn({ err, messages: g.length }, 'interface batch: deadlock retries exhausted, answered busy');
        refusal = new InterfaceRefusal('refused', INTERFACE_MSG.busy, 'busy');
      }
      for (const p of g) p.reject(refusal);
    }
  }
}

/** The ids the earlier parts of the group's long messages were answered with, by their message's id (migration 0043). */
async function recordPartIds(trx: Tx, g: readonly Pending[], r: InterfaceSendResult, now: Date): Promise<void> {
  const long = g.filter((p) => p.partIds);
  if (!long.length) return;
  const idOf = new Map(r.messages.map((m) => [m.mobile, m.msgid]));
  const rows = long.flatMap((p) => {
    const id = idOf.get(p.phone);
    return id ? [{ message_id: id, part_ids: p.partIds!, created_at: now, whole: p.partIdsWhole }] : [];
  });
  if (rows.length)
    await trx
      .insertInto('interface_part_ids')
      .values(rows)
      .onConflict((oc) => oc.column('message_id').doNothing())
      .execute();
}

const batchers = new WeakMap<AppContext, InterfaceBatcher>();

/**
 * Accepts one message of a customer's SMPP session (smpp-server's adapter). Resolves after its row
 * and charge are committed; refused with an `InterfaceRefusal` (its `reason`), nothing charged.
 */
export function acceptInterfaceMessage(
  ctx: AppContext,
  send: Pick<SendService, 'pricesOf' | 'payerOf'>,
  account: Account,
  m: InterfaceMessage,
): Promise<InterfaceAccepted> {
  let b = batchers.get(ctx);
  if (!b) batchers.set(ctx, (b = new InterfaceBatcher(ctx, send)));
  return b.submit(account, m);
}

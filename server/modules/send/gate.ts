/**
 * What every send path checks before it accepts anything (docs/api-send.md "Who may send"): the
 * console's three send pages, timed sends and the customer interfaces (SMPP, HTTP API) alike.
 *
 * - `assertMaySend`: the sending account is active and its certification has passed (spec 01:
 *   "can send SMS only after it passes"; 待认证 / 未认证 / 认证不通过 accounts send nothing, not
 *   even an intercepted or a deferred task).
 * - `assertInterfaceAllowed`: the customer interfaces (SMPP bind and submit, the HTTP API, the one
 *   interface acceptance `InterfaceSend.accept`): `assertMaySend`, and not a test account (a test
 *   account sends only from the console, to its agent's mobile, until converted: issue 35 item 3).
 * - `assertDeferredRoom`: uncharged work is bounded. A timed send accepted with
 *   isCheckAvailableCredit 0 is charged only when it fires; the pieces of one account's waiting
 *   uncharged timed tasks together stay within `config.deferredTimedMax` (DEFERRED_TIMED_MAX).
 *   Counted in the database inside the accepting transaction, after the account's submit lock, so
 *   concurrent accepts (any process) see each other.
 */
import { sql, type Transaction } from 'kysely';
import type { AppContext } from '../../context';
import type { Account, Database } from '../../db/types';
import { ApiError, errors } from '../../http/errors';
import { TEST_MSG } from '../clients';
import { AccountStatus, ChargeState, OauthStatus, TaskStatus } from '../../../common/generated/schemas';
import sendForm from '../../../schemas/forms/send.json';

const X = sendForm['x-messages'];

export const GATE_MSG = {
  accountDisabled: '账户状态异常，无法发送',
  notCertified: X.notCertified,
  deferredCap: X.deferredCap,
} as const;

/** Refuses (code 500 + msg, as the other send refusals) an account that may not send. */
export function assertMaySend(a: Pick<Account, 'status' | 'oauth_status'>): void {
  if (a.status !== AccountStatus.Active) throw errors.refused(GATE_MSG.accountDisabled);
  if (a.oauth_status !== OauthStatus.Certified) throw errors.refused(GATE_MSG.notCertified);
}

/**
 * Refuses (code 500 + msg, as `assertMaySend`) an account that may not use the customer
 * interfaces: one that may not send, or a test account (TEST_MSG.noInterface). Every door calls it:
 * the SMPP bind, the HTTP API's authentication and the one interface acceptance.
 */
export function assertInterfaceAllowed(a: Pick<Account, 'status' | 'oauth_status' | 'test_expires_at'>): void {
  assertMaySend(a);
  if (a.test_expires_at) throw errors.refused(TEST_MSG.noInterface);
}

/** Pieces of the account's waiting, not yet charged timed tasks. */
export async function deferredPieces(trx: Transaction<Database>, accountId: number): Promise<number> {
  const r = await trx
    .selectFrom('sms_tasks')
    .select(sql<string>`coalesce(sum(charge_num_total), 0)::text`.as('n'))
    .where('account_id', '=', accountId)
    .where('status', '=', TaskStatus.Waiting)
    .where('charge_state', '=', ChargeState.Deferred)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Refuses (403, as a timed send's credit refusal) an uncharged timed task that would pass the account's bound. */
export async function assertDeferredRoom(
  ctx: Pick<AppContext, 'config'>,
  trx: Transaction<Database>,
  accountId: number,
  pieces: number,
): Promise<void> {
  if ((await deferredPieces(trx, accountId)) + pieces > ctx.config.deferredTimedMax)
    throw new ApiError(403, GATE_MSG.deferredCap);
}

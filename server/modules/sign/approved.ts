/**
 * The approved signs of an account: every send path (console ordinary, variable, international,
 * timed; the interfaces SMPP and HTTP API) sends only with a sign the sending account has had
 * approved (签名报备 state 审核通过). One check, used by all of them.
 */
import type { Db } from '../../db';
import { errors } from '../../http/errors';
import { SignState } from '../../../common/generated/schemas';
import sendForm from '../../../schemas/forms/send.json';

/** the refusal of a sign the account may not use (forms/send.json x-messages; the HTTP API's SIGN_NOT_APPROVED says the same) */
export const SIGN_NOT_APPROVED = sendForm['x-messages'].signRefused;

/** the approved signs of the account among `signs` */
export async function approvedSigns(db: Db, accountId: number, signs: string[]): Promise<Set<string>> {
  if (!signs.length) return new Set();
  const rows = await db
    .selectFrom('signs')
    .select('sign')
    .where('account_id', '=', accountId)
    .where('state', '=', SignState.Approved)
    .where('sign', 'in', signs)
    .execute();
  return new Set(rows.map((r) => r.sign));
}

/** A console send's sign: refused (422, 签名未报备或未审核通过) unless it is one of the account's approved signs. */
export async function assertApprovedSign(db: Db, accountId: number, sign: string): Promise<void> {
  if (!(await approvedSigns(db, accountId, [sign])).has(sign)) throw errors.refused(SIGN_NOT_APPROVED);
}

/**
 * Storing a new password, the one way every path does it (password recovery, the operator's
 * reset-password): the new hash, failed logins cleared, a status-7 lock lifted, and every
 * session and remember-me token of the account ended.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/types';
import { AccountStatus } from '../../../common/generated/schemas';
import { endLogins } from '../../http/session';

/** Sets the password hash of `where` (an account id or clientid); the id, or undefined when there is no such account. */
export async function storePassword(
  tx: Transaction<Database> | Kysely<Database>,
  where: { id: number } | { clientid: string },
  hash: string,
  now: Date,
): Promise<number | undefined> {
  let q = tx.updateTable('accounts').set((eb) => ({
    password_hash: hash,
    failed_logins: 0,
    locked_until: null,
    status: eb.case().when('status', '=', AccountStatus.Locked).then(AccountStatus.Active).else(eb.ref('status')).end(),
    update_time: now,
  }));
  q = 'id' in where ? q.where('id', '=', where.id) : q.where('clientid', '=', where.clientid);
  const r = await q.returning('id').executeTakeFirst();
  if (r) await endLogins(tx, r.id, now);
  return r?.id;
}

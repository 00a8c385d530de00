/**
 * Every send path refuses a sign not approved for the sending account (签名未报备或未审核通过,
 * server/modules/sign/approved.ts). The demo data approves signs for client1 and client0 only; the
 * benchmarks that send as agent0 give it the sign they use, approved, as an operator would.
 */
import type { Db } from '../../server/db';
import { SignState } from '../../common/generated/schemas';

export async function approveSign(db: Db, clientid: string, sign: string): Promise<void> {
  const account = await db
    .selectFrom('accounts')
    .select(['id', 'clientid'])
    .where('clientid', '=', clientid)
    .executeTakeFirstOrThrow();
  const have = await db
    .selectFrom('signs')
    .select('id')
    .where('account_id', '=', account.id)
    .where('sign', '=', sign)
    .where('state', '=', SignState.Approved)
    .executeTakeFirst();
  if (have) return;
  const now = new Date();
  await db
    .insertInto('signs')
    .values({
      account_id: account.id,
      clientid: account.clientid,
      sign,
      remarks: 'benchmark',
      state: SignState.Approved,
      cause: '',
      creator_id: account.id,
      creator_name: account.clientid,
      create_time: now,
      update_time: now,
    })
    .execute();
}

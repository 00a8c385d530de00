/**
 * Billing of sends: the charge at acceptance and the return of refundable pieces / money.
 *
 * Contract with the dispatch side (server/modules/dispatch): whenever messages of a task reach a
 * refundable final state (docs/api-send.md "Billing rule"), the same transaction adds their cost to
 * sms_tasks.refundable_cost / refundable_pieces and then calls settleRefunds for those tasks, which
 * writes what is still owed back (ledger rows for money, pool_movements for pieces) and raises
 * refunded_amount / refunded_pieces. Idempotent: calling it again writes nothing new.
 */
import type { Transaction } from 'kysely';
import type { AppContext } from '../../context';
import type { Database } from '../../db/types';

export async function settleRefunds(trx: Transaction<Database>, ctx: Pick<AppContext, 'now'>, taskIds: readonly number[]): Promise<void> {
  // implemented with the send acceptance (charge) work
  void trx;
  void ctx;
  void taskIds;
}

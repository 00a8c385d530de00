/**
 * Uplinks (MO) to the customer over SMPP (docs/api-smpp.md "Uplink"). `enqueueSmppMo` runs in the
 * transaction that stores uplinks (the dispatch pipeline's mo hook) and writes one smpp_mo row per
 * uplink of an account that takes its uplinks over SMPP: needmo 1 (wants them) and needreport 2
 * (an SMPP pass-through account). The listener's pump (server.ts) leases and sends them as
 * deliver_sm (esm_class 0) like receipts; a row is deleted when the customer answers 0.
 */
import type { Transaction } from 'kysely';
import type { Database } from '../../db/types';
import { NeedMo, NeedReport } from '../../../common/generated/schemas';

/** kept this long when no receiver binds (then dropped), as receipts */
export const MO_KEEP_MS = 72 * 3600_000;

export interface SmppMoInput {
  id: number;
  account_id: number;
  phone: string;
  content: string;
  dest: string;
  received_at: Date | string;
}

/** Queues the uplinks of the accounts that take them over SMPP; returns how many. */
export async function enqueueSmppMo(trx: Transaction<Database>, rows: SmppMoInput[], now: Date): Promise<number> {
  if (!rows.length) return 0;
  const accounts = [...new Set(rows.map((r) => r.account_id))];
  const wanted = await trx
    .selectFrom('accounts')
    .select('id')
    .where('id', 'in', accounts)
    .where('needmo', '=', NeedMo.Push)
    .where('needreport', '=', NeedReport.PassThrough)
    .execute();
  if (!wanted.length) return 0;
  const ids = new Set(wanted.map((a) => a.id));
  const mine = rows.filter((r) => ids.has(r.account_id)).sort((a, b) => a.id - b.id);
  const r = await trx
    .insertInto('smpp_mo')
    .values(
      mine.map((m) => ({
        account_id: m.account_id,
        mo_id: m.id,
        phone: m.phone,
        dest: m.dest,
        content: m.content,
        received_at: new Date(m.received_at),
        created_at: now,
      })),
    )
    .onConflict((oc) => oc.column('mo_id').doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0);
}

/**
 * Uplink (MO) storage and routing (docs/api-dispatch.md "Uplink routing"):
 * 1. the destination is our source prefix + an account's id (the dispatcher sends every message
 *    from prefix + its account's id), followed by an extension when that account has needextend 1
 *    (its sends go from prefix + id + the task's extension) → that account; when several accounts
 *    fit (account 12 + extension 3, account 123), the one that last sent to the phone among them;
 * 2. otherwise the account that most recently sent to the phone, among the latest
 *    `RECENT_WINDOW` messages (a bounded look-up: the messages table has no phone index);
 * 3. otherwise the uplink is unroutable: logged and acknowledged, not stored.
 * Rows are deduplicated on the SMSC's reference (a redelivered uplink is stored once): the
 * reference is first written to `sms_mo_refs` (migration 0055: sms_mo is partitioned by month of
 * received_at, so a unique index on smsc_ref alone cannot be had there), and only the uplinks whose
 * reference is new there are stored. `received_at` is kept within the months that always have a
 * partition (retention/partitions.ts: MO_BEHIND months before the database's, AHEAD after): an
 * uplink stamped further off the database's clock is stored at their edge rather than refused.
 * An unsubscribe reply (TD / T / 退订, schemas/enums/blacklist-source.json) puts its number on the
 * blacklist of the account it belongs to, in the same transaction (docs/api-blacklist.md).
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/types';
import type { MoMessage } from '../smsc';
import { blacklistUnsubscribes } from '../blacklist';
import { AHEAD, MO_BEHIND } from '../retention';

export const RECENT_WINDOW = 200_000;

export interface StoredMo {
  id: number;
  account_id: number;
  phone: string;
  content: string;
  dest: string;
  smsc_ref: string | null;
  received_at: Date;
}

/** +8613800138000 / 8613800138000 → 13800138000; other numbers unchanged (digits only) */
export function normalizePhone(p: string): string {
  const d = p.replace(/[^0-9]/g, '');
  if (d.length === 13 && d.startsWith('86')) return d.slice(2);
  if (d.length === 15 && d.startsWith('0086')) return d.slice(4);
  return d;
}

/**
 * The accounts a destination may name: prefix + an account's id, followed by an extension only
 * when that account has needextend 1 (its sends go from prefix + id + the extension the customer
 * gave). Several readings (account 12 with extension 3, account 123) are all returned.
 */
async function extensionCandidates(
  db: Kysely<Database> | Transaction<Database>,
  sourcePrefix: string,
  to: string,
): Promise<{ id: number; ext: string }[]> {
  if (!sourcePrefix || !to.startsWith(sourcePrefix)) return [];
  const rest = to.slice(sourcePrefix.length);
  const readings: { id: number; ext: string }[] = [];
  for (let k = 1; k <= Math.min(rest.length, 9); k++) {
    if (rest[0] === '0') break;
    readings.push({ id: Number(rest.slice(0, k)), ext: rest.slice(k) });
  }
  if (!readings.length) return [];
  const accounts = await db
    .selectFrom('accounts')
    .select(['id', 'needextend'])
    .where(
      'id',
      'in',
      readings.map((r) => r.id),
    )
    .execute();
  const extend = new Map(accounts.map((a) => [a.id, a.needextend === 1]));
  return readings.filter((r) => extend.has(r.id) && (r.ext === '' || extend.get(r.id)));
}

/** The account an uplink belongs to, or null (rules above). */
export async function routeMo(
  db: Kysely<Database> | Transaction<Database>,
  sourcePrefix: string,
  mo: Pick<MoMessage, 'from' | 'to'>,
): Promise<number | null> {
  const to = mo.to.replace(/[^0-9]/g, '');
  const candidates = await extensionCandidates(db, sourcePrefix, to);
  const phone = normalizePhone(mo.from);
  if (candidates.length === 1) return candidates[0].id;
  const recent = async (ids: number[] | null) => {
    if (!phone) return null;
    const r = await sql<{ account_id: number }>`
      select account_id from sms_messages
      where id > (select coalesce(max(id), 0) - ${RECENT_WINDOW} from sms_messages) and phone = ${phone}
      ${ids ? sql`and account_id = any(${ids}::int[])` : sql``}
      order by id desc limit 1`.execute(db);
    return r.rows[0]?.account_id ?? null;
  };
  if (candidates.length > 1) {
    // ambiguous: the candidate that last sent to the phone, else the reading without an extension, else the longest id
    return (
      (await recent(candidates.map((c) => c.id))) ??
      candidates.find((c) => c.ext === '')?.id ??
      candidates[candidates.length - 1].id
    );
  }
  return recent(null);
}

/**
 * Stores a batch of uplinks in one transaction; `onStored` (uplink pushes) runs in it with the new
 * rows. Returns the stored rows (duplicates and unroutable ones left out).
 */
export async function storeMo(
  db: Kysely<Database>,
  sourcePrefix: string,
  batch: MoMessage[],
  onStored?: (trx: Transaction<Database>, rows: StoredMo[]) => Promise<void>,
  log?: (msg: string) => void,
): Promise<StoredMo[]> {
  if (!batch.length) return [];
  return db.transaction().execute(async (trx) => {
    const rows: {
      account_id: number;
      phone: string;
      content: string;
      dest: string;
      smsc_ref: string;
      received_at: string;
    }[] = [];
    for (const mo of batch) {
      const accountId = await routeMo(trx, sourcePrefix, mo);
      if (accountId === null) {
        log?.(`uplink from ${mo.from} to ${mo.to} (ref ${mo.smscRef}) matches no account: dropped`);
        continue;
      }
      rows.push({
        account_id: accountId,
        phone: normalizePhone(mo.from).slice(0, 32),
        content: mo.text.slice(0, 2000),
        dest: mo.to.slice(0, 32),
        smsc_ref: mo.smscRef.slice(0, 128),
        received_at: mo.receivedAt.toISOString(),
      });
    }
    if (!rows.length) return [];
    // a reference twice in the batch: its first uplink
    const firsts = new Map<string, (typeof rows)[number]>();
    for (const x of rows) if (!firsts.has(x.smsc_ref)) firsts.set(x.smsc_ref, x);
    const refs = [...firsts.values()];
    const fresh = await sql<{ smsc_ref: string }>`
      insert into sms_mo_refs (smsc_ref, received_at)
      select * from unnest(${refs.map((x) => x.smsc_ref)}::text[], ${refs.map((x) => x.received_at)}::timestamptz[])
      on conflict (smsc_ref) do nothing
      returning smsc_ref`.execute(trx);
    const isNew = new Set(fresh.rows.map((x) => x.smsc_ref));
    const store = refs.filter((x) => isNew.has(x.smsc_ref));
    if (!store.length) return [];
    // the Beijing month of the database's clock, its start as a local time
    const month = sql`date_trunc('month', (now() at time zone 'UTC') + interval '8 hours')`;
    const r = await sql<StoredMo>`
      insert into sms_mo (account_id, phone, content, dest, smsc_ref, received_at)
      select a, p, c, d, s, least(greatest(t,
          (${month} - ${sql.lit(`${MO_BEHIND} months`)}::interval - interval '8 hours') at time zone 'UTC'),
          (${month} + ${sql.lit(`${AHEAD + 1} months`)}::interval - interval '8 hours' - interval '1 microsecond') at time zone 'UTC')
      from unnest(${store.map((x) => x.account_id)}::int[], ${store.map((x) => x.phone)}::text[], ${store.map((x) => x.content)}::text[],
        ${store.map((x) => x.dest)}::text[], ${store.map((x) => x.smsc_ref)}::text[], ${store.map((x) => x.received_at)}::timestamptz[])
        as u(a, p, c, d, s, t)
      returning id, account_id, phone, content, dest, smsc_ref, received_at`.execute(trx);
    if (r.rows.length) await blacklistUnsubscribes(trx, r.rows);
    if (r.rows.length && onStored) await onStored(trx, r.rows);
    return r.rows;
  });
}

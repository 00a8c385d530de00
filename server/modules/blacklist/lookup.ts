/**
 * The acceptance's blacklist look-up (docs/api-blacklist.md "Marketing sends"): which of a send's
 * numbers are on the sending account's or the platform's blacklist. Set-based: the numbers go to
 * PostgreSQL as one array per batch of LOOKUP_BATCH and are joined with the blacklist's
 * (account_id, phone) index, never a query per number; when neither list holds a row (the usual
 * case) one indexed probe answers and nothing is joined.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/types';
import { SmsType } from '../../../common/generated/schemas';

type Db = Kysely<Database> | Transaction<Database>;

/** numbers per look-up statement (a 1,000,000-number send: 10 statements) */
export const LOOKUP_BATCH = 100_000;

/** Whether a send of this SMS type honours the blacklist: marketing only (notifications and codes are always sent). */
export const honoursBlacklist = (smstype: number) => smstype === SmsType.Marketing;

/** lists (account + platform) up to this many rows are read whole and matched in memory */
export const READ_WHOLE_MAX = 200_000;

/**
 * The numbers of `phones` on the account's or the platform's blacklist. Neither list has a row (the
 * usual case): one indexed probe. Lists together up to READ_WHOLE_MAX rows, or a send smaller than
 * them: the lists are read (or the send's numbers joined) once and matched with a Set. Larger lists
 * and sends: the send's numbers joined with the lists' index, LOOKUP_BATCH numbers per statement.
 */
export async function blacklistedOf(db: Db, accountId: number, phones: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  if (!phones.length) return out;
  // rows of both lists, counted up to READ_WHOLE_MAX + 1 (index-only, bounded)
  const r0 = await sql<{ n: string | number }>`
    select count(*) as n from (
      (select 1 from blacklist where account_id = ${accountId} limit ${READ_WHOLE_MAX + 1})
      union all (select 1 from blacklist where account_id is null limit ${READ_WHOLE_MAX + 1})) x`.execute(db);
  const rows = Number(r0.rows[0]?.n ?? 0);
  if (rows === 0) return out;
  if (rows <= READ_WHOLE_MAX && rows <= phones.length) {
    const listed = await sql<{ phone: string }>`
      select phone from blacklist where account_id = ${accountId} union all select phone from blacklist where account_id is null`.execute(
      db,
    );
    const set = new Set(listed.rows.map((r) => r.phone));
    for (const p of phones) if (set.has(p)) out.add(p);
    return out;
  }
  for (let i = 0; i < phones.length; i += LOOKUP_BATCH) {
    const part = phones.slice(i, i + LOOKUP_BATCH);
    const r = await sql<{ phone: string }>`
      select u.phone from unnest(${part}::text[]) as u(phone)
      where exists (select 1 from blacklist b where b.account_id = ${accountId} and b.phone = u.phone)
         or exists (select 1 from blacklist b where b.account_id is null and b.phone = u.phone)`.execute(db);
    for (const row of r.rows) out.add(row.phone);
  }
  return out;
}

/**
 * The indexes of `phones` to keep (null when every number is kept): the send's parallel arrays
 * (carriers, pieces, texts) are narrowed with `keepOf`.
 */
export function keptIndexes(phones: readonly string[], blocked: Set<string>): Uint32Array | null {
  if (!blocked.size) return null;
  const keep = new Uint32Array(phones.length - countIn(phones, blocked));
  let k = 0;
  for (let i = 0; i < phones.length; i++) if (!blocked.has(phones[i])) keep[k++] = i;
  return keep;
}

function countIn(phones: readonly string[], blocked: Set<string>): number {
  let n = 0;
  for (const p of phones) if (blocked.has(p)) n++;
  return n;
}

/** An array (or typed array) narrowed to the kept indexes. */
export function keepOf<T>(values: readonly T[], keep: Uint32Array): T[];
export function keepOf(values: Uint8Array, keep: Uint32Array): Uint8Array;
export function keepOf(values: Uint16Array, keep: Uint32Array): Uint16Array;
export function keepOf(values: readonly unknown[] | Uint8Array | Uint16Array, keep: Uint32Array): unknown {
  if (values instanceof Uint8Array || values instanceof Uint16Array) {
    const out = new (values.constructor as Uint8ArrayConstructor | Uint16ArrayConstructor)(keep.length);
    for (let i = 0; i < keep.length; i++) out[i] = values[keep[i]];
    return out;
  }
  const out = new Array<unknown>(keep.length);
  for (let i = 0; i < keep.length; i++) out[i] = values[keep[i]];
  return out;
}

/** A number check of a send (common/sms/numbers) without its blacklisted numbers. */
export function withoutBlocked<
  C extends { unique: string[]; uniqueCarriers: Uint8Array; carriers: Record<1 | 2 | 3, number> },
>(check: C, blocked: Set<string>): { check: C; blacklistNum: number } {
  const keep = keptIndexes(check.unique, blocked);
  if (!keep) return { check, blacklistNum: 0 };
  const unique = keepOf(check.unique, keep);
  const uniqueCarriers = keepOf(check.uniqueCarriers, keep);
  const carriers = { 1: 0, 2: 0, 3: 0 } as Record<1 | 2 | 3, number>;
  for (const c of uniqueCarriers) if (c === 1 || c === 2 || c === 3) carriers[c]++;
  return { check: { ...check, unique, uniqueCarriers, carriers }, blacklistNum: check.unique.length - unique.length };
}

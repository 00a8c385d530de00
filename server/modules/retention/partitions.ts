/**
 * The monthly partitions of sms_messages (migration 0052; docs/api-records.md "Partitions"):
 * created ahead, and dropped once past RECORDS_KEEP_MONTHS.
 *
 * A message's id is its month's base (months since January 2020 in Beijing time, times 2^40) plus a
 * number of the sequence, written by the database's default with the database's clock; so the
 * months here are the database's too. `ensureAhead` creates this month's partition and the next
 * AHEAD ones when missing (never at insert time: an insert without its partition fails).
 * `dropExpired` removes a partition once every month it holds is more than `keepMonths` months
 * before this one. On PostgreSQL: `DETACH PARTITION ... CONCURRENTLY` (a lock that lets reads and
 * writes of sms_messages go on, then a wait for the statements that began before it, at most
 * DETACH_WAIT), then DROP of the table no statement reads any more; a detach left pending (its wait
 * ran out, or the process died) is finished by the next turn (`... FINALIZE`). On PGlite (one
 * connection: nothing runs beside it): DETACH then DROP in one transaction. The
 * rows leave without a DELETE, so the report figures (kept by statement triggers on DELETE) and the
 * ledger stay as they are. One process at a time (a per-schema advisory lock, tried without waiting).
 * On PostgreSQL each expired partition is also claimed, from its archive to its drop, by a session
 * advisory lock on one connection: several API processes purging at once archive a month once, and
 * a process that dies lets the claim go with its connection.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { driverOf } from '../../db/driver';

/** 2^40: the ids of one month */
export const MONTH_SPAN = 2 ** 40;
/** months of partitions created ahead of this one */
export const AHEAD = 2;
/** the longest a partition's CREATE (and a DETACH on PGlite) waits for its lock */
export const LOCK_TIMEOUT = '100ms';
/**
 * the longest a DETACH ... CONCURRENTLY waits for the statements begun before it (they are not
 * held up meanwhile: the lists and the dispatcher go on); past it, the detach is left pending
 */
export const DETACH_WAIT = '30s';

/** the month index of an instant: months since January 2020, Beijing time */
export function monthIndex(t: Date): number {
  const b = new Date(t.getTime() + 8 * 3600_000);
  return (b.getUTCFullYear() - 2020) * 12 + b.getUTCMonth();
}

/** the first instant of a month index (00:00 of its first day, Beijing time) */
export const monthStart = (month: number) =>
  new Date(Date.UTC(2020 + Math.floor(month / 12), month % 12, 1) - 8 * 3600_000);

/** the first instant whose send records are kept: the start of the month `keepMonths` before `now`'s */
export const keptSince = (now: Date, keepMonths: number) => monthStart(monthIndex(now) - keepMonths);

/** sms_messages_202612 for a month index */
export const partitionName = (month: number) =>
  `sms_messages_${2020 + Math.floor(month / 12)}${String((month % 12) + 1).padStart(2, '0')}`;

export interface Partition {
  name: string;
  /** the first id it holds (null: from the lowest) */
  from: number | null;
  /** the first id it does not hold */
  to: number;
}

export async function partitions(db: Kysely<Database>): Promise<Partition[]> {
  const r = await sql<{ name: string; bound: string }>`
    select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'sms_messages'::regclass order by c.relname`.execute(db);
  return r.rows.map((p) => {
    const m = /FROM \((?:'?(-?\d+)'?|MINVALUE)\) TO \('?(-?\d+)'?\)/i.exec(p.bound);
    if (!m) throw new Error(`sms_messages partition ${p.name}: unexpected bound ${p.bound}`);
    return { name: p.name, from: m[1] === undefined ? null : Number(m[1]), to: Number(m[2]) };
  });
}

/** the database's month (the ids' default reads its clock) */
async function dbMonth(db: Kysely<Database>): Promise<number> {
  const r = await sql<{ now: Date | string }>`select now() as now`.execute(db);
  return monthIndex(new Date(r.rows[0].now));
}

/** whether this process holds the maintenance turn (inside `trx`'s transaction) */
async function turn(trx: Kysely<Database>): Promise<boolean> {
  const r = await sql<{
    ok: boolean;
  }>`select pg_try_advisory_xact_lock(hashtext('sms-partitions:' || current_schema())) as ok`.execute(trx);
  return !!r.rows[0]?.ok;
}

/**
 * The daily report figures' INSERT trigger (migration 0018), on a month's partition too: the accept
 * and the dispatcher COPY a month's rows into its partition (send/messages.ts), because PostgreSQL
 * COPYs into a partitioned table with such a trigger (a transition table) one row at a time (36 %
 * more time); a statement on the partition fires its own statement triggers, not the parent's.
 */
export const reportInsertTrigger = (name: string) =>
  sql`create or replace trigger sms_messages_report_ins after insert on ${sql.ref(name)}
    referencing new table as report_new for each statement execute function report_daily_ins()`;

/** Creates the missing partitions of this month and the next AHEAD; their names. */
export async function ensureAhead(db: Kysely<Database>): Promise<string[]> {
  const month = await dbMonth(db);
  const have = await partitions(db);
  const made: string[] = [];
  for (let m = month; m <= month + AHEAD; m++) {
    const from = m * MONTH_SPAN;
    if (have.some((p) => (p.from ?? -Infinity) <= from && from < p.to)) continue;
    const done = await db.transaction().execute(async (trx) => {
      if (!(await turn(trx))) return false;
      await sql`set local lock_timeout = ${sql.lit(LOCK_TIMEOUT)}`.execute(trx);
      await sql`create table if not exists ${sql.ref(partitionName(m))} partition of sms_messages
        for values from (${sql.lit(from)}) to (${sql.lit(from + MONTH_SPAN)})`.execute(trx);
      await reportInsertTrigger(partitionName(m)).execute(trx);
      return true;
    });
    if (done) made.push(partitionName(m));
  }
  return made;
}

export interface DropOptions {
  /**
   * Called with each partition before it is dropped (archive.ts archivePartition), and with the
   * connection that holds the partition's claim: a partition whose archive fails stays for the next
   * turn, the failure told to `onArchiveError`.
   */
  archive?: (p: Partition, db: Kysely<Database>) => Promise<unknown>;
  onArchiveError?: (p: Partition, err: unknown) => void;
  /** DETACH_WAIT unless said (tests) */
  detachWait?: string;
}

/** whether `name`'s DETACH ... CONCURRENTLY began and did not finish */
async function detachPending(db: Kysely<Database>, name: string): Promise<boolean> {
  const r = await sql<{ pending: boolean }>`
    select inhdetachpending as pending from pg_inherits where inhrelid = to_regclass(${name})`.execute(db);
  return !!r.rows[0]?.pending;
}

/**
 * PostgreSQL: detaches `name` without holding up the statements on sms_messages, then drops it;
 * false when the wait ran out (55P03, 57014: the next turn finishes it).
 */
async function detachConcurrently(conn: Kysely<Database>, name: string, wait: string): Promise<boolean> {
  const table = sql.ref(name);
  await sql`set lock_timeout = ${sql.lit(wait)}`.execute(conn);
  await sql`set statement_timeout = 0`.execute(conn);
  try {
    if (await detachPending(conn, name))
      await sql`alter table sms_messages detach partition ${table} finalize`.execute(conn);
    else await sql`alter table sms_messages detach partition ${table} concurrently`.execute(conn);
    await sql`drop table ${table}`.execute(conn);
    return true;
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code !== '55P03' && code !== '57014') throw err;
    return false;
  } finally {
    await sql`reset lock_timeout`.execute(conn);
    await sql`reset statement_timeout`.execute(conn);
  }
}

/**
 * Runs `fn` while this process holds the claim on partition `name`, with the connection that holds
 * it; undefined, at once, when another process holds it. PGlite: one process opens the database
 * (its data directory's lock), so `fn` runs on the database as it is.
 */
async function claimed<T>(db: Kysely<Database>, name: string, fn: (db: Kysely<Database>) => Promise<T>) {
  if ((await driverOf(db)) !== 'pg') return fn(db);
  const key = sql`hashtext('sms-partition:' || current_schema() || '.' || ${name})`;
  return db.connection().execute(async (conn) => {
    const got = await sql<{ ok: boolean }>`select pg_try_advisory_lock(${key}) as ok`.execute(conn);
    if (!got.rows[0]?.ok) return undefined;
    try {
      return await fn(conn);
    } finally {
      await sql`select pg_advisory_unlock(${key})`.execute(conn);
    }
  });
}

/**
 * Drops the partitions whose every month is more than `keepMonths` before `now`'s month (never one
 * that holds this month of the database's clock or a later one); their names. A partition whose
 * lock is not had within LOCK_TIMEOUT is left for the next turn.
 */
export async function dropExpired(
  db: Kysely<Database>,
  keepMonths: number,
  now: Date,
  { archive, onArchiveError, detachWait = DETACH_WAIT }: DropOptions = {},
): Promise<string[]> {
  const oldestKept = monthIndex(now) - keepMonths;
  const current = await dbMonth(db);
  const dropped: string[] = [];
  for (const p of await partitions(db)) {
    if (p.to > oldestKept * MONTH_SPAN || p.to > current * MONTH_SPAN) continue;
    const done = await claimed(db, p.name, async (conn) => {
      // dropped by another process since the list was read
      if (!(await partitions(conn)).some((x) => x.name === p.name)) return false;
      if (archive) {
        try {
          await archive(p, conn);
        } catch (err) {
          onArchiveError?.(p, err);
          return false;
        }
      }
      if ((await driverOf(conn)) === 'pg') return detachConcurrently(conn, p.name, detachWait);
      try {
        return await conn.transaction().execute(async (trx) => {
          if (!(await turn(trx))) return false;
          await sql`set local lock_timeout = ${sql.lit(LOCK_TIMEOUT)}`.execute(trx);
          await sql`alter table sms_messages detach partition ${sql.ref(p.name)}`.execute(trx);
          await sql`drop table ${sql.ref(p.name)}`.execute(trx);
          return true;
        });
      } catch (err) {
        // 55P03 lock_not_available: busy now, the next turn tries again (its archive is kept)
        if ((err as { code?: string }).code !== '55P03') throw err;
        return false;
      }
    });
    if (done) dropped.push(p.name);
  }
  return dropped;
}

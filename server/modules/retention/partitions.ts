/**
 * The monthly partitions of the tables that grow with traffic (docs/api-records.md "Partitions"):
 * created ahead, and dropped once past their keeping time. Each table is described once
 * (`MonthTable`); the functions serve both:
 * - `sms_messages` (migration 0052), by RANGE of id: a message's id is its month's base (months since
 *   January 2020 in Beijing time, times 2^40) plus a number of the sequence, written by the
 *   database's default with the database's clock; dropped past RECORDS_KEEP_MONTHS, optionally
 *   archived first (archive.ts);
 * - `sms_mo` (migration 0055), by RANGE of received_at, one Beijing month each; dropped once the
 *   whole month is before the uplinks' kept window (service.ts uplinksKeptSince), never archived.
 *
 * The months here are the database's clock's. `ensureAhead` creates, for each table, the partitions
 * of this month, of the next AHEAD and of the table's `behind` months before it when missing (never
 * at insert time: an insert without its partition fails). `dropExpired` / `dropExpiredUplinks`
 * remove a partition whose every row is before its table's limit, never the partition of the
 * database's current month or a later one. On PostgreSQL: `DETACH PARTITION ... CONCURRENTLY` (a
 * lock that lets reads and writes of the table go on, then a wait for the statements that began
 * before it, at most DETACH_WAIT), then DROP of the table no statement reads any more; a detach left
 * pending (its wait ran out, or the process died) is finished by the next turn (`... FINALIZE`). On
 * PGlite (one connection: nothing runs beside it): DETACH then DROP in one transaction. The rows
 * leave without a DELETE, so the report figures (kept by statement triggers on DELETE) and the
 * ledger stay as they are. One process at a time (a per-schema advisory lock, tried without
 * waiting). On PostgreSQL each expired partition is also claimed, from its archive to its drop, by a
 * session advisory lock on one connection: several API processes purging at once archive a month
 * once, and a process that dies lets the claim go with its connection.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../db/types';
import { driverOf } from '../../db/driver';
import { codeOf } from '../../lib/error-code';

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

/** 202612 for a month index */
const yyyymm = (month: number) => `${2020 + Math.floor(month / 12)}${String((month % 12) + 1).padStart(2, '0')}`;

/** sms_messages_202612 for a month index */
export const partitionName = (month: number) => `sms_messages_${yyyymm(month)}`;

export interface Partition {
  name: string;
  /** the first key it holds (null: from the lowest): an id of sms_messages, a time of sms_mo in ms */
  from: number | null;
  /** the first key it does not hold */
  to: number;
}

/** A table partitioned by month: what the functions below need to know of it. */
export interface MonthTable {
  parent: 'sms_messages' | 'sms_mo';
  /** the name of a month's partition */
  name(month: number): string;
  /** the key where a month begins, in the unit of Partition's `from` and `to` */
  start(month: number): number;
  /** a key as the SQL literal of a partition bound */
  literal(key: number): RawBuilder<unknown>;
  /** the partitions and their bounds */
  partitions(db: Kysely<Database>): Promise<Partition[]>;
  /** months before the current one whose partitions `ensureAhead` makes when missing */
  behind: number;
  /** what a new month's partition gets besides (the report trigger) */
  made?(name: string): RawBuilder<unknown>;
}

async function boundRows(db: Kysely<Database>, parent: string) {
  return (
    await sql<{ name: string; bound: string }>`
      select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
      from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = ${parent}::regclass order by c.relname`.execute(db)
  ).rows;
}

/** the send records (migration 0052): by id, the month in the id */
export const SMS_MESSAGES: MonthTable = {
  parent: 'sms_messages',
  name: partitionName,
  start: (month) => month * MONTH_SPAN,
  literal: (key) => sql.lit(key),
  async partitions(db) {
    return (await boundRows(db, 'sms_messages')).map((p) => {
      const m = /FROM \((?:'?(-?\d+)'?|MINVALUE)\) TO \('?(-?\d+)'?\)/i.exec(p.bound);
      if (!m) throw new Error(`sms_messages partition ${p.name}: unexpected bound ${p.bound}`);
      return { name: p.name, from: m[1] === undefined ? null : Number(m[1]), to: Number(m[2]) };
    });
  },
  behind: 0,
  made: (name) => reportInsertTrigger(name),
};

/**
 * the months of the uplink list (records/filters.ts uplinkRange, spec 02): never dropped (the
 * kept window is 3 months at least), so made behind this one; an uplink whose time is further
 * off the database's clock is stored at the edge of these months (dispatch/mo.ts storeMo)
 */
export const MO_BEHIND = 3;

/** the uplinks (migration 0055): by received_at, a Beijing month each */
export const SMS_MO: MonthTable = {
  parent: 'sms_mo',
  name: (month) => `sms_mo_${yyyymm(month)}`,
  start: (month) => monthStart(month).getTime(),
  literal: (key) => sql.lit(new Date(key).toISOString()),
  async partitions(db) {
    // each bound read back as a time by the database (its text follows the session's time zone)
    const r = await sql<{ name: string; from: string | null; to: string | null }>`
      select x.name, (extract(epoch from (regexp_match(x.bound, 'FROM \\(''([^'']+)''\\)'))[1]::timestamptz) * 1000)::bigint::text as "from",
        (extract(epoch from (regexp_match(x.bound, 'TO \\(''([^'']+)''\\)'))[1]::timestamptz) * 1000)::bigint::text as "to"
      from (select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
        from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'sms_mo'::regclass) x
      order by x.name`.execute(db);
    return r.rows.map((p) => {
      if (p.to === null) throw new Error(`sms_mo partition ${p.name}: unexpected bound`);
      return { name: p.name, from: p.from === null ? null : Number(p.from), to: Number(p.to) };
    });
  },
  behind: MO_BEHIND,
};

/** the send records' partitions (SMS_MESSAGES) */
export const partitions = (db: Kysely<Database>) => SMS_MESSAGES.partitions(db);

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

/**
 * Creates `month`'s partition of `table` unless one holds its start; whether it made it (false too
 * when another process holds the turn). `have`: its partitions, when just read.
 */
export async function ensureMonth(
  db: Kysely<Database>,
  table: MonthTable,
  month: number,
  have?: Partition[],
): Promise<boolean> {
  const from = table.start(month);
  if ((have ?? (await table.partitions(db))).some((p) => (p.from ?? -Infinity) <= from && from < p.to)) return false;
  return db.transaction().execute(async (trx) => {
    if (!(await turn(trx))) return false;
    await sql`set local lock_timeout = ${sql.lit(LOCK_TIMEOUT)}`.execute(trx);
    const name = table.name(month);
    await sql`create table if not exists ${sql.ref(name)} partition of ${sql.table(table.parent)}
      for values from (${table.literal(from)}) to (${table.literal(table.start(month + 1))})`.execute(trx);
    if (table.made) await table.made(name).execute(trx);
    return true;
  });
}

/** the tables partitioned by month */
export const MONTH_TABLES = [SMS_MESSAGES, SMS_MO];

/**
 * Creates the missing partitions of this month and the next AHEAD, and of each table's `behind`
 * months before this one; their names.
 */
export async function ensureAhead(db: Kysely<Database>): Promise<string[]> {
  const month = await dbMonth(db);
  const made: string[] = [];
  for (const table of MONTH_TABLES) {
    const have = await table.partitions(db);
    for (let m = month - table.behind; m <= month + AHEAD; m++)
      if (await ensureMonth(db, table, m, have)) made.push(table.name(m));
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
 * PostgreSQL: detaches `name` without holding up the statements on `parent`, then drops it; false
 * when the wait ran out (55P03, 57014: the next turn finishes it).
 */
async function detachConcurrently(
  conn: Kysely<Database>,
  parent: string,
  name: string,
  wait: string,
): Promise<boolean> {
  const table = sql.ref(name);
  await sql`set lock_timeout = ${sql.lit(wait)}`.execute(conn);
  await sql`set statement_timeout = 0`.execute(conn);
  try {
    if (await detachPending(conn, name))
      await sql`alter table ${sql.table(parent)} detach partition ${table} finalize`.execute(conn);
    else await sql`alter table ${sql.table(parent)} detach partition ${table} concurrently`.execute(conn);
    await sql`drop table ${table}`.execute(conn);
    return true;
  } catch (err) {
    const code = codeOf(err);
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
 * Drops the send records' partitions whose every month is more than `keepMonths` before `now`'s
 * month (never one that holds this month of the database's clock or a later one); their names. A
 * partition whose lock is not had within LOCK_TIMEOUT is left for the next turn.
 */
export function dropExpired(db: Kysely<Database>, keepMonths: number, now: Date, options: DropOptions = {}) {
  return dropBefore(db, SMS_MESSAGES, SMS_MESSAGES.start(monthIndex(now) - keepMonths), options);
}

/**
 * Drops the uplinks' partitions whose whole month is before `since` (service.ts uplinksKeptSince:
 * the rows from `since` on stay), never the database's current month or a later one; their names.
 */
export function dropExpiredUplinks(db: Kysely<Database>, since: Date, options: DropOptions = {}) {
  return dropBefore(db, SMS_MO, since.getTime(), options);
}

/** Drops `table`'s partitions that hold no key from `limit` on (rules above); their names. */
export async function dropBefore(
  db: Kysely<Database>,
  table: MonthTable,
  limit: number,
  { archive, onArchiveError, detachWait = DETACH_WAIT }: DropOptions = {},
): Promise<string[]> {
  const current = table.start(await dbMonth(db));
  const dropped: string[] = [];
  for (const p of await table.partitions(db)) {
    if (p.to > limit || p.to > current) continue;
    const done = await claimed(db, p.name, async (conn) => {
      // dropped by another process since the list was read
      if (!(await table.partitions(conn)).some((x) => x.name === p.name)) return false;
      if (archive) {
        try {
          await archive(p, conn);
        } catch (err) {
          onArchiveError?.(p, err);
          return false;
        }
      }
      if ((await driverOf(conn)) === 'pg') return detachConcurrently(conn, table.parent, p.name, detachWait);
      try {
        return await conn.transaction().execute(async (trx) => {
          if (!(await turn(trx))) return false;
          await sql`set local lock_timeout = ${sql.lit(LOCK_TIMEOUT)}`.execute(trx);
          await sql`alter table ${sql.table(table.parent)} detach partition ${sql.ref(p.name)}`.execute(trx);
          await sql`drop table ${sql.ref(p.name)}`.execute(trx);
          return true;
        });
      } catch (err) {
        // 55P03 lock_not_available: busy now, the next turn tries again (its archive is kept)
        if (codeOf(err) !== '55P03') throw err;
        return false;
      }
    });
    if (done) dropped.push(p.name);
  }
  return dropped;
}

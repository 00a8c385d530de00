/**
 * Send records in monthly partitions (issue 40, docs/api-records.md "Partitions").
 *
 * `sms_messages` becomes a table partitioned by RANGE (id), one partition per month: a message's id
 * is the month it was written in (Beijing time) times 2^40, plus a number of the table's sequence:
 * `sms_month_base(now()) + nextval(...)`. So every look-up by id (the dispatcher's, the doors', the
 * receipts') reaches one partition as before, the primary key stays (id), and a month's records
 * leave the database by dropping one table (server/modules/retention/partitions.ts), in O(1),
 * without touching the daily report figures (no DELETE, no trigger). A date range becomes a lower
 * bound on id (`sms_id_floor`), so the lists read the months of their range only.
 *
 * The existing table, with every row, index and id unchanged, becomes the partition
 * `sms_messages_legacy` (ids below this month's base; its indexes are attached, not rebuilt). The
 * partitions of this month and the next two are created here; the application creates the next
 * ones ahead (never at insert time). The sequence goes on from the identity's: the doors' part ids
 * (numbers of the same sequence) are never handed out twice.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** 2^40: the numbers of one month (a million years of 10 million messages a day) */
const MONTH_SPAN = 1099511627776;
/** partitions created ahead of this month */
const AHEAD = 2;

/** a month index (months since January 2020) as the partition's name: sms_messages_202612 */
const partitionName = (month: number) =>
  `sms_messages_${2020 + Math.floor(month / 12)}${String((month % 12) + 1).padStart(2, '0')}`;

async function definitions(db: Kysely<unknown>, table: string) {
  const indexes = await sql<{ name: string; def: string; pkey: boolean }>`
    select i.relname as name, pg_get_indexdef(i.oid) as def, x.indisprimary as pkey
    from pg_index x join pg_class i on i.oid = x.indexrelid
    where x.indrelid = ${table}::regclass order by i.relname`.execute(db);
  const triggers = await sql<{ name: string; def: string }>`
    select tgname as name, pg_get_triggerdef(oid) as def from pg_trigger
    where tgrelid = ${table}::regclass and not tgisinternal order by tgname`.execute(db);
  return { indexes: indexes.rows, triggers: triggers.rows };
}

export const smsMessagesPartitions0052: Migration = {
  async up(db) {
    await sql`
      create function sms_month_base(t timestamptz) returns bigint language sql immutable parallel safe as $f$
        select ((extract(year from (t at time zone 'UTC') + interval '8 hours')::bigint - 2020) * 12
          + extract(month from (t at time zone 'UTC') + interval '8 hours')::bigint - 1) * ${sql.lit(MONTH_SPAN)}::bigint
      $f$`.execute(db);
    const seqName = (await sql<{ s: string }>`select pg_get_serial_sequence('sms_messages', 'id') as s`.execute(db))
      .rows[0].s;
    const seq = (
      await sql<{ next: string }>`
        select greatest(case when is_called then last_value + 1 else last_value end,
                        (select coalesce(max(id), 0) + 1 from sms_messages))::text as next
        from ${sql.raw(seqName)}`.execute(db)
    ).rows[0].next;
    const { indexes, triggers } = await definitions(db, 'sms_messages');

    await sql`alter table sms_messages alter column id drop identity`.execute(db);
    await sql`alter table sms_messages rename to sms_messages_legacy`.execute(db);
    for (const i of indexes)
      await sql`alter index ${sql.ref(i.name)} rename to ${sql.ref(`${i.name}_legacy`)}`.execute(db);
    for (const t of triggers) await sql`drop trigger ${sql.ref(t.name)} on sms_messages_legacy`.execute(db);

    await sql`create sequence sms_messages_id_seq as bigint start with ${sql.raw(seq)}`.execute(db);
    await sql`create table sms_messages (like sms_messages_legacy including defaults including constraints) partition by range (id)`.execute(
      db,
    );
    await sql`alter table sms_messages alter column id set default sms_month_base(now()) + nextval('sms_messages_id_seq')`.execute(
      db,
    );
    await sql`alter sequence sms_messages_id_seq owned by sms_messages.id`.execute(db);

    // the month of the migration (the database's clock: the ids' default uses it)
    const month = Number(
      (await sql<{ m: string }>`select (sms_month_base(now()) / ${sql.lit(MONTH_SPAN)}::bigint)::text as m`.execute(db))
        .rows[0].m,
    );
    // the legacy partition ends where this month's begins; above the highest id when rows of months
    // are there already (a database taken down by this migration's `down` and up again)
    const highest = Number(
      (await sql<{ m: string }>`select coalesce(max(id), 0)::text as m from sms_messages_legacy`.execute(db)).rows[0].m,
    );
    const first = Math.max(month, Math.floor(highest / MONTH_SPAN) + 1);
    const legacyEnd = first * MONTH_SPAN;
    await sql`alter table sms_messages attach partition sms_messages_legacy for values from (minvalue) to (${sql.raw(String(legacyEnd))})`.execute(
      db,
    );
    for (let m = first; m <= month + AHEAD; m++)
      await sql`create table ${sql.ref(partitionName(m))} partition of sms_messages
        for values from (${sql.raw(String(m * MONTH_SPAN))}) to (${sql.raw(String((m + 1) * MONTH_SPAN))})`.execute(db);

    // the indexes and triggers of the table, now on the partitioned one (a partition's equal index is attached)
    for (const i of indexes)
      if (i.pkey) await sql`alter table sms_messages add constraint ${sql.ref(i.name)} primary key (id)`.execute(db);
      else await sql.raw(i.def).execute(db);
    for (const t of triggers) await sql.raw(t.def).execute(db);

    // a date range's lower bound on id: the month before the range's start (or before now, when that
    // is earlier), which allows for a message written up to a month after its created_at (a large
    // task's rows are written as the dispatcher reaches them); 0 when that month is before the
    // partitions (the legacy rows' ids are not months)
    await sql`
      create function sms_id_floor(t timestamptz) returns bigint language sql stable parallel safe as $f$
        select case when b < ${sql.lit(String(legacyEnd))}::bigint then 0 else b end
        from (select sms_month_base(least(t, now()) - interval '1 month') as b) x
      $f$`.execute(db);
    // no id is past this month's range: the partitions made ahead are not read
    await sql`
      create function sms_id_ceiling() returns bigint language sql stable parallel safe as $f$
        select sms_month_base(now()) + ${sql.lit(MONTH_SPAN)}::bigint
      $f$`.execute(db);
  },

  async down(db) {
    const { indexes, triggers } = await definitions(db, 'sms_messages');
    await sql`create table sms_messages_flat (like sms_messages including defaults including constraints)`.execute(db);
    await sql`alter table sms_messages_flat alter column id drop default`.execute(db);
    await sql`insert into sms_messages_flat select * from sms_messages`.execute(db);
    const next = (
      await sql<{ next: string }>`
        select greatest(case when is_called then last_value + 1 else last_value end,
                        (select coalesce(max(id), 0) + 1 from sms_messages_flat))::text as next
        from sms_messages_id_seq`.execute(db)
    ).rows[0].next;
    await sql`drop function sms_id_ceiling()`.execute(db);
    await sql`drop function sms_id_floor(timestamptz)`.execute(db);
    await sql`drop table sms_messages cascade`.execute(db);
    await sql`alter table sms_messages_flat rename to sms_messages`.execute(db);
    await sql`alter table sms_messages alter column id add generated by default as identity (start with ${sql.raw(next)})`.execute(
      db,
    );
    for (const i of indexes)
      if (i.pkey) await sql`alter table sms_messages add constraint ${sql.ref(i.name)} primary key (id)`.execute(db);
      else
        await sql.raw(i.def.replace(/^CREATE (UNIQUE )?INDEX (\S+) ON (ONLY )?/, 'CREATE $1INDEX $2 ON ')).execute(db);
    for (const t of triggers) await sql.raw(t.def).execute(db);
    await sql`drop function sms_month_base(timestamptz)`.execute(db);
  },
};

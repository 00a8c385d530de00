/**
 * Uplinks in monthly partitions (issue 40, docs/api-records.md "Partitions").
 *
 * `sms_mo` becomes a table partitioned by RANGE (received_at), one partition per Beijing month
 * (`sms_mo_202612`: from 00:00 of its first day in Beijing), so the uplink list and export, which
 * always read a date range, read the months of that range only, and a month past the kept window
 * leaves by dropping its partition (server/modules/retention/partitions.ts) instead of a DELETE.
 *
 * - The primary key is (id, received_at): a unique index of a partitioned table holds its partition
 *   key. The ids are unchanged and go on from the identity's sequence (`sms_mo_id_seq`, the column's
 *   default). No table has a foreign key to sms_mo (smpp_mo, api_pull and push_outbox keep the id).
 * - A redelivered uplink is recognised by its SMSC reference in `sms_mo_refs` (smsc_ref primary
 *   key, received_at of its first delivery), which replaces the unique index on sms_mo.smsc_ref
 *   (dispatch/mo.ts storeMo) and is purged with the kept window (retention/service.ts).
 * - The partitions cover every existing row's month, the three months before the migration's
 *   (the uplink list's window) and the next two; every row is moved, then the insert trigger of the
 *   API pull (migration 0029) is made again on the new table (the moved rows are not queued twice).
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** months made ahead of the migration's, and behind it (retention/partitions.ts AHEAD, MO_BEHIND) */
const AHEAD = 2;
const BEHIND = 3;

/** a month index (months since January 2020, Beijing time) */
const yyyymm = (month: number) => `${2020 + Math.floor(month / 12)}${String((month % 12) + 1).padStart(2, '0')}`;
/** 00:00 of a month's first day in Beijing */
const monthStart = (month: number) =>
  new Date(Date.UTC(2020 + Math.floor(month / 12), month % 12, 1) - 8 * 3600_000).toISOString();

/** the month index of a time, in SQL */
const monthOf = (t: string) =>
  sql.raw(`((extract(year from (${t} at time zone 'UTC') + interval '8 hours')::int - 2020) * 12
    + extract(month from (${t} at time zone 'UTC') + interval '8 hours')::int - 1)`);

async function triggers(db: Kysely<unknown>, table: string) {
  return (
    await sql<{ def: string }>`
      select pg_get_triggerdef(oid) as def from pg_trigger
      where tgrelid = ${table}::regclass and not tgisinternal order by tgname`.execute(db)
  ).rows.map((t) => t.def);
}

/** the sequence's next id: above every row's */
async function nextId(db: Kysely<unknown>, seq: string, table: string) {
  return (
    await sql<{ next: string }>`
      select greatest(case when is_called then last_value + 1 else last_value end,
                      (select coalesce(max(id), 0) + 1 from ${sql.table(table)}))::text as next
      from ${sql.raw(seq)}`.execute(db)
  ).rows[0].next;
}

export const smsMoPartitions0055: Migration = {
  async up(db) {
    const seq = (await sql<{ s: string }>`select pg_get_serial_sequence('sms_mo', 'id') as s`.execute(db)).rows[0].s;
    const next = await nextId(db, seq, 'sms_mo');
    const defs = await triggers(db, 'sms_mo');

    await sql`create table sms_mo_refs (
      smsc_ref text primary key,
      received_at timestamptz not null
    )`.execute(db);
    await sql`create index sms_mo_refs_received on sms_mo_refs (received_at)`.execute(db);
    await sql`insert into sms_mo_refs (smsc_ref, received_at)
      select smsc_ref, received_at from sms_mo where smsc_ref is not null`.execute(db);

    await sql`alter table sms_mo alter column id drop identity`.execute(db);
    await sql`alter table sms_mo rename to sms_mo_flat`.execute(db);
    // its name is the new table's (a constraint's name is chosen unique in the schema)
    await sql`alter table sms_mo_flat drop constraint if exists sms_mo_account_id_fkey`.execute(db);
    for (const name of ['sms_mo_pkey', 'sms_mo_smsc_ref_key', 'sms_mo_account', 'sms_mo_received'])
      await sql`alter index if exists ${sql.ref(name)} rename to ${sql.ref(`${name}_flat`)}`.execute(db);
    for (const name of (
      await sql<{
        name: string;
      }>`select tgname as name from pg_trigger where tgrelid = 'sms_mo_flat'::regclass and not tgisinternal`.execute(db)
    ).rows)
      await sql`drop trigger ${sql.ref(name.name)} on sms_mo_flat`.execute(db);

    await sql`create sequence sms_mo_id_seq as bigint start with ${sql.raw(next)}`.execute(db);
    await sql`create table sms_mo (
      id bigint not null default nextval('sms_mo_id_seq'),
      account_id integer not null references accounts(id),
      phone text not null,
      content text not null,
      dest text not null default '',
      smsc_ref text,
      received_at timestamptz not null default now(),
      constraint sms_mo_pkey primary key (id, received_at)
    ) partition by range (received_at)`.execute(db);
    await sql`alter sequence sms_mo_id_seq owned by sms_mo.id`.execute(db);

    const span = (
      await sql<{ now: number; lo: number | null; hi: number | null }>`
        select ${monthOf('now()')} as now, min(${monthOf('received_at')}) as lo, max(${monthOf('received_at')}) as hi
        from sms_mo_flat`.execute(db)
    ).rows[0];
    const now = Number(span.now);
    const first = Math.min(now - BEHIND, span.lo === null ? Infinity : Number(span.lo));
    const last = Math.max(now + AHEAD, span.hi === null ? -Infinity : Number(span.hi));
    for (let m = first; m <= last; m++)
      await sql`create table ${sql.ref(`sms_mo_${yyyymm(m)}`)} partition of sms_mo
        for values from (${sql.lit(monthStart(m))}) to (${sql.lit(monthStart(m + 1))})`.execute(db);

    await sql`insert into sms_mo (id, account_id, phone, content, dest, smsc_ref, received_at)
      select id, account_id, phone, content, dest, smsc_ref, received_at from sms_mo_flat`.execute(db);
    await sql`drop table sms_mo_flat`.execute(db);

    await sql`create index sms_mo_account on sms_mo (account_id, received_at desc, id desc)`.execute(db);
    for (const def of defs) await sql.raw(def).execute(db);
  },

  async down(db) {
    const defs = await triggers(db, 'sms_mo');
    const next = await nextId(db, 'sms_mo_id_seq', 'sms_mo');
    await sql`create table sms_mo_flat (
      id bigint not null,
      account_id integer not null,
      phone text not null,
      content text not null,
      dest text not null default '',
      smsc_ref text,
      received_at timestamptz not null default now()
    )`.execute(db);
    // a reference seen again once its first delivery left sms_mo_refs (past the kept window) is
    // stored twice: the one table's unique reference keeps it on the first row only
    await sql`insert into sms_mo_flat (id, account_id, phone, content, dest, smsc_ref, received_at)
      select id, account_id, phone, content, dest,
        case when row_number() over (partition by smsc_ref order by id) = 1 then smsc_ref end, received_at
      from sms_mo`.execute(db);
    await sql`drop table sms_mo`.execute(db);
    await sql`drop table sms_mo_refs`.execute(db);
    await sql`alter table sms_mo_flat rename to sms_mo`.execute(db);
    await sql`alter table sms_mo alter column id add generated always as identity (start with ${sql.raw(next)})`.execute(
      db,
    );
    await sql`alter table sms_mo add constraint sms_mo_pkey primary key (id)`.execute(db);
    await sql`alter table sms_mo add constraint sms_mo_account_id_fkey foreign key (account_id) references accounts(id)`.execute(
      db,
    );
    await sql`alter table sms_mo add constraint sms_mo_smsc_ref_key unique (smsc_ref)`.execute(db);
    await sql`create index sms_mo_account on sms_mo (account_id, received_at desc, id desc)`.execute(db);
    await sql`create index sms_mo_received on sms_mo (received_at, id)`.execute(db);
    for (const def of defs) await sql.raw(def).execute(db);
  },
};

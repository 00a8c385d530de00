/**
 * The daily report figures' INSERT trigger on every month's partition of sms_messages (issue 40,
 * docs/benchmarks.md "Partitioned send records"): PostgreSQL COPYs into a partitioned table whose
 * INSERT trigger has a transition table one row at a time, so the accept and the dispatcher COPY a
 * month's rows into its partition instead (send/messages.ts), and the partition's own statement
 * trigger counts them. The parent keeps its trigger for the statements that insert through it (a
 * statement fires the statement triggers of the table it names only, so nothing is counted twice).
 * The coming months' partitions get it when they are made (retention/partitions.ts ensureAhead).
 */
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';

const months = (db: Parameters<Migration['up']>[0]) =>
  sql<{ name: string }>`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'sms_messages'::regclass and c.relname ~ '^sms_messages_[0-9]{6}$'`.execute(db);

export const partitionReportTriggers0054: Migration = {
  async up(db) {
    for (const { name } of (await months(db)).rows)
      await sql`create or replace trigger sms_messages_report_ins after insert on ${sql.ref(name)}
        referencing new table as report_new for each statement execute function report_daily_ins()`.execute(db);
  },
  async down(db) {
    for (const { name } of (await months(db)).rows)
      await sql`drop trigger if exists sms_messages_report_ins on ${sql.ref(name)}`.execute(db);
  },
};

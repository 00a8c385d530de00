/**
 * Retention (issue 40, docs/api-records.md "Retention"): rows that the console and the customers'
 * interfaces no longer show leave the database.
 *
 * - the uplinks' monthly partitions (`sms_mo`, migration 0055) whose whole month is before the kept
 *   window: the business day MO_KEEP_MONTHS months back (3 at least: the console lists the last
 *   three months, spec 02), dropped as tables (partitions.ts dropExpiredUplinks), never archived; an
 *   uplink inside the window stays, and one before it stays until its month has gone by;
 * - the uplinks' SMSC references (`sms_mo_refs`, the redelivery check of dispatch/mo.ts) first seen
 *   before that window;
 * - the push outbox's rows delivered or given up (`done_at` set) more than PUSH_KEEP_DAYS days ago;
 *   a row still to be pushed is never removed;
 * - the send records' monthly partitions past RECORDS_KEEP_MONTHS (partitions.ts dropExpired),
 *   archived first with RECORDS_ARCHIVE; each purge also creates both tables' coming partitions.
 *
 * The two row tables are purged in batches of BATCH rows, oldest first (migrations 0051's and
 * 0055's indexes), each batch its own short transaction, so no lock is held for long and a crash
 * loses nothing but the batch's work. Every API process runs the purge on its timer; one process at
 * a time does the work (a transaction-level advisory lock per batch, and one per partition turn,
 * tried without waiting: the others skip that turn).
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { AppContext } from '../../context';
import type { Database } from '../../db/types';
import path from 'node:path';
import { dropExpired, dropExpiredUplinks, ensureAhead, type Partition } from './partitions';
import { archivePartition, listArchives } from './archive';
import type { RecordArchive } from '../../../common/generated/schemas';
import { addMonths, startOfBusinessDay } from '../../lib/time';

/** rows per batch: a short statement on every table */
export const BATCH = 5000;
/** advisory lock of the purge (one process at a time; per schema: platforms sharing a database do not wait for each other) */
const LOCK = sql`hashtext('retention-purge:' || current_schema())`;

export interface PurgeCounts {
  /** uplink partitions dropped (sms_mo_202609 …) */
  uplinks: string[];
  /** SMSC references of uplinks forgotten (sms_mo_refs rows) */
  uplinkRefs: number;
  pushes: number;
  /** send-record partitions dropped (sms_messages_202605 …) */
  partitions: string[];
}

/**
 * The oldest uplink kept: the start of the business day `months` calendar months before today, the
 * earliest day the uplink list may still be asked for (records/filters.ts uplinkRange, at 3 months).
 */
export const uplinksKeptSince = (now: Date, months: number) => addMonths(startOfBusinessDay(now), -months);

export class RetentionService {
  constructor(private readonly ctx: AppContext) {}

  /** where the months' archives go: DATA_DIR/archive */
  get archiveDir(): string {
    return path.join(this.ctx.dataDir, 'archive');
  }

  /** The send-record months archived (RECORDS_ARCHIVE), newest first: the operators' 发送记录归档 and `npm run cli -- archives`. */
  archives(): Promise<RecordArchive[]> {
    return listArchives(this.ctx.db);
  }

  /** The partitions of this month and the next ones (send records and uplinks), created when missing (at start and every purge). */
  ensurePartitions(): Promise<string[]> {
    return ensureAhead(this.ctx.db);
  }

  /** One purge of every table; the partitions dropped and how many rows left the others. `maxBatches` bounds a run's work per table. */
  async purge(maxBatches = 100): Promise<PurgeCounts> {
    const now = this.ctx.now();
    await this.ensurePartitions();
    const partitions = await dropExpired(this.ctx.db, this.ctx.config.recordsKeepMonths, now, {
      // RECORDS_ARCHIVE: each month written to DATA_DIR/archive first (archive.ts)
      ...(this.ctx.config.recordsArchive
        ? {
            archive: (p: Partition, db: Kysely<Database>) => archivePartition(db, p, this.archiveDir),
            onArchiveError: (p: Partition, err: unknown) =>
              this.ctx.log.error({ err, partition: p.name }, 'send records: archive failed, the month is kept'),
          }
        : {}),
    });
    const moBefore = uplinksKeptSince(now, Math.max(3, this.ctx.config.moKeepMonths));
    const pushBefore = new Date(now.getTime() - this.ctx.config.pushKeepDays * 86_400_000);
    const uplinks = await dropExpiredUplinks(this.ctx.db, moBefore);
    if (partitions.length || uplinks.length)
      this.ctx.log.info({ partitions, uplinks }, 'retention: monthly partitions dropped');
    return {
      uplinks,
      uplinkRefs: await this.batches(maxBatches, (trx) =>
        sql<{ n: number }>`
          with gone as (
            delete from sms_mo_refs where smsc_ref in (
              select smsc_ref from sms_mo_refs where received_at < ${moBefore} order by received_at limit ${BATCH})
            returning 1)
          select count(*)::int as n from gone`.execute(trx),
      ),
      pushes: await this.batches(maxBatches, (trx) =>
        sql<{ n: number }>`
          with gone as (
            delete from push_outbox where id in (
              select id from push_outbox where done_at is not null and done_at < ${pushBefore} order by done_at, id limit ${BATCH})
            returning 1)
          select count(*)::int as n from gone`.execute(trx),
      ),
      partitions,
    };
  }

  /** Batches of `step` until one removes less than BATCH rows, another process holds the lock, or `max` ran. */
  private async batches(
    max: number,
    step: (trx: Transaction<Database>) => Promise<{ rows: { n: number }[] }>,
  ): Promise<number> {
    let total = 0;
    for (let i = 0; i < max; i++) {
      const n = await this.ctx.db.transaction().execute(async (trx) => {
        const got = await sql<{ ok: boolean }>`select pg_try_advisory_xact_lock(${LOCK}) as ok`.execute(trx);
        if (!got.rows[0]?.ok) return -1;
        return (await step(trx)).rows[0]?.n ?? 0;
      });
      if (n < 0) break;
      total += n;
      if (n < BATCH) break;
    }
    return total;
  }
}

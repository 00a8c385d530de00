/**
 * The pipeline's figures only the database knows, counted with a bound so that a look costs at most
 * a known amount (an index range of COUNT_MAX entries, a few milliseconds) whatever the backlog:
 *
 * - waiting: messages accepted and not yet claimed by a dispatcher: the unclaimed messages of the
 *   queued tasks (dispatch_queue's cursor, the (task_id, state, id) index), the messages to submit
 *   again later (sms_requeue), and the rows of large tasks' chunks not yet written as messages;
 * - unconfirmed: messages submitted whose final receipt has not come (sms_inflight).
 *
 * A figure at its bound means "at least". One look serves every reader for `maxAgeMs` (the scrape
 * of /metrics and the per-minute sample share it).
 */
import { sql } from 'kysely';
import type { Db } from '../../db';
import { SendRecordStatus } from '../../../common/generated/schemas';

/** each count stops there */
export const COUNT_MAX = 100_000;
/** large tasks' chunks looked at (each up to 10,000 numbers) */
const CHUNKS_MAX = 1000;

export interface DbFigures {
  waiting: number;
  unconfirmed: number;
}

export class DbGauges {
  private last: { at: number; figures: Promise<DbFigures> } | null = null;

  constructor(private readonly db: Db) {}

  /** the figures, from a look at most `maxAgeMs` old (a look under way is shared) */
  read(maxAgeMs = 5000): Promise<DbFigures> {
    const now = Date.now();
    if (this.last && now - this.last.at < maxAgeMs) return this.last.figures;
    const figures = this.look();
    this.last = { at: now, figures };
    // a failed look is not kept
    figures.catch(() => {
      if (this.last?.figures === figures) this.last = null;
    });
    return figures;
  }

  private async look(): Promise<DbFigures> {
    const r = await sql<{ queued: number; requeued: number; chunked: number; inflight: number }>`
      select
        (select count(*) from (
          select 1 from dispatch_queue q
          join sms_messages m on m.task_id = q.task_id and m.state = ${sql.lit(SendRecordStatus.NotSent)} and m.id > q.next_id
          where q.queued limit ${sql.lit(COUNT_MAX)}) a)::int as queued,
        (select count(*) from (select 1 from sms_requeue limit ${sql.lit(COUNT_MAX)}) b)::int as requeued,
        (select coalesce(sum(c.rows), 0) from (select rows from sms_task_chunks where not hold limit ${sql.lit(CHUNKS_MAX)}) c)::int as chunked,
        (select count(*) from (select 1 from sms_inflight limit ${sql.lit(COUNT_MAX)}) i)::int as inflight`.execute(
      this.db,
    );
    const row = r.rows[0];
    return { waiting: row.queued + row.requeued + row.chunked, unconfirmed: row.inflight };
  }
}

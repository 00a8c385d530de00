/**
 * `sms_tasks.refundable_pieces_by_carrier`: the pieces of the task's messages in a refundable state
 * (send/billing.ts REFUNDABLE_STATES), per carrier: element carrier + 1 (0 unknown, 1 移动, 2 联通,
 * 3 电信, 4 international). Kept in the transactions that move messages into those states, beside
 * `refundable_pieces` (dispatch/sql.ts, send/review.ts).
 *
 * The return of pieces to a task's pools (settlePieces) needed them per carrier and summed the
 * task's refundable messages for it at every receipt batch with a failure: linear in the task's
 * failures each time (a 1,000,000-message task with 5 % failures re-read up to 50,000 rows per
 * batch). Existing tasks are counted from their messages.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

async function run(db: Kysely<unknown>, statements: string[]) {
  for (const s of statements) await sql.raw(s).execute(db);
}

export const refundableByCarrier0024: Migration = {
  async up(db) {
    await run(db, [
      `alter table sms_tasks add column refundable_pieces_by_carrier integer[] not null default '{0,0,0,0,0}'`,
      `update sms_tasks t set refundable_pieces_by_carrier = array[a.c0, a.c1, a.c2, a.c3, a.c4]
       from (
         select task_id,
           coalesce(sum(pieces) filter (where carrier not in (1, 2, 3, 4)), 0)::int as c0,
           coalesce(sum(pieces) filter (where carrier = 1), 0)::int as c1,
           coalesce(sum(pieces) filter (where carrier = 2), 0)::int as c2,
           coalesce(sum(pieces) filter (where carrier = 3), 0)::int as c3,
           coalesce(sum(pieces) filter (where carrier = 4), 0)::int as c4
         from sms_messages where state in (4, 6, 8, 9, 11, 12, 13, 14) group by task_id
       ) a
       where t.id = a.task_id`,
    ]);
  },
  async down(db) {
    await run(db, ['alter table sms_tasks drop column refundable_pieces_by_carrier']);
  },
};

/**
 * The checks of a run once dispatch has settled (bench/crash.ts, bench/scale-out.ts): every message
 * of the run's tasks in exactly one final state (3, 4, 6, or 1 only when UNCONFIRMED: a message a
 * killed worker had handed to its link without an answer, docs/api-dispatch.md "At most once"),
 * none still leased or queued; the tasks' counters against a recount of their records; the ledger
 * (sum(ledger) = balance for every account) and the pools (sum(pool_movements) = remaining).
 *
 * The run's tasks are those with id ≥ `fromTaskId` (a bench's first task, or the next id after the
 * demo data's): the demo history has records in every state on purpose.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../server/db/types';
import { LedgerService } from '../../server/modules/ledger/service';

type Db = Kysely<Database>;

/** the next task id: the run's tasks are those from it on */
export async function nextTaskId(db: Db): Promise<number> {
  const r = await sql<{ n: number }>`select coalesce(max(id), 0)::int + 1 n from sms_tasks`.execute(db);
  return r.rows[0].n;
}

/** "state[ UNCONFIRMED][ leased]: n, …" of the run's messages */
export async function stateSummary(db: Db, fromTaskId: number): Promise<string> {
  const r = await sql<{ state: number; unconfirmed: boolean; leased: boolean; n: number }>`
    select state, error_code = 'UNCONFIRMED' as unconfirmed, id in (select unnest(message_ids) from dispatch_leases) as leased, count(*)::int n
    from sms_messages where task_id >= ${fromTaskId} group by 1, 2, 3 order by 1, 2, 3`.execute(db);
  return r.rows
    .map((x) => `${x.state}${x.unconfirmed ? ' UNCONFIRMED' : ''}${x.leased ? ' leased' : ''}: ${x.n}`)
    .join(', ');
}

/** messages of the run: all, final (3, 4, 6 or 1 UNCONFIRMED, not leased, not queued), unconfirmed */
export async function messageCounts(
  db: Db,
  fromTaskId: number,
): Promise<{ total: number; final: number; unconfirmed: number }> {
  const r = await sql<{ total: number; final: number; unconfirmed: number }>`
    select count(*)::int total,
      count(*) filter (where (state in (3, 4, 6) or (state = 1 and error_code = 'UNCONFIRMED'))
        and id not in (select unnest(message_ids) from dispatch_leases) and id not in (select message_id from sms_requeue))::int final,
      count(*) filter (where error_code = 'UNCONFIRMED')::int unconfirmed
    from sms_messages where task_id >= ${fromTaskId}`.execute(db);
  return r.rows[0];
}

/** the run's messages whose receipt came back to the database but is not applied yet (a stored receipt of a message in flight) */
export async function receiptsUnapplied(db: Db): Promise<number> {
  const r = await sql<{
    n: number;
  }>`select count(*)::int n from sms_receipts r join sms_inflight i on i.msg_id = r.msg_id`.execute(db);
  return r.rows[0].n;
}

/** the run's messages as the checks need them: id, number, state, unconfirmed */
export async function runMessages(
  db: Db,
  fromTaskId: number,
): Promise<{ id: number; phone: string; state: number; unconfirmed: boolean }[]> {
  const r = await sql<{ id: number; phone: string; state: number; unconfirmed: boolean }>`
    select id, phone, state, coalesce(error_code = 'UNCONFIRMED', false) as unconfirmed from sms_messages where task_id >= ${fromTaskId}`.execute(
    db,
  );
  return r.rows;
}

interface Counters {
  success: number;
  fail: number;
  unknown: number;
  submitted: number;
  pieces: number;
  cost: number;
}

/** every task of the run with its counters and the recount of its records (the same names), and whether both agree */
export async function recountTasks(
  db: Db,
  fromTaskId: number,
): Promise<{ id: number; status: number; finished: boolean; counters: Counters; records: Counters; same: boolean }[]> {
  const r = await sql<{
    id: number;
    status: number;
    finished: boolean;
    success_num: number;
    fail_num: number;
    unknown_num: number;
    submitted_num: number;
    refundable_pieces: number;
    refundable_cost: string;
    success: number;
    fail: number;
    unknown: number;
    submitted: number;
    pieces: number;
    cost: string;
  }>`
    select t.id, t.status, t.finished_at is not null finished, t.success_num, t.fail_num, t.unknown_num, t.submitted_num,
      t.refundable_pieces, t.refundable_cost::text refundable_cost,
      coalesce(m.success, 0)::int success, coalesce(m.fail, 0)::int fail, coalesce(m.unknown, 0)::int unknown,
      coalesce(m.submitted, 0)::int submitted, coalesce(m.pieces, 0)::int pieces, coalesce(m.cost, 0)::text cost
    from sms_tasks t left join (
      select task_id, count(*) filter (where state in (3, 16)) success, count(*) filter (where state in (4, 6, 8, 9, 14)) fail,
        count(*) filter (where state in (1, 15)) unknown, count(*) filter (where state not in (0, 7)) submitted,
        sum(pieces) filter (where state in (4, 6, 8, 9, 11, 12, 13, 14)) pieces,
        sum(pieces * price) filter (where state in (4, 6, 8, 9, 11, 12, 13, 14)) cost
      from sms_messages where task_id >= ${fromTaskId} group by task_id
    ) m on m.task_id = t.id
    where t.id >= ${fromTaskId} order by t.id`.execute(db);
  return r.rows.map((t) => {
    const counters: Counters = {
      success: t.success_num,
      fail: t.fail_num,
      unknown: t.unknown_num,
      submitted: t.submitted_num,
      pieces: t.refundable_pieces,
      cost: Number(t.refundable_cost),
    };
    const records: Counters = {
      success: t.success,
      fail: t.fail,
      unknown: t.unknown,
      submitted: t.submitted,
      pieces: t.pieces,
      cost: Number(t.cost),
    };
    return {
      id: t.id,
      status: t.status,
      finished: t.finished,
      counters,
      records,
      same: JSON.stringify(counters) === JSON.stringify(records),
    };
  });
}

/** sum(ledger) = balance for every account, sum(pool_movements) = remaining for every pool: prints the line, returns the violations */
export async function balanceViolations(db: Db): Promise<string[]> {
  const ledger = await new LedgerService({ db, now: () => new Date() }).violations();
  const pools = await sql<{ id: number; remaining: number; movements: number }>`
    select p.id, p.remaining, coalesce(m.s, 0)::int movements from product_pools p
    left join (select pool_id, sum(pieces) s from pool_movements group by pool_id) m on m.pool_id = p.id
    where p.remaining <> coalesce(m.s, 0)`.execute(db);
  const accounts = await sql<{ n: number }>`select count(*)::int n from accounts`.execute(db);
  const poolCount = await sql<{ n: number }>`select count(*)::int n from product_pools`.execute(db);
  console.log(
    `ledger: ${accounts.rows[0].n} accounts, ${ledger.length} with sum(ledger) ≠ balance; pools: ${poolCount.rows[0].n}, ${pools.rows.length} with sum(movements) ≠ remaining`,
  );
  const out: string[] = [];
  if (ledger.length) out.push(`ledger out of balance: ${ledger.map((l) => l.clientid).join(', ')}`);
  if (pools.rows.length) out.push(`pools out of balance: ${pools.rows.map((p) => p.id).join(', ')}`);
  return out;
}

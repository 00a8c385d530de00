/**
 * Where a benchmark's PostgreSQL time goes, statement by statement: the difference of
 * pg_stat_statements over a window, for the benchmark's own database. Needs the extension loaded
 * (`shared_preload_libraries = 'pg_stat_statements'`); without it the window says so and prints
 * nothing else. Used by the customer benchmarks with BENCH_PG_STATEMENTS=1 (bench/lib/customer-e2e.ts).
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../server/db/types';

interface Row {
  queryid: string;
  calls: number;
  ms: number;
  rows: number;
  query: string;
}

export interface StatementSpent {
  queryid: string;
  calls: number;
  ms: number;
  rows: number;
  query: string;
}

async function snapshot(db: Kysely<Database>): Promise<Map<string, Row>> {
  const r = await sql<Row>`
    select queryid::text as queryid, calls::int as calls, total_exec_time as ms, rows::bigint::int as rows,
      left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 160) as query
    from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())`.execute(db);
  return new Map(r.rows.map((x) => [x.queryid, x]));
}

/**
 * The statements of the database from now on. `stop()` gives them by their execution time over the
 * window, most first (exec time is wall time in the backend: on a busy machine it includes waiting
 * for a core, so read the calls and the shares, not the absolute times).
 */
export async function statementWindow(db: Kysely<Database>): Promise<{ stop(): Promise<StatementSpent[] | null> }> {
  let before: Map<string, Row> | null = null;
  try {
    await sql`create extension if not exists pg_stat_statements`.execute(db);
    before = await snapshot(db);
  } catch {
    before = null;
  }
  return {
    async stop() {
      if (!before) return null;
      const after = await snapshot(db);
      const out: StatementSpent[] = [];
      for (const [id, a] of after) {
        const b = before.get(id);
        const calls = a.calls - (b?.calls ?? 0);
        if (calls <= 0) continue;
        out.push({ queryid: id, calls, ms: a.ms - (b?.ms ?? 0), rows: a.rows - (b?.rows ?? 0), query: a.query });
      }
      return out.sort((x, y) => y.ms - x.ms);
    },
  };
}

/** prints the top `n` statements of a window per message of `count`, with the statements per message */
export function printStatements(label: string, spent: StatementSpent[] | null, count: number, n = 15): void {
  if (!spent) {
    console.log(`  ${label}: pg_stat_statements is not loaded (shared_preload_libraries): no statement breakdown`);
    return;
  }
  const calls = spent.reduce((s, x) => s + x.calls, 0);
  const ms = spent.reduce((s, x) => s + x.ms, 0);
  console.log(
    `  ${label}: ${calls} statements (${(calls / count).toFixed(2)} a message), execution ${((ms * 1000) / count).toFixed(0)} µs a message; the most costly:`,
  );
  for (const x of spent.slice(0, n))
    console.log(
      `    ${((x.ms * 1000) / count).toFixed(1).padStart(6)} µs/msg ${String(x.calls).padStart(6)} calls ${String(x.rows).padStart(7)} rows  ${x.query}`,
    );
}

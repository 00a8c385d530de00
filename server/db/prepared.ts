/**
 * Server-side prepared statements for the SQL a process runs again and again (PostgreSQL only).
 *
 * Kysely sends every query as an unnamed statement, so PostgreSQL parses and plans it on each
 * execution. For the short queries of a list page or a dispatch step that planning is most of the
 * database's work (the send-record page: 0.70 ms a statement unnamed, 0.21 ms prepared; pgbench
 * on the demo data). As pgjdbc does (prepareThreshold), a text with parameters is given a name on
 * its `threshold`-th use in this process; from then on each pooled connection parses it once and
 * PostgreSQL keeps its plan (a generic plan where that costs no more than a custom one: its own
 * plan_cache_mode choice, the same as for any PREPARE).
 *
 * Bounds: at most `max` texts are ever named in a process, so a connection holds at most `max`
 * prepared statements; texts seen fewer times are counted in a map that is emptied when it
 * reaches `USES_MAX`. A named text whose cached plan PostgreSQL refuses after a schema change by
 * another process (SQLSTATE 0A000, "cached plan must not change result type") runs unnamed from
 * then on (that one statement fails, as any statement does during such a change).
 *
 * Behind a pooler in transaction mode without prepared-statement support, set
 * DB_PREPARE_THRESHOLD=0: nothing is named.
 */
import type pg from 'pg';
import { withArrayLiterals } from './array-params';

export interface PrepareOptions {
  /** a text is named on this use (0: never) */
  threshold: number;
  /** at most this many texts named per process (and so prepared per connection) */
  max: number;
}

export const PREPARE_DEFAULTS: PrepareOptions = { threshold: 3, max: 256 };

const count = (v: string | undefined, fallback: number): number => {
  if (v === undefined || v.trim() === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`not a whole number: ${v}`);
  return n;
};

/**
 * DB_PREPARE_THRESHOLD (3; 0: never) and DB_PREPARED_MAX (256): what every PostgreSQL pool of the
 * process (API server, worker, SMPP server, CLI) names. 0 behind a pooler in transaction mode that
 * cannot keep prepared statements.
 */
export function prepareFromEnv(env: NodeJS.ProcessEnv = process.env): PrepareOptions {
  return { threshold: count(env.DB_PREPARE_THRESHOLD, PREPARE_DEFAULTS.threshold), max: count(env.DB_PREPARED_MAX, PREPARE_DEFAULTS.max) };
}

/** how many distinct not-yet-named texts are counted before the counts start over */
const USES_MAX = 4096;

/** SQLSTATE of "cached plan must not change result type" */
const PLAN_CHANGED = '0A000';

export class StatementNames {
  private readonly uses = new Map<string, number>();
  private readonly names = new Map<string, string>();
  /** texts whose prepared plan was refused: never named again */
  private readonly refused = new Set<string>();
  private issued = 0;

  constructor(private readonly opts: PrepareOptions) {}

  /** the name `text` runs under, or undefined: unnamed (counts this use) */
  nameOf(text: string): string | undefined {
    const named = this.names.get(text);
    if (named !== undefined) return named;
    if (this.opts.threshold <= 0 || this.issued >= this.opts.max || this.refused.has(text)) return undefined;
    const n = (this.uses.get(text) ?? 0) + 1;
    if (n < this.opts.threshold) {
      if (this.uses.size >= USES_MAX) this.uses.clear();
      this.uses.set(text, n);
      return undefined;
    }
    this.uses.delete(text);
    // names are never reused: a connection may still hold an earlier one
    const name = `k${++this.issued}`;
    this.names.set(text, name);
    return name;
  }

  /** `text` runs unnamed from now on */
  refuse(text: string): void {
    this.names.delete(text);
    this.refused.add(text);
  }

  get size(): number {
    return this.names.size;
  }
}

type QueryFn = (text: unknown, values?: unknown, cb?: unknown) => unknown;

/**
 * Names the pool's hot statements (see the module comment) and writes their array parameters as
 * literals in one pass (array-params.ts). Only a call as Kysely makes it, `query(text, values)`
 * with at least one value, is named; everything else (transaction control, cursors, callbacks)
 * passes through unchanged.
 */
export function prepareHotStatements(pool: pg.Pool, opts: PrepareOptions = prepareFromEnv()): StatementNames {
  const names = new StatementNames(opts);
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as QueryFn;
    const named: QueryFn = (text, values, cb) => {
      if (typeof text === 'string' && Array.isArray(values) && values.length > 0 && cb === undefined) {
        const hasArray = values.some(Array.isArray);
        if (!hasArray && opts.threshold > 0) {
          const name = names.nameOf(text);
          if (name !== undefined) {
            return (query({ name, text, values }) as Promise<unknown>).catch((e: unknown) => {
              if ((e as { code?: string })?.code === PLAN_CHANGED) names.refuse(text);
              throw e;
            });
          }
        }
        if (hasArray) return query(text, withArrayLiterals(values));
      }
      return query(text, values, cb);
    };
    client.query = named as typeof client.query;
  });
  return names;
}

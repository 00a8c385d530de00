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
 * prepared statements; texts seen fewer times are counted, and those counts are forgotten when
 * `USES_MAX` texts are being counted. A named text whose cached plan PostgreSQL refuses after a
 * schema change by another process (SQLSTATE 0A000, "cached plan must not change result type")
 * runs unnamed from then on (that one statement fails, as any statement does during such a
 * change).
 *
 * Behind a pooler in transaction mode without prepared-statement support, set
 * DB_PREPARE_THRESHOLD=0: nothing is named.
 */
import type pg from 'pg';
import { withArrayLiterals } from './array-params';
import { ENV_DEFAULTS } from '../env';

export interface PrepareOptions {
  /** a text is named on this use (0: never) */
  threshold: number;
  /** at most this many texts named per process (and so prepared per connection) */
  max: number;
}

/**
 * DB_PREPARE_THRESHOLD (3; 0: never) and DB_PREPARED_MAX (256) at their defaults
 * (schemas/config/env.json): what a pool names unless its process passes loadConfig().db.prepare.
 * 0 behind a pooler in transaction mode that cannot keep prepared statements.
 */
export const PREPARE_DEFAULTS: PrepareOptions = {
  threshold: ENV_DEFAULTS.DB_PREPARE_THRESHOLD,
  max: ENV_DEFAULTS.DB_PREPARED_MAX,
};

/** how many distinct not-yet-named texts are counted before the counts start over */
const USES_MAX = 4096;

/** SQLSTATE of "cached plan must not change result type" */
const PLAN_CHANGED = '0A000';

/**
 * A statement's entry: how often it ran unnamed, its name once it has one, or refused.
 */
interface Entry {
  readonly text: string;
  uses: number;
  name?: string;
  refused?: boolean;
}

/**
 * A key for a statement text from its length and up to 64 of its characters. Kysely builds the
 * text anew for every execution, and a Map keyed by the text hashed all of it each time (a 6 KB
 * text: ~20 µs); this key reads 64 characters, and the full text is compared only with the texts
 * of the same key (one comparison on a hit).
 */
function sampleKey(text: string): number {
  const n = text.length;
  const step = n > 64 ? (n / 64) | 0 : 1;
  let h = n | 0;
  for (let i = 0; i < n; i += step) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h;
}

export class StatementNames {
  private readonly entries = new Map<number, Entry[]>();
  /** entries that only count uses (no name, not refused) */
  private counting = 0;
  private named = 0;
  private issued = 0;

  constructor(private readonly opts: PrepareOptions) {}

  private find(text: string, key: number): Entry | undefined {
    const bucket = this.entries.get(key);
    if (bucket) for (const e of bucket) if (e.text === text) return e;
    return undefined;
  }

  private add(text: string, key: number): Entry {
    const e: Entry = { text, uses: 0 };
    const bucket = this.entries.get(key);
    if (bucket) bucket.push(e);
    else this.entries.set(key, [e]);
    return e;
  }

  /** the texts counted but never named are forgotten (their counts start over) */
  private forgetCounts(): void {
    for (const [key, bucket] of this.entries) {
      const kept = bucket.filter((e) => e.name !== undefined || e.refused);
      if (!kept.length) this.entries.delete(key);
      else if (kept.length !== bucket.length) this.entries.set(key, kept);
    }
    this.counting = 0;
  }

  /** the name `text` runs under, or undefined: unnamed (counts this use) */
  nameOf(text: string): string | undefined {
    const key = sampleKey(text);
    let e = this.find(text, key);
    if (e?.name !== undefined) return e.name;
    if (this.opts.threshold <= 0 || this.issued >= this.opts.max || e?.refused) return undefined;
    if (!e) {
      if (this.counting >= USES_MAX) this.forgetCounts();
      e = this.add(text, key);
      this.counting++;
    }
    if (++e.uses < this.opts.threshold) return undefined;
    // names are never reused: a connection may still hold an earlier one
    e.name = `k${++this.issued}`;
    this.counting--;
    this.named++;
    return e.name;
  }

  /** `text` runs unnamed from now on */
  refuse(text: string): void {
    const key = sampleKey(text);
    const found = this.find(text, key);
    const e = found ?? this.add(text, key);
    if (e.name !== undefined) this.named--;
    else if (found && !e.refused) this.counting--;
    e.name = undefined;
    e.refused = true;
  }

  /** how many texts run named */
  get size(): number {
    return this.named;
  }
}

type QueryFn = (text: unknown, values?: unknown, cb?: unknown) => unknown;

/**
 * Names the pool's hot statements (see the module comment) and writes their array parameters as
 * literals in one pass (array-params.ts). Only a call as Kysely makes it, `query(text, values)`
 * with at least one value, is named; everything else (transaction control, cursors, callbacks)
 * passes through unchanged.
 */
export function prepareHotStatements(pool: pg.Pool, opts: PrepareOptions = PREPARE_DEFAULTS): StatementNames {
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

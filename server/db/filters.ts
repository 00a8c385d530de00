/**
 * List filters as data, down to SQL: one builder turns a filter schema's values (already validated
 * by the route: types, enums, formats) into WHERE conditions, driven by annotations on the filter
 * schema's properties (schemas/filters/*.json):
 *
 * - `x-column`: the column the property filters (`"s.create_time"`); a property without one is not
 *   applied here (the service handles it by name, as a small named function beside the schema);
 * - `x-op`: how — `eq` (default), `ne`, `in` (an array, or a comma list `"3,6"`), `contains`
 *   (case-insensitive substring), `prefix`, `gte`, `lte`, `from` / `to` (a range's two ends: with
 *   `format: date` a business day of Asia/Shanghai, the end day included; with `format: date-time`
 *   the instant, the end second included), `range` (a `[from, to]` array of such dates: a date
 *   range property sent as two `x-param` names);
 * - `x-scope: "account"`: the property is an account (`clientid`) that must lie within the caller's
 *   scope (an agent: its sub-accounts and itself); `x-column` is the account-id column. Given a
 *   scope, the builder always limits the rows to it, to the one account when the value is set, and
 *   refuses an account outside it with 403 无权访问;
 * - `x-agent-only`: the filter is an agent's (its sub-account picker); another caller's value is
 *   ignored (a sub-account's rows are its own whatever it sends);
 * - `x-order-error` on a range's `to` property: the refusal when the start lies after the end
 *   (default 开始时间不能晚于结束时间).
 *
 *   const q = whereFrom(db.selectFrom('signs as s'), ctx, 'filters/sign', filter, { scope });
 *
 * Renaming a filter's `x-param` or adding an enum value in schemas/ alone changes console, server
 * validation and SQL (tests/server/label-edit.test.ts).
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import type { JsonSchema } from '../../common/schema';
import { ApiError, errors } from '../http/errors';
import type { SchemaKey } from '../http/contract';
import { businessDayStart } from '../lib/time';
import type { ServerSchemas } from '../schemas';

/** The one LIKE escape: `%`, `_` and `\` match themselves. */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export const DATE_ORDER_MESSAGE = '开始时间不能晚于结束时间';
const DAY_MS = 86_400_000;

export type FilterOp = 'eq' | 'ne' | 'in' | 'contains' | 'prefix' | 'gte' | 'lte' | 'from' | 'to' | 'range';

/** An account the caller reaches (ClientsService.scope). */
export interface ScopeAccount {
  id: number;
  clientid: string;
}

export interface FilterOptions {
  /** the accounts the caller reaches: required when the schema has an `x-scope` property */
  scope?: readonly ScopeAccount[];
  /** properties the caller handles itself (skipped here) */
  skip?: readonly string[];
  /** the caller is an agent: `x-agent-only` filters apply (default: they apply when the scope has more than one account) */
  agent?: boolean;
}

interface Rule {
  name: string;
  column?: string;
  op: FilterOp;
  format?: string;
  scope?: boolean;
  agentOnly?: boolean;
  orderError?: string;
}

const rulesCache = new WeakMap<ServerSchemas, Map<string, Rule[]>>();

/** The filter schema's rules, read once per schema. */
export function filterRules(schemas: ServerSchemas, key: SchemaKey): Rule[] {
  let byKey = rulesCache.get(schemas);
  if (!byKey) rulesCache.set(schemas, (byKey = new Map()));
  const rules = byKey.get(key);
  if (rules) return rules;
  const props: Record<string, JsonSchema> = schemas.registry.get(key).properties ?? {};
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const built: Rule[] = Object.entries(props).map(([name, p]) => {
    const op = (p['x-op'] ?? 'eq') as FilterOp;
    if (!['eq', 'ne', 'in', 'contains', 'prefix', 'gte', 'lte', 'from', 'to', 'range'].includes(op))
      throw new Error(`${key}: ${name} has an unknown x-op ${op}`);
    const scope = p['x-scope'] === 'account';
    if (scope && !p['x-column']) throw new Error(`${key}: ${name} has x-scope without x-column`);
    return {
      name,
      column: text(p['x-column']),
      op,
      format: p.format ?? p.items?.format,
      scope,
      agentOnly: !!p['x-agent-only'],
      orderError: text(p['x-order-error']),
    };
  });
  byKey.set(key, built);
  return built;
}

/** A business day or instant of a date filter as a Date (the route has checked its format). */
function instantOf(v: unknown, format: string | undefined, end: boolean): Date {
  const s = String(v);
  if (format === 'date') {
    const t = businessDayStart(s.slice(0, 10));
    if (!t) throw new ApiError(400, '日期格式不正确');
    return end ? new Date(t.getTime() + DAY_MS) : t;
  }
  const t = new Date(`${s.replace(' ', 'T')}+08:00`);
  if (Number.isNaN(t.getTime())) throw new ApiError(400, '日期格式不正确');
  return end ? new Date(t.getTime() + 1000) : t;
}

const listOf = (v: unknown): unknown[] =>
  Array.isArray(v)
    ? v
    : String(v)
        .split(',')
        .map((x) => (/^-?\d+$/.test(x.trim()) ? Number(x) : x.trim()));

/**
 * The WHERE conditions of a filter's values (empty ones — undefined, '', [] — mean "any"); the
 * scope condition first. Throws 403 for an account outside the scope, 400 for a reversed range.
 */
export function filterConditions(
  schemas: ServerSchemas,
  key: SchemaKey,
  values: object,
  opts: FilterOptions = {},
): Expression<SqlBool>[] {
  const v = values as Record<string, unknown>;
  const out: Expression<SqlBool>[] = [];
  const ranges = new Map<string, { from?: Date; to?: Date; toRule?: Rule }>();
  for (const r of filterRules(schemas, key)) {
    if (opts.skip?.includes(r.name)) continue;
    const ignored = r.agentOnly && !(opts.agent ?? (opts.scope?.length ?? 0) > 1);
    const value = ignored ? undefined : v[r.name];
    const empty = value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
    if (r.scope) {
      if (!opts.scope) throw new Error(`${key}: ${r.name} needs the caller's scope`);
      const col = sql.ref(r.column!);
      if (empty) {
        out.unshift(sql<SqlBool>`${col} in (${sql.join(opts.scope.map((a) => a.id))})`);
      } else {
        const one = opts.scope.find((a) => a.clientid === String(value));
        if (!one) throw errors.forbidden();
        out.unshift(sql<SqlBool>`${col} = ${one.id}`);
      }
      continue;
    }
    if (empty || !r.column) continue;
    const col = sql.ref(r.column);
    switch (r.op) {
      case 'eq':
        out.push(sql<SqlBool>`${col} = ${value}`);
        break;
      case 'ne':
        out.push(sql<SqlBool>`${col} <> ${value}`);
        break;
      case 'in': {
        const list = listOf(value);
        out.push(sql<SqlBool>`${col} in (${sql.join(list)})`);
        break;
      }
      case 'contains':
        out.push(sql<SqlBool>`${col} ilike ${`%${escapeLike(String(value))}%`}`);
        break;
      case 'prefix':
        out.push(sql<SqlBool>`${col} like ${`${escapeLike(String(value))}%`}`);
        break;
      case 'gte':
        out.push(sql<SqlBool>`${col} >= ${value}`);
        break;
      case 'lte':
        out.push(sql<SqlBool>`${col} <= ${value}`);
        break;
      case 'range': {
        const [from, to] = Array.isArray(value) ? value : [];
        const a = from ? instantOf(from, r.format, false) : undefined;
        const b = to ? instantOf(to, r.format, true) : undefined;
        if (a && b && a >= b) throw new ApiError(400, r.orderError ?? DATE_ORDER_MESSAGE);
        if (a) out.push(sql<SqlBool>`${col} >= ${a}`);
        if (b) out.push(sql<SqlBool>`${col} < ${b}`);
        break;
      }
      case 'from':
      case 'to': {
        const at = instantOf(value, r.format, r.op === 'to');
        const range = ranges.get(r.column) ?? {};
        if (r.op === 'from') range.from = at;
        else {
          range.to = at;
          range.toRule = r;
        }
        ranges.set(r.column, range);
        out.push(r.op === 'from' ? sql<SqlBool>`${col} >= ${at}` : sql<SqlBool>`${col} < ${at}`);
        break;
      }
    }
  }
  for (const range of ranges.values()) {
    if (range.from && range.to && range.from >= range.to)
      throw new ApiError(400, range.toRule?.orderError ?? DATE_ORDER_MESSAGE);
  }
  return out;
}

/** `q` with a filter's conditions (see the module comment). */
export function whereFrom<Q extends { where(e: Expression<SqlBool>): Q }>(
  q: Q,
  ctx: { schemas: ServerSchemas },
  key: SchemaKey,
  values: object,
  opts: FilterOptions = {},
): Q {
  const conds = filterConditions(ctx.schemas, key, values, opts);
  return conds.length ? q.where(sql<SqlBool>`${sql.join(conds, sql` and `)}`) : q;
}

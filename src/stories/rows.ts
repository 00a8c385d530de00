/**
 * Story rows from the declarations (issue 37 item 3): a fixture lists only what sets it apart
 * from its kind's defaults, and the `xxx_str` labels the server sends beside a coded field come
 * from that field's enum in the entity's JSON Schema (schemas/entities/), as the server's
 * serializers fill them, instead of being typed again in each row. Stories only.
 *
 *   const subAccount = rowOf<SubAccountRow>(subAccounts.entity)({ client_type: 2, ... });
 *   export const rows = [subAccount({ client_id: 'c7k2mq', status: 1 }), ...];
 */
import { enumLabel, schemas } from '@/schema';

/** an entity's labels: [status_str, status, 'account-status'] for each coded field with a twin `_str` / `Str` (operator_code: operatorCodeStr) */
function labelFields(entity: string): [label: string, field: string, enumName: string][] {
  const props = schemas.get(entity.startsWith('entities/') ? entity : `entities/${entity}`).properties ?? {};
  return Object.entries(props).flatMap(([field, p]) => {
    const ref = p.$ref?.match(/enums\/([^/]+)\.json$/)?.[1];
    if (!ref) return [];
    const camel = field.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
    return [...new Set([`${field}_str`, `${field}Str`, `${camel}Str`])]
      .filter((label) => label in props)
      .map((label) => [label, field, ref] as [string, string, string]);
  });
}

/**
 * `row` with its labels those of its coded fields' enums (a label copied from another row with
 * another code is replaced; a code the enum does not know keeps the label the row gives)
 */
export function labelled<T extends object>(entity: string, row: T): T {
  const r = { ...row } as Record<string, unknown>;
  for (const [label, field, enumName] of labelFields(entity)) {
    const text = enumLabel(enumName, r[field]);
    if (text !== undefined) r[label] = text;
  }
  return r as T;
}

/**
 * A builder of the rows of `entity` (its schema's name, 'send-task', or a data resource's `entity`,
 * 'entities/sub-account'): the default row `base`, then what one fixture changes (what `base` leaves
 * out of the type's required fields, each fixture gives), then the labels they imply.
 *
 *   const task = rowOf<SendTask>('send-task')({ clientId: 'b20001', status: 3, ... });
 */
export const rowOf =
  <T extends object>(entity: string) =>
  <B extends Partial<T>>(base: B) =>
  (
    ...[diff]: Omit<T, keyof B> extends Record<string, never>
      ? [diff?: Partial<T>]
      : [diff: Omit<T, keyof B> & Partial<T>]
  ): T =>
    labelled(entity, { ...base, ...diff } as unknown as T);

/** `rows` numbered 1, 2, … in their `rowNum` (the lists' 序号) */
export const numbered = <T extends { rowNum?: number }>(rows: T[]): T[] =>
  rows.map((r, i) => ({ ...r, rowNum: i + 1 }));

/** the words of a space-separated list, as a tuple type ('id sign state' → ['id', 'sign', 'state']) */
type Words<S extends string> = S extends `${infer H} ${infer R}` ? [H, ...Words<R>] : [S];
/** a row of a table with the columns `K`: each value of its column's type, the last ones left out at will */
type Cells<T, K extends readonly string[]> = { [I in keyof K]?: K[I] extends keyof T ? T[K[I]] : never };

/**
 * The rows of a table of `T`: `columns` names its columns ('id sign state': fields of `T`), each
 * array gives one row's values in that order, each of its field's type, a shorter row leaving out
 * the last columns (a fixture of many rows, one line each; what a row leaves out, the entity's row
 * builder fills in).
 *
 *   table<Sign>()()('id sign state', [105, '苏州好易购', 0], [104, '易购优选', 2]).map((r) => sign(r))
 */
export const table =
  <T extends object>() =>
  <S extends string>(
    columns: S & (Words<S>[number] extends keyof T ? unknown : never),
    ...rows: Cells<T, Words<S>>[]
  ): T[] => {
    const keys = columns.split(' ');
    return rows.map((r) => Object.fromEntries((r as unknown[]).map((v, i) => [keys[i], v])) as T);
  };

/**
 * `positional(make)(...fields)`: a builder of a list's rows, one call each, taking the values of
 * `fields` in their order (`undefined`, or fewer values, keeps the default of `make`: the entity's
 * row builder, rowOf, with its defaults and enum labels), then optionally an object of further fields.
 *
 *   const sign = positional(rowOf<ReviewSign>('review-sign')({ state: SignState.Pending }))('id', 'sign', 'createTime');
 *   export const signRows = [sign(112, '云讯优选', '2026-11-24 09:30:00'), sign(104, '易购优选', '2026-11-10 16:03:11', { state: SignState.Rejected })];
 */
export const positional =
  <T extends object>(make: (diff: never) => T) =>
  <const K extends readonly (keyof T)[]>(...fields: K) =>
  (...values: [...{ [I in keyof K]?: T[K[I]] }, more?: Partial<T>]): T => {
    const diff: Record<PropertyKey, unknown> = {};
    fields.forEach((f, i) => {
      if (values[i] !== undefined) diff[f] = values[i];
    });
    return make({ ...diff, ...(values[fields.length] as Partial<T> | undefined) } as never);
  };

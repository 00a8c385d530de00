/**
 * The schema registry: every JSON Schema under `schemas/`, keyed by its path
 * relative to that folder ("forms/login.json"). Shared by the console and the
 * server so both validate and label with the same documents.
 */
/**
 * A JSON Schema document or sub-schema as the project writes them: the keywords the code reads are
 * typed, the project's `x-` annotations (and any other keyword) are `unknown` until checked.
 */
export interface JsonSchema {
  $id?: string;
  $ref?: string;
  $schema?: string;
  title?: string;
  description?: string;
  type?: string | string[];
  format?: string;
  const?: unknown;
  default?: unknown;
  enum?: readonly unknown[];
  properties?: Record<string, JsonSchema>;
  required?: readonly string[];
  items?: JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  errorMessage?: string | ErrorMessages;
  [keyword: string]: unknown;
}

/** ajv-errors' `errorMessage` object: messages per keyword, `required` and `properties` per field. */
export interface ErrorMessages {
  required?: string | Record<string, string>;
  properties?: Record<string, string>;
  [keyword: string]: unknown;
}

/** The schema's own message for a missing `field` (its `errorMessage.required`), if it has one. */
export function requiredMessageOf(schema: JsonSchema, field: string): string | undefined {
  const m = schema.errorMessage;
  if (!m || typeof m === 'string') return m;
  return typeof m.required === 'string' ? m.required : m.required?.[field];
}

/** A property schema's own message for a rule it breaks (`errorMessage.maxLength` of `words`), if it has one. */
export function keywordMessageOf(schema: JsonSchema | undefined, keyword: string): string | undefined {
  const m = schema?.errorMessage;
  if (!m) return undefined;
  if (typeof m === 'string') return m;
  const v = m[keyword];
  return typeof v === 'string' ? v : undefined;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export type SchemaMap = Record<string, JsonSchema>;

export interface EnumOption<V = string | number> {
  value: V;
  label: string;
  color?: string;
}

/** Resolves `ref` (as written in `from`) to a registry key: "../enums/a.json" from "forms/x.json" -> "enums/a.json". */
export function resolveRefKey(from: string, ref: string): string {
  const base = from.split('/').slice(0, -1);
  for (const part of ref.split('#')[0].split('/')) {
    if (part === '..') base.pop();
    else if (part !== '.' && part !== '') base.push(part);
  }
  return base.join('/');
}

/** What list screens and filter bars need to know about one property of an entity or filter schema. */
export interface FieldInfo {
  name: string;
  title: string;
  type?: string | string[];
  /** enum file name when the property refers to schemas/enums/<name>.json */
  enumName?: string;
  format?: string;
  widget?: string;
  agentOnly?: boolean;
  maxLength?: number;
  /** how a list shows the property (entities' `x-table`: width, fixed, ellipsis, sum, hideable) */
  table?: TableColumnHints;
}

/**
 * An entity property's table hints (`"x-table": {...}` in schemas/entities), read by the console's
 * SchemaTable for every list of the entity:
 * - `width`: the column's width in px (a floor: the table scrolls sideways instead of wrapping);
 * - `fixed`: `"left"` keeps a key column in view while the table scrolls sideways;
 * - `ellipsis`: long text is cut at this width (px, or 240 when `true`) with the whole text in a tooltip;
 * - `sum`: the column is added up in the table's 合计 row (when the screen shows totals);
 * - `hideable: false`: the column settings never hide it;
 * - `key`: a column users look for first (a status, the times): every list of the entity shows it
 *   right after its leading columns (the row number and the fixed-left identifiers), whatever
 *   the screen's order, so a wide table never hides it behind the scroll or the 操作 column;
 * - `labels`: a boolean column's words for true and false (`{ "true": "已开启", "false": "未开启" }`;
 *   default 是 / 否).
 */
export interface TableColumnHints {
  width?: number;
  fixed?: 'left' | 'right';
  ellipsis?: boolean | number;
  sum?: boolean;
  hideable?: boolean;
  key?: boolean;
  labels?: { true: string; false: string };
}

export class SchemaRegistry {
  constructor(readonly schemas: SchemaMap) {}

  get(key: string): JsonSchema {
    const s = this.schemas[key.endsWith('.json') ? key : `${key}.json`];
    if (!s) throw new Error(`unknown schema ${key}`);
    return s;
  }

  /** The schema with every cross-file $ref inlined (what RJSF needs: it resolves only local refs). */
  inline(key: string): JsonSchema {
    const k = key.endsWith('.json') ? key : `${key}.json`;
    const walk = (node: unknown, from: string): unknown => {
      if (Array.isArray(node)) return node.map((n) => walk(n, from));
      if (!node || typeof node !== 'object') return node;
      const obj = node as JsonSchema;
      if (typeof obj.$ref === 'string' && !obj.$ref.startsWith('#')) {
        const target = resolveRefKey(from, obj.$ref);
        const { $ref: _ref, ...rest } = obj;
        const { $id: _id, $schema: _s, ...body } = this.get(target);
        return { ...(walk(body, target) as JsonSchema), ...(walk(rest, from) as JsonSchema) };
      }
      const out: JsonSchema = {};
      for (const [p, v] of Object.entries(obj)) out[p] = walk(v, from);
      return out;
    };
    const { $id: _id, ...root } = this.get(k);
    return walk(root, k) as JsonSchema;
  }

  /** The properties of an object schema, in order, with their labels and enum references. */
  fields(key: string): FieldInfo[] {
    const k = key.endsWith('.json') ? key : `${key}.json`;
    const props = this.get(k).properties ?? {};
    return Object.entries(props).map(([name, p]) => {
      const ref = typeof p.$ref === 'string' ? resolveRefKey(k, p.$ref) : undefined;
      const target = ref ? this.get(ref) : undefined;
      return {
        name,
        title: p.title ?? target?.description ?? name,
        type: p.type ?? target?.type,
        enumName: ref?.startsWith('enums/') ? ref.slice('enums/'.length, -'.json'.length) : undefined,
        format: p.format,
        widget: str(p['x-widget']),
        agentOnly: !!p['x-agent-only'],
        maxLength: p.maxLength,
        ...(p['x-table'] ? { table: p['x-table'] } : {}),
      };
    });
  }

  field(key: string, name: string): FieldInfo | undefined {
    return this.fields(key).find((f) => f.name === name);
  }

  /** Options of an enumeration: value, Chinese label and tag colour, in the schema's order. */
  enumOptions<V extends string | number = string | number>(name: string): EnumOption<V>[] {
    const s = this.get(`enums/${name}`);
    return (s.oneOf ?? []).map((o) => {
      const color = str(o['x-color']);
      return { value: o.const as V, label: o.title ?? String(o.const), ...(color ? { color } : {}) };
    });
  }

  enumLabel(name: string, value: unknown): string | undefined {
    if (value === undefined || value === null || value === '') return undefined;
    return this.enumOptions(name).find((o) => String(o.value) === String(value))?.label;
  }

  enumColor(name: string, value: unknown): string | undefined {
    return this.enumOptions(name).find((o) => String(o.value) === String(value))?.color;
  }
}

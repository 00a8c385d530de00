/**
 * One record of an entity as an antd Descriptions, laid out from its schema (schemas/entities):
 * the labels are the properties' titles, an enumeration (a property whose `$ref`, or one branch
 * of its anyOf, is schemas/enums/<name>.json) shows as EnumTag with the enum's label and
 * `x-color`, `format: "money"` as <Money>, `format: "date-time"` as YYYY-MM-DD HH:mm:ss, an empty
 * value as "-". A screen adds only what the schema cannot say (`render` for a field).
 *
 * ## The `x-ui` convention (a uiSchema kept in the schema file itself)
 * Which fields show, in which order and how wide, is static JSON in the schema's own root
 * `x-ui` block, so a product person edits one file. The block is an RJSF uiSchema: a form schema's
 * `x-ui` is handed to <SchemaForm> as is (see `schemaUi` in src/schema), and an entity's is read
 * here with these keys (all optional):
 *
 * ```json
 * "x-ui": {
 *   "ui:order": ["clientid", "name", "*"],   // shown fields, in order; "*" = every other one (schema order);
 *                                            // without "*" only the listed ones show (no order: all, schema order)
 *   "ui:hidden": ["smsp_img_url"],           // never shown
 *   "ui:column": 2,                          // Descriptions columns (default 1)
 *   "remarks": { "ui:span": 2 },             // a row's column span
 *   "needreport": { "ui:plain": true },      // an enum as text rather than a tag
 *   "id_typeNum": { "ui:fallback": "id_type" },  // an unknown enum value shows the server's label from that field
 *   "oauth_date": { "ui:hideEmpty": true },  // left out when the record has no value
 *   "mourl": { "ui:showIf": { "needmo": 1 } },                      // shown only when needmo == 1
 *   "company": { "ui:titleIf": [{ "when": { "cert_type": 1 }, "title": "姓名" }] },  // the label by another value
 *   "mobile": { "ui:title": "新手机号" }     // this screen's label (forms: RJSF reads it too)
 * }
 * ```
 * `x-ui` is an annotation: ajv ignores it, the generated types and compiled form validators leave
 * it out (common/schema displaySchema), so editing it needs no regeneration.
 */
import type { ReactNode } from 'react';
import { Descriptions, type DescriptionsProps } from 'antd';
import { businessTime } from '@/lib/businessTime';
import { resolveRefKey, type JsonSchema, type SchemaRegistry } from '../../../common/schema/registry';
import { fieldLabel, schemas } from '@/schema';
import { EnumTag } from '@/components/EnumTag/EnumTag';
import { Money } from '@/components/Money/Money';

export interface DescriptionsUi {
  'ui:order'?: string[];
  'ui:hidden'?: string[];
  'ui:column'?: number;
  [field: string]: unknown;
}

export interface FieldUi {
  'ui:span'?: number;
  'ui:plain'?: boolean;
  'ui:fallback'?: string;
  'ui:hideEmpty'?: boolean;
  'ui:showIf'?: Record<string, unknown>;
  'ui:titleIf'?: { when: Record<string, unknown>; title: string }[];
  'ui:title'?: string;
}

export interface DescriptionField {
  name: string;
  title: string;
  /** enum file name (schemas/enums/<name>.json) */
  enumName?: string;
  format?: string;
  ui: FieldUi;
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === '';
const matches = (record: object, when: Record<string, unknown>) =>
  Object.entries(when).every(([k, v]) => String((record as Record<string, unknown>)[k]) === String(v));

/** enum file name of a property: its own $ref, or the $ref of one of its anyOf / oneOf branches */
function enumOf(key: string, prop: JsonSchema): string | undefined {
  const refs = [prop.$ref, ...[...(prop.anyOf ?? []), ...(prop.oneOf ?? [])].map((b: JsonSchema) => b?.$ref)].filter(
    (r): r is string => typeof r === 'string',
  );
  for (const r of refs) {
    const target = resolveRefKey(key, r);
    if (target.startsWith('enums/')) return target.slice('enums/'.length, -'.json'.length);
  }
  return undefined;
}

/** The fields an entity's Descriptions shows, in order, with what its `x-ui` says of each. */
export function descriptionFields(
  entity: string,
  registry: SchemaRegistry = schemas,
  fields?: string[],
): { fields: DescriptionField[]; ui: DescriptionsUi } {
  const key = entity.endsWith('.json') ? entity : `${entity}.json`;
  const schema = registry.get(key);
  const props: Record<string, JsonSchema> = schema.properties ?? {};
  const ui = (schema['x-ui'] ?? {}) as DescriptionsUi;
  const all = Object.keys(props);
  const order = fields ?? ui['ui:order'];
  let names = all;
  if (order) {
    const rest = all.filter((n) => !order.includes(n));
    names = order.flatMap((n) => (n === '*' ? rest : [n]));
  }
  const hidden = new Set(fields ? [] : (ui['ui:hidden'] ?? []));
  return {
    ui,
    fields: names
      .filter((n) => !hidden.has(n))
      .map((name) => {
        const p = props[name];
        if (!p) throw new Error(`${key} has no property ${name}`);
        return {
          name,
          title: p.title ?? name,
          enumName: enumOf(key, p),
          format: p.format,
          ui: (ui[name] as FieldUi) ?? {},
        };
      }),
  };
}

/** A value as the schema says to show it. */
export function renderValue(f: DescriptionField, row: object, registry: SchemaRegistry = schemas): ReactNode {
  const record = row as Record<string, unknown>;
  const value = record[f.name];
  const fallback = f.ui['ui:fallback'] ? record[f.ui['ui:fallback']] : undefined;
  if (isEmpty(value) && isEmpty(fallback)) return '-';
  if (f.enumName)
    return (
      <EnumTag
        enumName={f.enumName}
        value={value}
        fallback={fallback ? String(fallback) : undefined}
        plain={f.ui['ui:plain']}
        registry={registry}
      />
    );
  if (isEmpty(value)) return String(fallback);
  if (f.format === 'money') return <Money value={value as string} />;
  if (f.format === 'date-time') {
    // Shanghai's time whatever the browser's zone: the API's 'YYYY-MM-DD HH:mm:ss' as written, an instant as Shanghai's clock showed it
    const d = businessTime(value as string);
    return d.isValid() ? d.format('YYYY-MM-DD HH:mm:ss') : String(value);
  }
  return String(value);
}

export interface SchemaDescriptionsProps<T extends object> extends Omit<DescriptionsProps, 'items' | 'column'> {
  /** entity schema key, e.g. "entities/enterprise-base-info" */
  entity: string;
  record: T;
  /** the fields to show, in order (instead of the schema's `x-ui` order and hidden list) */
  fields?: string[];
  /** what the schema cannot say: a field's content from its value and the record */
  render?: Partial<{ [K in keyof T & string]: (value: T[K], record: T) => ReactNode }>;
  column?: number;
  /** the schemas to read (tests hand in an edited copy); the console's registry by default */
  registry?: SchemaRegistry;
}

export function SchemaDescriptions<T extends object>({
  entity,
  record,
  fields,
  render,
  column,
  registry = schemas,
  bordered = true,
  size = 'middle',
  ...rest
}: SchemaDescriptionsProps<T>) {
  const { fields: shown, ui } = descriptionFields(entity, registry, fields);
  const items: DescriptionsProps['items'] = shown
    .filter((f) => !(f.ui['ui:showIf'] && !matches(record, f.ui['ui:showIf'])))
    .filter((f) => !(f.ui['ui:hideEmpty'] && isEmpty((record as Record<string, unknown>)[f.name])))
    .map((f) => {
      const name = f.name as keyof T & string;
      const own = render?.[name];
      return {
        key: f.name,
        label: fieldLabel(entity, f.name, record as Record<string, unknown>, registry),
        span: f.ui['ui:span'],
        children: own ? own(record[name], record) : renderValue(f, record, registry),
      };
    });
  return (
    <Descriptions bordered={bordered} size={size} column={column ?? ui['ui:column'] ?? 1} items={items} {...rest} />
  );
}

export default SchemaDescriptions;

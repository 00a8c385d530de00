/**
 * The console's schema registry: every file of schemas/ (but the server's config/) bundled at build time.
 * Labels, enum options, tag colours and form rules all come from here.
 */
import type { UiSchema } from '@rjsf/utils';
import { SchemaRegistry, type JsonSchema, type SchemaMap } from '../../common/schema/registry';

// schemas/config/ describes the server's environment: nothing of the console's, not bundled
const files = import.meta.glob<JsonSchema>(['../../schemas/*/*.json', '!../../schemas/config/*.json'], {
  eager: true,
  import: 'default',
});

export const schemaMap: SchemaMap = Object.fromEntries(
  Object.entries(files).map(([p, s]) => [p.replace(/^.*\/schemas\//, ''), s]),
);

export const schemas = new SchemaRegistry(schemaMap);

export const enumOptions = schemas.enumOptions.bind(schemas);
export const enumLabel = schemas.enumLabel.bind(schemas);
export const enumColor = schemas.enumColor.bind(schemas);

/**
 * The uiSchema kept beside a schema: its root `x-ui` block (see SchemaDescriptions for the
 * convention), e.g. `<SchemaForm schema={passwordForm} uiSchema={schemaUi('forms/password-change')} />`.
 */
export function schemaUi<T = UiSchema>(key: string): T {
  return (schemas.get(key)['x-ui'] ?? {}) as T;
}

/**
 * A field's label on a screen: the `x-ui` title for it (`ui:title`, or the first `ui:titleIf`
 * whose `when` the values meet), else the property's title. For the hand-laid parts of a screen
 * (upload fields, agreements) that still lay out antd form items themselves.
 */
export function fieldLabel(
  key: string,
  field: string,
  values: Record<string, unknown> = {},
  registry: SchemaRegistry = schemas,
): string {
  const s = registry.get(key);
  const ui = ((s['x-ui'] as Record<string, Record<string, unknown> | undefined> | undefined)?.[field] ?? {}) as {
    'ui:title'?: string;
    'ui:titleIf'?: unknown;
  };
  const when = (ui['ui:titleIf'] as { when: Record<string, unknown>; title: string }[] | undefined)?.find((t) =>
    Object.entries(t.when).every(([k, v]) => String(values[k]) === String(v)),
  );
  return when?.title ?? ui['ui:title'] ?? s.properties?.[field]?.title ?? field;
}

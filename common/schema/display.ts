import type { JsonSchema } from './registry';

/**
 * A form schema as a form shows it: descriptions (and the root's title and $id) are notes for
 * developers and product staff, not screen text. The build compiles the forms' validators from
 * exactly this shape (scripts/form-validators.ts), and the schema forms render it. The root's
 * `x-ui` (the screen's uiSchema, read from the registry: src/schema `schemaUi`) is left out too,
 * so a layout edit needs no regeneration.
 */
export function displaySchema(schema: JsonSchema): JsonSchema {
  const { title: _t, description: _d, $id: _id, 'x-ui': _ui, properties, ...rest } = schema;
  const shown = Object.fromEntries(Object.entries(properties ?? {}).map(([k, { description: _pd, ...p }]) => [k, p]));
  return { ...rest, properties: shown };
}

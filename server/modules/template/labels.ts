import type { ServerSchemas } from '../../schemas';

/** Enum options (value, Chinese label) from schemas/enums. */
export const enumOptionsOf = (schemas: ServerSchemas) => (name: string) =>
  schemas.registry.enumOptions<number>(name).map((o) => ({ value: o.value, label: o.label }));

import type { JsonSchema } from './registry';

/** Trims the string properties that the schema marks with `x-trim` (values are trimmed before validation). */
export function trimBySchema<T extends Record<string, any>>(schema: JsonSchema, data: T): T {
  if (!data || typeof data !== 'object') return data;
  const out: Record<string, any> = { ...data };
  for (const [k, p] of Object.entries<any>(schema.properties ?? {})) {
    if (p?.['x-trim'] && typeof out[k] === 'string') out[k] = out[k].trim();
  }
  return out as T;
}

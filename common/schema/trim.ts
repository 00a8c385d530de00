import type { JsonSchema } from './registry';

/** Trims the string properties that the schema marks with `x-trim` (values are trimmed before validation). */
export function trimBySchema<T extends object>(schema: JsonSchema, data: T): T {
  if (!data || typeof data !== 'object') return data;
  const out: Record<string, unknown> = { ...(data as Record<string, unknown>) };
  for (const [k, p] of Object.entries(schema.properties ?? {})) {
    const v = out[k];
    if (p?.['x-trim'] && typeof v === 'string') out[k] = v.trim();
  }
  return out as T;
}

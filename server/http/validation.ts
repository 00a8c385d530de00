/**
 * Payload validation with the shared schemas (schemas/forms/*): the same rules and Chinese
 * messages as the console's forms. Form posts carry only strings, so values are first coerced
 * to the type the schema declares (numbers, booleans, JSON arrays); then ajv runs.
 */
import { ApiError } from './errors';
import type { ServerSchemas } from '../schemas';

type Coercer = (data: Record<string, unknown>) => Record<string, unknown>;
const coercers = new WeakMap<ServerSchemas, Map<string, Coercer>>();

function typeOf(p: any): string | undefined {
  if (!p || typeof p !== 'object') return undefined;
  if (typeof p.type === 'string') return p.type;
  if (Array.isArray(p.type)) return p.type.includes('string') ? 'string' : p.type[0];
  const consts = (p.oneOf ?? p.anyOf ?? []).map((o: any) => o?.const).filter((c: unknown) => c !== undefined);
  if (consts.length && consts.every((c: unknown) => typeof c === 'number')) return 'number';
  return undefined;
}

function coerceValue(type: string | undefined, v: unknown): unknown {
  if (typeof v !== 'string') return v;
  switch (type) {
    case 'integer':
    case 'number': {
      const t = v.trim();
      return /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : v;
    }
    case 'boolean':
      if (['1', 'true', 'on', 'yes'].includes(v)) return true;
      if (['0', 'false', 'off', 'no', ''].includes(v)) return false;
      return v;
    case 'array':
    case 'object':
      try {
        return JSON.parse(v);
      } catch {
        return v;
      }
    default:
      return v;
  }
}

function coercerFor(schemas: ServerSchemas, key: string): Coercer {
  let byKey = coercers.get(schemas);
  if (!byKey) coercers.set(schemas, (byKey = new Map()));
  let c = byKey.get(key);
  if (!c) {
    const props: Record<string, any> = schemas.registry.inline(key).properties ?? {};
    const types = Object.fromEntries(Object.entries(props).map(([k, p]) => [k, typeOf(p)]));
    c = (data) => {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(data)) out[k] = coerceValue(types[k], v);
      return out;
    };
    byKey.set(key, c);
  }
  return c;
}

/** Validates `body` against `forms/...`; throws code 400 with the first message and `data.errors`. */
export function validateForm<T>(schemas: ServerSchemas, key: string, body: unknown): T {
  const raw = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const data = coercerFor(schemas, key)(raw);
  const r = schemas.validate<T>(key, data);
  if (!r.ok) throw new ApiError(400, r.message, { errors: r.errors });
  return r.data;
}

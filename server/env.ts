/**
 * The environment, described once: schemas/config/env.json. `readEnv` takes the variables that
 * schema names from a raw environment, checks them with the project's ajv (common/schema: numbers
 * and booleans coerced, the schema's defaults filled in, ranges, patterns, the variables that go
 * together) and returns them typed (`ServerEnv`, generated from the schema), or throws a
 * ConfigError with one line per bad variable: its name and what it accepts.
 *
 * The rules every variable follows (docs/configuration.md, rendered from the same schema by
 * scripts/gen-config-doc.ts):
 * - an empty value (or one of spaces) is the same as an unset one: the default applies;
 * - values are trimmed;
 * - a boolean is 1, true, yes or on, or 0, false, no or off, in any case; anything else is refused;
 * - a number is refused outside its range (never clamped, never read as 0).
 *
 * Only server/config.ts hands it `process.env` (loadConfig); nothing else reads the environment.
 */
import Ajv, { type ErrorObject } from 'ajv';
import envSchemaJson from '../schemas/config/env.json';
import { AJV_OPTIONS, extendAjv, type JsonSchema as Schema } from '../common/schema';
import type { ServerEnv } from '../common/generated/schemas';
import { parseLatency, parseSmppUrl } from './modules/smsc/config';

export type { ServerEnv };

/** A raw environment: `process.env` or a test's object. */
export type RawEnv = Readonly<Record<string, string | undefined>>;

export const ENV_SCHEMA = envSchemaJson as Schema;
const PROPS: Record<string, Schema> = ENV_SCHEMA.properties ?? {};

/** The variables the schema describes, in its order. */
export const ENV_NAMES: readonly string[] = Object.keys(PROPS);

export const TRUE_WORDS = ['1', 'true', 'yes', 'on'] as const;
export const FALSE_WORDS = ['0', 'false', 'no', 'off'] as const;

/** A bad environment: `problems` has one line per bad variable, naming it. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Bad configuration (see docs/configuration.md):\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const num = (n: unknown) => (typeof n === 'number' ? String(n) : '?');

/** What a variable accepts, in words: for the error messages and the configuration reference. */
export function accepts(p: Schema): string {
  if (typeof p['x-accepts'] === 'string') return p['x-accepts'];
  if (p.enum) return `one of ${p.enum.map(String).join(', ')}`;
  switch (p.type) {
    case 'boolean':
      return `${TRUE_WORDS.join(', ')} (or ${FALSE_WORDS.join(', ')})`;
    case 'integer':
      return `an integer from ${num(p.minimum)} to ${num(p.maximum)}`;
    case 'number':
      return `a number from ${num(p.minimum)} to ${num(p.maximum)}`;
    default:
      return p.maxLength ? `text of at most ${p.maxLength} characters` : 'text';
  }
}

/** A value shown in a message: numbers, booleans and enum words only (a URL or a key may hold a secret). */
function shown(p: Schema, given: unknown): string {
  if (given === undefined || (p.type === 'string' && !p.enum)) return '';
  const s = String(given);
  return `=${JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s)}`;
}

/** "1"/"yes"/"on" → true, "0"/"no"/"off" → false (any case); anything else is left for ajv to refuse. */
function booleanWord(v: string): boolean | string {
  const w = v.toLowerCase();
  if ((TRUE_WORDS as readonly string[]).includes(w)) return true;
  if ((FALSE_WORDS as readonly string[]).includes(w)) return false;
  return v;
}

/**
 * "86=5000,1=50,*=200" (or one number for every country) → { '86': 5000, '1': 50, '*': 200 }.
 * `other`: '*' when the text does not list it (that of the schema's default, 200).
 */
export function parseCountryCaps(v: string, other: number | null = otherCountries()): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of v
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^(?:(\*|\d{1,4})\s*[=:]\s*)?(\d{1,9})$/.exec(part);
    if (!m) throw new Error(`CODE_DAILY_PER_COUNTRY: cannot read "${part.slice(0, 20)}" (expected e.g. 86=5000,*=200)`);
    out[m[1] ?? '*'] = Number(m[2]);
  }
  if (out['*'] === undefined && other !== null) out['*'] = other;
  return out;
}

function otherCountries(): number | null {
  return parseCountryCaps(String(PROPS.CODE_DAILY_PER_COUNTRY?.default ?? ''), null)['*'] ?? null;
}

/** What the schema cannot say: each throws an Error whose message names the variable. */
const CHECKS: Record<string, (v: string) => unknown> = {
  // its own message names SMPP_URL and never shows the password
  SMPP_URL: (v) => parseSmppUrl(v),
  CODE_DAILY_PER_COUNTRY: (v) => parseCountryCaps(v, null),
  SMSC_SIM_LATENCY_MS: (v) => parseLatency(v),
};

const ajv = extendAjv(new Ajv({ ...AJV_OPTIONS, coerceTypes: true, useDefaults: true }));
/** compiled once, when the first process module imports this file */
const validate = ajv.compile<ServerEnv>(ENV_SCHEMA);

function messageOf(e: ErrorObject, given: Record<string, unknown>): [string, string] | undefined {
  if (e.keyword === 'if') return undefined;
  const params = e.params as { missingProperty?: string; property?: string; deps?: string };
  if (e.keyword === 'dependencies' && params.missingProperty && params.property) {
    const group = [params.property, ...String(params.deps ?? '').split(', ')].filter(
      (n, i, all) => n && all.indexOf(n) === i,
    );
    return [
      params.missingProperty,
      `${params.missingProperty} is not set, but ${params.property} is: ${group.join(', ')} go together`,
    ];
  }
  if (e.keyword === 'required' && params.missingProperty) {
    const rule = e.schemaPath.startsWith('#/then/') ? (ENV_SCHEMA.then as Schema | undefined)?.description : undefined;
    return [params.missingProperty, `${params.missingProperty} is not set${rule ? `: ${rule}` : ''}`];
  }
  const name = e.instancePath.replace(/^\//, '').split('/')[0];
  const p = PROPS[name];
  if (!p) return ['', `${e.instancePath || 'environment'} ${e.message ?? 'is not accepted'}`];
  return [name, `${name}${shown(p, given[name])} is not accepted: expected ${accepts(p).replace(/`/g, '')}`];
}

/**
 * The schema's variables of `raw`, checked and typed, with the schema's defaults. Throws a
 * ConfigError naming every bad variable (other variables of `raw` are not looked at).
 */
export function readEnv(raw: RawEnv): ServerEnv {
  const data: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(PROPS)) {
    const v = raw[name]?.trim();
    if (!v) continue;
    data[name] = p.type === 'boolean' ? booleanWord(v) : v;
  }
  const given = { ...data };
  const problems = new Map<string, string>();
  if (!validate(data)) {
    for (const e of validate.errors ?? []) {
      const m = messageOf(e, given);
      if (m && !problems.has(m[0])) problems.set(m[0], m[1]);
    }
  }
  for (const [name, check] of Object.entries(CHECKS)) {
    const v = data[name];
    if (typeof v !== 'string' || problems.has(name)) continue;
    try {
      check(v);
    } catch (e) {
      problems.set(name, (e as Error).message);
    }
  }
  if (problems.size) throw new ConfigError([...problems.values()]);
  return data as unknown as ServerEnv;
}

/** Every variable at its default (an empty environment): where code that needs a default takes it from. */
export const ENV_DEFAULTS: ServerEnv = readEnv({});

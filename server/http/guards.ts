/**
 * The shared guard in front of every route (present and future): whatever a client posts, the
 * handlers and the database only ever see input of a sane shape, and anything else is refused
 * with code 400 and a 参数错误 message before a route's own schema or code runs.
 *
 * - JSON bodies are scanned for their nesting depth before they are parsed (a 5,000-deep array
 *   would otherwise overflow a recursive walk later), must be an object at the top level, and
 *   keep Fastify's protection against `__proto__` / `constructor` keys.
 * - Text bodies (`text/plain`) are not accepted: the API takes forms and JSON only.
 * - Every string of the query, the path parameters and the body (keys included) is checked for
 *   control characters (all of C0 except tab, line feed and carriage return; DEL; C1) and for
 *   broken UTF-16 (lone surrogates): PostgreSQL refuses NUL in text, and none of them belongs
 *   in a form field. A string that itself holds JSON (a form field carrying an array) gets the
 *   same depth limit.
 * - A multipart body must name its boundary.
 * - A repeated query or form parameter (`?clientId=1&clientId=2`, which the parsers turn into an
 *   array) is refused, unless the route's own schema declares that parameter as an array.
 *
 * Integers that go to an `int4` column are bounded with {@link int4Of}; paging is bounded in
 * paging.ts; the error handler (errors.ts) maps any data exception the database still raises to
 * 400 as the last line of defence.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './errors';
import type { JsonSchema } from '../../common/schema/registry';

export const INPUT_LIMITS = {
  /** nesting of arrays/objects in a JSON body or in a JSON string of a form field */
  maxDepth: 32,
};

export const INT4_MAX = 2_147_483_647;
/** enumerations are stored as smallint */
export const SMALLINT_MAX = 32_767;

export const INPUT_MESSAGES = {
  invalidChar: '参数错误：含有非法字符',
  tooDeep: '参数错误：嵌套层数过多',
  repeated: '参数错误：参数重复',
  badKey: '参数错误：参数名不合法',
  notObject: '请求格式错误',
};

// C0 controls except \t \n \r, DEL and the C1 controls
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const refuse = (msg: string, field?: string) =>
  new ApiError(400, msg, field ? { errors: [{ field, message: msg }] } : undefined);

/**
 * The nesting depth of JSON text, counted without parsing (brackets inside strings ignored);
 * stops counting as soon as `limit` is exceeded and returns `limit + 1`.
 */
export function jsonDepth(text: string, limit = INPUT_LIMITS.maxDepth): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return max;
}

/** true when the string holds no control character and no lone surrogate */
export function isCleanString(s: string): boolean {
  // String.prototype.isWellFormed (Node 20+; not in the project's TypeScript lib yet)
  return !CONTROL.test(s) && (s as string & { isWellFormed(): boolean }).isWellFormed();
}

const looksLikeJson = (s: string) => {
  const t = s.trimStart();
  return t.startsWith('[') || t.startsWith('{');
};

const cleanName = (k: string) => (isCleanString(k) && k.length <= 64 ? k : undefined);

/**
 * Checks one parsed input (query, params or body) and throws the 400 it deserves. `arraysAllowed`:
 * the top-level names that may hold an array (from the route's schema); `flat`: the input comes
 * from a query string or a form, where an array can only mean a repeated parameter.
 */
export function checkInput(input: unknown, opts: { flat?: boolean; arraysAllowed?: ReadonlySet<string> } = {}) {
  if (input === null || input === undefined) return;
  // iterative walk: depth is bounded here, never by the call stack
  const stack: { v: unknown; depth: number; field?: string }[] = [{ v: input, depth: 0 }];
  while (stack.length) {
    const { v, depth, field } = stack.pop()!;
    if (typeof v === 'string') {
      if (!isCleanString(v)) throw refuse(INPUT_MESSAGES.invalidChar, field);
      if (looksLikeJson(v) && jsonDepth(v) > INPUT_LIMITS.maxDepth) throw refuse(INPUT_MESSAGES.tooDeep, field);
      continue;
    }
    if (!v || typeof v !== 'object') continue;
    if (depth >= INPUT_LIMITS.maxDepth) throw refuse(INPUT_MESSAGES.tooDeep, field);
    if (Array.isArray(v)) {
      if (opts.flat && depth === 1 && field !== undefined && !opts.arraysAllowed?.has(field))
        throw refuse(INPUT_MESSAGES.repeated, field);
      for (const item of v) stack.push({ v: item, depth: depth + 1, field });
      continue;
    }
    if (Buffer.isBuffer(v)) continue;
    for (const k of Object.keys(v)) {
      if (!isCleanString(k)) throw refuse(INPUT_MESSAGES.invalidChar, field);
      if (FORBIDDEN_KEYS.has(k)) throw refuse(INPUT_MESSAGES.badKey, field);
      stack.push({ v: (v as Record<string, unknown>)[k], depth: depth + 1, field: field ?? cleanName(k) });
    }
  }
}

/** The top-level names a route's schema declares as arrays (`querystring` or `body`). */
function arrayParams(req: FastifyRequest, part: 'querystring' | 'body'): ReadonlySet<string> | undefined {
  const schema = (req.routeOptions?.schema as Record<string, JsonSchema | undefined> | undefined)?.[part];
  const props = schema?.properties;
  if (!props || typeof props !== 'object') return undefined;
  const names = Object.entries(props)
    .filter(([, p]) => p && (p.type === 'array' || (Array.isArray(p.type) && p.type.includes('array'))))
    .map(([k]) => k);
  return names.length ? new Set(names) : undefined;
}

const isForm = (req: FastifyRequest) =>
  String(req.headers['content-type'] ?? '')
    .toLowerCase()
    .startsWith('application/x-www-form-urlencoded');

/** Registers the JSON parser with its depth limit and the input check (call before the routes). */
export function installInputGuards(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    if (jsonDepth(text) > INPUT_LIMITS.maxDepth) return done(refuse(INPUT_MESSAGES.tooDeep), undefined);
    void parseJson(req, text, (err, value) => {
      if (err) return done(err, undefined);
      if (!value || typeof value !== 'object' || Array.isArray(value))
        return done(new ApiError(400, INPUT_MESSAGES.notObject), undefined);
      done(null, value);
    });
  });

  app.addHook('preValidation', async (req) => {
    // a multipart body without its boundary cannot be read (the routes that take files)
    const type = String(req.headers['content-type'] ?? '').toLowerCase();
    if (type.startsWith('multipart/') && !/;\s*boundary=/.test(type)) throw new ApiError(400, INPUT_MESSAGES.notObject);
    checkInput(req.params);
    checkInput(req.query, { flat: true, arraysAllowed: arrayParams(req, 'querystring') });
    checkInput(req.body, { flat: isForm(req), arraysAllowed: arrayParams(req, 'body') });
  });
}

/**
 * An integer for an `int4` column (ids, enumerations): a JS integer or a decimal string of
 * digits, in [min, INT4_MAX]; `undefined` for anything else (the caller decides: refuse, or
 * treat as "not found").
 */
export function int4Of(v: unknown, min = 0, max = INT4_MAX): number | undefined {
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string' && /^\s*-?\d{1,10}\s*$/.test(v)) n = Number(v);
  else return undefined;
  return Number.isInteger(n) && n >= min && n <= Math.min(max, INT4_MAX) ? n : undefined;
}

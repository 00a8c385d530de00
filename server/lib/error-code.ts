/**
 * The fields a caught error may carry (Node system errors, pg / PGlite errors, Fastify's), read
 * without `any`: `codeOf(e)` is its string `code` ('23505', 'ENOENT', 'FST_REQ_FILE_TOO_LARGE'),
 * `detailOf(e)` the constraint, detail or message that names what failed.
 */
export interface CodedError {
  code?: unknown;
  constraint?: unknown;
  detail?: unknown;
  message?: unknown;
}

const fields = (e: unknown): CodedError => (e && typeof e === 'object' ? e : {});

export function codeOf(e: unknown): string | undefined {
  const c = fields(e).code;
  return typeof c === 'string' ? c : undefined;
}

export function detailOf(e: unknown): string {
  const f = fields(e);
  return String(f.constraint ?? f.detail ?? f.message ?? '');
}

/** the error's message: an Error's, else a `message` string it carries, else the value as text */
export function messageOf(e: unknown): string {
  if (e instanceof Error) return e.message;
  const m = fields(e).message;
  return typeof m === 'string' ? m : String(e);
}

/** the HTTP status a caught error carries (Fastify's `statusCode`), if any */
export function statusCodeOf(e: unknown): number | undefined {
  const s = e && typeof e === 'object' && 'statusCode' in e ? e.statusCode : undefined;
  return typeof s === 'number' ? s : undefined;
}

/** PostgreSQL's unique violation (23505), on both databases */
export const isUniqueViolation = (e: unknown) => codeOf(e) === '23505';

/** a deadlock victim (40P01) or a serialization failure (40001): nothing of the transaction stays, trying again may succeed */
export const isRetryableDbError = (e: unknown) => {
  const code = codeOf(e);
  return code === '40P01' || code === '40001';
};

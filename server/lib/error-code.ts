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

/**
 * The errors of the customers' HTTP API: a stable name, a numeric code, the HTTP status and the
 * Chinese message, all from schemas/messages/openapi.json (`x-errors`). Answer body:
 * `{ code, error, msg }` (a success is `{ code: 0, msg, data }`).
 */
import doc from '../../../schemas/messages/openapi.json';

export type OpenApiErrorName = keyof (typeof doc)['x-errors'];
export const OPENAPI_ERRORS: Readonly<Record<OpenApiErrorName, { code: number; status: number; msg: string }>> =
  doc['x-errors'];

export class OpenApiError extends Error {
  readonly status: number;
  readonly code: number;
  constructor(
    readonly error: OpenApiErrorName,
    msg?: string,
    readonly headers?: Record<string, string>,
    readonly data?: unknown,
  ) {
    const e = OPENAPI_ERRORS[error];
    super(msg ?? e.msg);
    this.status = e.status;
    this.code = e.code;
  }
}

export type OpenApiMessageKey = keyof (typeof doc)['x-messages'];
/** A message of schemas/messages/openapi.json (`x-messages`) with its `{name}` places filled in. */
export const openApiMessage = (key: OpenApiMessageKey, values: Record<string, string | number>) =>
  doc['x-messages'][key].replace(/\{(\w+)\}/g, (all, name: string) => (name in values ? String(values[name]) : all));

export const apiError = (name: OpenApiErrorName, msg?: string, headers?: Record<string, string>, data?: unknown) =>
  new OpenApiError(name, msg, headers, data);

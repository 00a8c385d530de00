/**
 * The small schemas of route parameters that no form in schemas/ describes: record ids, account
 * ids, paging numbers, and list filters built from schemas/filters. Out-of-range or malformed
 * values answer `{ code: 400, msg: MESSAGES.badParam }` (参数错误) instead of reaching the database.
 */
import type { JsonSchema } from '../../common/schema';
import type { ServerSchemas } from '../schemas';
import { MAX_PAGE, PAGING_MESSAGES } from './paging';
import { MESSAGES } from '../../common/schema/messages';

export const BAD_PARAM = MESSAGES.badParam;
/** PostgreSQL int4 */
export const MAX_ID = 2_147_483_647;

/** A record id: an integer within int4. */
export const id = (title: string): JsonSchema => ({
  type: 'integer',
  title,
  minimum: 1,
  maximum: MAX_ID,
  errorMessage: BAD_PARAM,
});
/** An account's clientid (letters and digits). */
export const clientId = (title = '子账户'): JsonSchema => ({
  type: 'string',
  title,
  maxLength: 32,
  errorMessage: BAD_PARAM,
});
export const text = (title: string, maxLength = 200): JsonSchema => ({
  type: 'string',
  title,
  maxLength,
  errorMessage: BAD_PARAM,
});

/** A page number: a positive integer up to MAX_PAGE (OFFSET stays far below bigint). */
const pageNumber: JsonSchema = {
  type: 'integer',
  title: '页码，从 1 开始',
  minimum: 1,
  maximum: MAX_PAGE,
  errorMessage: PAGING_MESSAGES.page,
};
/** A page size: a positive integer; a larger one than the list serves is capped (server/http/paging.ts). */
const pageSize: JsonSchema = {
  type: 'integer',
  title: '每页条数（默认 15，最多 200）',
  minimum: 1,
  errorMessage: PAGING_MESSAGES.size,
};
/** `currentPage` + `pageRowCount` */
export const CURRENT_PAGE: Record<string, JsonSchema> = { currentPage: pageNumber, pageRowCount: pageSize };
/** `page` + `rows` */
export const PAGE_ROWS: Record<string, JsonSchema> = { page: pageNumber, rows: pageSize };

/** An object schema of the given properties (more properties are allowed and ignored). */
export const params = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: 'object',
  properties,
  ...(required.length
    ? { required, errorMessage: { required: Object.fromEntries(required.map((r) => [r, BAD_PARAM])) } }
    : {}),
});

/**
 * A list's parameters: the filter fields of `schemas/filters/<name>` (documented with their
 * titles; the services read them leniently, an empty value meaning "any") and the paging numbers.
 */
export function listParams(
  schemas: ServerSchemas,
  filter: string | undefined,
  paging: Record<string, JsonSchema> = CURRENT_PAGE,
  /** the message of a field's refusal when not 参数错误 */
  messages: Record<string, string> = {},
): JsonSchema {
  const props: Record<string, JsonSchema> = {};
  if (filter) {
    // a field's refusal message: the route's, else the filter schema's own errorMessage, else 参数错误
    const raw: Record<string, { errorMessage?: unknown }> =
      schemas.registry.inline(`filters/${filter}`).properties ?? {};
    messages = Object.fromEntries(
      Object.keys(raw).map((k) => [
        k,
        messages[k] ?? (typeof raw[k]?.errorMessage === 'string' ? raw[k].errorMessage : BAD_PARAM),
      ]),
    );
    for (const f of schemas.registry.fields(`filters/${filter}`)) {
      if (f.enumName) {
        // one of the enumeration's values, as a number or as the string a form posts; '' means any
        const options = schemas.registry.enumOptions(f.enumName);
        const values = options.map((o) => o.value);
        props[f.name] = {
          title: f.title,
          description: `${f.title}：${options.map((o) => `${o.value} ${o.label}`).join('，')}`,
          anyOf: [{ enum: values }, { type: 'string', enum: ['', ...values.map(String)] }],
          errorMessage: messages[f.name] ?? BAD_PARAM,
        };
      } else if (f.format === 'date' || f.format === 'date-time') {
        // a calendar date (YYYY-MM-DD) or date and time (YYYY-MM-DD HH:mm:ss, as the console sends
        // it); '' means any. Checked here, so no service ever meets an impossible date.
        props[f.name] = {
          title: f.title,
          type: 'string',
          anyOf: [{ maxLength: 0 }, { format: f.format === 'date' ? 'date' : 'business-date-time' }],
          errorMessage: messages[f.name] ?? BAD_PARAM,
        };
      } else {
        props[f.name] = {
          title: f.title,
          ...(f.maxLength ? { maxLength: f.maxLength, errorMessage: messages[f.name] ?? BAD_PARAM } : {}),
        };
      }
    }
  }
  return params({ ...props, ...paging });
}

/**
 * Paging of list endpoints, in the spec's conventions: `currentPage` + `pageRowCount` (answer
 * `{list,totalCount,currentPage,pageRowCount,totalPage}`) or `page` + `rows` (answer
 * `{data,totalRecord,page,rows,totalPage}`). Page size 15 unless asked, at most 200.
 */
import { ApiError } from './errors';

export const DEFAULT_PAGE_SIZE = 15;
export const MAX_PAGE_SIZE = 200;
/** the highest page number asked for (OFFSET stays far below PostgreSQL's bigint) */
export const MAX_PAGE = 1_000_000;

export const PAGING_MESSAGES = {
  page: '参数错误：页码须为正整数',
  size: '参数错误：每页条数须为正整数',
};

export interface Paging {
  page: number;
  size: number;
  offset: number;
}

/**
 * A positive integer from a query/form value (digits) or a JSON number; `undefined` when absent
 * (undefined, null, empty string). Anything else (fractions, zero, negatives, words, arrays,
 * objects, numbers beyond `max`) is refused with `msg`; `clampTo` caps an otherwise valid value
 * instead of refusing it.
 */
function positiveInt(v: unknown, msg: string, max: number, clampTo?: number): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  let n = Number.NaN;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string' && /^\s*\d{1,20}\s*$/.test(v)) n = Number(v);
  if (!Number.isSafeInteger(n) && !(clampTo !== undefined && Number.isInteger(n))) throw new ApiError(400, msg);
  if (n < 1) throw new ApiError(400, msg);
  if (n > max) {
    if (clampTo === undefined) throw new ApiError(400, msg);
    return clampTo;
  }
  return n;
}

/**
 * Reads either convention from a query or form body: absent values take the defaults (page 1,
 * `defaultSize` rows); a page size above 200 is capped at 200; a page or size that is not a
 * positive integer, or a page above {@link MAX_PAGE}, is refused with code 400.
 */
export function pagingOf(params: object | undefined, defaultSize = DEFAULT_PAGE_SIZE): Paging {
  const p = (params ?? {}) as Record<string, unknown>;
  const page = positiveInt(p.currentPage ?? p.page, PAGING_MESSAGES.page, MAX_PAGE) ?? 1;
  const rawSize = p.pageRowCount ?? (typeof p.rows === 'string' || typeof p.rows === 'number' ? p.rows : undefined);
  const size =
    positiveInt(rawSize, PAGING_MESSAGES.size, MAX_PAGE_SIZE, MAX_PAGE_SIZE) ?? Math.min(defaultSize, MAX_PAGE_SIZE);
  return { page, size, offset: (page - 1) * size };
}

export const totalPages = (total: number, size: number) => Math.max(1, Math.ceil(total / size));

/** `{list,totalCount,currentPage,pageRowCount,totalPage}` */
export function listPage<T>(list: T[], total: number, paging: Paging) {
  return {
    list,
    totalCount: total,
    currentPage: paging.page,
    pageRowCount: paging.size,
    totalPage: totalPages(total, paging.size),
  };
}

/** `{data,totalRecord,page,rows,totalPage,currentPage,pageRowCount}` (notices and other data/totalRecord lists) */
export function dataPage<T>(data: T[], total: number, paging: Paging) {
  return {
    data,
    totalRecord: total,
    page: paging.page,
    rows: paging.size,
    totalPage: totalPages(total, paging.size),
    currentPage: paging.page,
    pageRowCount: paging.size,
  };
}

/** `{entityList,totalCount}` (templates) */
export function entityPage<T>(entityList: T[], total: number, paging: Paging) {
  return {
    entityList,
    totalCount: total,
    currentPage: paging.page,
    pageRowCount: paging.size,
    totalPage: totalPages(total, paging.size),
  };
}

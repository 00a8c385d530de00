/**
 * Paging of list endpoints, in the spec's conventions: `currentPage` + `pageRowCount` (answer
 * `{list,totalCount,currentPage,pageRowCount,totalPage}`) or `page` + `rows` (answer
 * `{data,totalRecord,page,rows,totalPage}`). Page size 15 unless asked, at most 200.
 */
export const DEFAULT_PAGE_SIZE = 15;
export const MAX_PAGE_SIZE = 200;

export interface Paging {
  page: number;
  size: number;
  offset: number;
}

const int = (v: unknown, fallback: number) => {
  const n = typeof v === 'number' ? v : Number.parseInt(String(v ?? ''), 10);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : fallback;
};

/** Reads either convention from a query or form body. */
export function pagingOf(params: Record<string, unknown> | undefined, defaultSize = DEFAULT_PAGE_SIZE): Paging {
  const p = params ?? {};
  const page = int(p.currentPage ?? p.page, 1);
  const size = Math.min(int(p.pageRowCount ?? (typeof p.rows === 'string' || typeof p.rows === 'number' ? p.rows : undefined), defaultSize), MAX_PAGE_SIZE);
  return { page, size, offset: (page - 1) * size };
}

export const totalPages = (total: number, size: number) => Math.max(1, Math.ceil(total / size));

/** `{list,totalCount,currentPage,pageRowCount,totalPage}` */
export function listPage<T>(list: T[], total: number, paging: Paging) {
  return { list, totalCount: total, currentPage: paging.page, pageRowCount: paging.size, totalPage: totalPages(total, paging.size) };
}

/** `{data,totalRecord,page,rows,totalPage,currentPage,pageRowCount}` (notices and other data/totalRecord lists) */
export function dataPage<T>(data: T[], total: number, paging: Paging) {
  return { data, totalRecord: total, page: paging.page, rows: paging.size, totalPage: totalPages(total, paging.size), currentPage: paging.page, pageRowCount: paging.size };
}

/** `{entityList,totalCount}` (templates) */
export function entityPage<T>(entityList: T[], total: number, paging: Paging) {
  return { entityList, totalCount: total, currentPage: paging.page, pageRowCount: paging.size, totalPage: totalPages(total, paging.size) };
}

/**
 * A page of a filtered list and the filter's total, in one query: the rows carry `count(*) over ()`
 * beside them. Past the last page no row carries it, and only then is the total counted on its own
 * (an empty first page is 0: nothing matches). Every paged list of the modules reads this way.
 */
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Paging } from '../http/paging';

/**
 * `filtered` is the list's query with its filter and nothing else (what is counted); `rows` adds the
 * columns and the order of the page to it.
 */
export async function pageOf<DB, TB extends keyof DB, O, R>(
  filtered: SelectQueryBuilder<DB, TB, O>,
  rows: (q: SelectQueryBuilder<DB, TB, O>) => SelectQueryBuilder<DB, TB, R>,
  paging: Paging,
): Promise<{ rows: R[]; total: number }> {
  // Kysely cannot name a selection's type over a generic DB: the two reads are typed here, once
  const page = (await rows(filtered)
    .select(sql<string | number>`count(*) over ()`.as('window_total'))
    .limit(paging.size)
    .offset(paging.offset)
    .execute()) as (R & { window_total: string | number })[];
  if (page.length) return { rows: page, total: Number(page[0].window_total) };
  if (paging.offset === 0) return { rows: [], total: 0 };
  const { n } = (await filtered.select(sql<string | number>`count(*)`.as('n')).executeTakeFirstOrThrow()) as {
    n: string | number;
  };
  return { rows: [], total: Number(n) };
}

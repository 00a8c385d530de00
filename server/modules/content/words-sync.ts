/**
 * The words operators add in the console (table sensitive_words, docs/api-operator.md "Content")
 * join the list file's in every process: each process looks at the table's signature (count and
 * highest id) every WORDS_SYNC_MS and, when it changed, reads the words again into `ctx.words`
 * (SensitiveWords.setExtra). The process that made the change syncs at once.
 */
import { sql } from 'kysely';
import type { AppContext } from '../../context';

export const WORDS_SYNC_MS = 2000;

const seen = new WeakMap<AppContext, string>();

/** Reads the table again when its signature changed (or `force`); returns whether it did. */
export async function syncWords(ctx: Pick<AppContext, 'db' | 'words'>, force = false): Promise<boolean> {
  const key = ctx as AppContext;
  const r = await sql<{
    n: number;
    m: number;
  }>`select count(*)::int as n, coalesce(max(id), 0)::int as m from sensitive_words`.execute(ctx.db);
  const sig = `${r.rows[0].n}:${r.rows[0].m}`;
  if (!force && seen.get(key) === sig) return false;
  const rows = await ctx.db.selectFrom('sensitive_words').select('word').orderBy('id').execute();
  ctx.words.setExtra(rows.map((x) => x.word));
  seen.set(key, sig);
  return true;
}

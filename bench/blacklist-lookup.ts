/**
 * The acceptance's blacklist look-up (server/modules/blacklist/lookup.ts) on PostgreSQL: which of
 * N numbers (default 1,000,000, a large marketing send) are on the account's or the platform's
 * blacklist, with blacklists of 0, 10,000 and 100,000 numbers per side. Prints the wall time and
 * the numbers found (exact: every blacklisted number of the send and no other).
 * `TEST_DATABASE_URL=postgres://… npx tsx bench/blacklist-lookup.ts`
 */
import { performance } from 'node:perf_hooks';
import os from 'node:os';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../server/db';
import { blacklistedOf } from '../server/modules/blacklist';

const N = Number(process.env.N ?? 1_000_000);
const url = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL;
if (!url) {
  console.log('set DATABASE_URL or TEST_DATABASE_URL');
  process.exit(2);
}

async function main() {
  const schema = `bench_bl_${process.pid}`;
  const admin = async (q: string) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(q).finally(() => c.end());
  };
  await admin(`create schema ${schema}`);
  const handle = await openDatabase({ databaseUrl: url, schema });
  const db = handle.db;
  try {
    const acc =
      (await db.selectFrom('accounts').select('id').orderBy('id').limit(1).executeTakeFirst())?.id ??
      (
        await sql<{
          id: number;
        }>`insert into accounts (clientid, user_type, password_hash) values ('bench', '2', 'x') returning id`.execute(
          db,
        )
      ).rows[0].id;
    const phones = Array.from({ length: N }, (_, i) => `13${String(100_000_000 + i * 7).slice(-9)}`);
    for (const size of [0, 10_000, 100_000]) {
      await sql`delete from blacklist`.execute(db);
      if (size) {
        // half of each list in the send (every 2nd listed number is one of its numbers), half elsewhere
        const own = Array.from({ length: size }, (_, i) =>
          i % 2 ? phones[(i * 37) % N] : `15${String(i).padStart(9, '0')}`,
        );
        const plat = Array.from({ length: size }, (_, i) =>
          i % 2 ? phones[(i * 53 + 1) % N] : `17${String(i).padStart(9, '0')}`,
        );
        await sql`insert into blacklist (account_id, phone, source) select ${acc}::int, p, 2 from unnest(${own}::text[]) p on conflict do nothing`.execute(
          db,
        );
        await sql`insert into blacklist (account_id, phone, source) select null, p, 3 from unnest(${plat}::text[]) p on conflict do nothing`.execute(
          db,
        );
        await sql`analyze blacklist`.execute(db);
      }
      const inSend = new Set(phones);
      const expected = new Set(
        (await sql<{ phone: string }>`select phone from blacklist`.execute(db)).rows
          .map((r) => r.phone)
          .filter((p) => inSend.has(p)),
      );
      const times: number[] = [];
      let found = new Set<string>();
      for (let r = 0; r < 3; r++) {
        const t0 = performance.now();
        found = await blacklistedOf(db, acc, phones);
        times.push(performance.now() - t0);
      }
      const exact = found.size === expected.size && [...found].every((p) => expected.has(p));
      console.log(
        `${N} numbers, blacklists of ${size} (account) + ${size} (platform): ${times.map((t) => t.toFixed(0)).join(' / ')} ms, found ${found.size}, exact ${exact ? 'yes' : 'NO'}; load ${os.loadavg()[0].toFixed(1)}`,
      );
    }
  } finally {
    await handle.close();
    await admin(`drop schema ${schema} cascade`);
  }
}

void main();

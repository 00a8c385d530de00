/** One statement on its own PostgreSQL connection (a benchmark's throw-away database or schema made or dropped). */
import pg from 'pg';

export async function pgAdmin(url: string, q: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(q);
  } finally {
    await c.end();
  }
}

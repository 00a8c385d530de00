/** A benchmark's own PostgreSQL statements and throw-away databases, each on its own connection. */
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

/** A benchmark's throw-away database (scratchDatabase). */
export interface ScratchDatabase {
  name: string;
  /** the server's URL with this database's name */
  url: string;
  /** the database dropped, sessions still on it ended */
  drop: () => Promise<void>;
}

/** A new, empty database `<prefix>_<pid>` on the PostgreSQL server of `url`. */
export async function scratchDatabase(url: string, prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${process.pid}`;
  await pgAdmin(url, `create database ${name}`);
  const u = new URL(url);
  u.pathname = `/${name}`;
  return { name, url: u.toString(), drop: () => pgAdmin(url, `drop database if exists ${name} with (force)`) };
}

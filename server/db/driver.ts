/**
 * Which driver runs a Kysely (a database, one of its connections or a transaction): what the paths
 * that stream with COPY on PostgreSQL (pg-copy-streams) and use statements on PGlite choose by.
 */
import type { Kysely } from 'kysely';
import type { Database } from './types';

/** 'pg' when a node-postgres client runs `db`'s statements, else 'other' (PGlite). */
export async function driverOf(db: Pick<Kysely<Database>, 'getExecutor'>): Promise<'pg' | 'other'> {
  return db
    .getExecutor()
    .provideConnection(async (conn) => (conn.constructor.name === 'PostgresConnection' ? 'pg' : 'other'));
}

import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../../server/db';
import { StatementNames } from '../../server/db/prepared';
import { loadConfig } from '../../server/config';
import { pgAdmin, TEST_DATABASE_URL } from './harness';

/**
 * Hot statements are prepared on PostgreSQL (server/db/prepared.ts, issue 28 item 3): a text
 * with parameters is named on its third use, at most DB_PREPARED_MAX texts per process; a text
 * with an array parameter (whose plan depends on the array's length) and transaction control stay
 * unnamed; a prepared plan PostgreSQL refuses after another process changed the table's columns
 * fails that one statement and the text runs unnamed from then on.
 */
describe('statement names', () => {
  it('names a text on its threshold-th use, keeps the name, never reuses one, and stops at max', () => {
    const n = new StatementNames({ threshold: 3, max: 2 });
    expect(n.nameOf('select $1')).toBeUndefined();
    expect(n.nameOf('select $1')).toBeUndefined();
    const a = n.nameOf('select $1');
    expect(a).toBe('k1');
    expect(n.nameOf('select $1')).toBe(a);
    n.nameOf('select $2');
    n.nameOf('select $2');
    expect(n.nameOf('select $2')).toBe('k2');
    for (let i = 0; i < 5; i++) expect(n.nameOf('select $3')).toBeUndefined();
    n.refuse('select $1');
    for (let i = 0; i < 5; i++) expect(n.nameOf('select $1')).toBeUndefined();
    expect(n.size).toBe(1);
  });

  it('tells apart texts of the same length that differ only between the characters its key reads', () => {
    const n = new StatementNames({ threshold: 1, max: 10 });
    const a = `select $1 ${'x'.repeat(6400)}`;
    const b = `${a.slice(0, 50)}y${a.slice(51)}`;
    const na = n.nameOf(a);
    const nb = n.nameOf(b);
    expect(na).toBeDefined();
    expect(nb).toBeDefined();
    expect(nb).not.toBe(na);
    // built anew (as Kysely builds every text): the same names
    expect(n.nameOf(`select $1 ${'x'.repeat(6400)}`)).toBe(na);
    n.refuse(b);
    expect(n.nameOf(b)).toBeUndefined();
    expect(n.nameOf(a)).toBe(na);
    expect(n.size).toBe(1);
  });

  it('forgets the counts of texts never named once 4,096 are counted; named texts keep their names', () => {
    const n = new StatementNames({ threshold: 2, max: 10 });
    n.nameOf('select $1');
    const named = n.nameOf('select $1');
    n.nameOf('select $2'); // counted once
    for (let i = 0; i < 4096; i++) n.nameOf(`select ${i}, $1`);
    // 'select $2' was forgotten: its next use counts as its first
    expect(n.nameOf('select $2')).toBeUndefined();
    expect(n.nameOf('select $2')).toBe('k2');
    expect(n.nameOf('select $1')).toBe(named);
  });

  it('a text refused before it was ever seen is never named, and the counts stay right', () => {
    const n = new StatementNames({ threshold: 1, max: 10 });
    n.refuse('select $9');
    expect(n.nameOf('select $9')).toBeUndefined();
    expect(n.size).toBe(0);
    expect(n.nameOf('select $1')).toBe('k1');
    expect(n.size).toBe(1);
  });

  it('threshold 0 names nothing', () => {
    const n = new StatementNames({ threshold: 0, max: 10 });
    for (let i = 0; i < 5; i++) expect(n.nameOf('select $1')).toBeUndefined();
  });

  it('DB_PREPARE_THRESHOLD and DB_PREPARED_MAX, with their defaults; a bad value is refused', () => {
    const prepare = (env: Record<string, string>) => loadConfig(env).db.prepare;
    expect(prepare({})).toEqual({ threshold: 3, max: 256 });
    expect(prepare({ DB_PREPARE_THRESHOLD: '0', DB_PREPARED_MAX: '10' })).toEqual({ threshold: 0, max: 10 });
    expect(() => prepare({ DB_PREPARE_THRESHOLD: 'x' })).toThrow(
      /DB_PREPARE_THRESHOLD="x" is not accepted: expected an integer/,
    );
  });
});

describe.skipIf(!TEST_DATABASE_URL)('prepared statements (postgres)', () => {
  const schema = `prep_${process.pid}`;
  let h: DbHandle;
  const prepared = async () =>
    (
      await sql<{
        statement: string;
      }>`select statement from pg_prepared_statements where from_sql = false order by statement`.execute(h.db)
    ).rows.map((r) => r.statement);

  beforeAll(async () => {
    await pgAdmin(`create schema ${schema}`);
    // one connection: every statement below runs on it
    h = await createDb({ databaseUrl: TEST_DATABASE_URL, schema, poolSize: 1, prepare: { threshold: 3, max: 256 } });
    await sql`create table t (id int primary key, a text)`.execute(h.db);
    await sql`insert into t values (1, 'x'), (2, 'y')`.execute(h.db);
  });
  afterAll(async () => {
    await h?.close();
    await pgAdmin(`drop schema if exists ${schema} cascade`);
  });

  it('a text with parameters is prepared on its third use and answers the same from then on', async () => {
    const q = (id: number) =>
      h.db
        .selectFrom('t' as never)
        .selectAll()
        .where('id' as never, '=', id as never)
        .execute();
    expect(await q(1)).toEqual([{ id: 1, a: 'x' }]);
    expect(await q(2)).toEqual([{ id: 2, a: 'y' }]);
    expect(await prepared()).toEqual([]);
    expect(await q(1)).toEqual([{ id: 1, a: 'x' }]);
    expect(await q(2)).toEqual([{ id: 2, a: 'y' }]);
    expect(await prepared()).toEqual(['select * from "t" where "id" = $1']);
    // inside a transaction and after its rollback the statement still serves
    await h.db.transaction().execute(async (tx) => {
      expect(
        await tx
          .selectFrom('t' as never)
          .selectAll()
          .where('id' as never, '=', 2 as never)
          .execute(),
      ).toEqual([{ id: 2, a: 'y' }]);
    });
    await expect(
      h.db.transaction().execute(async (tx) => {
        await tx
          .selectFrom('t' as never)
          .selectAll()
          .where('id' as never, '=', 1 as never)
          .execute();
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await q(1)).toEqual([{ id: 1, a: 'x' }]);
  });

  it('array parameters and parameterless statements stay unnamed', async () => {
    for (let i = 0; i < 5; i++) {
      await sql`select id from t where id = any(${[1, 2]}::int[])`.execute(h.db);
      await sql`select count(*) from t`.execute(h.db);
    }
    expect((await prepared()).filter((s) => s.includes('any(') || s.includes('count('))).toEqual([]);
  });

  it('after another process adds a column, the stale plan fails once and the text then runs unnamed', async () => {
    const q = () => sql`select * from t where id = ${1}`.execute(h.db);
    for (let i = 0; i < 3; i++) await q();
    expect(await prepared()).toContain('select * from t where id = $1');
    const other = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await other.connect();
    try {
      await other.query(`alter table ${schema}.t add column b int`);
    } finally {
      await other.end();
    }
    await expect(q()).rejects.toMatchObject({ code: '0A000' });
    expect((await q()).rows).toEqual([{ id: 1, a: 'x', b: null }]);
    expect((await q()).rows).toEqual([{ id: 1, a: 'x', b: null }]);
  });
});

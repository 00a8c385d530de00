import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import type pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../../server/db';
import { arrayLiteral, withArrayLiterals } from '../../server/db/array-params';
import { prepareHotStatements } from '../../server/db/prepared';
import { pgAdmin, TEST_DATABASE_URL } from './harness';

/**
 * Array parameters are written as PostgreSQL literals in one pass (server/db/array-params.ts,
 * issue 28 item 4): the same literal node-postgres writes, character for character, for numbers,
 * strings (quotes, backslashes, commas, braces, NULL-like text, CJK, empty), booleans, bigints and
 * null elements; anything else is left to node-postgres.
 */
const pgUtils = createRequire(import.meta.url)('pg/lib/utils') as { prepareValue(v: unknown): unknown };

/** a small deterministic generator (mulberry32) */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = ['a', '"', '\\', ',', '{', '}', ' ', 'NULL', '好', '\n', '0', "'", 'x\\"y'];

function element(r: () => number): unknown {
  const k = Math.floor(r() * 7);
  if (k === 0) return null;
  if (k === 1) return Math.floor(r() * 2 ** 31) * (r() < 0.5 ? -1 : 1);
  if (k === 2) return r() * 1e6;
  if (k === 3) return r() < 0.5;
  if (k === 4) return BigInt(Math.floor(r() * 1e9)) * 1_000_000_007n;
  const n = Math.floor(r() * 6);
  let s = '';
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(r() * PIECES.length)];
  return s;
}

describe('array literals', () => {
  it('writes what node-postgres writes, for 2,000 random arrays and the edge cases', () => {
    const r = random(28);
    const cases: unknown[][] = [
      [],
      [null],
      [undefined],
      [''],
      ['"'],
      ['\\'],
      [1, 2, 3],
      ['a', 'b'],
      ['2026-11-29T03:00:00.000Z', null],
      [NaN, Infinity, -0],
    ];
    for (let i = 0; i < 2000; i++) cases.push(Array.from({ length: Math.floor(r() * 12) }, () => element(r)));
    for (const xs of cases) expect(arrayLiteral(xs)).toBe(pgUtils.prepareValue(xs));
  });

  it('leaves an array with a Date, a Buffer, an object or a nested array to node-postgres', () => {
    for (const x of [new Date(0), Buffer.from('x'), { a: 1 }, [1]]) expect(arrayLiteral([1, x])).toBeUndefined();
    const values = [1, [2, new Date(0)], 'x'];
    expect(withArrayLiterals(values)).toBe(values);
  });

  it('a pooled connection sends the literal in place of the array (named or not)', () => {
    for (const threshold of [0, 3]) {
      const pool = new EventEmitter();
      const sent: unknown[] = [];
      const client = { query: (_text: unknown, values: unknown) => sent.push(values) };
      prepareHotStatements(pool as unknown as pg.Pool, { threshold, max: 10 });
      pool.emit('connect', client);
      client.query('select $1::int[], $2', [[1, 2], 'a']);
      expect(sent).toEqual([['{"1","2"}', 'a']]);
    }
  });

  it('replaces only the arrays it writes, in a copy', () => {
    const values = [1, [1, 2], 'x', ['a', null]];
    const out = withArrayLiterals(values);
    expect(out).toEqual([1, '{"1","2"}', 'x', '{"a",NULL}']);
    expect(values[1]).toEqual([1, 2]);
  });
});

describe.skipIf(!TEST_DATABASE_URL)('array parameters (postgres)', () => {
  const schema = `array_params_${process.pid}`;
  let h: DbHandle;
  beforeAll(async () => {
    await pgAdmin(`create schema ${schema}`);
    h = await createDb({ databaseUrl: TEST_DATABASE_URL!, schema, poolSize: 1 });
  });
  afterAll(async () => {
    await h?.close();
    await pgAdmin(`drop schema if exists ${schema} cascade`);
  });

  it('arrive as the same arrays (int, text with every special character and NULL, timestamptz, boolean)', async () => {
    const texts = ['a', '"', '\\', 'x\\"y', ',{}', 'NULL', null, '', '好易购'];
    const times = ['2026-11-29T03:00:00.000Z', null];
    const r = await sql<{ i: number[]; t: (string | null)[]; d: (string | null)[]; b: boolean[] }>`
      select ${[1, -2, 2147483647]}::int[] as i, ${texts}::text[] as t,
        array(select to_char(x at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') from unnest(${times}::timestamptz[]) x) as d,
        ${[true, false]}::boolean[] as b`.execute(h.db);
    expect(r.rows[0]).toEqual({ i: [1, -2, 2147483647], t: texts, d: times, b: [true, false] });
  });

  it('reads a bigint and a bigint[] as numbers while safe, as BigInt past 2^53 (as PGlite does)', async () => {
    const far = 2 ** 32 + 5;
    const r = await sql<{ one: number; many: (number | null)[]; count: number; huge: bigint }>`
      select ${far}::bigint as one, ${[far, 1, null]}::bigint[] as many, count(*) as count, 9007199254740993::bigint as huge
      from generate_series(1, 3)`.execute(h.db);
    expect(r.rows[0]).toEqual({ one: far, many: [far, 1, null], count: 3, huge: 9007199254740993n });
  });
});

/**
 * A task's messages, written by its acceptance (docs/api-send.md "Large tasks"):
 *
 * - up to `INLINE_ROWS` (10,000) of them as message rows in the accepting transaction: COPY
 *   (pg-copy-streams) on PostgreSQL, one INSERT ... SELECT over unnest(arrays) per 50,000 rows on
 *   PGlite (no COPY from a client stream there);
 * - the rest as chunks of `CHUNK_ROWS` (sms_task_chunks, send/chunks.ts): one compressed row per
 *   10,000 numbers. Messages that wait for dispatch (state 0: sent at once or timed) or for review
 *   (7) are turned into message rows by the dispatch workers just after (`expandNextChunk`), each
 *   chunk in its own transaction. Intercepted messages (final at acceptance) stay chunks — `hold`,
 *   counted by the reports all the same (migration 0028) — until a reader needs them as rows
 *   (`expandTask`: the task's number list and export).
 * - A large accept compresses its chunks before its transaction (`stageChunks`, short
 *   transactions of their own into sms_chunk_staging) and its transaction moves them with one
 *   statement: the database is held for that and the first 10,000 rows only.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CompiledQuery, sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import { randomUUID } from 'node:crypto';
import copyStreams from 'pg-copy-streams';
import type { Database } from '../../db/types';
import { driverOf } from '../../db/driver';
import { regionOf } from '../../../common/sms/segments';
import { enqueueTask, enqueueTaskSql } from '../dispatch';
import { decodeChunk, encodeChunk, type ChunkPayload } from './chunks';
import { SendRecordStatus } from '../../../common/generated/schemas';

type Tx = Transaction<Database>;

/** messages of a task written as rows in its acceptance; the rest are stored as chunks */
export const INLINE_ROWS = 10_000;
/** numbers per chunk (one expansion transaction each) */
export const CHUNK_ROWS = 10_000;

export interface MessageBatch {
  taskId: number;
  accountId: number;
  phones: readonly string[];
  /** carrier of each phone (1-3) */
  carriers: Uint8Array;
  pieces: number;
  /** price per piece per carrier (decimal strings) */
  prices: Record<1 | 2 | 3, string>;
  state: number;
  /** set: the task is queued for dispatch (dispatch_queue) from this insert on; null: not yet (a timed task, messages awaiting review) */
  nextAt: Date | null;
  createdAt: Date;
  doneAt: Date | null;
  /** variable / international sends: per-message values that override the batch's ones */
  /** the chunks beyond INLINE_ROWS, already compressed and staged (`stageChunks`, before the transaction) */
  staged?: StagedChunks | null;
  each?: {
    /** the message's own text (variable SMS), null = the task's */
    texts?: readonly (string | null)[];
    /** pieces of each message */
    pieces?: Uint16Array;
    /** price per piece of each message (international: its country's fee) */
    prices?: readonly string[];
    /** no province / city lookup (international numbers) */
    noRegions?: boolean;
  };
}

/** Message rows to write: `n` of them, each value by index. */
interface Rows {
  taskId: number;
  accountId: number;
  state: number;
  createdAt: Date;
  doneAt: Date | null;
  n: number;
  phone(i: number): string;
  carrier(i: number): number;
  province(i: number): number;
  city(i: number): number;
  pieces(i: number): number;
  price(i: number): string;
  /** the message's own text, null = the task's */
  text(i: number): string | null;
}

const COLUMNS =
  'task_id, account_id, phone, carrier, province_id, city_id, pieces, price, state, created_at, done_at, content';

/** Province and city ids of every phone (0 when the data names none). */
function regions(phones: readonly string[]): { province: Int32Array; city: Int32Array } {
  const province = new Int32Array(phones.length);
  const city = new Int32Array(phones.length);
  // numbers of one 7-digit block share their region: cache per block
  const cache = new Map<string, [number, number]>();
  for (let i = 0; i < phones.length; i++) {
    const block = phones[i].slice(0, 7);
    let r = cache.get(block);
    if (!r) {
      const g = regionOf(phones[i]);
      r = g ? [g.province.provinceId, g.city.cityId] : [0, 0];
      cache.set(block, r);
    }
    province[i] = r[0];
    city[i] = r[1];
  }
  return { province, city };
}

/** What stageChunks staged: the batch's numbers [from, n) under `token`. */
export interface StagedChunks {
  token: string;
  from: number;
  chunks: number;
}

/** Messages in a final state at acceptance (intercepted): their chunks are not expanded by the workers. */
export const isHeldState = (state: number) =>
  state !== SendRecordStatus.NotSent && state !== SendRecordStatus.AwaitingReview;

/** A batch without its task (its chunks are staged before the task row exists). */
export type UnplacedBatch = Omit<MessageBatch, 'taskId' | 'staged'>;

/** Whether a batch has chunks (more numbers than are written as rows in the accept). */
export const hasChunks = (b: Pick<MessageBatch, 'phones'>) => b.phones.length > INLINE_ROWS;

/** A task's messages (see the module's comment for which are rows and which chunks). */
export async function insertMessages(trx: Tx, b: MessageBatch): Promise<void> {
  const n = b.phones.length;
  if (!n) return;
  const queued = b.nextAt !== null && b.state === SendRecordStatus.NotSent;
  const inline = Math.min(n, INLINE_ROWS);
  const { province, city } = regionsOf(b, 0, inline);
  const each = b.each ?? {};
  const rows: Rows = {
    taskId: b.taskId,
    accountId: b.accountId,
    state: b.state,
    createdAt: b.createdAt,
    doneAt: b.doneAt,
    n: inline,
    phone: (i) => b.phones[i],
    carrier: (i) => b.carriers[i],
    province: (i) => province[i],
    city: (i) => city[i],
    pieces: each.pieces ? (i) => each.pieces![i] : () => b.pieces,
    price: each.prices ? (i) => each.prices![i] : (i) => b.prices[b.carriers[i] as 1 | 2 | 3],
    text: each.texts ? (i) => each.texts![i] ?? null : () => null,
  };
  // a task of rows alone is queued by the statement that writes them (one round trip fewer)
  const queuedWithRows = queued && inline === n ? enqueueTaskSql(b.taskId, b.nextAt!) : undefined;
  const queuedAlready = await writeRows(trx, rows, queuedWithRows);
  if (inline < n) {
    const staged = b.staged && b.staged.from === inline ? b.staged : await stageChunks(trx, b);
    if (staged) await placeChunks(trx, b, staged);
  }
  if (queued && !queuedAlready) await enqueueTask(trx, b.taskId, b.nextAt!);
}

/** Province and city ids of the batch's numbers [from, to) (indexes from 0), zeros for international numbers. */
function regionsOf(b: UnplacedBatch, from: number, to: number) {
  return b.each?.noRegions
    ? { province: new Int32Array(to - from), city: new Int32Array(to - from) }
    : regions(b.phones.slice(from, to));
}

/**
 * The batch's numbers past INLINE_ROWS compressed into chunks and written to sms_chunk_staging,
 * a few chunks per statement, each statement its own transaction (on `db`; inside a transaction
 * when given one). null: the batch has none. The accept then moves them (`insertMessages` with
 * `staged`) or, refused, drops them (`dropStaged`).
 */
export async function stageChunks(db: Kysely<Database>, b: UnplacedBatch): Promise<StagedChunks | null> {
  const from = INLINE_ROWS;
  const n = b.phones.length;
  if (n <= from) return null;
  const token = randomUUID();
  const { province, city } = regionsOf(b, from, n);
  const starts: number[] = [];
  for (let i = from; i < n; i += CHUNK_ROWS) starts.push(i);
  const payloadOf = (start: number): ChunkPayload => {
    const end = Math.min(n, start + CHUNK_ROWS);
    const each = b.each;
    return {
      accountId: b.accountId,
      createdAt: b.createdAt.toISOString(),
      phones: b.phones.slice(start, end),
      carriers: Array.from(b.carriers.subarray(start, end)),
      province: Array.from(province.subarray(start - from, end - from)),
      city: Array.from(city.subarray(start - from, end - from)),
      pieces: each?.pieces ? Array.from(each.pieces.subarray(start, end)) : b.pieces,
      prices: each?.prices ? each.prices.slice(start, end) : { 1: b.prices[1], 2: b.prices[2], 3: b.prices[3] },
      ...(each?.texts ? { texts: each.texts.slice(start, end).map((t) => t ?? null) } : {}),
    };
  };
  const piecesOf = (start: number) => {
    const end = Math.min(n, start + CHUNK_ROWS);
    if (!b.each?.pieces) return (end - start) * b.pieces;
    let s = 0;
    for (let i = start; i < end; i++) s += b.each.pieces[i];
    return s;
  };
  try {
    // zlib runs on the thread pool: a few chunks are compressed at once while the previous ones are sent
    const GROUP = 4;
    for (let g = 0; g < starts.length; g += GROUP) {
      const group = starts.slice(g, g + GROUP);
      const payloads = await Promise.all(group.map((s) => encodeChunk(payloadOf(s))));
      await db
        .insertInto('sms_chunk_staging')
        .values(
          group.map((s, k) => ({
            token,
            seq: (s - from) / CHUNK_ROWS,
            rows: Math.min(CHUNK_ROWS, n - s),
            pieces_total: piecesOf(s),
            payload: payloads[k],
            created_at: b.createdAt,
          })),
        )
        .execute();
    }
  } catch (err) {
    await dropStaged(db, token);
    throw err;
  }
  return { token, from, chunks: starts.length };
}

/** Staged chunks nobody will place (the accept was refused); never throws. */
export async function dropStaged(
  db: Kysely<Database>,
  staged: StagedChunks | string | null | undefined,
): Promise<void> {
  const token = typeof staged === 'string' ? staged : staged?.token;
  if (!token) return;
  await db
    .deleteFrom('sms_chunk_staging')
    .where('token', '=', token)
    .execute()
    .catch(() => undefined);
}

/** The staged chunks become the task's (one statement each way, in the accepting transaction). */
async function placeChunks(trx: Tx, b: MessageBatch, staged: StagedChunks): Promise<void> {
  const hold = isHeldState(b.state);
  const inter = b.carriers[staged.from] === 4 ? 1 : 0;
  const moved = await sql<{ n: number }>`
    with moved as (
      insert into sms_task_chunks (task_id, seq, rows, payload, created_at, hold, state, done_at, account_id, inter, pieces_total)
      select ${b.taskId}::int, s.seq, s.rows, s.payload, s.created_at, ${hold}, ${b.state}::smallint, ${b.doneAt}::timestamptz, ${b.accountId}::int, ${inter}::smallint, s.pieces_total
      from sms_chunk_staging s where s.token = ${staged.token}
      order by s.seq
      returning 1
    )
    select count(*)::int as n from moved`.execute(trx);
  if (Number(moved.rows[0]?.n ?? 0) !== staged.chunks)
    throw new Error(
      `sms_chunk_staging ${staged.token}: ${staged.chunks} chunks staged, ${moved.rows[0]?.n ?? 0} found`,
    );
  await trx.deleteFrom('sms_chunk_staging').where('token', '=', staged.token).execute();
}

/**
 * Writes the next chunk of a task (`taskId`, held or not, or of any task whose chunks are not
 * held: the workers') as message rows and deletes it, in one transaction; returns the rows written (0: no chunk free). A task's chunks go in seq order
 * and one at a time: only its lowest chunk can be taken, and a chunk another worker holds is
 * skipped. The task's dispatch queue is opened again (its cursor may have passed every row
 * written before). When the expansion fails (a chunk that cannot be read, the database), nothing
 * of it is written, the chunk waits before it is tried again (`next_at`; `attempts`, `error`)
 * and the error is thrown: the other tasks' chunks go on meanwhile.
 */
export async function expandNextChunk(db: Kysely<Database>, taskId?: number, now: Date = new Date()): Promise<number> {
  let taken: { task_id: number; seq: number } | undefined;
  try {
    return await db.transaction().execute(async (trx) => {
      const r = await sql<ChunkRow>`
        select c.task_id, c.seq, c.payload, c.state, c.done_at from sms_task_chunks c
        where ${taskId !== undefined ? sql`c.task_id = ${taskId} and ` : sql``}c.seq = (select min(c2.seq) from sms_task_chunks c2 where c2.task_id = c.task_id)
          ${taskId !== undefined ? sql`` : sql`and not c.hold and (c.next_at is null or c.next_at <= ${now.toISOString()}::timestamptz)`}
        order by c.task_id
        limit 1
        for update skip locked`.execute(trx);
      const c = r.rows[0];
      if (!c) return 0;
      taken = c;
      return writeChunk(trx, c);
    });
  } catch (err) {
    if (taken) {
      const t = taken;
      await db
        .updateTable('sms_task_chunks')
        .set((eb) => ({
          attempts: eb('attempts', '+', 1),
          // 1 s, 2 s, 4 s … up to an hour
          next_at: sql`${now.toISOString()}::timestamptz + least(3600, power(2, least(attempts, 12))) * interval '1 second'`,
          error: String(err instanceof Error ? err.message : err).slice(0, 500),
        }))
        .where('task_id', '=', t.task_id)
        .where('seq', '=', t.seq)
        .execute()
        .catch(() => undefined);
    }
    throw err;
  }
}

interface ChunkRow {
  task_id: number;
  seq: number;
  payload: Buffer;
  state: number;
  done_at: Date | string | null;
}

/** One chunk's rows written and the chunk deleted (expandNextChunk's transaction). */
async function writeChunk(trx: Tx, c: ChunkRow): Promise<number> {
  const p = await decodeChunk(c.payload);
  const { pieces, prices } = p;
  const rows: Rows = {
    taskId: c.task_id,
    accountId: p.accountId,
    state: c.state,
    createdAt: new Date(p.createdAt),
    doneAt: c.done_at === null ? null : new Date(c.done_at),
    n: p.phones.length,
    phone: (i) => p.phones[i],
    carrier: (i) => p.carriers[i],
    province: (i) => p.province[i],
    city: (i) => p.city[i],
    pieces: typeof pieces === 'number' ? () => pieces : (i) => pieces[i],
    price: Array.isArray(prices) ? (i) => prices[i] : (i) => prices[String(p.carriers[i])],
    text: p.texts ? (i) => p.texts![i] : () => null,
  };
  await writeRows(trx, rows);
  await sql`delete from sms_task_chunks where task_id = ${c.task_id} and seq = ${c.seq}`.execute(trx);
  // last: the queue row's lock is held only to the commit
  await sql`update dispatch_queue set queued = true where task_id = ${c.task_id} and not queued`.execute(trx);
  return rows.n;
}

/**
 * Every chunk of a task written as rows (a reader that needs all of its numbers: the number
 * export, the number list): the chunks the workers have not taken are expanded here, one
 * transaction each; a chunk a worker is writing is waited for. false: a chunk failed (see
 * expandNextChunk), the task's rows are not all there.
 */
export async function expandTask(db: Kysely<Database>, taskId: number): Promise<boolean> {
  for (;;) {
    const left = await db
      .selectFrom('sms_task_chunks')
      .select('seq')
      .where('task_id', '=', taskId)
      .limit(1)
      .executeTakeFirst();
    if (!left) return true;
    try {
      if ((await expandNextChunk(db, taskId)) === 0) await new Promise((r) => setTimeout(r, 20));
    } catch {
      // a chunk that cannot be written now (it waits for its next try): the reader goes on with the rows there are
      return false;
    }
  }
}

/**
 * Up to this many rows are written by one INSERT from arrays on PostgreSQL too: one round trip,
 * where a COPY takes three (its partition's name, the COPY, its data); the door's accepting groups
 * and the dispatcher's small chunks are that size. More rows go by COPY, which costs less per row.
 */
const ARRAY_INSERT_MAX = 1000;

/**
 * Writes the rows. `alongside`: a statement the (first) INSERT from arrays runs as its CTE (the
 * task's dispatch queue row); true when it ran, false (COPY) when the caller must run it itself.
 */
async function writeRows(trx: Tx, rows: Rows, alongside?: RawBuilder<unknown>): Promise<boolean> {
  if (!rows.n) return false;
  if (rows.n > ARRAY_INSERT_MAX && (await driverOf(trx)) === 'pg') {
    await copyRows(trx, rows);
    return false;
  }
  // array parameters, in slices (each statement bounded; PGlite writes every batch this way)
  const step = 50_000;
  for (let i = 0; i < rows.n; i += step) {
    const idx = Array.from({ length: Math.min(rows.n, i + step) - i }, (_, k) => i + k);
    const cte = alongside && i === 0 ? sql`with alongside as (${alongside}) ` : sql``;
    await sql`${cte}
      insert into sms_messages (${sql.raw(COLUMNS)})
      select ${rows.taskId}::int, ${rows.accountId}::int, u.phone, u.carrier, u.province, u.city, u.pieces, u.price,
        ${rows.state}::smallint, ${rows.createdAt}::timestamptz, ${rows.doneAt}::timestamptz, u.content
      from unnest(${idx.map(rows.phone)}::text[], ${idx.map(rows.carrier)}::smallint[], ${idx.map(rows.province)}::int[],
                  ${idx.map(rows.city)}::int[], ${idx.map(rows.pieces)}::smallint[], ${idx.map(rows.price)}::numeric[], ${idx.map(rows.text)}::text[])
        as u(phone, carrier, province, city, pieces, price, content)`.execute(trx);
  }
  return !!alongside;
}

const tsText = (d: Date | null) => (d ? d.toISOString() : '\\N');
/** COPY text format: backslash, tab, newline and carriage return escaped */
const copyText = (v: string | null) =>
  v === null
    ? '\\N'
    : v.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));

async function copyRows(trx: Tx, rows: Rows): Promise<void> {
  // into the partition of this transaction's month, the one the ids' default names (both read now(),
  // the transaction's start, in Beijing time as sms_month_base does): PostgreSQL COPYs into the
  // partitioned parent, whose report trigger has a transition table, one row at a time (migration
  // 0054: the partition counts them itself). A database before migration 0052 has no partitions.
  const part = await sql<{ t: string | null }>`
    select to_regclass('sms_messages_' || to_char((now() at time zone 'UTC') + interval '8 hours', 'YYYYMM'))::text as t`.execute(
    trx,
  );
  const stream = copyStreams.from(`copy ${part.rows[0]?.t ?? 'sms_messages'} (${COLUMNS}) from stdin`);
  const head = `${rows.taskId}\t${rows.accountId}\t`;
  const mid = `\t${rows.state}\t${tsText(rows.createdAt)}\t${tsText(rows.doneAt)}\t`;
  function* pieces() {
    const step = 5000;
    for (let i = 0; i < rows.n; i += step) {
      let s = '';
      const end = Math.min(rows.n, i + step);
      for (let k = i; k < end; k++)
        s += `${head}${rows.phone(k)}\t${rows.carrier(k)}\t${rows.province(k)}\t${rows.city(k)}\t${rows.pieces(k)}\t${rows.price(k)}${mid}${copyText(rows.text(k))}\n`;
      yield Buffer.from(s);
    }
  }
  // node-postgres runs a query object with submit() as-is: Kysely hands it to the transaction's client
  await trx.getExecutor().provideConnection(async (conn) => {
    // errors of the COPY surface on the stream (pipeline below)
    conn.executeQuery(CompiledQuery.raw(stream as unknown as string)).catch(() => undefined);
  });
  await pipeline(Readable.from(pieces()), stream);
}

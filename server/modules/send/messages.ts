/**
 * A task's messages, written inside the acceptance transaction (docs/api-send.md "Large tasks"):
 *
 * - up to `INLINE_ROWS` (10,000) of them as message rows at once: COPY (pg-copy-streams) on
 *   PostgreSQL, one INSERT ... SELECT over unnest(arrays) per 50,000 rows on PGlite (no COPY from
 *   a client stream there);
 * - the rest of a task whose messages wait for dispatch (state 0: sent at once or timed) as chunks
 *   of `CHUNK_ROWS` (sms_task_chunks, send/chunks.ts): one compressed row per 10,000 numbers,
 *   which the dispatch workers turn into message rows just after (`expandNextChunk`), each chunk
 *   in its own transaction.
 *
 * Messages awaiting review and intercepted ones are always written as rows: they change state
 * with their task (review) or are final at once.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CompiledQuery, sql, type Kysely, type Transaction } from 'kysely';
import copyStreams from 'pg-copy-streams';
import type { Database } from '../../db/types';
import { regionOf } from '../../../common/sms/segments';
import { enqueueTask } from '../dispatch/sql';
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

const COLUMNS = 'task_id, account_id, phone, carrier, province_id, city_id, pieces, price, state, created_at, done_at, content';

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

/** Which driver runs this transaction ('pg' when it is a node-postgres client). */
async function driverOf(trx: Tx): Promise<'pg' | 'other'> {
  return trx.getExecutor().provideConnection(async (conn) => (conn.constructor.name === 'PostgresConnection' ? 'pg' : 'other'));
}

/** A task's messages (see the module's comment for which are rows and which chunks). */
export async function insertMessages(trx: Tx, b: MessageBatch): Promise<void> {
  const n = b.phones.length;
  if (!n) return;
  const queued = b.nextAt !== null && b.state === SendRecordStatus.NotSent;
  const inline = b.state === SendRecordStatus.NotSent ? Math.min(n, INLINE_ROWS) : n;
  const { province, city } = b.each?.noRegions ? { province: new Int32Array(n), city: new Int32Array(n) } : regions(b.phones);
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
  await writeRows(trx, rows);
  if (inline < n) await storeChunks(trx, b, inline, province, city);
  if (queued) await enqueueTask(trx, b.taskId, b.nextAt!);
}

/** Numbers [from, n) of the batch as chunks of CHUNK_ROWS, compressed a few at a time. */
async function storeChunks(trx: Tx, b: MessageBatch, from: number, province: Int32Array, city: Int32Array): Promise<void> {
  const starts: number[] = [];
  for (let i = from; i < b.phones.length; i += CHUNK_ROWS) starts.push(i);
  const payloadOf = (start: number): ChunkPayload => {
    const end = Math.min(b.phones.length, start + CHUNK_ROWS);
    const each = b.each;
    return {
      accountId: b.accountId,
      createdAt: b.createdAt.toISOString(),
      phones: b.phones.slice(start, end),
      carriers: Array.from(b.carriers.subarray(start, end)),
      province: Array.from(province.subarray(start, end)),
      city: Array.from(city.subarray(start, end)),
      pieces: each?.pieces ? Array.from(each.pieces.subarray(start, end)) : b.pieces,
      prices: each?.prices ? each.prices.slice(start, end) : { 1: b.prices[1], 2: b.prices[2], 3: b.prices[3] },
      ...(each?.texts ? { texts: each.texts.slice(start, end).map((t) => t ?? null) } : {}),
    };
  };
  // zlib runs on the thread pool: a few chunks are compressed at once while the previous ones are sent
  const GROUP = 4;
  for (let g = 0; g < starts.length; g += GROUP) {
    const group = starts.slice(g, g + GROUP);
    const payloads = await Promise.all(group.map((s) => encodeChunk(payloadOf(s))));
    await trx
      .insertInto('sms_task_chunks')
      .values(group.map((s, k) => ({ task_id: b.taskId, seq: (s - from) / CHUNK_ROWS, rows: Math.min(CHUNK_ROWS, b.phones.length - s), payload: payloads[k], created_at: b.createdAt })))
      .execute();
  }
}

/**
 * Writes the next chunk of a task (`taskId`, or of any task) as message rows and deletes it, in
 * one transaction; returns the rows written (0: no chunk free). A task's chunks go in seq order
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
      const r = await sql<{ task_id: number; seq: number; payload: Buffer }>`
        select c.task_id, c.seq, c.payload from sms_task_chunks c
        where ${taskId !== undefined ? sql`c.task_id = ${taskId} and ` : sql``}c.seq = (select min(c2.seq) from sms_task_chunks c2 where c2.task_id = c.task_id)
          ${taskId !== undefined ? sql`` : sql`and (c.next_at is null or c.next_at <= ${now.toISOString()}::timestamptz)`}
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

/** One chunk's rows written and the chunk deleted (expandNextChunk's transaction). */
async function writeChunk(trx: Tx, c: { task_id: number; seq: number; payload: Buffer }): Promise<number> {
  const p = await decodeChunk(c.payload);
  const rows: Rows = {
    taskId: c.task_id,
    accountId: p.accountId,
    state: SendRecordStatus.NotSent,
    createdAt: new Date(p.createdAt),
    doneAt: null,
    n: p.phones.length,
    phone: (i) => p.phones[i],
    carrier: (i) => p.carriers[i],
    province: (i) => p.province[i],
    city: (i) => p.city[i],
    pieces: typeof p.pieces === 'number' ? () => p.pieces as number : (i) => (p.pieces as number[])[i],
    price: Array.isArray(p.prices) ? (i) => (p.prices as string[])[i] : (i) => (p.prices as Record<string, string>)[String(p.carriers[i])],
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
    const left = await db.selectFrom('sms_task_chunks').select('seq').where('task_id', '=', taskId).limit(1).executeTakeFirst();
    if (!left) return true;
    try {
      if ((await expandNextChunk(db, taskId)) === 0) await new Promise((r) => setTimeout(r, 20));
    } catch {
      // a chunk that cannot be written now (it waits for its next try): the reader goes on with the rows there are
      return false;
    }
  }
}

async function writeRows(trx: Tx, rows: Rows): Promise<void> {
  if (!rows.n) return;
  if ((await driverOf(trx)) === 'pg') return copyRows(trx, rows);
  // PGlite: array parameters, in slices (each statement bounded)
  const step = 50_000;
  for (let i = 0; i < rows.n; i += step) {
    const idx = Array.from({ length: Math.min(rows.n, i + step) - i }, (_, k) => i + k);
    await sql`
      insert into sms_messages (${sql.raw(COLUMNS)})
      select ${rows.taskId}::int, ${rows.accountId}::int, u.phone, u.carrier, u.province, u.city, u.pieces, u.price,
        ${rows.state}::smallint, ${rows.createdAt}::timestamptz, ${rows.doneAt}::timestamptz, u.content
      from unnest(${idx.map(rows.phone)}::text[], ${idx.map(rows.carrier)}::smallint[], ${idx.map(rows.province)}::int[],
                  ${idx.map(rows.city)}::int[], ${idx.map(rows.pieces)}::smallint[], ${idx.map(rows.price)}::numeric[], ${idx.map(rows.text)}::text[])
        as u(phone, carrier, province, city, pieces, price, content)`.execute(trx);
  }
}

const tsText = (d: Date | null) => (d ? d.toISOString() : '\\N');
/** COPY text format: backslash, tab, newline and carriage return escaped */
const copyText = (v: string | null) => (v === null ? '\\N' : v.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r')));

async function copyRows(trx: Tx, rows: Rows): Promise<void> {
  const stream = copyStreams.from(`copy sms_messages (${COLUMNS}) from stdin`);
  const head = `${rows.taskId}\t${rows.accountId}\t`;
  const mid = `\t${rows.state}\t${tsText(rows.createdAt)}\t${tsText(rows.doneAt)}\t`;
  function* pieces() {
    const step = 5000;
    for (let i = 0; i < rows.n; i += step) {
      let s = '';
      const end = Math.min(rows.n, i + step);
      for (let k = i; k < end; k++) s += `${head}${rows.phone(k)}\t${rows.carrier(k)}\t${rows.province(k)}\t${rows.city(k)}\t${rows.pieces(k)}\t${rows.price(k)}${mid}${copyText(rows.text(k))}\n`;
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

/**
 * Bulk insert of a task's messages, inside the acceptance transaction: COPY (pg-copy-streams) on
 * PostgreSQL, one INSERT ... SELECT over unnest(string_to_array(...)) on PGlite (no COPY from a
 * client stream there). Both take 60,000 rows well under a second (bench/send-accept.ts).
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CompiledQuery, sql, type Transaction } from 'kysely';
import copyStreams from 'pg-copy-streams';
import type { Database } from '../../db/types';
import { regionOf } from '../../../common/sms/segments';
import { enqueueTask } from '../dispatch/sql';

type Tx = Transaction<Database>;

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

const COLUMNS = 'task_id, account_id, phone, carrier, province_id, city_id, pieces, price, state, created_at, done_at';
const COLUMNS_EACH = `${COLUMNS}, content`;

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

export async function insertMessages(trx: Tx, b: MessageBatch): Promise<void> {
  if (!b.phones.length) return;
  await writeMessages(trx, b);
  if (b.nextAt && b.state === 0) await enqueueTask(trx, b.taskId, b.nextAt);
}

async function writeMessages(trx: Tx, b: MessageBatch): Promise<void> {
  const { province, city } = b.each?.noRegions ? { province: new Int32Array(b.phones.length), city: new Int32Array(b.phones.length) } : regions(b.phones);
  if (b.each) return insertEach(trx, b, b.each, province, city, (await driverOf(trx)) === 'pg');
  if ((await driverOf(trx)) === 'pg') return copyMessages(trx, b, province, city);
  const price = (c: number) => b.prices[c as 1 | 2 | 3];
  await sql`
    insert into sms_messages (${sql.raw(COLUMNS)})
    select ${b.taskId}::int, ${b.accountId}::int, u.phone, u.carrier::smallint, u.province::int, u.city::int, ${b.pieces}::smallint,
      (case u.carrier::int when 1 then ${price(1)} when 2 then ${price(2)} else ${price(3)} end)::numeric,
      ${b.state}::smallint, ${b.createdAt}::timestamptz, ${b.doneAt}::timestamptz
    from unnest(string_to_array(${b.phones.join(',')}, ','), string_to_array(${b.carriers.join(',')}, ','),
                string_to_array(${province.join(',')}, ','), string_to_array(${city.join(',')}, ','))
      as u(phone, carrier, province, city)`.execute(trx);
}

const tsText = (d: Date | null) => (d ? d.toISOString() : '\\N');

async function copyMessages(trx: Tx, b: MessageBatch, province: Int32Array, city: Int32Array) {
  const stream = copyStreams.from(`copy sms_messages (${COLUMNS}) from stdin`);
  const fixedHead = `${b.taskId}\t${b.accountId}\t`;
  const tail = `\t${b.state}\t${tsText(b.createdAt)}\t${tsText(b.doneAt)}\n`;
  function* chunks() {
    const step = 5000;
    for (let i = 0; i < b.phones.length; i += step) {
      let s = '';
      const end = Math.min(b.phones.length, i + step);
      for (let k = i; k < end; k++) {
        const c = b.carriers[k];
        s += `${fixedHead}${b.phones[k]}\t${c}\t${province[k]}\t${city[k]}\t${b.pieces}\t${b.prices[c as 1 | 2 | 3]}${tail}`;
      }
      yield Buffer.from(s);
    }
  }
  // node-postgres runs a query object with submit() as-is: Kysely hands it to the transaction's client
  await trx.getExecutor().provideConnection(async (conn) => {
    // errors of the COPY surface on the stream (pipeline below)
    conn.executeQuery(CompiledQuery.raw(stream as unknown as string)).catch(() => undefined);
  });
  await pipeline(Readable.from(chunks()), stream);
}

/** COPY text format: backslash, tab, newline and carriage return escaped */
const copyText = (v: string | null) => (v === null ? '\\N' : v.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r')));

/** Messages whose text, pieces or price differ per message (variable and international sends). */
async function insertEach(trx: Tx, b: MessageBatch, each: NonNullable<MessageBatch['each']>, province: Int32Array, city: Int32Array, pg: boolean) {
  const n = b.phones.length;
  const piecesOf = (i: number) => (each.pieces ? each.pieces[i] : b.pieces);
  const priceOf = (i: number) => (each.prices ? each.prices[i] : b.prices[b.carriers[i] as 1 | 2 | 3]);
  const textOf = (i: number) => (each.texts ? each.texts[i] : null);
  if (pg) {
    const stream = copyStreams.from(`copy sms_messages (${COLUMNS_EACH}) from stdin`);
    const fixedHead = `${b.taskId}\t${b.accountId}\t`;
    const tail = `\t${b.state}\t${tsText(b.createdAt)}\t${tsText(b.doneAt)}\t`;
    function* chunks() {
      const step = 5000;
      for (let i = 0; i < n; i += step) {
        let s = '';
        const end = Math.min(n, i + step);
        for (let k = i; k < end; k++) s += `${fixedHead}${b.phones[k]}\t${b.carriers[k]}\t${province[k]}\t${city[k]}\t${piecesOf(k)}\t${priceOf(k)}${tail}${copyText(textOf(k))}\n`;
        yield Buffer.from(s);
      }
    }
    await trx.getExecutor().provideConnection(async (conn) => {
      conn.executeQuery(CompiledQuery.raw(stream as unknown as string)).catch(() => undefined);
    });
    await pipeline(Readable.from(chunks()), stream);
    return;
  }
  // PGlite: array parameters, in slices (a parameter of a million texts is no problem, but keep each statement bounded)
  const step = 50_000;
  for (let i = 0; i < n; i += step) {
    const end = Math.min(n, i + step);
    const idx = Array.from({ length: end - i }, (_, k) => i + k);
    await sql`
      insert into sms_messages (${sql.raw(COLUMNS_EACH)})
      select ${b.taskId}::int, ${b.accountId}::int, u.phone, u.carrier, u.province, u.city, u.pieces, u.price,
        ${b.state}::smallint, ${b.createdAt}::timestamptz, ${b.doneAt}::timestamptz, u.content
      from unnest(${idx.map((k) => b.phones[k])}::text[], ${idx.map((k) => b.carriers[k])}::smallint[], ${idx.map((k) => province[k])}::int[],
                  ${idx.map((k) => city[k])}::int[], ${idx.map(piecesOf)}::smallint[], ${idx.map(priceOf)}::numeric[], ${idx.map(textOf)}::text[])
        as u(phone, carrier, province, city, pieces, price, content)`.execute(trx);
  }
}

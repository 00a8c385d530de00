/**
 * The archive of a send-record month (issue 40, docs/api-records.md "Archive"): before retention
 * drops a month's partition (partitions.ts dropExpired), its rows are written to
 * `DATA_DIR/archive/<partition>.csv.gz` and the file is listed in `record_archives`; a failed
 * archive keeps the partition (the next purge tries again), and a month already archived whose
 * file and rows are unchanged (its drop was busy last turn) is not written again. `restoreArchive`
 * reads a file back into a table of its own (`npm run cli -- archive-restore`).
 *
 * The file is CSV (RFC 4180: a header of the column names, NULL an empty field, an empty text `""`),
 * gzip-compressed, one record per row ordered by id.
 * - On PostgreSQL it is PostgreSQL's own `COPY ... TO STDOUT (FORMAT csv, HEADER)`, streamed
 *   (pg-copy-streams) through gzip to the file: the server formats, this process only compresses.
 * - On PGlite (no COPY stream) the rows come in batches as their row text (`m::text`), which
 *   PostgreSQL quotes and escapes the same way but in parentheses, with backslashes doubled and more
 *   fields quoted: the CSV record is that text unwrapped.
 * Both are the same CSV to a reader. The restore streams the file into `COPY ... FROM STDIN` on
 * PostgreSQL; on PGlite it turns each record into a row text (every field quoted) cast to the row
 * type. So every column (timestamps, numerics, texts with quotes, commas, parentheses or line
 * breaks) comes back exactly as it was, with no CSV parser of ours deciding a value.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import copyStreams from 'pg-copy-streams';
import type { Database } from '../../db/types';
import { driverOf } from '../../db/driver';
import type { Partition } from './partitions';
import type { RecordArchive } from '../../../common/generated/schemas';
import { formatDateTime } from '../../lib/time';

/** rows read per statement */
export const ARCHIVE_BATCH = 20_000;
/** rows inserted per statement on restore */
const RESTORE_BATCH = 5_000;
/** gzip's level: the rate is set by reading the rows, not by gzip (level 1 measured the same); 13.6 bytes a record */
const GZIP_LEVEL = 3;

export interface ArchiveFile {
  partition: string;
  file: string;
  rows: number;
  bytes: number;
  sha256: string;
}

/** sms_messages's columns in their order (the archive's header; a restore checks it) */
export async function recordColumns(db: Kysely<Database>): Promise<string[]> {
  const r = await sql<{ name: string }>`
    select attname as name from pg_attribute
    where attrelid = 'sms_messages'::regclass and attnum > 0 and not attisdropped order by attnum`.execute(db);
  return r.rows.map((x) => x.name);
}

/** a row's text (PostgreSQL's record output) → its CSV record */
export const csvOfRow = (row: string) => row.slice(1, -1).replaceAll('\\\\', '\\');
/** a field as a quoted field of a row text */
const rowField = (v: string) => `"${v.replace(/["\\]/g, '\\$&')}"`;

/**
 * A CSV record → the row's text, for a cast to the row type: every field quoted (a field of
 * COPY's CSV may hold a parenthesis or a space unquoted), an unquoted empty field NULL.
 */
export function rowOfCsv(csv: string): string {
  let out = '(';
  let i = 0;
  for (;;) {
    if (csv.charCodeAt(i) === 34) {
      // quoted: to the quote not doubled
      let v = '';
      i++;
      for (;;) {
        const q = csv.indexOf('"', i);
        if (q < 0) throw new Error('归档文件的 CSV 不完整（引号未闭合）');
        v += csv.slice(i, q);
        i = q + 1;
        if (csv.charCodeAt(i) !== 34) break;
        v += '"';
        i++;
      }
      out += rowField(v);
    } else {
      const comma = csv.indexOf(',', i);
      const end = comma < 0 ? csv.length : comma;
      if (end > i) out += rowField(csv.slice(i, end));
      i = end;
    }
    if (i >= csv.length) return `${out})`;
    if (csv.charCodeAt(i) !== 44) throw new Error('归档文件的 CSV 不合法（引号后不是逗号）');
    out += ',';
    i++;
  }
}

/** the file's SHA-256 */
async function sha256Of(file: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) h.update(chunk as Buffer);
  return h.digest('hex');
}

/**
 * The partition's rows are read from the partition itself, its columns named in the parent's order
 * (a partition's own order may differ): a partition whose DETACH ... CONCURRENTLY is pending
 * (partitions.ts) is no longer read through sms_messages, and its archive must still hold its rows.
 * Names of ours (pg_attribute, partition names): quoted as identifiers.
 */
const columnList = (columns: string) =>
  columns
    .split(',')
    .map((c) => `"${c}"`)
    .join(', ');

/** PostgreSQL: the rows as COPY's CSV with its header, streamed into `sink`; how many. */
async function copyOut(db: Kysely<Database>, p: Partition, columns: string, sink: NodeJS.WritableStream) {
  return db.getExecutor().provideConnection(async (conn) => {
    const out = copyStreams.to(
      `copy (select ${columnList(columns)} from "${p.name}" order by id) to stdout with (format csv, header)`,
    );
    // the row count comes with CommandComplete, which may follow the stream's end: the statement's end is awaited too
    const over = new Promise<void>((resolve) => {
      out.handleReadyForQuery = resolve;
    });
    // node-postgres runs a query object with submit() as-is; errors of the COPY surface on the stream
    conn.executeQuery(CompiledQuery.raw(out as unknown as string)).catch(() => undefined);
    await pipeline(out, sink);
    await over;
    return out.rowCount;
  });
}

/** PGlite: the rows in batches of their row text, as CSV records after the header, into `sink`; how many. */
async function rowTextOut(db: Kysely<Database>, p: Partition, columns: string, sink: NodeJS.WritableStream) {
  let rows = 0;
  const row = sql.raw(`row(${columnList(columns)})::text`);
  const batch = (after: number | null) => {
    const q = sql<{ id: number; r: string }>`
      select id, ${row} as r from ${sql.ref(p.name)}
      ${after === null ? sql`` : sql`where id > ${after}`}
      order by id limit ${ARCHIVE_BATCH}`.execute(db);
    // a prefetched batch whose file failed meanwhile is never awaited: its failure is not unhandled
    q.catch(() => undefined);
    return q;
  };
  async function* records() {
    yield `${columns}\n`;
    // the next batch is asked for while this one is written and compressed
    let next = batch(null);
    for (;;) {
      const { rows: got } = await next;
      if (!got.length) return;
      rows += got.length;
      const full = got.length === ARCHIVE_BATCH;
      if (full) next = batch(Number(got[got.length - 1].id));
      let s = '';
      for (const x of got) s += `${csvOfRow(x.r)}\n`;
      yield s;
      if (!full) return;
    }
  }
  await pipeline(Readable.from(records()), sink);
  return rows;
}

/** The archive listed for `p` when its file is still there, whole, and holds the partition's rows as they are now. */
async function unchangedArchive(db: Kysely<Database>, p: Partition, columns: string): Promise<ArchiveFile | null> {
  const listed = await db.selectFrom('record_archives').selectAll().where('partition', '=', p.name).executeTakeFirst();
  if (!listed || listed.columns !== columns) return null;
  const size = fs.statSync(listed.file, { throwIfNoEntry: false })?.size;
  if (size !== Number(listed.bytes)) return null;
  const now = await sql<{ n: string }>`select count(*)::text as n from ${sql.ref(p.name)}`.execute(db);
  if (Number(now.rows[0].n) !== Number(listed.rows)) return null;
  const entry = { partition: p.name, file: listed.file, rows: Number(listed.rows), bytes: size, sha256: listed.sha256 };
  return (await sha256Of(entry.file)) === entry.sha256 ? entry : null;
}

/**
 * Writes a partition's rows to `<dir>/<partition>.csv.gz` (through a temporary file: a crash leaves
 * no half file under the final name) and lists it in record_archives; an archive of the partition
 * listed already, whole and with the same rows, is kept as it is. Run on one connection
 * (partitions.ts dropExpired hands its claimed one on PostgreSQL).
 */
export async function archivePartition(db: Kysely<Database>, p: Partition, dir: string): Promise<ArchiveFile> {
  const columns = (await recordColumns(db)).join(',');
  const kept = await unchangedArchive(db, p, columns);
  if (kept) return kept;
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${p.name}.csv.gz`);
  const tmp = `${file}.${process.pid}.tmp`;
  let rows: number;
  try {
    const gzip = zlib.createGzip({ level: GZIP_LEVEL });
    const written = pipeline(gzip, fs.createWriteStream(tmp));
    // the file's failure ends the rows' stream too (and the rows' failure the file's)
    written.catch((e) => gzip.destroy(e));
    rows = (await driverOf(db)) === 'pg' ? await copyOut(db, p, columns, gzip) : await rowTextOut(db, p, columns, gzip);
    await written;
    fs.renameSync(tmp, file);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  const entry: ArchiveFile = {
    partition: p.name,
    file,
    rows,
    bytes: fs.statSync(file).size,
    sha256: await sha256Of(file),
  };
  await db
    .insertInto('record_archives')
    .values({ ...entry, columns })
    .onConflict((oc) =>
      oc.column('partition').doUpdateSet({
        file: entry.file,
        rows: entry.rows,
        bytes: entry.bytes,
        sha256: entry.sha256,
        columns,
        created_at: new Date(),
      }),
    )
    .execute();
  return entry;
}

/** partition sms_messages_202605 → 2026-05 */
const monthOfPartition = (name: string) => {
  const m = /_(\d{4})(\d{2})$/.exec(name);
  return m ? `${m[1]}-${m[2]}` : name;
};

/** The archives listed in record_archives, newest month first, each with whether its file is there at its size. */
export async function listArchives(db: Kysely<Database>): Promise<RecordArchive[]> {
  const rows = await db.selectFrom('record_archives').selectAll().orderBy('partition', 'desc').execute();
  return rows.map((r) => ({
    month: monthOfPartition(r.partition),
    partition: r.partition,
    rows: Number(r.rows),
    bytes: Number(r.bytes),
    createdAt: formatDateTime(r.created_at),
    fileExists: fs.statSync(r.file, { throwIfNoEntry: false })?.size === Number(r.bytes),
    file: r.file,
    sha256: r.sha256,
  }));
}

/** The CSV records of a text stream: a line break inside quotes (an even count of `"` closes them) stays in its record. */
export async function* csvRecords(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let pending = '';
  let quotes = 0;
  for await (const chunk of chunks) {
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c === 34) quotes++;
      else if (c === 10 && quotes % 2 === 0) {
        yield pending + chunk.slice(start, i);
        pending = '';
        quotes = 0;
        start = i + 1;
      }
    }
    pending += chunk.slice(start);
  }
  if (pending) yield pending;
}

export interface Restored {
  table: string;
  rows: number;
}

/**
 * Reads an archive file back into `table` (created like sms_messages, empty; refused when it
 * exists): its header must be today's columns, its rows must number what record_archives says when
 * it lists the file, and its SHA-256 must match (a changed or cut file is refused before a row).
 */
export async function restoreArchive(
  db: Kysely<Database>,
  file: string,
  table: string,
  expect?: { rows: number; sha256: string },
): Promise<Restored> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(table)) throw new Error(`表名不合法：${table}`);
  if (expect && (await sha256Of(file)) !== expect.sha256) throw new Error(`归档文件已改变（SHA-256 不符）：${file}`);
  const exists = await sql<{ t: string | null }>`select to_regclass(${table})::text as t`.execute(db);
  if (exists.rows[0]?.t) throw new Error(`表 ${table} 已存在`);
  const columns = (await recordColumns(db)).join(',');
  const source = fs.createReadStream(file);
  const lines = zlib.createGunzip();
  source.on('error', (e) => lines.destroy(e));
  source.pipe(lines);
  // the decoder keeps a character cut between two chunks whole
  lines.setEncoding('utf8');
  const records = csvRecords(lines as AsyncIterable<string>)[Symbol.asyncIterator]();
  const first = await records.next();
  if (first.done) throw new Error(`归档文件为空：${file}`);
  if (first.value !== columns) throw new Error(`归档文件的列与当前的发送记录表不同：${first.value}`);
  let rows = 0;
  /** the records after the header, RESTORE_BATCH at a time */
  async function* batches() {
    let batch: string[] = [];
    for (let r = await records.next(); !r.done; r = await records.next()) {
      batch.push(r.value);
      if (batch.length >= RESTORE_BATCH) {
        rows += batch.length;
        yield batch;
        batch = [];
      }
    }
    rows += batch.length;
    if (batch.length) yield batch;
  }
  await db.transaction().execute(async (trx) => {
    await sql`create table ${sql.ref(table)} (like sms_messages including defaults)`.execute(trx);
    if ((await driverOf(trx)) === 'pg')
      await trx.getExecutor().provideConnection(async (conn) => {
        const input = copyStreams.from(`copy ${table} from stdin with (format csv)`);
        conn.executeQuery(CompiledQuery.raw(input as unknown as string)).catch(() => undefined);
        await pipeline(
          Readable.from(
            (async function* () {
              for await (const b of batches()) yield `${b.join('\n')}\n`;
            })(),
          ),
          input,
        );
      });
    else
      for await (const b of batches())
        // each text cast once (`(x::t).*` would cast it once per column), then its fields
        await sql`insert into ${sql.ref(table)}
          select (s.v).* from (select x::sms_messages as v from unnest(${b.map(rowOfCsv)}::text[]) x offset 0) s`.execute(
          trx,
        );
    if (expect && rows !== expect.rows) throw new Error(`归档文件的行数 ${rows} 与记录的 ${expect.rows} 不符`);
  });
  return { table, rows };
}

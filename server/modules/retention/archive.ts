/**
 * The archive of a send-record month (issue 40, docs/api-records.md "Archive"): before retention
 * drops a month's partition (partitions.ts dropExpired), its rows are written to
 * `DATA_DIR/archive/<partition>.csv.gz` and the file is listed in `record_archives`; a failed
 * archive keeps the partition (the next purge tries again). `restoreArchive` reads a file back into
 * a table of its own (`npm run cli -- archive-restore`).
 *
 * The file is CSV as PostgreSQL's COPY writes it (RFC 4180; a header of the column names; NULL an
 * empty field, an empty text `""`), gzip-compressed, one record per row ordered by id. The rows come
 * out of the database as their row text (`m::text`), which PostgreSQL quotes and escapes the same
 * way but in parentheses and with backslashes doubled: the CSV record is that text unwrapped, and
 * the restore wraps it again and casts it to the table's row type. So every column (timestamps,
 * numerics, texts with quotes, commas or line breaks) comes back exactly as it was, on PostgreSQL and
 * on PGlite alike, with no CSV parser of ours in the way.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types';
import type { Partition } from './partitions';

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
/** a CSV record → the row's text, for a cast to the row type */
export const rowOfCsv = (csv: string) => `(${csv.replaceAll('\\', '\\\\')})`;

/** the file's SHA-256 */
async function sha256Of(file: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) h.update(chunk as Buffer);
  return h.digest('hex');
}

/**
 * Writes a partition's rows to `<dir>/<partition>.csv.gz` (through a temporary file: a crash leaves
 * no half file under the final name) and lists it in record_archives. Read through sms_messages with
 * the partition's id bounds, so the rows are in the parent's column order whatever the partition's.
 */
export async function archivePartition(db: Kysely<Database>, p: Partition, dir: string): Promise<ArchiveFile> {
  fs.mkdirSync(dir, { recursive: true });
  const columns = await recordColumns(db);
  const file = path.join(dir, `${p.name}.csv.gz`);
  const tmp = `${file}.${process.pid}.tmp`;
  let rows = 0;
  const batch = (after: number | null) => {
    const q = sql<{ id: number; r: string }>`
      select m.id, m::text as r from sms_messages m
      where m.id < ${p.to} ${after === null ? sql`` : sql`and m.id > ${after}`}
      order by m.id limit ${ARCHIVE_BATCH}`.execute(db);
    // a prefetched batch whose file failed meanwhile is never awaited: its failure is not unhandled
    q.catch(() => undefined);
    return q;
  };
  async function* records() {
    yield `${columns.join(',')}\n`;
    // the next batch is asked for while this one is written and compressed
    let next = batch(p.from === null ? null : p.from - 1);
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
  try {
    await pipeline(Readable.from(records()), zlib.createGzip({ level: GZIP_LEVEL }), fs.createWriteStream(tmp));
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
    .values({ ...entry, columns: columns.join(',') })
    .onConflict((oc) =>
      oc.column('partition').doUpdateSet({
        file: entry.file,
        rows: entry.rows,
        bytes: entry.bytes,
        sha256: entry.sha256,
        columns: columns.join(','),
        created_at: new Date(),
      }),
    )
    .execute();
  return entry;
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
  let rows = 0;
  await db.transaction().execute(async (trx) => {
    await sql`create table ${sql.ref(table)} (like sms_messages including defaults)`.execute(trx);
    let header: string | undefined;
    let batch: string[] = [];
    const flush = async () => {
      if (!batch.length) return;
      // each text cast once (`(x::t).*` would cast it once per column), then its fields
      await sql`insert into ${sql.ref(table)}
        select (s.v).* from (select x::sms_messages as v from unnest(${batch}::text[]) x offset 0) s`.execute(trx);
      rows += batch.length;
      batch = [];
    };
    for await (const rec of csvRecords(lines as AsyncIterable<string>)) {
      if (header === undefined) {
        header = rec;
        if (header !== columns) throw new Error(`归档文件的列与当前的发送记录表不同：${header}`);
        continue;
      }
      batch.push(rowOfCsv(rec));
      if (batch.length >= RESTORE_BATCH) await flush();
    }
    await flush();
    if (header === undefined) throw new Error(`归档文件为空：${file}`);
    if (expect && rows !== expect.rows) throw new Error(`归档文件的行数 ${rows} 与记录的 ${expect.rows} 不符`);
  });
  return { table, rows };
}

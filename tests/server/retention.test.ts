import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { BATCH, uplinksKeptSince } from '../../server/modules/retention/service';
import {
  AHEAD,
  dropExpired,
  ensureAhead,
  ensureMonth,
  keptSince,
  MONTH_SPAN,
  monthIndex,
  partitionName,
  partitions,
  SMS_MO,
} from '../../server/modules/retention/partitions';
import { storeMo } from '../../server/modules/dispatch/mo';
import { backends, useServer, withPg } from './harness';
import { as } from './send-helpers';
import { addDays, dayOf } from '../../server/lib/time';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { ARCHIVE_BATCH, archivePartition, recordColumns, rowOfCsv } from '../../server/modules/retention/archive';
import type { Partition } from '../../server/modules/retention/partitions';
import type { Database } from '../../server/db/types';
import os from 'node:os';
import { runCommand } from '../../server/cli/operator-channel';

describe('uplinksKeptSince', () => {
  it('is the start of the business day calendar months back (the month’s last day when it has none)', () => {
    // 18:00 in Beijing on December 6th: kept from 00:00 in Beijing on September 6th
    expect(uplinksKeptSince(new Date('2026-12-06T10:00:00Z'), 3).toISOString()).toBe('2026-09-05T16:00:00.000Z');
    // 01:00 in Beijing on June 1st is still May 31st in UTC: the business day counts
    expect(uplinksKeptSince(new Date('2026-05-31T17:00:00Z'), 3).toISOString()).toBe('2026-02-28T16:00:00.000Z');
    expect(uplinksKeptSince(new Date('2026-05-31T00:00:00Z'), 3).toISOString()).toBe('2026-02-27T16:00:00.000Z');
  });
});

describe('rowOfCsv (an archive record read back on PGlite)', () => {
  it('quotes every field, keeps an unquoted empty field NULL, and refuses a broken record', () => {
    // COPY's CSV leaves a parenthesis or a space unquoted; a quoted field doubles its quotes
    expect(rowOfCsv('1,a (b),,"","say ""hi""",x\\y')).toBe('("1","a (b)",,"","say \\"hi\\"","x\\\\y")');
    expect(rowOfCsv('1,')).toBe('("1",)');
    expect(() => rowOfCsv('1,"open')).toThrow('引号未闭合');
    expect(() => rowOfCsv('1,"a"b')).toThrow('引号后不是逗号');
  });
});

describe('partition months', () => {
  it('counts months from January 2020 in Beijing time; names and kept ranges follow', () => {
    expect(monthIndex(new Date('2020-01-01T00:00:00+08:00'))).toBe(0);
    expect(monthIndex(new Date('2026-11-30T23:59:59+08:00'))).toBe(82);
    expect(monthIndex(new Date('2026-11-30T16:00:00Z'))).toBe(83); // 00:00 of December 1st in Beijing
    expect(partitionName(83)).toBe('sms_messages_202612');
    expect(keptSince(new Date('2026-12-06T10:00:00+08:00'), 6).toISOString()).toBe('2026-05-31T16:00:00.000Z');
  });
});

/**
 * The partition of the month 9 months back, made empty for a test; the legacy partition (migration
 * 0052: every month before it) goes first, without an archive.
 */
async function pastMonth(db: Kysely<Database>): Promise<{ month: number; name: string }> {
  await dropExpired(db, 6, new Date(Date.now() + 7 * 31 * 86_400_000));
  const month = monthIndex(new Date()) - 9;
  const name = partitionName(month);
  await sql`create table ${sql.ref(name)} partition of sms_messages
    for values from (${sql.lit(month * MONTH_SPAN)}) to (${sql.lit((month + 1) * MONTH_SPAN)})`.execute(db);
  return { month, name };
}

describe.each(backends)('retention (%s)', (backend) => {
  const t = useServer(backend, { config: { moKeepMonths: 3, pushKeepDays: 7 } });
  const day = 86_400_000;

  it('drops the uplink months before MO_KEEP_MONTHS as partitions and their references, pushed rows past PUSH_KEEP_DAYS in batches; keeps the rest', async () => {
    const db = t.server.handle.db;
    const now = t.server.clock.now();
    const month = monthIndex(now);
    const at = (ms: number) => new Date(now.getTime() - ms).toISOString();
    await db.deleteFrom('sms_mo').execute();
    await db.deleteFrom('sms_mo_refs').execute();
    await db.deleteFrom('push_outbox').execute();
    // uplinks: more than a batch 5 months back, one 4 months back (their partitions are older than
    // the ones made behind this month: made for the test), three inside the kept window
    for (const m of [month - 5, month - 4]) await ensureMonth(db, SMS_MO, m);
    await sql`insert into sms_mo (account_id, phone, content, received_at)
      select a.id, '1380000' || lpad(g::text, 4, '0'), 'old', ${SMS_MO.literal(SMS_MO.start(month - 5) + 10 * day)}::timestamptz - g * interval '1 second'
      from generate_series(1, ${BATCH + 7}) g, (select id from accounts where clientid = 'client1') a`.execute(db);
    await sql`insert into sms_mo (account_id, phone, content, received_at)
      select id, '13900000003', 'old', ${SMS_MO.literal(SMS_MO.start(month - 4) + day)}::timestamptz from accounts where clientid = 'client1'`.execute(
      db,
    );
    await sql`insert into sms_mo (account_id, phone, content, received_at)
      select a.id, '13900000001', 'kept', ${at(80 * day)}::timestamptz from generate_series(1, 3), (select id from accounts where clientid = 'client1') a`.execute(
      db,
    );
    // the first second the uplink list may still show (its earliest day, 3 months back) stays; the
    // one before stays too while its month has days in the window (listed neither way)
    const since = uplinksKeptSince(now, 3);
    const before = new Date(since.getTime() - 1000);
    await sql`insert into sms_mo (account_id, phone, content, received_at)
      select id, '13900000002', v.content, v.at::timestamptz from accounts,
        (values ('edge', ${since.toISOString()}), ('before', ${before.toISOString()})) v(content, at)
      where clientid = 'client1'`.execute(db);
    // the redelivery check's references: more than a batch first seen before the window, one inside
    await sql`insert into sms_mo_refs (smsc_ref, received_at)
      select 'old-' || g, ${at(100 * day)}::timestamptz from generate_series(1, ${BATCH + 1}) g`.execute(db);
    await sql`insert into sms_mo_refs (smsc_ref, received_at) values ('kept', ${since.toISOString()}::timestamptz)`.execute(
      db,
    );
    // pushes: delivered long ago (gone), delivered lately (kept), never delivered however old (kept)
    const push = (doneAt: string | null, createdAt: string) =>
      sql`insert into push_outbox (account_id, kind, url, payload, done_at, created_at)
        select id, 1, 'http://127.0.0.1:9/r', '[]'::jsonb, ${doneAt}::timestamptz, ${createdAt}::timestamptz from accounts where clientid = 'client1'`.execute(
        db,
      );
    await push(at(8 * day), at(9 * day));
    await push(at(6 * day), at(9 * day));
    await push(null, at(30 * day));

    // the month of `before` is dropped only when `since` is its next month's first instant
    const beforeGoes = monthIndex(before) < monthIndex(since);
    const counts = await t.server.app.services.retention.purge();
    expect(counts).toEqual({
      uplinks: [SMS_MO.name(month - 5), SMS_MO.name(month - 4)],
      uplinkRefs: BATCH + 1,
      pushes: 1,
      partitions: [],
    });
    const names = (await SMS_MO.partitions(db)).map((p) => p.name);
    expect(names).not.toContain(SMS_MO.name(month - 4));
    for (let m = month - 3; m <= month + AHEAD; m++) expect(names).toContain(SMS_MO.name(m));
    const mo = await db.selectFrom('sms_mo').select('content').orderBy('content').execute();
    expect(mo.map((r) => r.content)).toEqual([...(beforeGoes ? [] : ['before']), 'edge', 'kept', 'kept', 'kept']);
    expect((await db.selectFrom('sms_mo_refs').select('smsc_ref').execute()).map((r) => r.smsc_ref)).toEqual(['kept']);
    const left = await db.selectFrom('push_outbox').select('done_at').orderBy('id').execute();
    expect(left.map((r) => r.done_at === null)).toEqual([false, true]);
    // the uplink list from its earliest day shows the window's rows as before
    const c = await t.server.client().init();
    expect((await c.login('client1')).body.code).toBe(0);
    const list = await c.post('/api/send/getmologs', { startReceivedate: dayOf(since) });
    expect(list.body.code).toBe(0);
    expect(list.body.data.list.map((r: { content: string }) => r.content)).toEqual(['kept', 'kept', 'kept', 'edge']);
    // nothing left to do: a second run removes nothing
    expect(await t.server.app.services.retention.purge()).toEqual({
      uplinks: [],
      uplinkRefs: 0,
      pushes: 0,
      partitions: [],
    });
  });

  it('a redelivered uplink is stored once, before and after a purge', async () => {
    const db = t.server.handle.db;
    const client1 = (
      await db.selectFrom('accounts').select('id').where('clientid', '=', 'client1').executeTakeFirstOrThrow()
    ).id;
    const mo = {
      from: '13800138000',
      to: `106900${client1}`,
      text: '好的',
      smscRef: 'redelivered-1',
      receivedAt: new Date(),
    };
    expect(await storeMo(db, '106900', [mo, mo])).toHaveLength(1);
    await t.server.app.services.retention.purge();
    expect(await storeMo(db, '106900', [{ ...mo, receivedAt: new Date() }])).toEqual([]);
    const rows = await db.selectFrom('sms_mo').select('id').where('smsc_ref', '=', 'redelivered-1').execute();
    expect(rows).toHaveLength(1);
  });

  it('an uplink stamped months off the database clock is stored at the edge of the months partitioned', async () => {
    const db = t.server.handle.db;
    const client1 = (
      await db.selectFrom('accounts').select('id').where('clientid', '=', 'client1').executeTakeFirstOrThrow()
    ).id;
    const month = monthIndex(new Date());
    const mo = (smscRef: string, receivedAt: Date) => ({
      from: '13800138000',
      to: `106900${client1}`,
      text: '时钟',
      smscRef,
      receivedAt,
    });
    const stored = await storeMo(db, '106900', [
      mo('clock-past', new Date(Date.now() - 2 * 365 * day)),
      mo('clock-future', new Date(Date.now() + 365 * day)),
    ]);
    expect(stored.map((m) => m.received_at.getTime())).toEqual([
      SMS_MO.start(month - 3),
      SMS_MO.start(month + AHEAD + 1) - 1,
    ]);
  });

  it('the uplink list of a range reads the partitions of its months only', async () => {
    const db = t.server.handle.db;
    const to = new Date();
    const from = new Date(to.getTime() - 20 * day);
    const plan = await sql<{ 'QUERY PLAN': string }>`
      explain (costs off) select id from sms_mo where account_id in (1) and received_at >= ${from} and received_at < ${to}
      order by received_at desc, id desc limit 10`.execute(db);
    const read = new Set(plan.rows.flatMap((r) => r['QUERY PLAN'].match(/sms_mo_\d{6}/g) ?? []));
    expect([...read].sort()).toEqual([...new Set([SMS_MO.name(monthIndex(from)), SMS_MO.name(monthIndex(to))])].sort());
  });

  it.runIf(backend === 'postgres')(
    'one process at a time: a purge skips its turn while another holds the lock',
    async () => {
      const db = t.server.handle.db;
      await db.deleteFrom('push_outbox').execute();
      await sql`insert into push_outbox (account_id, kind, url, payload, done_at)
      select id, 1, 'http://127.0.0.1:9/r', '[]'::jsonb, now() - interval '30 days' from accounts where clientid = 'client1'`.execute(
        db,
      );
      const schema = (t.server as unknown as { schema: string }).schema;
      await withPg(async (c) => {
        await c.query('begin');
        await c.query(`select pg_advisory_xact_lock(hashtext('retention-purge:${schema}'))`);
        expect((await t.server.app.services.retention.purge()).pushes).toBe(0);
        await c.query('rollback');
      });
      expect((await t.server.app.services.retention.purge()).pushes).toBe(1);
    },
  );

  it('send records: partitions ahead; a month past RECORDS_KEEP_MONTHS dropped without touching the report figures', async () => {
    const db = t.server.handle.db;
    const month = monthIndex(new Date());
    // ahead: this month and the next AHEAD exist (made at start), a second call makes none
    const names = (await partitions(db)).map((p) => p.name);
    for (let m = month; m <= month + AHEAD; m++) expect(names).toContain(partitionName(m));
    expect(await ensureAhead(db)).toEqual([]);
    // a new message is written into this month's partition, with its month in its id
    const task = (await sql<{ id: number }>`select id, account_id from sms_tasks order by id limit 1`.execute(db))
      .rows[0].id;
    const fresh = (
      await sql<{ id: number }>`insert into sms_messages (task_id, account_id, phone, created_at)
        select id, account_id, '13800138000', now() from sms_tasks where id = ${task} returning id`.execute(db)
    ).rows[0].id;
    expect(Math.floor(fresh / MONTH_SPAN)).toBe(month);
    const report = async () =>
      (await sql<{ n: string }>`select coalesce(sum(send_num), 0)::text as n from report_rows`.execute(db)).rows[0].n;
    // a record of a database converted by migration 0052: its id (a plain number) is in the legacy partition
    await sql`insert into sms_messages (id, task_id, account_id, phone, created_at)
      select 1000, id, account_id, '13800138001', now() - interval '8 months' from sms_tasks where id = ${task}`.execute(
      db,
    );
    expect((await sql<{ n: number }>`select count(*)::int as n from sms_messages_legacy`.execute(db)).rows[0].n).toBe(
      1,
    );
    const figures = await report();

    // the legacy partition (rows written before this month) is past 6 months 7 months from now;
    // this month's partition is never dropped while the database's clock is in it
    const later = new Date(Date.now() + 7 * 31 * 86_400_000);
    const dropped = await dropExpired(db, 6, later);
    expect(dropped).toContain('sms_messages_legacy');
    expect(dropped).not.toContain(partitionName(month));
    const left = await sql<{ id: number }>`select id from sms_messages`.execute(db);
    expect(left.rows.map((r) => r.id)).toContain(fresh);
    expect(left.rows.every((r) => r.id >= month * MONTH_SPAN)).toBe(true);
    expect(await report()).toBe(figures);
    // the send-record list says the months are gone rather than answering an empty table
    t.server.clock.t = later.getTime();
    const c = await t.server.client().init();
    expect((await c.login('client1')).body.code).toBe(0);
    const old = await c.post('/api/send/getrecords', { beginDate: '2026-01-01', endDate: '2026-01-31' });
    expect(old.body).toMatchObject({ code: 400, msg: '只能查询近6个月的发送记录' });
    // a range reaching into the kept months: the kept part, and from when (the console's notice)
    const kept = keptSince(later, 6);
    const across = await c.post('/api/send/getrecords', {
      beginDate: dayOf(addDays(kept, -10)),
      endDate: dayOf(later),
    });
    expect(across.body).toMatchObject({ code: 0, data: { retention: { months: 6, from: dayOf(kept) } } });
    const inside = await c.post('/api/send/getrecords', { beginDate: dayOf(kept), endDate: dayOf(later) });
    expect(inside.body.code).toBe(0);
    expect(inside.body.data).not.toHaveProperty('retention');
  });

  it('archives a month before it is dropped: the file reads back to the same rows; listed and restored by the CLI', async () => {
    const db = t.server.handle.db;
    const { month, name } = await pastMonth(db);
    // texts CSV must quote: commas, quotes, line breaks, backslashes, an empty text, NULLs, more than a batch
    const tricky = [
      'a,b',
      'say "hi"',
      'line\nbreak\r\nend',
      'back\\slash \\N',
      '',
      ' 空格 ',
      '【云讯通】验证码 123456',
      '括号) (a,b) (',
    ];
    await sql`insert into sms_messages (id, task_id, account_id, phone, content, msg_id, created_at)
      select ${month * MONTH_SPAN}::bigint + g, t.id, t.account_id, '138' || lpad(g::text, 8, '0'),
        (${tricky}::text[])[1 + g % ${tricky.length}], case when g % 3 = 0 then null else 'm' || g end,
        now() - interval '9 months'
      from generate_series(1, ${ARCHIVE_BATCH + 5}) g, (select id, account_id from sms_tasks order by id limit 1) t`.execute(
      db,
    );
    const original = async () =>
      (
        await sql<{ r: string }>`select m::text as r from sms_messages m
          where id >= ${month * MONTH_SPAN} and id < ${(month + 1) * MONTH_SPAN} order by id`.execute(db)
      ).rows.map((x) => x.r);
    const before = await original();
    expect(before).toHaveLength(ARCHIVE_BATCH + 5);

    // the purge 10 months from now archives the month, then drops it
    const svc = t.server.app.services.retention;
    t.server.clock.t = Date.now() + 10 * 31 * 86_400_000;
    try {
      const counts = await svc.purge();
      expect(counts.partitions).toContain(name);
    } finally {
      t.server.clock.t = Date.now();
    }
    expect(await original()).toEqual([]);
    const entry = await db
      .selectFrom('record_archives')
      .selectAll()
      .where('partition', '=', name)
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ file: path.join(svc.archiveDir, `${name}.csv.gz`), rows: ARCHIVE_BATCH + 5 });
    // plain CSV under the gzip: a header of the columns, then RFC 4180 records
    const text = zlib.gunzipSync(fs.readFileSync(entry.file)).toString('utf8');
    expect(text.split('\n')[0]).toBe((await recordColumns(db)).join(','));
    expect(text).toContain('"say ""hi"""');

    // listed for the operators (运营 and 管理员), newest month first
    const operator = await as(t.server, 'operator1');
    const listed = (await operator.get('/api/operator/archives/list')).body;
    expect(listed).toMatchObject({ code: 0 });
    expect(listed.data[0]).toEqual({
      month: `${name.slice(-6, -2)}-${name.slice(-2)}`,
      partition: name,
      rows: ARCHIVE_BATCH + 5,
      bytes: fs.statSync(entry.file).size,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      fileExists: true,
      file: entry.file,
      sha256: entry.sha256,
    });
    // listed, and read back by the CLI into a table of its own: the same rows
    const list = await runCommand({ db, now: () => new Date() }, ['archives']);
    expect(list.code).toBe(0);
    expect(list.lines.join('\n')).toContain(name);
    const restored = await runCommand({ db, now: () => new Date() }, ['archive-restore', name]);
    expect(restored).toMatchObject({ code: 0, lines: [`已读回 ${ARCHIVE_BATCH + 5} 条到表 restored_${name}`] });
    const back = (
      await sql<{ r: string }>`select m::text as r from ${sql.ref(`restored_${name}`)} m order by id`.execute(db)
    ).rows.map((x) => x.r);
    expect(back).toEqual(before);
    // again: the table exists; a changed file: refused before a row
    expect((await runCommand({ db, now: () => new Date() }, ['archive-restore', name])).lines.join()).toContain(
      '已存在',
    );
    fs.appendFileSync(entry.file, 'x');
    expect((await operator.get('/api/operator/archives/list')).body.data[0].fileExists).toBe(false);
    const changed = await runCommand({ db, now: () => new Date() }, ['archive-restore', name, 'restored_again']);
    expect(changed.code).toBe(1);
    expect(changed.lines.join()).toContain('SHA-256');
    await sql`drop table ${sql.ref(`restored_${name}`)}`.execute(db);
  });

  it.runIf(backend === 'postgres')(
    'several processes purging at once archive a month once; a drop kept busy keeps its archive for the next turn',
    async () => {
      const db = t.server.handle.db;
      const { month, name } = await pastMonth(db);
      await sql`insert into sms_messages (id, task_id, account_id, phone, content, created_at)
        select ${month * MONTH_SPAN}::bigint + g, t.id, t.account_id, '138' || lpad(g::text, 8, '0'), '内容' || g, now() - interval '9 months'
        from generate_series(1, 3000) g, (select id, account_id from sms_tasks order by id limit 1) t`.execute(db);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'archive-claim-'));
      const later = new Date(Date.now() + 10 * 31 * 86_400_000);
      try {
        // a drop that cannot finish (a transaction begun before it still reads the partition): archived,
        // its DETACH ... CONCURRENTLY left pending when its wait runs out, for the next turn
        const schema = (t.server as unknown as { schema: string }).schema;
        const written: string[] = [];
        const archive = async (x: Partition, conn: Kysely<Database>) => {
          written.push(x.name);
          return archivePartition(conn, x, dir);
        };
        await withPg(async (c) => {
          await c.query('begin');
          await c.query(`lock table ${schema}.${name} in access share mode`);
          expect(await dropExpired(db, 6, later, { archive, detachWait: '300ms' })).toEqual([]);
          await c.query('rollback');
        });
        expect(written).toEqual([name]);
        const pending = await sql<{ p: boolean }>`
          select inhdetachpending as p from pg_inherits where inhrelid = to_regclass(${name})`.execute(db);
        expect(pending.rows).toEqual([{ p: true }]);
        const first = await db
          .selectFrom('record_archives')
          .selectAll()
          .where('partition', '=', name)
          .executeTakeFirstOrThrow();
        expect(Number(first.rows)).toBe(3000);
        const mtime = fs.statSync(first.file).mtimeMs;

        // two purges at once (two processes' claims on separate connections): one archives and drops, the other skips
        const again: string[] = [];
        const slow = async (x: Partition, conn: Kysely<Database>) => {
          again.push(x.name);
          await new Promise((r) => setTimeout(r, 300));
          return archivePartition(conn, x, dir);
        };
        const [a, b] = await Promise.all([
          dropExpired(db, 6, later, { archive: slow }),
          dropExpired(db, 6, later, { archive: slow }),
        ]);
        expect([...a, ...b]).toEqual([name]);
        expect(again).toEqual([name]);
        // the archive of the busy turn was whole and of the same rows (read from the partition, which
        // sms_messages no longer shows while its detach is pending): kept, not written again
        expect(fs.statSync(first.file).mtimeMs).toBe(mtime);
        expect((await partitions(db)).some((x) => x.name === name)).toBe(false);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

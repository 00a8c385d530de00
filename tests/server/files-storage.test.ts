/**
 * Issue 23 item 5 — "disk filling", as the attacks, on both databases: a per-account storage quota
 * (chunked uploads and the variable / international pages' multipart uploads together), a cap on
 * unfinished uploads, a disk-free floor, complete files removed after their keeping time, and a
 * delete that works.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { backends, useServer, type Client, type TestServer } from './harness';
import { as, accountId } from './send-helpers';
import { CHUNK_SIZE, _paths } from '../../server/modules/files/service';

const md5 = (b: Buffer) => crypto.createHash('md5').update(b).digest('hex');
const numberText = (n: number, start = 0) =>
  Buffer.from(Array.from({ length: n }, (_, i) => `1380${String(start + i).padStart(7, '0')}`).join('\r\n'));

/** check → every missing chunk → merge, as the console does */
async function uploadFile(s: TestServer, c: Client, fileName: string, data: Buffer) {
  const key = { fileMd5: md5(data), fileSize: data.length };
  const check = (await c.post('/api/file/check', { fileName, ...key })).body;
  if (check.code !== 0 || check.data.uploaded) return check;
  for (let i = 0; i < check.data.chunks; i++) {
    if (check.data.uploadedChunks.includes(i)) continue;
    const raw = await s.app.inject({
      method: 'POST',
      url: `/api/file/chunk?fileMd5=${key.fileMd5}&fileSize=${key.fileSize}&chunk=${i}`,
      headers: {
        host: 'localhost:8080',
        'content-type': 'application/octet-stream',
        cookie: [...c.jar].map(([k, v]) => `${k}=${v}`).join('; '),
        'x-xsrf-token': c.jar.get('XSRF-TOKEN')!,
      },
      payload: data.subarray(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE),
    });
    const r = raw.json();
    if (r.code !== 0) return r;
  }
  return (await c.post('/api/file/merge', key)).body;
}
const MB = 1024 * 1024;
/** distinct file contents of about `mb` MB */
const blob = (mb: number, seed: number) =>
  Buffer.concat([numberText(Math.floor((mb * MB) / 13), seed * 1_000_000), Buffer.from('\r\n')]);

describe.each(backends)('storage limits (%s)', (backend) => {
  let free = 10_000 * MB;
  const t = useServer(backend, {
    config: { uploadQuotaMb: 3, uploadPendingMax: 3, uploadKeepHours: 72, uploadMinFreeMb: 100 },
    build: { diskFree: async () => free },
  });

  it('a quota per account: an upload that would pass it is refused before a byte is stored; deleting makes room', async () => {
    const c = await as(t.server, 'client0');
    const a = await uploadFile(t.server, c, 'a.txt', blob(1.2, 1));
    expect(a.code).toBe(0);
    const b = await uploadFile(t.server, c, 'b.txt', blob(1.2, 2));
    expect(b.code).toBe(0);
    const third = blob(1.2, 3);
    const refused = await uploadFile(t.server, c, 'c.txt', third);
    expect(refused.code).toBe(400);
    expect(refused.msg).toMatch(/^存储空间不足，请删除不用的文件后再上传（已用 2\.\d MB，上限 3\.0 MB）$/);
    expect(
      await t.server.handle.db.selectFrom('file_uploads').select('id').where('file_md5', '=', md5(third)).execute(),
    ).toEqual([]);
    // another account has its own quota
    expect((await uploadFile(t.server, await as(t.server, 'agent0'), 'c.txt', third)).code).toBe(0);
    // re-using a stored file costs nothing
    expect(
      (
        await c.post('/api/file/check', {
          fileName: 'a2.txt',
          fileMd5: md5(blob(1.2, 1)),
          fileSize: blob(1.2, 1).length,
        })
      ).body.data.uploaded,
    ).toBe(true);
    // delete: the file and its row go, the download and a send find nothing, the room is back
    const token = a.data.importFilePath as string;
    const file = path.join(_paths.ownerDir(t.server.app.ctx, await accountId(t.server, 'client0')), token);
    expect(fs.existsSync(file)).toBe(true);
    expect((await c.post('/api/file/delete', { importFilePath: token })).body).toMatchObject({
      code: 0,
      msg: '文件已删除',
    });
    expect(fs.existsSync(file)).toBe(false);
    expect((await c.get(`/api/file/download?importFilePath=${token}`)).body).toMatchObject({
      code: 400,
      msg: '文件不存在，请重新上传',
    });
    expect((await c.post('/api/file/delete', { importFilePath: token })).body).toMatchObject({
      code: 400,
      msg: '文件不存在，请重新上传',
    });
    expect((await uploadFile(t.server, c, 'c.txt', third)).code).toBe(0);
    // another account cannot delete it
    const mine = (await uploadFile(t.server, await as(t.server, 'agent0'), 'd.txt', blob(0.1, 9))).data.importFilePath;
    expect((await c.post('/api/file/delete', { importFilePath: mine })).body).toMatchObject({
      code: 400,
      msg: '文件不存在，请重新上传',
    });
  });

  it('the multipart uploads of the variable page count against the same quota and are cut off at the room left', async () => {
    const c = await as(t.server, 'agent1');
    const big = Buffer.alloc(Math.floor(3.5 * MB), 0x41);
    const send = (data: Buffer) =>
      t.server.app.inject({
        method: 'POST',
        url: '/api/send/uploadInternationalFile',
        headers: {
          host: 'localhost:8080',
          cookie: [...c.jar].map(([k, v]) => `${k}=${v}`).join('; '),
          'x-xsrf-token': c.jar.get('XSRF-TOKEN')!,
          'content-type': 'multipart/form-data; boundary=XYZ',
        },
        payload: Buffer.concat([
          Buffer.from(
            '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="n.txt"\r\nContent-Type: text/plain\r\n\r\n',
          ),
          data,
          Buffer.from('\r\n--XYZ--\r\n'),
        ]),
      });
    const r = (await send(big)).json();
    expect(r).toMatchObject({ code: 400, msg: '存储空间不足，请删除不用的文件后再上传' });
    const ok = (await send(Buffer.from('12125550100\r\n'))).json();
    expect(ok.code).toBe(0);
    // and it can be deleted
    expect((await c.post('/api/file/delete', { importFilePath: ok.data.importFilePath })).body.code).toBe(0);
  });

  it('unfinished uploads per account are capped', async () => {
    const c = await as(t.server, 'client1');
    const checks = [];
    for (let i = 0; i < 5; i++) {
      const d = blob(0.01, 100 + i);
      checks.push(
        (await c.post('/api/file/check', { fileName: `p${i}.txt`, fileMd5: md5(d), fileSize: d.length })).body,
      );
    }
    expect(checks.map((x) => x.code)).toEqual([0, 0, 0, 400, 400]);
    expect(checks[3].msg).toBe('未完成的上传过多，请先完成或取消其他上传');
  });

  it('below the disk-free floor uploads are refused, chunks too', async () => {
    const c = await as(t.server, 'client3');
    const d = blob(0.5, 200);
    const key = { fileMd5: md5(d), fileSize: d.length };
    expect((await c.post('/api/file/check', { fileName: 'f.txt', ...key })).body.code).toBe(0);
    free = 50 * MB;
    try {
      expect(await uploadFile(t.server, c, 'f.txt', d)).toMatchObject({
        code: 400,
        msg: '服务器存储空间不足，暂时无法上传，请稍后再试',
      });
      const other = blob(0.5, 201);
      expect(
        (await c.post('/api/file/check', { fileName: 'g.txt', fileMd5: md5(other), fileSize: other.length })).body.msg,
      ).toBe('服务器存储空间不足，暂时无法上传，请稍后再试');
    } finally {
      free = 10_000 * MB;
    }
    expect((await uploadFile(t.server, c, 'f.txt', d)).code).toBe(0);
  });

  it('complete files and working files are removed after their keeping time', async () => {
    const c = await as(t.server, 'agent0');
    const d = blob(0.1, 300);
    const up = await uploadFile(t.server, c, 'old.txt', d);
    expect(up.code).toBe(0);
    const file = path.join(
      _paths.ownerDir(t.server.app.ctx, await accountId(t.server, 'agent0')),
      up.data.importFilePath,
    );
    const work = path.join(t.server.dataDir, 'files', 'agent0', 'varintl', 'abcdefghijklmnopqrstuv.tsv');
    fs.mkdirSync(path.dirname(work), { recursive: true });
    fs.writeFileSync(work, 'x');
    const files = t.server.app.services.files;
    // not yet
    expect(await files.purgeExpired(72 * 3600_000)).toMatchObject({ files: 0 });
    expect(fs.existsSync(file)).toBe(true);
    // the working file was last written 27 hours before the test clock's present
    const at = new Date(t.server.clock.now().getTime() - 27 * 3600_000);
    fs.utimesSync(work, at, at);
    t.server.clock.advance(73 * 3600_000);
    const r = await files.purgeExpired(72 * 3600_000);
    expect(r.files).toBeGreaterThanOrEqual(1);
    expect(r.workFiles).toBeGreaterThanOrEqual(1);
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.existsSync(work)).toBe(false);
    // (the session expired meanwhile: a new one)
    const again = await as(t.server, 'agent0');
    expect((await again.get(`/api/file/download?importFilePath=${up.data.importFilePath}`)).body.msg).toBe(
      '文件不存在，请重新上传',
    );
  });

  it('a file a task still needs (numbers not yet expanded) is neither deleted nor purged; once expanded it goes', async () => {
    const c = await as(t.server, 'agent1');
    const me = await accountId(t.server, 'agent1');
    const db = t.server.handle.db;
    const up = await uploadFile(t.server, c, 'task.txt', blob(0.1, 400));
    expect(up.code).toBe(0);
    const token = up.data.importFilePath as string;
    const file = path.join(_paths.ownerDir(t.server.app.ctx, me), token);
    // a working file of the international page, named by the same task's sibling
    const work = path.join(t.server.dataDir, 'files', 'agent1', 'varintl', 'taskneedsthisfile0001.tsv');
    fs.mkdirSync(path.dirname(work), { recursive: true });
    fs.writeFileSync(work, 'x');
    const now = t.server.clock.now();
    const task = async (ref: string) => {
      const row = await db
        .insertInto('sms_tasks')
        .values({
          uid: `T${crypto.randomBytes(6).toString('hex')}`,
          account_id: me,
          creator_id: me,
          payer_id: me,
          charge_mode: 0,
          content: 'x',
          smstype: 0,
          import_file_path: ref,
          send_time: now,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('sms_task_chunks')
        .values({ task_id: row.id, seq: 0, rows: 1, payload: Buffer.from('x'), created_at: now })
        .execute();
      return row.id;
    };
    const t1 = await task(token);
    const t2 = await task('varintl/taskneedsthisfile0001.tsv');
    const inUse = '文件正在被发送任务使用，请在任务号码处理完成后再删除';
    expect((await c.post('/api/file/delete', { importFilePath: token })).body).toMatchObject({ code: 400, msg: inUse });
    expect(
      (await c.post('/api/file/delete', { importFilePath: 'varintl/taskneedsthisfile0001.tsv' })).body,
    ).toMatchObject({ code: 400, msg: inUse });
    // far past the keeping time: the purge keeps both while their task has unexpanded numbers
    const at = new Date(now.getTime() - 1000 * 3600_000);
    fs.utimesSync(work, at, at);
    await db.updateTable('file_uploads').set({ updated_at: at }).where('stored_name', '=', token).execute();
    await t.server.app.services.files.purgeExpired(72 * 3600_000);
    expect(fs.existsSync(file)).toBe(true);
    expect(fs.existsSync(work)).toBe(true);
    // another account's task naming the same token does not protect nor reveal it
    expect(
      (await (await as(t.server, 'agent0')).post('/api/file/delete', { importFilePath: token })).body,
    ).toMatchObject({ code: 400, msg: '文件不存在，请重新上传' });
    // the tasks expanded their numbers (the chunks are gone): the next purge removes the files
    await db.deleteFrom('sms_task_chunks').where('task_id', 'in', [t1, t2]).execute();
    const r = await t.server.app.services.files.purgeExpired(72 * 3600_000);
    expect(r.files).toBeGreaterThanOrEqual(1);
    expect(r.workFiles).toBeGreaterThanOrEqual(1);
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.existsSync(work)).toBe(false);
  });
});

describe.each(backends)('expiry sweep on %s (scheduled, the files module timer)', (backend) => {
  // UPLOAD_KEEP_HOURS=72, the stale purge off; the module's timer runs every 100 ms here (every hour by default)
  const t = useServer(backend, {
    config: { uploadKeepHours: 72, uploadStaleHours: 0 },
    build: { uploadPurgeEveryMs: 100, diskFree: async () => 10_000 * MB },
  });

  it('removes a complete file once it is older than UPLOAD_KEEP_HOURS, with no call from the test', async () => {
    const c = await as(t.server, 'client0');
    const up = await uploadFile(t.server, c, 'kept.txt', blob(0.1, 500));
    expect(up.code).toBe(0);
    const file = path.join(
      _paths.ownerDir(t.server.app.ctx, await accountId(t.server, 'client0')),
      up.data.importFilePath,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(fs.existsSync(file)).toBe(true); // the timer ran and kept it
    t.server.clock.advance(73 * 3600_000);
    for (let i = 0; i < 100 && fs.existsSync(file); i++) await new Promise((r) => setTimeout(r, 50));
    expect(fs.existsSync(file)).toBe(false);
    expect(
      await t.server.handle.db
        .selectFrom('file_uploads')
        .select('id')
        .where('stored_name', '=', up.data.importFilePath)
        .execute(),
    ).toEqual([]);
  });
});

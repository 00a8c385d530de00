/**
 * The file service (docs/api-files.md): chunked upload, merge with MD5, reuse at 100 %, ownership,
 * nothing half-written used, renamed binaries / path names refused; on both databases.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { backends, sha256, useServer, type Client, type TestServer } from './harness';
import { as, accountId, ledgerViolations, poolViolations, templateId } from './send-helpers';
import { CHUNK_SIZE, resolveUpload, _paths } from '../../server/modules/files/service';
import { parseNumberFile } from '../../server/modules/files/parse';
import { ChunkHasher } from '../../server/modules/files/hasher';
import { bombXlsx, xlsxWith } from '../fixtures/zip';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../server/config';
import { buildApp } from '../../server/app';
import { testResolver } from '../fixtures/resolver';

const md5 = (b: Buffer) => crypto.createHash('md5').update(b).digest('hex');

export async function postChunk(
  s: TestServer,
  c: Client,
  q: { fileMd5: string; fileSize: number; chunk: number },
  bytes: Buffer,
  contentType = 'application/octet-stream',
) {
  const raw = await s.app.inject({
    method: 'POST',
    url: `/api/file/chunk?fileMd5=${q.fileMd5}&fileSize=${q.fileSize}&chunk=${q.chunk}`,
    headers: {
      host: 'localhost:8080',
      'content-type': contentType,
      cookie: [...c.jar].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-xsrf-token': c.jar.get('XSRF-TOKEN')!,
    },
    payload: bytes,
  });
  return raw.json();
}

/** check → every missing chunk → merge, as the console does */
export async function uploadFile(
  s: TestServer,
  c: Client,
  fileName: string,
  data: Buffer,
  opts: { md5?: string } = {},
) {
  const key = { fileMd5: opts.md5 ?? md5(data), fileSize: data.length };
  const check = (await c.post('/api/file/check', { fileName, ...key })).body;
  if (check.code !== 0) return check;
  if (check.data.uploaded) return { ...check, reused: true };
  for (let i = 0; i < check.data.chunks; i++) {
    if (check.data.uploadedChunks.includes(i)) continue;
    const r = await postChunk(s, c, { ...key, chunk: i }, data.subarray(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE));
    if (r.code !== 0) return r;
  }
  return (await c.post('/api/file/merge', key)).body;
}

export function numberText(n: number, start = 0) {
  return Buffer.from(Array.from({ length: n }, (_, i) => `1380${String(start + i).padStart(7, '0')}`).join('\r\n'));
}

describe.each(backends)('file service on %s', (backend) => {
  const t = useServer(backend);

  it('uploads in chunks, merges with the MD5 and reuses a complete file without a byte', async () => {
    const c = await as(t.server, 'client1');
    const data = Buffer.concat([numberText(300_000), Buffer.from('\r\n')]); // ~3.9 MB: 4 chunks
    const key = { fileMd5: md5(data), fileSize: data.length };
    const first = (await c.post('/api/file/check', { fileName: '号码.txt', ...key })).body;
    expect(first).toMatchObject({
      code: 0,
      data: { uploaded: false, chunks: 4, chunkSize: CHUNK_SIZE, uploadedChunks: [], progress: 0 },
    });
    // two chunks, then "reload": the check lists them
    expect(
      await postChunk(t.server, c, { ...key, chunk: 2 }, data.subarray(2 * CHUNK_SIZE, 3 * CHUNK_SIZE)),
    ).toMatchObject({ code: 0, data: { chunk: 2 } });
    expect((await postChunk(t.server, c, { ...key, chunk: 0 }, data.subarray(0, CHUNK_SIZE))).code).toBe(0);
    const again = (await c.post('/api/file/check', { fileName: '号码.txt', ...key })).body.data;
    expect(again).toMatchObject({ uploaded: false, uploadedChunks: [0, 2], progress: 50 });
    expect((await c.post('/api/file/progress', key)).body.data.uploadedChunks).toEqual([0, 2]);
    // merging early is refused
    expect((await c.post('/api/file/merge', key)).body).toMatchObject({ code: 400, msg: '文件尚未上传完成' });
    const done = await uploadFile(t.server, c, '号码.txt', data);
    expect(done).toMatchObject({ code: 0, data: { fileName: '号码.txt', fileMd5: key.fileMd5, size: data.length } });
    const token = done.data.importFilePath as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{24}\.txt$/);
    // the chunks are gone, the file is whole
    const f = await resolveUpload(t.server.app.ctx, { id: await accountId(t.server, 'client1') }, token);
    expect(md5(fs.readFileSync(f.path))).toBe(key.fileMd5);
    expect(fs.existsSync(_paths.chunkDir(t.server.app.ctx, await accountId(t.server, 'client1'), key))).toBe(false);
    // reuse at 100 %: the check answers the same file, no chunk needed
    const reuse = (await c.post('/api/file/check', { fileName: '另一个名字.txt', ...key })).body;
    expect(reuse).toMatchObject({
      code: 0,
      data: { uploaded: true, importFilePath: token, progress: 100, fileName: '另一个名字.txt' },
    });
    // merge again is idempotent; download gives the bytes back
    expect((await c.post('/api/file/merge', key)).body.data.importFilePath).toBe(token);
    const dl = await c.get(`/api/file/download?importFilePath=${token}`);
    expect(dl.status).toBe(200);
    expect(md5(dl.raw.rawPayload)).toBe(key.fileMd5);
  });

  it('refuses a wrong MD5 at the merge and drops the chunks', async () => {
    const c = await as(t.server, 'client1');
    const data = numberText(1000, 500_000);
    const wrong = md5(Buffer.from('something else'));
    const r = await uploadFile(t.server, c, 'bad.txt', data, { md5: wrong });
    expect(r).toMatchObject({ code: 400, msg: '文件校验失败，请重新上传' });
    const p = (await c.post('/api/file/progress', { fileMd5: wrong, fileSize: data.length })).body;
    expect(p.data).toMatchObject({ uploaded: false, uploadedChunks: [] });
    const rows = await t.server.handle.db
      .selectFrom('file_uploads')
      .select(['state', 'stored_name'])
      .where('file_md5', '=', wrong)
      .execute();
    expect(rows).toEqual([{ state: 0, stored_name: null }]);
  });

  it('keeps uploads to their owner: another account cannot read, merge, delete or reuse them', async () => {
    const owner = await as(t.server, 'client1');
    const other = await as(t.server, 'client0');
    const data = numberText(2000, 600_000);
    const key = { fileMd5: md5(data), fileSize: data.length };
    // a partial upload of the owner
    expect((await owner.post('/api/file/check', { fileName: 'a.txt', ...key })).body.code).toBe(0);
    expect((await postChunk(t.server, owner, { ...key, chunk: 0 }, data)).code).toBe(0);
    expect((await other.post('/api/file/progress', key)).body).toMatchObject({
      code: 400,
      msg: '文件不存在，请重新上传',
    });
    expect((await other.post('/api/file/merge', key)).body).toMatchObject({ code: 400, msg: '文件不存在，请重新上传' });
    expect((await other.post('/api/file/deleteChunks', key)).body).toMatchObject({
      code: 400,
      msg: '文件不存在，请重新上传',
    });
    expect(await postChunk(t.server, other, { ...key, chunk: 0 }, data)).toMatchObject({
      code: 400,
      msg: '文件不存在，请重新上传',
    });
    // the owner's chunk is untouched; merge it
    const done = (await owner.post('/api/file/merge', key)).body;
    expect(done.code).toBe(0);
    const token = done.data.importFilePath;
    // the other account knows the MD5: its check registers its own upload, nothing is reused
    const otherCheck = (await other.post('/api/file/check', { fileName: 'a.txt', ...key })).body;
    expect(otherCheck.data).toMatchObject({ uploaded: false, importFilePath: null, uploadedChunks: [] });
    expect((await other.get(`/api/file/download?importFilePath=${token}`)).body).toMatchObject({
      code: 400,
      msg: '文件不存在，请重新上传',
    });
    await expect(resolveUpload(t.server.app.ctx, { id: await accountId(t.server, 'client0') }, token)).rejects.toThrow(
      '文件不存在，请重新上传',
    );
    expect((await owner.get(`/api/file/download?importFilePath=${token}`)).status).toBe(200);
  });

  it('never uses anything half-written: a cut chunk is not kept, an unmerged upload resolves to nothing', async () => {
    const c = await as(t.server, 'client1');
    const data = Buffer.concat([numberText(100_000, 700_000), Buffer.from('\r\n')]); // 2 chunks
    const key = { fileMd5: md5(data), fileSize: data.length };
    expect((await c.post('/api/file/check', { fileName: 'h.txt', ...key })).body.data.chunks).toBe(2);
    // a chunk shorter or longer than its size is refused and leaves no file
    expect(await postChunk(t.server, c, { ...key, chunk: 0 }, data.subarray(0, 1000))).toMatchObject({
      code: 400,
      msg: '分片不正确',
    });
    expect(await postChunk(t.server, c, { ...key, chunk: 1 }, data.subarray(0, CHUNK_SIZE))).toMatchObject({
      code: 400,
      msg: '分片不正确',
    });
    expect(await postChunk(t.server, c, { ...key, chunk: 2 }, data.subarray(0, 10))).toMatchObject({ code: 400 });
    // a JSON body is not a chunk
    expect(
      (
        await c.post(
          `/api/file/chunk?fileMd5=${key.fileMd5}&fileSize=${key.fileSize}&chunk=0`,
          { a: 1 },
          { json: true },
        )
      ).body,
    ).toMatchObject({
      code: 400,
      msg: '分片不正确',
    });
    const dir = _paths.chunkDir(t.server.app.ctx, await accountId(t.server, 'client1'), key);
    expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).toEqual([]);
    expect((await c.post('/api/file/progress', key)).body.data.uploadedChunks).toEqual([]);
    // one good chunk: still no importFilePath, nothing to resolve
    expect((await postChunk(t.server, c, { ...key, chunk: 0 }, data.subarray(0, CHUNK_SIZE))).code).toBe(0);
    const row = await t.server.handle.db
      .selectFrom('file_uploads')
      .selectAll()
      .where('file_md5', '=', key.fileMd5)
      .executeTakeFirstOrThrow();
    expect(row.stored_name).toBeNull();
    // cancel: the chunks go
    expect((await c.post('/api/file/deleteChunks', key)).body).toMatchObject({ code: 0, data: { deleted: true } });
    expect(fs.existsSync(dir)).toBe(false);
    expect((await c.post('/api/file/progress', key)).body.msg).toBe('文件不存在，请重新上传');
    // a done file whose bytes were removed is uploaded again, not used
    const d2 = numberText(10, 800_000);
    const up = await uploadFile(t.server, c, 'gone.txt', d2);
    fs.rmSync((await resolveUpload(t.server.app.ctx, { id: row.account_id }, up.data.importFilePath)).path);
    await expect(resolveUpload(t.server.app.ctx, { id: row.account_id }, up.data.importFilePath)).rejects.toThrow(
      '文件不存在，请重新上传',
    );
    expect(
      (await c.post('/api/file/check', { fileName: 'gone.txt', fileMd5: md5(d2), fileSize: d2.length })).body.data,
    ).toMatchObject({ uploaded: false, importFilePath: null });
  });

  it('checks the session at every chunk in the database: a session ended or an account frozen elsewhere stops the next chunk', async () => {
    const c = await as(t.server, 'client1');
    const data = Buffer.concat([numberText(100_000, 900_000), Buffer.from('\r\n')]); // 2 chunks
    const key = { fileMd5: md5(data), fileSize: data.length };
    expect((await c.post('/api/file/check', { fileName: 's.txt', ...key })).body.code).toBe(0);
    expect((await postChunk(t.server, c, { ...key, chunk: 0 }, data.subarray(0, CHUNK_SIZE))).code).toBe(0);
    // another process freezes the account (a row update, nothing this process hears of): the next chunk is refused
    const id = await accountId(t.server, 'client1');
    await t.server.handle.db.updateTable('accounts').set({ status: 5 }).where('id', '=', id).execute();
    try {
      expect(await postChunk(t.server, c, { ...key, chunk: 1 }, data.subarray(CHUNK_SIZE))).toMatchObject({
        code: 401,
        msg: '登录超时',
      });
    } finally {
      await t.server.handle.db.updateTable('accounts').set({ status: 1 }).where('id', '=', id).execute();
    }
    // another process ends the session (logout there): refused at once, no cache answers for it
    await t.server.handle.db
      .deleteFrom('sessions')
      .where('id', '=', sha256(c.jar.get('sid')!))
      .execute();
    expect(await postChunk(t.server, c, { ...key, chunk: 1 }, data.subarray(CHUNK_SIZE))).toMatchObject({
      code: 401,
      msg: '登录超时',
    });
    // without the CSRF header a chunk is refused as every POST is
    const owner = await as(t.server, 'client1');
    const noCsrf = await t.server.app.inject({
      method: 'POST',
      url: `/api/file/chunk?fileMd5=${key.fileMd5}&fileSize=${key.fileSize}&chunk=1`,
      headers: {
        host: 'localhost:8080',
        'content-type': 'application/octet-stream',
        cookie: [...owner.jar].map(([k, v]) => `${k}=${v}`).join('; '),
      },
      payload: data.subarray(CHUNK_SIZE),
    });
    expect(noCsrf.json()).toMatchObject({ code: 403, msg: '非法请求，请刷新页面后重试' });
    // nothing of the refused chunks was kept; the owner's next session goes on from chunk 0
    expect((await owner.post('/api/file/progress', key)).body.data.uploadedChunks).toEqual([0]);
    expect(await uploadFile(t.server, owner, 's.txt', data)).toMatchObject({ code: 0 });
  });

  it('reads what is stored from the chunk files: temporary files do not count, a chunk lost or cut on disk is sent again', async () => {
    const c = await as(t.server, 'client1');
    const id = await accountId(t.server, 'client1');
    const data = Buffer.concat([numberText(200_000, 1_100_000), Buffer.from('\r\n')]); // 3 chunks
    const key = { fileMd5: md5(data), fileSize: data.length };
    expect((await c.post('/api/file/check', { fileName: 'd.txt', ...key })).body.data.chunks).toBe(3);
    const dir = _paths.chunkDir(t.server.app.ctx, id, key);
    for (const i of [0, 1, 2])
      expect(
        (await postChunk(t.server, c, { ...key, chunk: i }, data.subarray(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE))).code,
      ).toBe(0);
    fs.writeFileSync(path.join(dir, '1.abc.part'), 'half');
    fs.rmSync(path.join(dir, '2'));
    expect((await c.post('/api/file/progress', key)).body.data).toMatchObject({ uploadedChunks: [0, 1], progress: 66 });
    expect((await c.post('/api/file/merge', key)).body).toMatchObject({ code: 400, msg: '文件尚未上传完成' });
    // a chunk cut on disk (by hand, or a crash before it reached the disk): the merge drops it and asks for it again
    expect((await postChunk(t.server, c, { ...key, chunk: 2 }, data.subarray(2 * CHUNK_SIZE))).code).toBe(0);
    fs.truncateSync(path.join(dir, '1'), 10);
    expect((await c.post('/api/file/merge', key)).body).toMatchObject({ code: 400, msg: '文件尚未上传完成' });
    expect((await c.post('/api/file/progress', key)).body.data.uploadedChunks).toEqual([0, 2]);
    const done = await uploadFile(t.server, c, 'd.txt', data);
    expect(done).toMatchObject({ code: 0, data: { size: data.length } });
    expect(md5(fs.readFileSync((await resolveUpload(t.server.app.ctx, { id }, done.data.importFilePath)).path))).toBe(
      key.fileMd5,
    );
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('builds the file and its MD5 as the chunks come in, so the merge only checks and syncs it; else the merge reads the chunks', async () => {
    const c = await as(t.server, 'client1');
    const id = await accountId(t.server, 'client1');
    const take = vi.spyOn(ChunkHasher.prototype, 'take');
    try {
      const three = (start: number) => Buffer.concat([numberText(200_000, start), Buffer.from('\r\n')]); // 3 chunks
      // in order, all seen by this process: the worker's file is the upload
      const a = three(5_000_000);
      const done = await uploadFile(t.server, c, 'a.txt', a);
      expect(done.code).toBe(0);
      expect(await take.mock.results.at(-1)!.value).toMatchObject({ md5: md5(a), size: a.length });
      expect(md5(fs.readFileSync((await resolveUpload(t.server.app.ctx, { id }, done.data.importFilePath)).path))).toBe(
        md5(a),
      );
      // a chunk file replaced after it was taken in: the file holds the bytes taken in (and checked against the MD5)
      const b = three(5_300_000);
      const key = { fileMd5: md5(b), fileSize: b.length };
      expect((await c.post('/api/file/check', { fileName: 'b.txt', ...key })).body.code).toBe(0);
      for (const i of [0, 1, 2])
        expect(
          (await postChunk(t.server, c, { ...key, chunk: i }, b.subarray(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE))).code,
        ).toBe(0);
      const dir = _paths.chunkDir(t.server.app.ctx, id, key);
      await new Promise((r) => setTimeout(r, 200));
      const other = Buffer.from(b.subarray(CHUNK_SIZE, 2 * CHUNK_SIZE));
      other[0] = other[0] === 0x31 ? 0x32 : 0x31;
      fs.writeFileSync(path.join(dir, '1.x.part'), other);
      fs.renameSync(path.join(dir, '1.x.part'), path.join(dir, '1'));
      const mb = (await c.post('/api/file/merge', key)).body;
      expect(mb.code).toBe(0);
      expect(md5(fs.readFileSync((await resolveUpload(t.server.app.ctx, { id }, mb.data.importFilePath)).path))).toBe(
        key.fileMd5,
      );
      // a chunk sent twice (its answer lost): nothing built here, the merge reads, hashes and writes the chunks
      const d = three(5_600_000);
      const dk = { fileMd5: md5(d), fileSize: d.length };
      expect((await c.post('/api/file/check', { fileName: 'd.txt', ...dk })).body.code).toBe(0);
      for (const i of [0, 1, 1, 2])
        expect(
          (await postChunk(t.server, c, { ...dk, chunk: i }, d.subarray(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE))).code,
        ).toBe(0);
      const merged = (await c.post('/api/file/merge', dk)).body;
      expect(merged.code).toBe(0);
      expect(await take.mock.results.at(-1)!.value).toBeNull();
      expect(
        md5(fs.readFileSync((await resolveUpload(t.server.app.ctx, { id }, merged.data.importFilePath)).path)),
      ).toBe(dk.fileMd5);
      // and a wrong MD5 is refused on either path, nothing of it left
      const e = three(5_900_000);
      const wrong = { fileMd5: md5(Buffer.from('not e')), fileSize: e.length };
      expect((await c.post('/api/file/check', { fileName: 'e.txt', ...wrong })).body.code).toBe(0);
      for (const i of [0, 1, 2])
        expect(
          (await postChunk(t.server, c, { ...wrong, chunk: i }, e.subarray(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE))).code,
        ).toBe(0);
      expect((await c.post('/api/file/merge', wrong)).body).toMatchObject({
        code: 400,
        msg: '文件校验失败，请重新上传',
      });
      expect(await take.mock.results.at(-1)!.value).toMatchObject({ md5: md5(e) });
      expect(fs.existsSync(_paths.chunkDir(t.server.app.ctx, id, wrong))).toBe(false);
      expect(
        fs
          .readdirSync(_paths.ownerDir(t.server.app.ctx, id))
          .filter((f) => f.endsWith('.part') || f.endsWith('.merging')),
      ).toEqual([]);
    } finally {
      take.mockRestore();
    }
  });

  it('serves one upload from two API processes sharing the database and DATA_DIR: chunks to both, the merge on either, claimed once', async () => {
    // a second server on the same database and data folder: nothing of an upload held in a process
    const second = await buildApp({
      db: t.server.handle.db,
      dataDir: t.server.dataDir,
      now: t.server.clock.now,
      purgeEveryMs: 0,
      uploadPurgeEveryMs: 0,
      alarmEveryMs: 0,
      config: { ipRateLimitPerMinute: 1000 },
      resolveHost: testResolver,
    });
    try {
      const c = await as(t.server, 'client1');
      const id = await accountId(t.server, 'client1');
      const headers = () => ({
        host: 'localhost:8080',
        cookie: [...c.jar].map(([k, v]) => `${k}=${v}`).join('; '),
        'x-xsrf-token': c.jar.get('XSRF-TOKEN')!,
      });
      const on = async (app: FastifyInstance, url: string, payload: Buffer | Record<string, unknown>) =>
        (
          await app.inject({
            method: 'POST',
            url,
            headers: {
              ...headers(),
              'content-type': Buffer.isBuffer(payload) ? 'application/octet-stream' : 'application/json',
            },
            payload: Buffer.isBuffer(payload) ? payload : JSON.stringify(payload),
          })
        ).json();
      const apps = [t.server.app, second];
      const data = Buffer.concat([numberText(300_000, 6_000_000), Buffer.from('\r\n')]); // 4 chunks
      const key = { fileMd5: md5(data), fileSize: data.length };
      expect((await on(second, '/api/file/check', { fileName: 'two.txt', ...key })).code).toBe(0);
      for (const i of [0, 1, 2, 3]) {
        const r = await on(
          apps[i % 2],
          `/api/file/chunk?fileMd5=${key.fileMd5}&fileSize=${key.fileSize}&chunk=${i}`,
          data.subarray(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE),
        );
        expect(r, `chunk ${i}`).toMatchObject({ code: 0 });
      }
      expect((await on(t.server.app, '/api/file/progress', key)).data).toMatchObject({
        uploadedChunks: [0, 1, 2, 3],
        progress: 100,
      });
      // neither process saw every chunk: the merge hashes what it reads
      const merged = await on(second, '/api/file/merge', key);
      expect(merged).toMatchObject({ code: 0, data: { size: data.length } });
      expect(
        md5(fs.readFileSync((await resolveUpload(t.server.app.ctx, { id }, merged.data.importFilePath)).path)),
      ).toBe(key.fileMd5);
      // one upload merged from both at once: claimed by one of them, the other told to wait or given the same file
      const d2 = Buffer.concat([numberText(200_000, 6_500_000), Buffer.from('\r\n')]);
      const k2 = { fileMd5: md5(d2), fileSize: d2.length };
      expect((await on(t.server.app, '/api/file/check', { fileName: 'both.txt', ...k2 })).code).toBe(0);
      for (const i of [0, 1, 2])
        expect(
          (
            await on(
              t.server.app,
              `/api/file/chunk?fileMd5=${k2.fileMd5}&fileSize=${k2.fileSize}&chunk=${i}`,
              d2.subarray(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE),
            )
          ).code,
        ).toBe(0);
      const answers = await Promise.all(apps.map((app) => on(app, '/api/file/merge', k2)));
      const ok = answers.filter((a) => a.code === 0);
      expect(ok.length).toBeGreaterThanOrEqual(1);
      for (const a of answers) if (a.code !== 0) expect(a.msg).toBe('文件正在合并，请稍后重试');
      expect(new Set(ok.map((a) => a.data.importFilePath)).size).toBe(1);
      expect(md5(fs.readFileSync((await resolveUpload(second.ctx, { id }, ok[0].data.importFilePath)).path))).toBe(
        k2.fileMd5,
      );
      expect(
        await t.server.handle.db
          .selectFrom('file_uploads')
          .select('state')
          .where('file_md5', '=', k2.fileMd5)
          .execute(),
      ).toEqual([{ state: 2 }]);
    } finally {
      await second.close();
    }
  });

  it('purges unfinished uploads nobody touched for the stale time, each once however many processes run it', async () => {
    const id = await accountId(t.server, 'client1');
    const ctx = t.server.app.ctx;
    const db = t.server.handle.db;
    let c = await as(t.server, 'client1');
    const partial = async (n: number, start: number, chunk = true) => {
      const data = Buffer.concat([numberText(n, start), Buffer.from('\r\n')]);
      const key = { fileMd5: md5(data), fileSize: data.length };
      expect((await c.post('/api/file/check', { fileName: 'p.txt', ...key })).body.code).toBe(0);
      if (chunk)
        expect((await postChunk(t.server, c, { ...key, chunk: 0 }, data.subarray(0, CHUNK_SIZE))).code).toBe(0);
      return key;
    };
    const stale = await partial(100_000, 3_000_000); // one of two chunks
    const registered = await partial(10, 3_200_000, false); // checked, nothing sent
    const active = await partial(100_000, 3_300_000); // old row, but a chunk came in lately (chunks write no row)
    const complete = await uploadFile(t.server, c, 'whole.txt', numberText(1000, 3_400_000));
    const HOUR = 3600_000;
    t.server.clock.advance(25 * HOUR);
    const now = t.server.clock.now();
    c = await as(t.server, 'client1'); // the session of a day ago has expired
    const fresh = await partial(100_000, 3_500_000);
    fs.utimesSync(_paths.chunkDir(ctx, id, active), now, new Date(now.getTime() - HOUR));
    // leftovers no unfinished upload owns: a chunk folder of an older version, a folder whose row went, a merge that died
    const owner = _paths.ownerDir(ctx, id);
    const old = new Date(now.getTime() - 48 * HOUR);
    const leftovers = ['c999999', `c${'a'.repeat(32)}-1234`, 'x'.repeat(24) + '.txt.abcdef.merging'];
    for (const name of leftovers) {
      if (name.endsWith('.merging')) fs.writeFileSync(path.join(owner, name), 'x');
      else fs.mkdirSync(path.join(owner, name, '0'), { recursive: true });
      fs.utimesSync(path.join(owner, name), old, old);
    }
    const young = `c${'b'.repeat(32)}-99`;
    fs.mkdirSync(path.join(owner, young));
    fs.utimesSync(path.join(owner, young), now, now);

    // unfinished and untouched for a day: this test's stale and registered uploads, the active one (kept), and what earlier tests left
    const { n: untouched } = await db
      .selectFrom('file_uploads')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('state', '<>', 2)
      .where('updated_at', '<', new Date(now.getTime() - 24 * HOUR))
      .executeTakeFirstOrThrow();
    const [a, b] = await Promise.all([
      t.server.app.services.files.purgeStale(24 * HOUR),
      t.server.app.services.files.purgeStale(24 * HOUR),
    ]);
    expect(a.uploads + b.uploads).toBe(Number(untouched) - 1);
    expect(Number(untouched)).toBeGreaterThanOrEqual(3);
    const left = await db
      .selectFrom('file_uploads')
      .select(['file_md5', 'state', 'updated_at'])
      .where('account_id', '=', id)
      .execute();
    const has = (k: { fileMd5: string }) => left.some((r) => r.file_md5 === k.fileMd5);
    expect([
      has(stale),
      has(registered),
      has(active),
      has(fresh),
      has({ fileMd5: md5(numberText(1000, 3_400_000)) }),
    ]).toEqual([false, false, true, true, true]);
    // the active upload's row now says when its last chunk came, so it is not looked at again before that is as old
    expect(new Date(left.find((r) => r.file_md5 === active.fileMd5)!.updated_at).getTime()).toBeGreaterThan(
      now.getTime() - 2 * HOUR,
    );
    expect(fs.existsSync(_paths.chunkDir(ctx, id, stale))).toBe(false);
    expect(fs.existsSync(_paths.chunkDir(ctx, id, registered))).toBe(false);
    const chunkFiles = (k: { fileMd5: string; fileSize: number }) =>
      fs.readdirSync(_paths.chunkDir(ctx, id, k)).filter((f) => /^\d+$/.test(f));
    expect(chunkFiles(active)).toEqual(['0']);
    expect(chunkFiles(fresh)).toEqual(['0']);
    for (const name of leftovers) expect(fs.existsSync(path.join(owner, name)), name).toBe(false);
    expect(fs.existsSync(path.join(owner, young))).toBe(true);
    // the complete file stays usable; the purged upload starts again from nothing
    expect((await resolveUpload(ctx, { id }, complete.data.importFilePath)).size).toBe(
      numberText(1000, 3_400_000).length,
    );
    expect((await c.post('/api/file/progress', stale)).body.msg).toBe('文件不存在，请重新上传');
    expect((await c.post('/api/file/check', { fileName: 'p.txt', ...stale })).body.data).toMatchObject({
      uploaded: false,
      uploadedChunks: [],
    });
    // nothing more to do
    expect(await t.server.app.services.files.purgeStale(24 * HOUR)).toEqual({ uploads: 0, folders: 0 });
  });

  it('refuses path names, other types, renamed binaries and sizes over the limit', async () => {
    const c = await as(t.server, 'client1');
    const key = { fileMd5: md5(Buffer.from('x')), fileSize: 1 };
    for (const name of ['../../etc/passwd.txt', 'a/b.txt', 'a\\b.txt', '.hidden.txt', 'x..txt', 'nul\u0001.txt']) {
      const r = (await c.post('/api/file/check', { fileName: name, ...key })).body;
      expect(r.code, name).toBe(400);
    }
    expect((await c.post('/api/file/check', { fileName: 'a.exe', ...key })).body.msg).toBe(
      '请上传txt,csv,xlxs格式文件',
    );
    expect(
      (await c.post('/api/file/check', { fileName: 'a.txt', fileMd5: key.fileMd5, fileSize: 301 * 1024 * 1024 })).body
        .msg,
    ).toBe('文件大小超过限制');
    expect((await c.post('/api/file/check', { fileName: 'a.txt', fileMd5: 'zz', fileSize: 1 })).body.code).toBe(400);
    // a PNG named .txt, a text named .xlsx, a zip of anything named .csv
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
      'hex',
    );
    expect(await uploadFile(t.server, c, 'png.txt', png)).toMatchObject({ code: 400, msg: '文件内容与格式不符' });
    expect(await uploadFile(t.server, c, 'text.xlsx', numberText(10))).toMatchObject({
      code: 400,
      msg: '文件内容与格式不符',
    });
    expect(await uploadFile(t.server, c, 'bin.csv', Buffer.from([0x31, 0x00, 0x32]))).toMatchObject({
      code: 400,
      msg: '文件内容与格式不符',
    });
    // a malformed token never resolves
    for (const p of ['../x.txt', 'a/b.txt', '', 'x'.repeat(24) + '.exe']) {
      expect((await c.get(`/api/file/download?importFilePath=${encodeURIComponent(p)}`)).body.code).toBe(400);
    }
    const root = _paths.uploadsRoot(t.server.app.ctx);
    const all = fs.existsSync(root) ? fs.readdirSync(root, { recursive: true }).map(String) : [];
    // (the file the worker builds for an unfinished upload, a.<random>.part, lives in its chunk folder until it is merged, cancelled or purged)
    expect(
      all.filter(
        (f) =>
          f.includes('..') ||
          (f.endsWith('.part') && !/^\d+\/c[0-9a-f]{32}-\d+\/a\.[\w-]+\.part$/.test(f)) ||
          f.endsWith('.merging'),
      ),
    ).toEqual([]);
    void path;
  });

  it('parses txt, csv and xlsx uploads as streams with the shared number rules (POST /send/parsefile)', async () => {
    const c = await as(t.server, 'client1');
    const txt = await uploadFile(
      t.server,
      c,
      'n.txt',
      Buffer.from('13800138000\n13800138000\r\n18600186000;abc\n123\n18900189000'),
    );
    const r = (await c.post('/api/send/parsefile', { importFilePath: txt.data.importFilePath, templateType: 0 })).body;
    expect(r).toMatchObject({
      code: 0,
      data: {
        fileName: 'n.txt',
        importFilePath: txt.data.importFilePath,
        submitTotal: 5,
        errNum: 1,
        repeatNum: 1,
        sendNum: 3,
        mobileNum: 1,
        unicomNum: 1,
        telecomNum: 1,
      },
    });
    // filePath is the same key
    expect((await c.post('/api/send/parsefile', { filePath: txt.data.importFilePath })).body.data.sendNum).toBe(3);
    // 100,000 numbers in a csv over several chunks, a number split across a 1 MB boundary
    const csv = await uploadFile(
      t.server,
      c,
      'big.csv',
      Buffer.from(
        `\ufeff手机号码\r\n${Array.from({ length: 100_000 }, (_, i) => `1860${String(i).padStart(7, '0')}`).join('\r\n')}\r\n`,
      ),
    );
    expect((await c.post('/api/send/parsefile', { importFilePath: csv.data.importFilePath })).body.data).toMatchObject({
      submitTotal: 100_000,
      errNum: 0,
      repeatNum: 0,
      unicomNum: 100_000,
    });
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('号码');
    ws.addRow(['手机号码']);
    for (let i = 0; i < 1000; i++) ws.addRow([i % 2 ? 13800000000 + i : `1890000${String(i).padStart(4, '0')}`]);
    ws.addRow(['12345']);
    const xlsx = await uploadFile(t.server, c, 'n.xlsx', Buffer.from(await wb.xlsx.writeBuffer()));
    expect(xlsx.code).toBe(0);
    expect((await c.post('/api/send/parsefile', { importFilePath: xlsx.data.importFilePath })).body.data).toMatchObject(
      {
        submitTotal: 1001,
        errNum: 1,
        mobileNum: 500,
        telecomNum: 500,
      },
    );
    // international: 6-15 digits
    const intl = await uploadFile(
      t.server,
      c,
      'i.txt',
      Buffer.from('447911123456\n14155550123\n447911123456\n0123\n8613800138000'),
    );
    expect(
      (await c.post('/api/send/parsefile', { importFilePath: intl.data.importFilePath, international: 1 })).body.data,
    ).toMatchObject({
      submitTotal: 5,
      errNum: 1,
      repeatNum: 1,
      internationalNum: 3,
      sendNum: 3,
    });
    // refusals
    const none = await uploadFile(t.server, c, 'none.txt', Buffer.from('abc 123'));
    expect((await c.post('/api/send/parsefile', { importFilePath: none.data.importFilePath })).body).toMatchObject({
      code: 400,
      msg: '导入文件的有效号码个数为0',
    });
    expect((await c.post('/api/send/parsefile', { importFilePath: 'x'.repeat(24) + '.txt' })).body).toMatchObject({
      code: 400,
      msg: '文件不存在，请重新上传',
    });
    // templateType 1 is a variable file: the variable SMS parser (server/modules/variable-international) answers, and wants its template
    expect(
      (await c.post('/api/send/parsefile', { importFilePath: txt.data.importFilePath, templateType: 1 })).body,
    ).toMatchObject({
      code: 400,
      msg: '变量模板不存在或未审核通过',
    });
    const broken = await uploadFile(
      t.server,
      c,
      'broken.xlsx',
      Buffer.concat([Buffer.from('504b0304', 'hex'), Buffer.alloc(100, 7)]),
    );
    expect((await c.post('/api/send/parsefile', { importFilePath: broken.data.importFilePath })).body).toMatchObject({
      code: 400,
      msg: '文件解析失败',
    });
    await expect(
      parseNumberFile(
        await resolveUpload(t.server.app.ctx, { id: await accountId(t.server, 'client1') }, csv.data.importFilePath),
        { timeoutMs: -1 },
      ),
    ).rejects.toThrow('文件解析超时');
    // another account cannot parse it
    const other = await as(t.server, 'client0');
    expect((await other.post('/api/send/parsefile', { importFilePath: txt.data.importFilePath })).body.msg).toBe(
      '文件不存在，请重新上传',
    );
  });

  it('refuses zip bombs and path names inside a workbook when parsing', async () => {
    const c = await as(t.server, 'client1');
    // 200 MB of rows in a few hundred KB, honest and lying about its size
    for (const bomb of [bombXlsx(200), bombXlsx(200, { declaredSize: 1000 })]) {
      const up = await uploadFile(t.server, c, 'bomb.xlsx', bomb);
      expect(up.code).toBe(0);
      const started = Date.now();
      expect((await c.post('/api/send/parsefile', { importFilePath: up.data.importFilePath })).body).toMatchObject({
        code: 400,
        msg: '文件内容过大',
      });
      expect(Date.now() - started).toBeLessThan(20_000);
    }
    const evil = xlsxWith({ data: '<worksheet/>' }, [{ name: '../../evil.txt', data: 'x' }]);
    const up = await uploadFile(t.server, c, 'evil.xlsx', evil);
    expect((await c.post('/api/send/parsefile', { importFilePath: up.data.importFilePath })).body).toMatchObject({
      code: 400,
      msg: '文件解析失败',
    });
  });

  it('downloads the error numbers of typed numbers and of a file', async () => {
    const c = await as(t.server, 'client1');
    const typed = await c.post('/api/send/importRrrorPhones', { phones: '13800138000,123,1380013800x,99999999999' });
    expect(typed.status).toBe(200);
    expect(String(typed.headers['content-disposition'])).toContain('attachment');
    expect(typed.raw.body).toBe('123\r\n1380013800\r\n99999999999\r\n');
    expect(
      (await c.post('/api/send/importRrrorPhones', { phones: '447911123456,0123,12', international: 1 })).raw.body,
    ).toBe('0123\r\n12\r\n');
    const up = await uploadFile(t.server, c, 'e.txt', Buffer.from('13800138000\n123\n18600186000,abc\n5555'));
    expect((await c.post('/api/send/importRrrorPhones', { importFilePath: up.data.importFilePath })).raw.body).toBe(
      '123\r\n5555\r\n',
    );
    expect(
      (await c.post('/api/send/downloadtemplateVariateErrorTxt', { importFilePath: up.data.importFilePath })).raw.body,
    ).toBe('2,123\r\n4,5555\r\n');
    const other = await as(t.server, 'client0');
    expect(
      (await other.post('/api/send/downloadtemplateVariateErrorTxt', { importFilePath: up.data.importFilePath })).body
        .msg,
    ).toBe('文件不存在，请重新上传');
  });

  it('sends to the numbers of an uploaded file (importFilePath): charged like typed numbers, beyond the 60,000 of the manual input', async () => {
    const c = await as(t.server, 'client1');
    const tpl = await templateId(t.server, '您的好易购登录验证码为');
    const content = '您的好易购登录验证码为123456，5分钟内有效，请勿告诉他人。';
    const big = await uploadFile(t.server, c, '大文件.txt', numberText(61_000, 1_000_000));
    const preview = (
      await c.post('/api/send/chargeInfo', {
        content,
        sign: '好易购',
        importFilePath: big.data.importFilePath,
        smstype: 4,
      })
    ).body;
    expect(preview).toMatchObject({ code: 0, data: { submitTotal: 61_000, smsNum: 1, chargeNum: 61_000 } });
    const lines = Buffer.from(`${numberText(3000, 2_000_000).toString()}\r\n123\r\n13802000000\r\n`);
    const up = await uploadFile(t.server, c, '号码.txt', lines);
    t.server.clock.advance(3100);
    const r = (
      await c.post('/api/send/sending', {
        sign: '好易购',
        smstype: 4,
        templateId: tpl,
        content,
        importFilePath: up.data.importFilePath,
      })
    ).body;
    expect(r).toMatchObject({ code: 0, data: { submitTotal: 3000, chargeNum: 3000 } });
    const task = await t.server.handle.db
      .selectFrom('sms_tasks')
      .selectAll()
      .where('uid', '=', r.data.taskId)
      .executeTakeFirstOrThrow();
    expect(task).toMatchObject({ file_type: 1, file_name: '号码.txt', submit_total: 3000, err_num: 1, repeat_num: 1 });
    const { n } = await t.server.handle.db
      .selectFrom('sms_messages')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('task_id', '=', task.id)
      .executeTakeFirstOrThrow();
    expect(Number(n)).toBe(3000);
    // another account's file, a bad token
    const other = await as(t.server, 'client0');
    t.server.clock.advance(3100);
    expect(
      (
        await other.post('/api/send/chargeInfo', {
          content,
          sign: '好易购',
          importFilePath: up.data.importFilePath,
          smstype: 5,
        })
      ).body.msg,
    ).toBe('文件不存在，请重新上传');
    expect(
      (
        await c.post('/api/send/sending', {
          sign: '好易购',
          smstype: 4,
          templateId: tpl,
          content,
          importFilePath: '../x',
        })
      ).body.code,
    ).toBe(400);
    // neither numbers nor a file
    expect((await c.post('/api/send/sending', { sign: '好易购', smstype: 4, templateId: tpl, content })).body.msg).toBe(
      '号码池不能为空',
    );
    expect(await ledgerViolations(t.server)).toEqual([]);
    expect(await poolViolations(t.server)).toEqual([]);
  });
});

describe.each(backends)('stale upload purge on %s (scheduled)', (backend) => {
  // UPLOAD_STALE_HOURS=2; the server's job runs every 100 ms here (every hour by default)
  const t = useServer(backend, {
    config: { uploadStaleHours: loadConfig({ UPLOAD_STALE_HOURS: '2' }).app.uploadStaleHours },
    build: { uploadPurgeEveryMs: 100 },
  });

  it('runs where the server starts its periodic jobs and removes uploads untouched for UPLOAD_STALE_HOURS', async () => {
    const c = await as(t.server, 'client1');
    const id = await accountId(t.server, 'client1');
    const data = Buffer.concat([numberText(100_000, 4_000_000), Buffer.from('\r\n')]);
    const key = { fileMd5: md5(data), fileSize: data.length };
    expect((await c.post('/api/file/check', { fileName: 'late.txt', ...key })).body.code).toBe(0);
    expect((await postChunk(t.server, c, { ...key, chunk: 0 }, data.subarray(0, CHUNK_SIZE))).code).toBe(0);
    const rows = () =>
      t.server.handle.db.selectFrom('file_uploads').select('id').where('file_md5', '=', key.fileMd5).execute();
    await new Promise((r) => setTimeout(r, 300));
    expect(await rows()).toHaveLength(1); // not stale yet: the job ran and kept it
    t.server.clock.advance(3 * 3600_000);
    const dir = _paths.chunkDir(t.server.app.ctx, id, key);
    for (let i = 0; i < 100 && ((await rows()).length || fs.existsSync(dir)); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(await rows()).toHaveLength(0);
    expect(fs.existsSync(dir)).toBe(false);
  });
});

describe('ChunkHasher (the file and its MD5 built as the chunks come in)', () => {
  const bytes = (n: number, seed: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff));

  it('takes the chunk files in order whatever order they come in, and answers only for a whole upload it took in', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hasher-'));
    const h = new ChunkHasher();
    try {
      const parts = [bytes(1000, 1), bytes(1000, 2), bytes(1000, 3), bytes(10, 4)];
      const store = (key: string, i: number) => {
        fs.mkdirSync(path.join(dir, key), { recursive: true });
        const f = path.join(dir, key, String(i));
        fs.writeFileSync(`${f}.tmp`, parts[i]);
        fs.renameSync(`${f}.tmp`, f);
        return f;
      };
      const add = (key: string, i: number, f = store(key, i)) => h.add(path.join(dir, key), i, i * 1000, f);
      const take = (key: string, n: number) => h.take(path.join(dir, key), n);
      for (const i of [1, 0, 3, 2]) add('a', i);
      const a = await take('a', 4);
      expect(a).toMatchObject({ md5: md5(Buffer.concat(parts)), size: 3010 });
      // the file holds exactly the bytes hashed, in order: a chunk replaced afterwards changes nothing in it
      fs.writeFileSync(path.join(dir, 'a', '1'), bytes(1000, 9));
      expect(md5(fs.readFileSync(a!.assembled))).toBe(a!.md5);
      expect(path.dirname(a!.assembled)).toBe(path.join(dir, 'a'));
      expect(await take('a', 4)).toBeNull(); // handed over once
      // a chunk missing, a chunk sent twice, a file gone before it was read, forgotten: no result (the merge reads the chunks)
      for (const i of [0, 1, 3]) add('b', i);
      expect(await take('b', 4)).toBeNull();
      for (const i of [0, 1, 1, 2, 3]) add('c', i);
      expect(await take('c', 4)).toBeNull();
      fs.mkdirSync(path.join(dir, 'd'));
      add('d', 0, path.join(dir, 'd', 'nothing'));
      expect(await take('d', 1)).toBeNull();
      for (const i of [0, 1, 2, 3]) add('e', i);
      h.forget(path.join(dir, 'e'));
      expect(await take('e', 4)).toBeNull();
      // what was given up leaves no file of its own behind
      await new Promise((r) => setTimeout(r, 100));
      for (const k of ['b', 'c', 'd', 'e'])
        expect(
          fs.readdirSync(path.join(dir, k)).filter((f) => f.startsWith('a.')),
          k,
        ).toEqual([]);
    } finally {
      await h.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(await h.take('x', 1)).toBeNull(); // closed: no worker, no result
  });
});

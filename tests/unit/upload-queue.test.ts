/**
 * The upload queue logic (src/components/ChunkedUpload/queue.ts) against a fake file service:
 * reuse at 100 %, resume from the stored chunks, 3 in flight, 3 tries, pause / resume / cancel,
 * the spec's messages.
 */
import { describe, expect, it } from 'vitest';
import {
  CHUNK_SIZE,
  fileLimitError,
  UploadCallError,
  UploadTask,
  type CheckAnswer,
  type UploadApi,
  type UploadKey,
} from '@/components/ChunkedUpload/queue';
import type { QueueItemView, UploadedFile } from '@/components/ChunkedUpload/types';

const MB = CHUNK_SIZE;
const fileOf = (size: number, name = 'n.txt') => new File([new Uint8Array(size)], name);

class FakeServer implements UploadApi {
  stored = new Set<number>();
  done: string | null = null;
  inFlight = 0;
  maxInFlight = 0;
  calls: string[] = [];
  /** chunk index → failures left before it succeeds */
  failures = new Map<number, number>();
  failNetworkAt: 'check' | 'merge' | null = null;
  refuseMerge = false;
  refuseDelete = false;
  delay = 0;
  gate: Promise<void> | null = null;
  async check(_name: string, key: UploadKey): Promise<CheckAnswer> {
    this.calls.push('check');
    if (this.failNetworkAt === 'check') throw new UploadCallError(true, -1, 'Network Error');
    const chunks = Math.ceil(key.fileSize / MB);
    return {
      uploaded: !!this.done,
      importFilePath: this.done,
      fileName: _name,
      chunks,
      chunkSize: MB,
      uploadedChunks: [...this.stored].sort((a, b) => a - b),
    };
  }
  async chunk(_key: UploadKey, i: number, bytes: Blob, signal: AbortSignal) {
    this.calls.push(`chunk ${i}`);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      if (this.gate) await this.gate;
      await new Promise((r) => setTimeout(r, this.delay));
      if (signal.aborted) throw new UploadCallError(true, -1, 'aborted');
      const left = this.failures.get(i) ?? 0;
      if (left > 0) {
        this.failures.set(i, left - 1);
        throw new UploadCallError(true, -1, 'Network Error');
      }
      expect(bytes.size).toBeLessThanOrEqual(MB);
      this.stored.add(i);
    } finally {
      this.inFlight--;
    }
  }
  async merge(key: UploadKey) {
    this.calls.push('merge');
    if (this.failNetworkAt === 'merge') throw new UploadCallError(true, -1, 'Network Error');
    if (this.refuseMerge) throw new UploadCallError(false, 400, '文件校验失败，请重新上传');
    if (this.stored.size !== Math.ceil(key.fileSize / MB)) throw new UploadCallError(false, 400, '文件尚未上传完成');
    this.done = 'abcdefghijklmnopqrstuvwx.txt';
    return { importFilePath: this.done, fileName: 'n.txt' };
  }
  async deleteChunks() {
    this.calls.push('delete');
    if (this.refuseDelete) throw new UploadCallError(false, 400, '文件正在合并，请稍后重试');
    this.stored.clear();
  }
}

const hasher = async (_f: Blob, p: (x: number) => void) => {
  p(0.5);
  p(1);
  return '0123456789abcdef0123456789abcdef';
};

function task(server: FakeServer, size: number) {
  const views: QueueItemView[] = [];
  const done: UploadedFile[] = [];
  const t = new UploadTask(
    fileOf(size),
    server,
    hasher,
    (v) => views.push(v),
    (f) => done.push(f),
    { retryDelay: () => 0 },
  );
  return { t, views, done, last: () => views[views.length - 1] };
}

describe('UploadTask', () => {
  it('hashes, uploads every chunk with at most 3 in flight, merges, reports done', async () => {
    const s = new FakeServer();
    s.delay = 2;
    const { t, views, done, last } = task(s, 10 * MB + 5);
    await t.start();
    expect(s.stored.size).toBe(11);
    expect(s.maxInFlight).toBe(3);
    expect(views.some((v) => v.state === 'pending' && v.hashing && v.percent === 50)).toBe(true);
    expect(views.some((v) => v.state === 'uploading')).toBe(true);
    expect(last()).toMatchObject({ state: 'done', percent: 100, reused: false });
    expect(done).toEqual([
      {
        importFilePath: 'abcdefghijklmnopqrstuvwx.txt',
        fileName: 'n.txt',
        fileMd5: '0123456789abcdef0123456789abcdef',
        size: 10 * MB + 5,
        reused: false,
      },
    ]);
  });

  it('reuses a complete file at once: no chunk, no merge', async () => {
    const s = new FakeServer();
    s.done = 'zzzzzzzzzzzzzzzzzzzzzzzz.txt';
    const { t, done, last } = task(s, 50 * MB);
    await t.start();
    expect(s.calls).toEqual(['check']);
    expect(last()).toMatchObject({ state: 'done', reused: true, percent: 100 });
    expect(done[0]).toMatchObject({ importFilePath: 'zzzzzzzzzzzzzzzzzzzzzzzz.txt', reused: true });
  });

  it('resumes from the chunks the server holds (a reload: a new task for the same file)', async () => {
    const s = new FakeServer();
    for (const i of [0, 1, 2, 5]) s.stored.add(i);
    const { t, last } = task(s, 8 * MB);
    await t.start();
    expect(s.calls.filter((c) => c.startsWith('chunk')).sort()).toEqual(['chunk 3', 'chunk 4', 'chunk 6', 'chunk 7']);
    expect(last().state).toBe('done');
  });

  it('tries a chunk 3 times: 2 failures pass, 3 give 尝试上传次数过多，请刷新后重试 and pause; resume finishes', async () => {
    const s = new FakeServer();
    s.failures.set(1, 2);
    const a = task(s, 3 * MB);
    await a.t.start();
    expect(a.last().state).toBe('done');
    expect(s.calls.filter((c) => c === 'chunk 1')).toHaveLength(3);

    const s2 = new FakeServer();
    s2.failures.set(2, 3);
    const b = task(s2, 4 * MB);
    await b.t.start();
    expect(b.last()).toMatchObject({ state: 'paused', error: '尝试上传次数过多，请刷新后重试' });
    expect(b.done).toEqual([]);
    await b.t.resume();
    expect(b.last()).toMatchObject({ state: 'done', error: undefined });
    expect(b.done).toHaveLength(1);
  });

  it('says 上传出错，请检查网络连接 for a network failure and the error code for a refusal', async () => {
    const s = new FakeServer();
    s.failNetworkAt = 'check';
    const a = task(s, MB);
    await a.t.start();
    expect(a.last()).toMatchObject({ state: 'paused', error: '上传出错，请检查网络连接' });
    const s2 = new FakeServer();
    s2.refuseMerge = true;
    const b = task(s2, MB);
    await b.t.start();
    expect(b.last()).toMatchObject({
      state: 'paused',
      error: '上传出错！请检查后重新上传！错误代码：400 文件校验失败，请重新上传',
    });
  });

  it('pauses (chunks in flight are dropped, stored ones stay) and resumes with only the missing chunks', async () => {
    const s = new FakeServer();
    let open!: () => void;
    s.gate = new Promise<void>((r) => (open = r));
    const { t, last } = task(s, 6 * MB);
    void t.start();
    await new Promise((r) => setTimeout(r, 10));
    expect(last().state).toBe('uploading');
    await t.pause();
    open();
    expect(last().state).toBe('paused');
    expect(s.stored.size).toBe(0);
    s.gate = null;
    s.stored.add(0);
    await t.resume();
    expect(last().state).toBe('done');
    expect(s.calls.filter((c) => c === 'check')).toHaveLength(2);
    expect(s.calls.filter((c) => c === 'chunk 0')).toHaveLength(1);
  });

  it('cancel deletes the chunks on the server; a failed delete says 删除失败', async () => {
    const s = new FakeServer();
    s.gate = new Promise(() => {});
    const { t } = task(s, 4 * MB);
    void t.start();
    await new Promise((r) => setTimeout(r, 10));
    await t.cancel();
    expect(s.calls).toContain('delete');

    const s2 = new FakeServer();
    s2.refuseDelete = true;
    s2.gate = new Promise(() => {});
    const b = task(s2, 4 * MB);
    void b.t.start();
    await new Promise((r) => setTimeout(r, 10));
    await expect(b.t.cancel()).rejects.toThrow('删除失败');
    expect(b.last()).toMatchObject({ state: 'paused', error: '删除失败' });
  });

  it('checks the page limits by name and size first', () => {
    const p = {
      accept: ['.txt', '.csv', '.xlsx'],
      maxSize: 250 * MB,
      maxNameLength: 30,
      messages: {
        badType: '请上传txt,csv,xlxs格式文件',
        tooLarge: '单个文件大小不能超过250M',
        nameTooLong: '文件名称不能超过30个字符',
      },
    };
    expect(fileLimitError({ name: 'a.doc', size: 1 }, p)).toBe('请上传txt,csv,xlxs格式文件');
    expect(fileLimitError({ name: 'a.TXT', size: 251 * MB }, p)).toBe('单个文件大小不能超过250M');
    expect(fileLimitError({ name: `${'长'.repeat(27)}.txt`, size: 1 }, p)).toBe('文件名称不能超过30个字符');
    expect(fileLimitError({ name: 'a.xlsx', size: 10 }, p)).toBeNull();
  });
});

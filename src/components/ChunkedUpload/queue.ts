/**
 * The upload of one file, without React (unit-tested in tests/unit/upload-queue.test.ts): hash →
 * check (reuse at 100 % / the chunks already stored) → the missing chunks, `concurrency` in flight,
 * each tried `retries` times → merge. Pause stops sending (chunks in flight are aborted and sent
 * again on resume), resume asks the server which chunks it holds and goes on, cancel aborts and
 * deletes the chunks on the server. The view (state, percent, speed, error) is pushed to `onChange`.
 *
 * Messages (spec 02 §8): a network failure of check / merge → 上传出错，请检查网络连接; a refusal by
 * the server → 上传出错！请检查后重新上传！错误代码：<code> <msg>; a chunk failing `retries` times →
 * 尝试上传次数过多，请刷新后重试; a failed cancel → 删除失败. A failure leaves the item paused with
 * its message; resume tries again.
 */
import { UploadState } from '@/generated/schemas';
import { MESSAGES } from '../../../common/schema/messages';
import type { QueueItemView, UploadedFile } from './types';

export const CHUNK_SIZE = 1024 * 1024;

export interface UploadKey {
  fileMd5: string;
  fileSize: number;
}

export interface CheckAnswer {
  uploaded: boolean;
  importFilePath: string | null;
  fileName: string;
  chunks: number;
  chunkSize: number;
  uploadedChunks: number[];
}

/** A failure of a call: `network` when no answer came, else the server's code and message. */
export class UploadCallError extends Error {
  constructor(
    readonly network: boolean,
    readonly code: number,
    msg: string,
  ) {
    super(msg);
  }
}

/** The server calls (api.ts over axios; fakes in tests). Each rejects with UploadCallError. */
export interface UploadApi {
  check(fileName: string, key: UploadKey): Promise<CheckAnswer>;
  chunk(key: UploadKey, index: number, bytes: Blob, signal: AbortSignal): Promise<void>;
  merge(key: UploadKey): Promise<{ importFilePath: string; fileName: string }>;
  deleteChunks(key: UploadKey): Promise<void>;
}

/** Computes the MD5 (a Web Worker in the console); `onProgress` gets 0..1. */
export type Hasher = (file: Blob, onProgress: (fraction: number) => void, signal: AbortSignal) => Promise<string>;

export interface UploadTaskOptions {
  concurrency?: number;
  retries?: number;
  /** wait before retry n (1-based), ms */
  retryDelay?: (attempt: number) => number;
  now?: () => number;
}

export const uploadErrorMessage = (e: unknown): string => {
  if (e instanceof UploadCallError && !e.network) return `${MESSAGES.uploadError}：${e.code} ${e.message}`.trim();
  return MESSAGES.uploadNetworkError;
};

let ids = 0;

export class UploadTask {
  readonly id = `u${++ids}`;
  private view: QueueItemView;
  private key: UploadKey | null = null;
  private abort: AbortController | null = null;
  private run: Promise<void> | null = null;
  private cancelled = false;
  private samples: { t: number; bytes: number }[] = [];
  private sentBytes = 0;
  private readonly concurrency: number;
  private readonly retries: number;
  private readonly retryDelay: (attempt: number) => number;
  private readonly now: () => number;

  constructor(
    readonly file: File,
    private readonly api: UploadApi,
    private readonly hasher: Hasher,
    private readonly onChange: (view: QueueItemView) => void,
    private readonly onDone: (f: UploadedFile) => void,
    opts: UploadTaskOptions = {},
  ) {
    this.concurrency = opts.concurrency ?? 3;
    this.retries = opts.retries ?? 3;
    this.retryDelay = opts.retryDelay ?? ((n) => 500 * n);
    this.now = opts.now ?? (() => Date.now());
    this.view = {
      id: this.id,
      fileName: file.name,
      size: file.size,
      state: UploadState.Pending,
      hashing: false,
      percent: 0,
      speed: 0,
    };
  }

  get current(): QueueItemView {
    return this.view;
  }

  private set(patch: Partial<QueueItemView>) {
    this.view = { ...this.view, ...patch };
    this.onChange(this.view);
  }

  /** Starts (or resumes after a pause / failure). */
  start(): Promise<void> {
    if (this.run || this.cancelled || this.view.state === UploadState.Done) return this.run ?? Promise.resolve();
    this.abort = new AbortController();
    const signal = this.abort.signal;
    this.set({ error: undefined });
    this.run = this.work(signal)
      .catch((e) => {
        if (signal.aborted) return;
        this.set({
          state: UploadState.Paused,
          hashing: false,
          speed: 0,
          error: e instanceof TooManyTries ? MESSAGES.uploadTooManyRetries : uploadErrorMessage(e),
        });
      })
      .finally(() => {
        this.run = null;
      });
    return this.run;
  }

  /** Stops sending; chunks already stored stay on the server. */
  async pause(): Promise<void> {
    if (this.view.state === UploadState.Done || this.cancelled) return;
    const run = this.run;
    this.abort?.abort();
    await run;
    if (!this.cancelled) this.set({ state: UploadState.Paused, hashing: false, speed: 0 });
  }

  resume(): Promise<void> {
    return this.start();
  }

  /**
   * Cancel: stops and deletes the chunks on the server. A complete file removed from the form stays
   * there (picked again, it is reused at once — 秒传; it goes after UPLOAD_KEEP_HOURS, or by POST
   * /file/delete). Rejects with 删除失败 when the server could not delete the chunks.
   */
  async cancel(): Promise<void> {
    this.cancelled = true;
    const run = this.run;
    this.abort?.abort();
    await run;
    if (this.key && this.view.state !== UploadState.Done) {
      try {
        await this.api.deleteChunks(this.key);
      } catch {
        this.cancelled = false;
        this.set({ state: UploadState.Paused, speed: 0, error: MESSAGES.uploadDeleteFailed });
        throw new Error(MESSAGES.uploadDeleteFailed);
      }
    }
  }

  private async work(signal: AbortSignal) {
    if (!this.key) {
      this.set({ state: UploadState.Pending, hashing: true, percent: 0 });
      const fileMd5 = await untilAborted(
        this.hasher(this.file, (f) => this.set({ percent: Math.min(100, Math.floor(f * 100)) }), signal),
        signal,
      );
      if (signal.aborted || !fileMd5) return;
      this.key = { fileMd5, fileSize: this.file.size };
      this.set({ hashing: false, percent: 0 });
    }
    const key = this.key;
    const check = await untilAborted(this.api.check(this.file.name, key), signal);
    if (signal.aborted || !check) return;
    if (check.uploaded && check.importFilePath) {
      this.set({ state: UploadState.Done, percent: 100, speed: 0, reused: true });
      this.onDone({
        importFilePath: check.importFilePath,
        fileName: this.file.name,
        fileMd5: key.fileMd5,
        size: key.fileSize,
        reused: true,
      });
      return;
    }
    const chunkSize = check.chunkSize || CHUNK_SIZE;
    const have = new Set(check.uploadedChunks);
    const missing: number[] = [];
    for (let i = 0; i < check.chunks; i++) if (!have.has(i)) missing.push(i);
    let stored = have.size;
    const percent = () => Math.floor((stored * 100) / Math.max(1, check.chunks));
    this.samples = [{ t: this.now(), bytes: 0 }];
    this.sentBytes = 0;
    this.set({ state: UploadState.Uploading, percent: percent(), speed: 0 });
    let next = 0;
    const worker = async () => {
      while (next < missing.length && !signal.aborted) {
        const i = missing[next++];
        const blob = this.file.slice(i * chunkSize, Math.min(this.file.size, (i + 1) * chunkSize));
        await this.sendWithRetries(key, i, blob, signal);
        if (signal.aborted) return;
        stored++;
        this.sentBytes += blob.size;
        this.set({ percent: Math.min(99, percent()), speed: this.speed() });
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, Math.max(1, missing.length)) }, worker));
    if (signal.aborted) return;
    const merged = await untilAborted(this.api.merge(key), signal);
    if (signal.aborted || !merged) return;
    this.set({ state: UploadState.Done, percent: 100, speed: 0, reused: false });
    this.onDone({
      importFilePath: merged.importFilePath,
      fileName: this.file.name,
      fileMd5: key.fileMd5,
      size: key.fileSize,
      reused: false,
    });
  }

  private async sendWithRetries(key: UploadKey, i: number, blob: Blob, signal: AbortSignal) {
    for (let attempt = 1; ; attempt++) {
      try {
        // an aborted request is not waited for (the transport aborts it too)
        await untilAborted(this.api.chunk(key, i, blob, signal), signal);
        return;
      } catch (e) {
        if (signal.aborted) return;
        if (attempt >= this.retries) throw new TooManyTries(e);
        await sleep(this.retryDelay(attempt), signal);
      }
    }
  }

  /** bytes per second over the last 3 s */
  private speed(): number {
    const t = this.now();
    this.samples.push({ t, bytes: this.sentBytes });
    while (this.samples.length > 2 && t - this.samples[0].t > 3000) this.samples.shift();
    const first = this.samples[0];
    const dt = (t - first.t) / 1000;
    return dt > 0 ? Math.round((this.sentBytes - first.bytes) / dt) : 0;
  }
}

class TooManyTries extends Error {
  constructor(readonly last: unknown) {
    super(MESSAGES.uploadTooManyRetries);
  }
}

/** `p`, or nothing as soon as `signal` aborts */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise<T | undefined>((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => (signal.removeEventListener('abort', onAbort), resolve(v)),
      (e) => (signal.removeEventListener('abort', onAbort), reject(e)),
    );
  });
}

function sleep(ms: number, signal: AbortSignal) {
  return new Promise<void>((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });
}

/** "12.3 MB/s" */
export function formatSpeed(bytesPerSecond: number): string {
  if (bytesPerSecond >= 1024 * 1024) return `${(bytesPerSecond / 1024 / 1024).toFixed(1)} MB/s`;
  if (bytesPerSecond >= 1024) return `${(bytesPerSecond / 1024).toFixed(0)} KB/s`;
  return `${bytesPerSecond} B/s`;
}

/** "3.2 MB" */
export function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024 / 1024).toFixed(2)} GB`;
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} B`;
}

/** The page's limits, checked by name and size before anything is read; null when the file may go. */
export function fileLimitError(
  file: { name: string; size: number },
  p: {
    accept: readonly string[];
    maxSize: number;
    maxNameLength?: number;
    messages?: { badType?: string; tooLarge?: string; nameTooLong?: string };
  },
): string | null {
  const lower = file.name.toLowerCase();
  if (!p.accept.some((ext) => lower.endsWith(ext.toLowerCase())))
    return p.messages?.badType ?? `请上传${p.accept.map((a) => a.replace(/^\./, '')).join(',')}格式文件`;
  if (file.size > p.maxSize)
    return p.messages?.tooLarge ?? `单个文件大小不能超过${Math.round(p.maxSize / 1024 / 1024)}M`;
  if (p.maxNameLength !== undefined && file.name.length > p.maxNameLength)
    return p.messages?.nameTooLong ?? `文件名称不能超过${p.maxNameLength}个字符`;
  if (file.size === 0) return MESSAGES.uploadNotFound;
  return null;
}

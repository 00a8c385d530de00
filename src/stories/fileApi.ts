/**
 * MSW handlers of the file service and /send/parsefile (docs/api-files.md) for stories: a fake
 * server that keeps chunks per MD5 in memory. Stories only; the app never imports this.
 */
import { delay, http, type HttpHandler } from 'msw';
import type { FileParse } from '@/generated/schemas';
import { fail, ok } from './mockApi';

export interface FileApiOptions {
  /** MD5s the server already holds complete (reuse) */
  complete?: string[];
  /** chunks stored before (resume) by MD5 */
  stored?: Record<string, number[]>;
  /** every chunk request fails (network) / is refused */
  chunkFails?: 'network' | 'refused';
  /** the merge answers this refusal */
  mergeRefusal?: { code: number; msg: string };
  /** the check fails on the network */
  checkFails?: boolean;
  /** deleteChunks is refused */
  deleteFails?: boolean;
  /** ms per chunk */
  chunkDelay?: number;
  parse?: Partial<FileParse>;
  calls?: Record<string, unknown[]>;
}

export const TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWx';

export function fileApi(o: FileApiOptions = {}): HttpHandler[] {
  const stored = new Map<string, Set<number>>(Object.entries(o.stored ?? {}).map(([k, v]) => [k, new Set(v)]));
  const complete = new Set(o.complete ?? []);
  const log = (k: string, v: unknown) => o.calls && (o.calls[k] ??= []).push(v);
  const form = async (r: Request) => Object.fromEntries(new URLSearchParams(await r.text()));
  return [
    http.post('/api/file/check', async ({ request }) => {
      const f = await form(request);
      log('check', f);
      if (o.checkFails) return Response.error();
      const size = Number(f.fileSize);
      const chunks = Math.ceil(size / (1024 * 1024));
      // a file stored whole answers its path; else the chunks stored so far
      const whole = complete.has(f.fileMd5);
      const have = whole ? [] : [...(stored.get(f.fileMd5) ?? [])].sort((a, b) => a - b);
      return ok({
        uploaded: whole,
        importFilePath: whole ? `${TOKEN}.${String(f.fileName).split('.').pop()}` : null,
        fileName: f.fileName,
        fileMd5: f.fileMd5,
        fileSize: size,
        chunkSize: 1048576,
        chunks,
        uploadedChunks: have,
        progress: whole ? 100 : Math.floor((have.length * 100) / chunks),
      });
    }),
    http.post('/api/file/chunk', async ({ request }) => {
      const u = new URL(request.url);
      const md5 = u.searchParams.get('fileMd5')!;
      const i = Number(u.searchParams.get('chunk'));
      log('chunk', i);
      await request.arrayBuffer();
      if (o.chunkDelay) await delay(o.chunkDelay);
      if (o.chunkFails === 'network') return Response.error();
      if (o.chunkFails === 'refused') return fail(400, '分片不正确');
      const s = stored.get(md5) ?? new Set<number>();
      s.add(i);
      stored.set(md5, s);
      return ok({ chunk: i, progress: 50 });
    }),
    http.post('/api/file/merge', async ({ request }) => {
      const f = await form(request);
      log('merge', f);
      if (o.mergeRefusal) return fail(o.mergeRefusal.code, o.mergeRefusal.msg);
      complete.add(f.fileMd5);
      return ok({ importFilePath: `${TOKEN}.txt`, fileName: 'n.txt', fileMd5: f.fileMd5, size: Number(f.fileSize) });
    }),
    http.post('/api/file/deleteChunks', async ({ request }) => {
      const f = await form(request);
      log('deleteChunks', f);
      if (o.deleteFails) return fail(400, '文件正在合并，请稍后重试');
      stored.delete(f.fileMd5);
      return ok({ deleted: true });
    }),
    http.post('/api/file/delete', async ({ request }) => {
      const f = await form(request);
      log('deleteFile', f);
      return ok({ deleted: true }, '文件已删除');
    }),
    http.post('/api/send/parsefile', async ({ request }) => {
      const f = await form(request);
      log('parsefile', f);
      return ok({
        fileName: '号码.txt',
        importFilePath: f.importFilePath,
        submitTotal: 3,
        errNum: 1,
        repeatNum: 0,
        sendNum: 2,
        mobileNum: 2,
        unicomNum: 0,
        telecomNum: 0,
        internationalNum: 0,
        ...o.parse,
      });
    }),
  ];
}

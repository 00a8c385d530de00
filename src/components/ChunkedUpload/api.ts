/** The file service calls of the upload (docs/api-files.md) over the console's axios client. */
import { ApiError, postForm, type ApiBody } from '@/providers/http';
import { http } from '@/providers/httpRaw';
import { UploadCallError, type CheckAnswer, type UploadApi, type UploadKey } from './queue';

const quiet = { silent: true };

/** axios / ApiError → UploadCallError (code -1 without an answer: the network) */
function failure(e: unknown): UploadCallError {
  if (e instanceof ApiError) return new UploadCallError(e.code === -1, e.code, e.message);
  return new UploadCallError(true, -1, String((e as Error)?.message ?? e));
}

async function call<T>(p: Promise<ApiBody<T>>): Promise<T> {
  try {
    return (await p).data as T;
  } catch (e) {
    throw failure(e);
  }
}

export const fileApi: UploadApi = {
  check: (fileName: string, key: UploadKey) => call<CheckAnswer>(postForm('/file/check', { fileName, ...key }, quiet)),
  async chunk(key: UploadKey, index: number, bytes: Blob, signal: AbortSignal) {
    try {
      await http.post('/file/chunk', bytes, {
        params: { fileMd5: key.fileMd5, fileSize: key.fileSize, chunk: index },
        headers: { 'Content-Type': 'application/octet-stream' },
        signal,
        timeout: 120_000,
        ...quiet,
      });
    } catch (e) {
      throw failure(e);
    }
  },
  merge: (key: UploadKey) =>
    call<{ importFilePath: string; fileName: string }>(postForm('/file/merge', key, { ...quiet, timeout: 600_000 })),
  deleteChunks: async (key: UploadKey) => void (await call(postForm('/file/deleteChunks', key, quiet))),
};

/** The console's Hasher: the MD5 worker (md5.worker.ts), one worker per file, ended when done or aborted. */
import type { Hasher } from './queue';

export const workerHasher: Hasher = (file, onProgress, signal) =>
  new Promise<string>((resolve, reject) => {
    const worker = new Worker(new URL('./md5.worker.ts', import.meta.url), { type: 'module' });
    const end = () => worker.terminate();
    signal.addEventListener('abort', () => (end(), reject(new DOMException('aborted', 'AbortError'))), { once: true });
    worker.onmessage = (e: MessageEvent<{ progress?: number; md5?: string; error?: string }>) => {
      if (e.data.md5) {
        end();
        resolve(e.data.md5);
      } else if (e.data.error !== undefined) {
        end();
        reject(new Error(e.data.error));
      } else if (e.data.progress !== undefined) onProgress(e.data.progress);
    };
    worker.onerror = (e) => {
      end();
      reject(new Error(e.message));
    };
    worker.postMessage({ file });
  });

/** The number-file calls of the send pages (docs/api-files.md). */
import { postForm } from '@/providers/http';
import type { FileParse } from '@/generated/schemas';

export type { FileParse };

/** The largest number file of the ordinary send page (the file service's limit). */
export const NUMBER_FILE_MAX_BYTES = 300 * 1024 * 1024;
export const NUMBER_FILE_ACCEPT = ['.txt', '.csv', '.xlsx'] as const;

/** POST /send/parsefile: counts of an uploaded file (the server's message is toasted on failure). */
export const parseFile = (importFilePath: string, opts: { international?: boolean } = {}) =>
  postForm<FileParse>('/send/parsefile', {
    importFilePath,
    templateType: 0,
    ...(opts.international ? { international: 1 } : {}),
  });

/**
 * The public API of `<ChunkedUpload>` (docs/api-files.md, "Console component"): what a page gives
 * it and what it hands back. Kept stable: the send pages (ordinary, variable, international) use it.
 */
import type { UploadState } from '@/generated/schemas';

/** What `onDone` receives: the file is on the server, merged and MD5-verified. */
export interface UploadedFile {
  /** the token to send to /send/parsefile, the send routes, /file/download */
  importFilePath: string;
  fileName: string;
  fileMd5: string;
  size: number;
  /** true when the server already had the complete file (nothing was sent) */
  reused: boolean;
}

export interface ChunkedUploadProps {
  /** accepted extensions, e.g. ['.txt', '.csv', '.xlsx'] (checked by name before anything is read) */
  accept: readonly string[];
  /** largest file in bytes (e.g. 300 * 1024 * 1024) */
  maxSize: number;
  /** longest file name in characters (e.g. 50) */
  maxNameLength?: number;
  /** the page's messages for those limits (spec texts, e.g. 单个文件大小不能超过250M) */
  messages?: {
    badType?: string;
    tooLarge?: string;
    nameTooLong?: string;
  };
  /** the file is uploaded (or reused): parse it next */
  onDone: (file: UploadedFile) => void;
  /** the user removed the file from the list (after a cancel the server's chunks are deleted) */
  onRemove?: () => void;
  /** the button's text (default 上传文件) */
  buttonText?: string;
  disabled?: boolean;
  /** chunk requests in flight (default 3) */
  concurrency?: number;
  /** tries of each chunk before giving up (default 3) */
  retries?: number;
}

/** What the queue shows for one file (UploadState: pending, uploading, paused, done). */
export interface QueueItemView {
  id: string;
  fileName: string;
  size: number;
  state: UploadState;
  /** hashing: the MD5 is being computed (state pending) */
  hashing: boolean;
  /** 0-100 of the MD5 while hashing, else of the upload */
  percent: number;
  /** bytes per second over the last seconds (uploading) */
  speed: number;
  /** the failure shown (one of the spec's upload messages), state paused */
  error?: string;
  reused?: boolean;
}

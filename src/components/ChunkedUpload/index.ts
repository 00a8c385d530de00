export { ChunkedUpload, UploadItem } from './ChunkedUpload';
export type { ChunkedUploadProps, UploadedFile, QueueItemView } from './types';

export type { ChunkedUploadProps, UploadedFile, QueueItemView } from './types';

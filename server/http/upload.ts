/**
 * A route's one uploaded file (multipart, @fastify/multipart registered by the route's module with
 * its limits): the named file field read into memory within the part limits; every other part
 * drained. The refusals are the route's own messages.
 */
import type { FastifyRequest } from 'fastify';
import { ApiError } from './errors';

export interface OneFileMessages {
  /** the file is larger than the module's `fileSize` limit */
  tooLarge: string;
  /** not a multipart request */
  noFile: string;
  /** the multipart stream broke */
  parseFailed: string;
  /** more than one file (or too many fields) */
  tooMany?: string;
}

/** The named file field's bytes (undefined when the request has none). */
export async function readOneFile(
  req: FastifyRequest,
  field: string,
  msg: OneFileMessages,
): Promise<Buffer | undefined> {
  if (!req.isMultipart()) throw new ApiError(400, msg.noFile);
  let buf: Buffer | undefined;
  try {
    for await (const part of req.parts()) {
      if (part.type !== 'file') continue;
      if (part.fieldname === field && buf === undefined) buf = await part.toBuffer();
      else part.file.resume();
    }
  } catch (e) {
    const code = (e as { code?: string } | null)?.code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError(400, msg.tooLarge);
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw new ApiError(400, msg.tooMany ?? '一次只能导入一个文件');
    throw new ApiError(400, msg.parseFailed);
  }
  return buf;
}

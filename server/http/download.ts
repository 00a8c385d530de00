/**
 * File answers, one way for every route: the content type from the file name's extension (or
 * given), the name in `Content-Disposition` (RFC 6266 `filename*`, so Chinese names survive), the
 * length when known. Exports, templates, error files and documents all answer through `sendFile`.
 */
import type { FastifyReply } from 'fastify';
import type { Readable } from 'node:stream';

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const TXT_MIME = 'text/plain; charset=utf-8';
export const CSV_MIME = 'text/csv; charset=utf-8';

const MIME_BY_EXT: Record<string, string> = {
  xlsx: XLSX_MIME,
  txt: TXT_MIME,
  csv: CSV_MIME,
  zip: 'application/zip',
  pdf: 'application/pdf',
  html: 'text/html; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
};

/** `attachment` with the name twice: ASCII-safe (percent-encoded) and UTF-8 (`filename*`). */
export const attachment = (name: string) =>
  `attachment; filename="${encodeURIComponent(name)}"; filename*=UTF-8''${encodeURIComponent(name)}`;

export const mimeOf = (name: string) =>
  MIME_BY_EXT[name.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';

export interface FileOptions {
  /** content type (default: by the name's extension) */
  mime?: string;
  /** bytes, when known */
  size?: number;
}

/** Answers a file download. */
export function sendFile(
  reply: FastifyReply,
  body: Buffer | string | Readable | NodeJS.ReadableStream,
  name: string,
  opts: FileOptions = {},
) {
  reply.header('content-type', opts.mime ?? mimeOf(name)).header('content-disposition', attachment(name));
  if (opts.size !== undefined) reply.header('content-length', String(opts.size));
  return reply.send(body);
}

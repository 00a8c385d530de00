/**
 * The stored form of a large task's chunk (sms_task_chunks.payload, migration 0023): up to 10,000
 * numbers with everything their message rows need, as gzip of JSON. Written by the acceptance
 * (send/messages.ts `insertMessages`), read back by the expansion (`expandNextChunk`).
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

export interface ChunkPayload {
  accountId: number;
  /** the task's acceptance time (ISO): the rows' created_at */
  createdAt: string;
  phones: string[];
  /** carrier of each number (1-3, 4 international) */
  carriers: number[];
  province: number[];
  city: number[];
  /** pieces of every message, or of each */
  pieces: number | number[];
  /** price per piece by carrier, or of each message */
  prices: Record<string, string> | string[];
  /** each message's own text (variable SMS), null = the task's */
  texts?: (string | null)[];
}

/** level 1: the acceptance waits for it; the chunk still shrinks ~6× */
export async function encodeChunk(p: ChunkPayload): Promise<Buffer> {
  return gzip(Buffer.from(JSON.stringify(p)), { level: 1 });
}

/** The chunk's payload; throws when it is not one (a damaged row stays for an operator, nothing is half-written). */
export async function decodeChunk(buf: Buffer | Uint8Array): Promise<ChunkPayload> {
  const p = JSON.parse((await gunzip(buf)).toString('utf8')) as ChunkPayload;
  const n = Array.isArray(p?.phones) ? p.phones.length : -1;
  const sized = (a: unknown) => Array.isArray(a) && a.length === n;
  if (
    n < 0 ||
    !Number.isInteger(p.accountId) ||
    Number.isNaN(Date.parse(p.createdAt)) ||
    !sized(p.carriers) ||
    !sized(p.province) ||
    !sized(p.city) ||
    !(typeof p.pieces === 'number' || sized(p.pieces)) ||
    !(sized(p.prices) || (typeof p.prices === 'object' && p.prices !== null && !Array.isArray(p.prices))) ||
    !(p.texts === undefined || sized(p.texts))
  )
    throw new Error('sms_task_chunks: malformed chunk payload');
  return p;
}

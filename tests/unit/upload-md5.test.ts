/**
 * The upload's MD5 (src/components/ChunkedUpload/md5-wasm.ts, the WebAssembly module it writes
 * out) and the worker's streamed reading (md5.worker.ts md5OfBlob) against Node's MD5: RFC 1321's
 * test suite, every length around the 64-byte block and padding edges, data split at random
 * places, more than one staging buffer, and both readers (BYOB and a stream's own chunks).
 */
import { createHash } from 'node:crypto';
import { Blob as NodeBlob } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { createMd5, STAGE } from '@/components/ChunkedUpload/md5-wasm';
import { md5OfBlob, SLICE } from '@/components/ChunkedUpload/md5.worker';

const nodeMd5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');
const enc = (s: string) => new TextEncoder().encode(s);

/** deterministic bytes (no Math.random: a failure must repeat) */
function bytes(n: number, seed = 1): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

async function md5In(parts: Uint8Array[]) {
  const h = await createMd5();
  for (const p of parts) h.update(p);
  return h.digest();
}

describe('md5-wasm', () => {
  it("gives RFC 1321's test suite", async () => {
    const suite: [string, string][] = [
      ['', 'd41d8cd98f00b204e9800998ecf8427e'],
      ['a', '0cc175b9c0f1b6a831c399e269772661'],
      ['abc', '900150983cd24fb0d6963f7d28e17f72'],
      ['message digest', 'f96b697d7cb7938d525a2f31aaf161d0'],
      ['abcdefghijklmnopqrstuvwxyz', 'c3fcd3d76192e4007dfb496cca67e13b'],
      ['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 'd174ab98d277d9f5a5611c2c9f419d9f'],
      ['1234567890'.repeat(8), '57edf4a22be3c955ac49da2e2107b67a'],
    ];
    for (const [text, md5] of suite) expect(await md5In([enc(text)])).toBe(md5);
  });

  it('agrees with Node for every length up to 300 bytes (block and padding edges), in one piece and byte by byte', async () => {
    const data = bytes(300);
    for (let n = 0; n <= 300; n++) {
      const d = data.subarray(0, n);
      expect(await md5In([d])).toBe(nodeMd5(d));
      if (n % 7 === 0) expect(await md5In(Array.from(d, (_, i) => d.subarray(i, i + 1)))).toBe(nodeMd5(d));
    }
  });

  it('agrees with Node on data past several staging buffers, split at odd places', async () => {
    const data = bytes(3 * STAGE + 12_345, 7);
    const parts: Uint8Array[] = [];
    for (let at = 0, i = 0; at < data.length; i++) {
      const n = [1, 63, 64, 65, STAGE - 1, STAGE, STAGE + 1, 1000][i % 8];
      parts.push(data.subarray(at, at + n));
      at += n;
    }
    expect(await md5In(parts)).toBe(nodeMd5(data));
    expect(await md5In([data])).toBe(nodeMd5(data));
  });

  it('keeps hashers apart (one module, an instance each)', async () => {
    const [a, b] = await Promise.all([createMd5(), createMd5()]);
    a.update(enc('abc'));
    b.update(enc('message '));
    b.update(enc('digest'));
    expect(a.digest()).toBe('900150983cd24fb0d6963f7d28e17f72');
    expect(b.digest()).toBe('f96b697d7cb7938d525a2f31aaf161d0');
  });
});

describe('md5OfBlob (the worker)', () => {
  const data = bytes(2 * SLICE + 777, 3);

  it("reads a Blob's stream and reports progress up to 1", async () => {
    const progress: number[] = [];
    const blob = new NodeBlob([data]) as unknown as Blob;
    expect(await md5OfBlob(blob, (p) => progress.push(p))).toBe(nodeMd5(data));
    expect(progress.at(-1)).toBe(1);
    expect(progress).toEqual([...progress].sort((x, y) => x - y));
  });

  it("falls back to the stream's own chunks where there is no BYOB reader", async () => {
    const chunks = [data.subarray(0, 100), data.subarray(100, SLICE + 5), data.subarray(SLICE + 5)];
    const blob = {
      size: data.length,
      stream: () => new ReadableStream<Uint8Array>({ start: (c) => (chunks.forEach((x) => c.enqueue(x)), c.close()) }),
    } as unknown as Blob;
    expect(await md5OfBlob(blob)).toBe(nodeMd5(data));
  });

  it('fails when the stream ends short of the size', async () => {
    const blob = {
      size: 10,
      stream: () => new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(new Uint8Array(4)), c.close()) }),
    } as unknown as Blob;
    await expect(md5OfBlob(blob)).rejects.toThrow('read 4 of 10 bytes');
  });
});

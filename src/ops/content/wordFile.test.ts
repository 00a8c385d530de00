import { describe, expect, it } from 'vitest';
import { decodeWordFile, readWordFile } from './wordFile';

// 贷款\r\n套现 in GB18030
const GB = new Uint8Array([0xb4, 0xfb, 0xbf, 0xee, 0x0d, 0x0a, 0xcc, 0xd7, 0xcf, 0xd6]);

describe('sensitive-word files', () => {
  it('reads UTF-8 (its byte-order mark dropped) and GB18030, line ends as \\n', async () => {
    const utf8 = new Blob([new Uint8Array([0xef, 0xbb, 0xbf]), '贷款\r\n套现\n']);
    expect(await readWordFile(utf8, 100)).toEqual({ ok: true, text: '贷款\n套现\n', encoding: 'utf-8' });
    expect(await readWordFile(new Blob([GB]), 100)).toEqual({ ok: true, text: '贷款\n套现', encoding: 'gb18030' });
  });

  it('refuses a file past the limit, unread when its size alone says so', async () => {
    expect(await readWordFile(new Blob(['词'.repeat(11)]), 10)).toEqual({ ok: false, reason: 'too-long' });
    const huge = { size: 41, arrayBuffer: () => Promise.reject(new Error('must not be read')) } as unknown as Blob;
    expect(await readWordFile(huge, 10)).toEqual({ ok: false, reason: 'too-long' });
  });

  it('refuses bytes that are neither encoding', async () => {
    expect(decodeWordFile(new Uint8Array([0x81, 0x20]))).toBeUndefined();
    expect(await readWordFile(new Blob([new Uint8Array([0xff, 0xff, 0xff])]), 10)).toEqual({
      ok: false,
      reason: 'unreadable',
    });
  });
});

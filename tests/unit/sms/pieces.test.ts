/** Pieces per message (spec 02 §5 "Ordinary send"), common/sms/pieces.ts. */
import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_CHARS, composeMessage, countPieces } from '../../../common/sms/pieces';

const zh = (n: number) => '字'.repeat(n);
const en = (n: number) => 'a'.repeat(n);

describe('countPieces', () => {
  it('Chinese: 70 is one piece, 71 two, then 67 a piece', () => {
    // sign "签名" (2) + brackets (2) = 4 characters of the 70
    expect(countPieces({ content: zh(66), sign: '签名' })).toMatchObject({ chars: 70, pieces: 1, isEnglish: false });
    expect(countPieces({ content: zh(67), sign: '签名' })).toMatchObject({ chars: 71, pieces: 2 });
    expect(countPieces({ content: zh(134 - 4), sign: '签名' })).toMatchObject({ chars: 134, pieces: 2 });
    expect(countPieces({ content: zh(135 - 4), sign: '签名' })).toMatchObject({ chars: 135, pieces: 3 });
    expect(countPieces({ content: zh(201 - 4), sign: '签名' })).toMatchObject({ chars: 201, pieces: 3 });
    expect(countPieces({ content: zh(202 - 4), sign: '签名' })).toMatchObject({ chars: 202, pieces: 4 });
    expect(countPieces({ content: zh(496), sign: '签名' })).toMatchObject({ chars: 500, pieces: 8, tooLong: false });
    expect(countPieces({ content: zh(497), sign: '签名' })).toMatchObject({ chars: 501, tooLong: true });
  });

  it('English: 140 is one piece, 141 two, then 134 a piece', () => {
    expect(countPieces({ content: en(136), sign: 'ab' })).toMatchObject({ chars: 140, pieces: 1, isEnglish: true });
    expect(countPieces({ content: en(137), sign: 'ab' })).toMatchObject({ chars: 141, pieces: 2 });
    expect(countPieces({ content: en(268 - 4), sign: 'ab' })).toMatchObject({ chars: 268, pieces: 2 });
    expect(countPieces({ content: en(269 - 4), sign: 'ab' })).toMatchObject({ chars: 269, pieces: 3 });
    expect(countPieces({ content: en(496), sign: 'ab' })).toMatchObject({ chars: 500, pieces: 4 });
  });

  it('one non-ASCII character anywhere makes the message Chinese', () => {
    expect(countPieces({ content: en(100), sign: '签名' })).toMatchObject({ chars: 104, isEnglish: false, pieces: 2 });
    expect(countPieces({ content: `${en(99)}，`, sign: 'ab' })).toMatchObject({ isEnglish: false, pieces: 2 });
    expect(countPieces({ content: `${en(99)}é`, sign: 'ab' })).toMatchObject({ isEnglish: false });
    expect(countPieces({ content: 'Your code is 1234, valid 5 min.\n', sign: 'Acme' })).toMatchObject({
      isEnglish: true,
      pieces: 1,
    });
  });

  it('length counts UTF-16 code units: an emoji outside the BMP counts 2', () => {
    expect(countPieces({ content: '😀', sign: '签名' }).chars).toBe(6);
    expect(countPieces({ content: `${zh(64)}😀`, sign: '签名' })).toMatchObject({ chars: 70, pieces: 1 });
    expect(countPieces({ content: `${zh(65)}😀`, sign: '签名' })).toMatchObject({ chars: 71, pieces: 2 });
  });

  it('sign brackets: 【】 for Chinese, [] for an all-English message; no sign, no brackets', () => {
    expect(countPieces({ content: '您好', sign: '签名' }).text).toBe('【签名】您好');
    expect(countPieces({ content: 'Hello', sign: 'Acme' }).text).toBe('[Acme]Hello');
    expect(countPieces({ content: '您好', sign: 'Acme' }).text).toBe('【Acme】您好');
    expect(countPieces({ content: 'Hello', sign: '签名' }).text).toBe('【签名】Hello');
    expect(composeMessage({ content: 'Hello' })).toBe('Hello');
    expect(countPieces({ content: 'Hello', sign: '' })).toMatchObject({ chars: 5, text: 'Hello', pieces: 1 });
    expect(countPieces({ content: 'Hello', sign: null })).toMatchObject({ chars: 5 });
  });

  it('counter = content + sign + 2, out of 500; an empty message is 0 pieces', () => {
    expect(MAX_MESSAGE_CHARS).toBe(500);
    expect(countPieces({ content: '您好世界', sign: '某某科技' }).chars).toBe(4 + 4 + 2);
    expect(countPieces({ content: '', sign: '' })).toMatchObject({ chars: 0, pieces: 0 });
    expect(countPieces({ content: '', sign: '签名' })).toMatchObject({ chars: 4, pieces: 1 });
  });
});

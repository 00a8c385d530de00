import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { contentTestAnswer, foldCase, mergeRanges, parseWordList, SensitiveWords } from '../../server/modules/content/sensitive-words';

const dirs: string[] = [];
function listFile(text: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'words-'));
  dirs.push(dir);
  const file = path.join(dir, 'words.txt');
  fs.writeFileSync(file, text);
  return file;
}
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('sensitive word list', () => {
  it('parses one word per line, skips comments and blanks, dedupes case-insensitively', () => {
    expect(parseWordList('# comment\n刷单\n\n  赌博  # inline\nVPN\nvpn\r\n')).toEqual(['刷单', '赌博', 'vpn']);
  });

  it('finds every occurrence with UTF-16 ranges, overlapping hits merged', () => {
    const words = new SensitiveWords(listFile('刷单\n单兼职\n赌博\nVPN'));
    const text = '招聘刷单兼职，网络赌博，翻 vpn';
    const ranges = words.find(text);
    expect(ranges).toEqual([[2, 6], [9, 11], [14, 17]]);
    expect(ranges.map(([a, b]) => text.slice(a, b))).toEqual(['刷单兼职', '赌博', 'vpn']);
  });

  it('keeps offsets right around characters outside the BMP', () => {
    const words = new SensitiveWords(listFile('赌博'));
    const text = '😀😀赌博';
    const [[a, b]] = words.find(text);
    expect(text.slice(a, b)).toBe('赌博');
  });

  it('answers 200 when clean and 500+ keyed ranges otherwise', () => {
    expect(contentTestAnswer([])).toEqual({ 200: 'ok' });
    expect(contentTestAnswer([[1, 3], [5, 9]])).toEqual({ 500: '1,3', 501: '5,9' });
  });

  it('reloads the file when it changes, without a restart', () => {
    const file = listFile('刷单\n');
    const words = new SensitiveWords(file, { checkIntervalMs: 0 });
    expect(words.contains('刷单')).toBe(true);
    expect(words.contains('博彩')).toBe(false);
    fs.writeFileSync(file, '博彩\n# longer now\n');
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect(words.contains('博彩')).toBe(true);
    expect(words.contains('刷单')).toBe(false);
  });

  it('an empty or missing list matches nothing', () => {
    expect(new SensitiveWords(listFile('# nothing\n')).find('任何内容')).toEqual([]);
    expect(new SensitiveWords('/nonexistent/words.txt').find('任何内容')).toEqual([]);
  });

  it('merges ranges and folds case without changing length', () => {
    expect(mergeRanges([[5, 7], [0, 2], [1, 3], [3, 4]])).toEqual([[0, 4], [5, 7]]);
    expect(foldCase('AbCİ').length).toBe(4);
  });

  it('finds words at the edges, inside longer words and through suffix links', () => {
    const words = new SensitiveWords(listFile('赌\n赌博\n博彩网\n彩网\nab\nbab'));
    expect(words.find('赌博彩网')).toEqual([[0, 4]]);
    expect(words.find('x赌')).toEqual([[1, 2]]);
    expect(words.find('babab')).toEqual([[0, 5]]);
    expect(words.contains('彩网')).toBe(true);
    expect(words.contains('彩')).toBe(false);
  });

  it('agrees with a plain scan of every word on random texts', () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const alphabet = '刷单兼职赌博彩网aBc';
    const pick = (len: number) => Array.from({ length: len }, () => alphabet[rnd(alphabet.length)]).join('');
    const list = [...new Set(Array.from({ length: 40 }, () => foldCase(pick(1 + rnd(4)))))];
    const words = new SensitiveWords(listFile(list.join('\n')));
    for (let round = 0; round < 200; round++) {
      const text = pick(rnd(30));
      const folded = foldCase(text);
      const expected: [number, number][] = [];
      for (const w of list) for (let i = folded.indexOf(w); i >= 0; i = folded.indexOf(w, i + 1)) expected.push([i, i + w.length]);
      expect(words.find(text)).toEqual(mergeRanges(expected));
      expect(words.contains(text)).toBe(expected.length > 0);
    }
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { contentTestAnswer, foldCase, mergeRanges, parseWordList, SensitiveWords, wordUnitMask } from '../../server/modules/content/sensitive-words';

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

  describe('template check (the fixed parts once, a row only when a variable may be part of a match)', () => {
    let seed = 11;
    const rnd = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    // case pairs, context-dependent lower cases (Σ), length-changing ones (İ), the Kelvin sign (K → k), surrogate pairs
    const wide = ['刷', '单', '赌', '博', 'a', 'B', 'k', 'K', 'Σ', 'σ', 'ς', 'İ', 'i', 'é', 'É', '😀', '𐐀', '𐐨', ' ', '，'];
    const tricky = ['Σ', 'σ', 'ς', 'a', 'İ', 'K', 'k', '𐐀', '𐐨'];
    let atoms = wide;
    const pick = (len: number) => Array.from({ length: len }, () => atoms[rnd(atoms.length)]).join('');
    const fill = (fixed: string[], vars: string[]) => fixed.map((f, i) => (i ? vars[i - 1] + f : f)).join('');
    /** the check's answer for one row, as a send uses it */
    const viaTemplate = (c: ReturnType<SensitiveWords['templateCheck']>, fixed: string[], vars: string[]) => {
      if (c.fixedHit) return true;
      const masked = vars.some((v) => [...Array(v.length).keys()].some((i) => c.mask[v.charCodeAt(i)] === 1));
      return masked && c.contains(fill(fixed, vars));
    };

    it('answers as the check of each row’s full text, words spanning a variable and the text around it included', () => {
      let rows = 0;
      let hits = 0;
      for (let list = 0; list < 40; list++) {
        atoms = list % 2 ? tricky : wide;
        const words = new SensitiveWords(listFile(Array.from({ length: 1 + rnd(6) }, () => pick(1 + rnd(3))).join('\n')));
        for (let tpl = 0; tpl < 10; tpl++) {
          const fixed = Array.from({ length: 2 + rnd(3) }, () => pick(rnd(4)));
          const c = words.templateCheck(fixed);
          for (let r = 0; r < 25; r++) {
            const vars = fixed.slice(1).map(() => pick(1 + rnd(3)));
            const full = words.contains(fill(fixed, vars));
            expect(viaTemplate(c, fixed, vars), JSON.stringify({ fixed, vars })).toBe(full);
            rows++;
            if (full) hits++;
          }
        }
      }
      // both answers well represented
      expect(hits).toBeGreaterThan(rows / 10);
      expect(rows - hits).toBeGreaterThan(rows / 10);
    });

    it('a word across the template and a variable is found; the fixed text alone is checked once', () => {
      const words = new SensitiveWords(listFile('刷单\n赌博\nvip'));
      // 刷 in the template, 单 in the variable
      const c = words.templateCheck(['【好易购】招聘刷', '兼职']);
      expect(c.fixedHit).toBe(false);
      expect(viaTemplate(c, ['【好易购】招聘刷', '兼职'], ['单'])).toBe(true);
      expect(viaTemplate(c, ['【好易购】招聘刷', '兼职'], ['工'])).toBe(false);
      // the variable's units are what decides whether the row is looked at: 工 can be no word's part
      expect(c.mask['工'.charCodeAt(0)]).toBe(0);
      expect(c.mask['单'.charCodeAt(0)]).toBe(1);
      // upper case variables fold: V, I, P and the Kelvin sign K are in the mask of "vip" / nothing for k
      expect(['V', 'I', 'P', 'v'].map((ch) => c.mask[ch.charCodeAt(0)])).toEqual([1, 1, 1, 1]);
      expect(viaTemplate(c, ['尊敬的', '会员'], ['VIP'])).toBe(true);
      // a word inside the template: every row hits
      expect(words.templateCheck(['网络赌博', '']).fixedHit).toBe(true);
      // a capital sigma lowers by its neighbours (ς at the end of a word, σ before a letter): no shortcut, each row checked
      const sigma = new SensitiveWords(listFile('ς'));
      const cs = sigma.templateCheck(['aΣ', '']);
      expect(cs.fixedHit).toBe(false);
      expect(viaTemplate(cs, ['aΣ', ''], ['b'])).toBe(false);
      expect(viaTemplate(cs, ['aΣ', ''], ['1'])).toBe(true);
      // no list: nothing hits
      expect(new SensitiveWords(listFile('# none\n')).templateCheck(['刷', '单']).fixedHit).toBe(false);
    });

    it('masks every unit that folds to a unit of a word (Σ to σ or ς; surrogates together)', () => {
      const m = wordUnitMask(['ς']);
      expect([m[0x3a3], m[0x3c2], m[0x3c3]]).toEqual([1, 1, 0]);
      const k = wordUnitMask(['k']);
      expect([k['K'.charCodeAt(0)], k[0x212a], k['k'.charCodeAt(0)], k['x'.charCodeAt(0)]]).toEqual([1, 1, 1, 0]);
      const e = wordUnitMask(['😀']);
      expect([e[0xd83d], e[0xdc00], e[0x41]]).toEqual([1, 1, 0]);
    });
  });
});


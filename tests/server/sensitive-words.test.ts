import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  contentTestAnswer,
  mergeRanges,
  parseWordList,
  SensitiveWords,
  wordUnitMask,
} from '../../server/modules/content/sensitive-words';
import { normalizeText } from '../../server/modules/content/normalize';

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
  it('parses one word per line, skips comments and blanks, normalises and dedupes (case, width, traditional, spacing)', () => {
    expect(parseWordList('# comment\n刷单\n\n  赌博  # inline\nVPN\nvpn\r\nＶＰＮ\n賭博\n赌 博\n,.;\n')).toEqual([
      '刷单',
      '赌博',
      'vpn',
    ]);
  });

  it('finds every occurrence with UTF-16 ranges, overlapping hits merged', () => {
    const words = new SensitiveWords(listFile('刷单\n单兼职\n赌博\nVPN'));
    const text = '招聘刷单兼职，网络赌博，翻 vpn';
    const ranges = words.find(text);
    expect(ranges).toEqual([
      [2, 6],
      [9, 11],
      [14, 17],
    ]);
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
    expect(
      contentTestAnswer([
        [1, 3],
        [5, 9],
      ]),
    ).toEqual({ 500: '1,3', 501: '5,9' });
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

  it('merges ranges', () => {
    expect(
      mergeRanges([
        [5, 7],
        [0, 2],
        [1, 3],
        [3, 4],
      ]),
    ).toEqual([
      [0, 4],
      [5, 7],
    ]);
  });

  it('finds words at the edges, inside longer words and through suffix links', () => {
    const words = new SensitiveWords(listFile('赌\n赌博\n博彩网\n彩网\nab\nbab'));
    expect(words.find('赌博彩网')).toEqual([[0, 4]]);
    expect(words.find('x赌')).toEqual([[1, 2]]);
    expect(words.find('babab')).toEqual([[0, 5]]);
    expect(words.contains('彩网')).toBe(true);
    expect(words.contains('彩')).toBe(false);
  });

  describe('disguised words (issue 23 item 6)', () => {
    const list = () => new SensitiveWords(listFile('赌博\n六合彩\nvpn\ndu\n加v信\nfree money\nlowo'));
    /** the original characters each range covers */
    const found = (w: SensitiveWords, text: string) => w.find(text).map(([a, b]) => text.slice(a, b));

    it('finds a word with invisible characters, spaces, punctuation or symbols between its characters', () => {
      const w = list();
      const cases: [string, string[]][] = [
        ['网络赌\u200b博', ['赌\u200b博']],
        ['网络赌\u200c\u200d\u2060\ufeff博', ['赌\u200c\u200d\u2060\ufeff博']],
        ['网络赌\u202e博', ['赌\u202e博']],
        ['网络赌\u00ad博', ['赌\u00ad博']],
        ['网络赌 博', ['赌 博']],
        ['网络赌　博', ['赌　博']],
        ['网络赌\n博', ['赌\n博']],
        ['网络赌*博', ['赌*博']],
        ['网络赌.博！', ['赌.博']],
        ['网络赌，博', ['赌，博']],
        ['网络赌★博', ['赌★博']],
        ['网络赌😀博', ['赌😀博']],
        ['网络赌\ufe0f博', ['赌\ufe0f博']],
        ['网络赌\u0301博', ['赌\u0301博']],
        ['六 合 彩', ['六 合 彩']],
        ['六-合-彩，欢迎', ['六-合-彩']],
      ];
      for (const [text, expected] of cases) {
        expect(found(w, text), JSON.stringify(text)).toEqual(expected);
        expect(w.contains(text), JSON.stringify(text)).toBe(true);
      }
    });

    it('finds a word with a private-use, unassigned, noncharacter or lone-surrogate character inside (issue 35 item 5)', () => {
      const w = list();
      for (const x of [
        '\ue000',
        '\uf8ff',
        '\u{10fffd}',
        '\u0378',
        '\uffff',
        '\ufdd0',
        '\u{f0000}',
        '\ud800',
        '\udfff',
      ]) {
        const text = `来赌${x}博吧`;
        expect(found(w, text), JSON.stringify(text)).toEqual([`赌${x}博`]);
        expect(w.contains(text), JSON.stringify(text)).toBe(true);
        // and the content test's answer marks the original characters
        expect(contentTestAnswer(w.find(text))).toEqual({ 500: `1,${3 + x.length}` });
      }
      expect(w.contains('翻v\ue000p\u0378n')).toBe(true);
    });

    it('finds full-width, upper / mixed case, compatibility and traditional forms, and combinations', () => {
      const w = list();
      const cases: [string, string[]][] = [
        ['翻ＶＰＮ', ['ＶＰＮ']],
        ['翻VpN', ['VpN']],
        ['翻 V P N 吧', ['V P N']],
        ['翻 v.p.n 吧', ['v.p.n']],
        ['翻 𝐕𝐏𝐍', ['𝐕𝐏𝐍']],
        ['ｄｕ', ['ｄｕ']],
        ['ＤＵ', ['ＤＵ']],
        ['網絡賭博', ['賭博']],
        ['賭\u200b 博', ['賭\u200b 博']],
        ['六合彩', ['六合彩']],
        ['⾣六合彩', ['六合彩']],
        ['请加 Ｖ 信', ['加 Ｖ 信']],
        ['FREE   Money!', ['FREE   Money']],
        ['free-money', ['free-money']],
        ['賭 博 ＶＰＮ 六合彩', ['賭 博', 'ＶＰＮ', '六合彩']],
      ];
      for (const [text, expected] of cases) expect(found(w, text), JSON.stringify(text)).toEqual(expected);
    });

    it('points the ranges at the original characters (UTF-16 offsets, surrogate pairs and marks included)', () => {
      const w = list();
      expect(w.find('😀网络赌\u200b博')).toEqual([[4, 7]]);
      expect(w.find('a\u0301 賭 博\u0301x')).toEqual([[3, 7]]);
      expect(w.find('𝐕𝐏𝐍')).toEqual([[0, 6]]);
      // two words apart, two ranges; touching ones merged
      const text = '赌 博，好人，ＶＰＮ';
      expect(w.find(text)).toEqual([
        [0, 3],
        [7, 10],
      ]);
      expect(w.find(text).map(([a, b]) => text.slice(a, b))).toEqual(['赌 博', 'ＶＰＮ']);
      expect(w.find('赌 博ＶＰＮ')).toEqual([[0, 6]]);
    });

    it('does not join separate Latin words across a space or punctuation (documented rule)', () => {
      const w = list();
      // "lowo" only by dropping the space / comma between hello and world: not a match
      for (const text of ['hello world', 'hello, world', 'hello-world', 'hello.world', 'hello😀world', 'HELLO WORLD'])
        expect(w.contains(text), text).toBe(false);
      // "du" only across words: not a match; inside a word it is (words match anywhere, as before)
      expect(w.contains('I had u')).toBe(false);
      expect(w.contains('dumb')).toBe(true);
      // a word holding a space matches the words with any separators, not run together
      expect(w.contains('freemoney')).toBe(false);
      // ordinary texts with punctuation stay clean
      for (const text of [
        '您的验证码是123456，5分钟内有效。',
        '【好易购】尊敬的会员，您的订单已发货，请注意查收！',
        'Your code is 4829. Do not share it.',
      ])
        expect(w.find(text), text).toEqual([]);
    });
  });

  it('agrees with a plain scan of every normalised word on the normalised text (random texts with separators)', () => {
    let seed = 17;
    const rnd = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const alphabet = ['刷', '单', '賭', '赌', '博', 'a', 'B', 'ｃ', ' ', '，', '.', '\u200b', '\u0301', '😀', '𝐚', '1'];
    const pick = (len: number) => Array.from({ length: len }, () => alphabet[rnd(alphabet.length)]).join('');
    for (let l = 0; l < 20; l++) {
      const raw = Array.from({ length: 1 + rnd(8) }, () => pick(1 + rnd(4)));
      const words = new SensitiveWords(listFile(raw.join('\n')));
      const list = parseWordList(raw.join('\n'));
      for (let round = 0; round < 100; round++) {
        const text = pick(rnd(25));
        const n = normalizeText(text);
        const expected: [number, number][] = [];
        for (const w of list)
          for (let i = n.text.indexOf(w); i >= 0; i = n.text.indexOf(w, i + 1))
            expected.push([n.start[i], n.end[i + w.length - 1]]);
        expect(words.find(text), JSON.stringify({ text, list })).toEqual(mergeRanges(expected));
        expect(words.contains(text)).toBe(expected.length > 0);
      }
    }
  });

  it('agrees with a plain scan of every word on random texts', () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const alphabet = '刷单兼职赌博彩网aBc';
    const pick = (len: number) => Array.from({ length: len }, () => alphabet[rnd(alphabet.length)]).join('');
    const list = [...new Set(Array.from({ length: 40 }, () => pick(1 + rnd(4)).toLowerCase()))];
    const words = new SensitiveWords(listFile(list.join('\n')));
    for (let round = 0; round < 200; round++) {
      const text = pick(rnd(30));
      const folded = text.toLowerCase();
      const expected: [number, number][] = [];
      for (const w of list)
        for (let i = folded.indexOf(w); i >= 0; i = folded.indexOf(w, i + 1)) expected.push([i, i + w.length]);
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
    // case pairs, sigmas, length-changing lower cases (İ), the Kelvin sign (K → k), surrogate pairs, traditional
    // characters, full-width letters, separators (spaces, punctuation, emoji), zero-width and combining characters
    const wide = [
      '刷',
      '单',
      '赌',
      '博',
      '賭',
      'a',
      'B',
      'k',
      'K',
      'Σ',
      'σ',
      'ς',
      'İ',
      'i',
      'é',
      'É',
      'Ａ',
      '😀',
      '𐐀',
      '𐐨',
      '𝐀',
      ' ',
      '，',
      '.',
      '\u200b',
      '\u0301',
      '㈠',
      '一',
    ];
    // letters standing alone between separators (the one rule that looks past a character's neighbours)
    const tricky = ['a', 'b', 'B', ' ', '.', '-', '赌', '\u200b', 'ｂ', '1'];
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
        const words = new SensitiveWords(
          listFile(Array.from({ length: 1 + rnd(6) }, () => pick(1 + rnd(3))).join('\n')),
        );
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
      // disguised in the template: found once for every row
      expect(words.templateCheck(['网络賭\u200b 博', '']).fixedHit).toBe(true);
      // a variable of separators only joins what is around it: the row is checked
      const sep = words.templateCheck(['招聘刷', '单']);
      expect(sep.fixedHit).toBe(false);
      expect(viaTemplate(sep, ['招聘刷', '单'], [' '])).toBe(true);
      expect(viaTemplate(sep, ['招聘刷', '单'], ['\u200b'])).toBe(true);
      expect(viaTemplate(sep, ['招聘刷', '单'], ['，。'])).toBe(true);
      expect(viaTemplate(sep, ['招聘刷', '单'], ['x'])).toBe(false);
      // letters standing alone at a fixed part's edge read differently by what follows (x a → xa; x a + b → x ab):
      // no shortcut, each row checked
      const spaced = new SensitiveWords(listFile('xa'));
      const cs = spaced.templateCheck(['x a', '']);
      expect(cs.fixedHit).toBe(false);
      expect(cs.mask['b'.charCodeAt(0)]).toBe(1);
      expect(viaTemplate(cs, ['x a', ''], ['b'])).toBe(false);
      expect(viaTemplate(cs, ['x a', ''], ['中'])).toBe(true);
      // no list: nothing hits
      expect(new SensitiveWords(listFile('# none\n')).templateCheck(['刷', '单']).fixedHit).toBe(false);
    });

    it('masks every unit that normalises to a unit of a word, and every separator, removed character and surrogate', () => {
      const m = wordUnitMask(parseWordList('ς'));
      expect([m[0x3a3], m[0x3c2], m[0x3c3], m['a'.charCodeAt(0)]]).toEqual([1, 1, 1, 0]);
      const k = wordUnitMask(parseWordList('k'));
      expect([
        k['K'.charCodeAt(0)],
        k[0x212a],
        k['k'.charCodeAt(0)],
        k['ｋ'.charCodeAt(0)],
        k['x'.charCodeAt(0)],
      ]).toEqual([1, 1, 1, 1, 0]);
      const t = wordUnitMask(parseWordList('赌博'));
      expect(
        ['赌', '賭', '博', '工', ' ', '，', '\u200b', '\ud83d', '\ude00'].map((ch) => t[ch.charCodeAt(0)]),
      ).toEqual([1, 1, 1, 0, 1, 1, 1, 1, 1]);
    });
  });
});

/**
 * The normaliser of the sensitive-word check (server/modules/content/normalize.ts), on its own:
 * what each kind of character becomes, the separator rule, the offsets back to the original
 * text, the traditional → simplified table, the BMP tables against the per-character rule, and
 * the edge rule the template check relies on.
 */
import { describe, expect, it } from 'vitest';
import {
  buildTradMap,
  CJK,
  expandCodePoint,
  Normalizer,
  normalizeText,
  PLAIN_CJK,
  SEP,
  wordUnitMask,
} from '../../server/modules/content/normalize';

const norm = (s: string) => normalizeText(s).text;

describe('normaliser: one character', () => {
  it('removes format characters, variation selectors, fillers and combining marks', () => {
    for (const ch of [
      '\u200b',
      '\u200c',
      '\u200d',
      '\u2060',
      '\ufeff',
      '\u00ad',
      '\u200e',
      '\u200f',
      '\u202a',
      '\u202e',
      '\u2066',
      '\u2069',
      '\ufe0f',
      '\u034f',
      '\u3164',
      '\u115f',
      '\u{e0041}',
      '\u{e0100}',
    ])
      expect(norm(`赌${ch}博`), JSON.stringify(ch)).toBe('赌博');
    expect(norm('cafe\u0301')).toBe('cafe');
    expect(norm('café')).toBe('cafe');
    expect(norm('赌\u20dd博')).toBe('赌博');
  });

  it('removes every character that shows nothing: private use, unassigned, noncharacters, lone surrogates (issue 35 item 5)', () => {
    const invisible = [
      '\ue000', // private use (BMP)
      '\uf8ff',
      '\u{f0000}', // private use (planes 15, 16)
      '\u{10fffd}',
      '\u0378', // unassigned
      '\u{e0080}',
      '\uffff', // noncharacters
      '\ufffe',
      '\ufdd0',
      '\u{1fffe}',
      '\u{10ffff}',
      '\ud800', // a lone high surrogate
      '\udc00', // a lone low surrogate
      '\u0600', // format (Cf) of other scripts
      '\u{110bd}',
    ];
    for (const ch of invisible) {
      expect(norm(`赌${ch}博`), JSON.stringify(ch)).toBe('赌博');
      expect(norm(`v${ch}pn`), JSON.stringify(ch)).toBe('vpn');
      expect(expandCodePoint(ch.codePointAt(0)!), JSON.stringify(ch)).toEqual([]);
    }
    // several of them, and next to separators: the same
    expect(norm('来赌\ue000\uf8ff\u{10fffd}\u0378\uffff博吧')).toBe('来赌博吧');
    expect(norm('赌 \ue000 博')).toBe('赌博');
    // a surrogate pair is still one character; a high surrogate before another high one is lone
    expect(norm('\ud835\udc00')).toBe('a');
    expect(norm('赌\ud800\ud835\udc00')).toBe('赌a');
  });

  it('folds compatibility forms, width and case (NFKD per character), final sigma as sigma', () => {
    expect(norm('ＶＰＮ')).toBe('vpn');
    expect(norm('ｄｕ')).toBe('du');
    expect(norm('VpN')).toBe('vpn');
    expect(norm('①２３')).toBe('123');
    expect(norm('𝐕𝐏𝐍')).toBe('vpn');
    expect(norm('ﬁ')).toBe('fi');
    expect(norm('İ')).toBe('i');
    expect(norm('K')).toBe('k'); // Kelvin sign
    expect(norm('ΣΟΦΟΣ')).toBe('σοφοσ');
    expect(norm('σοφος')).toBe('σοφοσ');
    // Kangxi radical, CJK compatibility ideograph, parenthesised ideograph
    expect(norm('⾦')).toBe('金');
    expect(norm('豈')).toBe('岂');
    expect(norm('㈠')).toBe('一');
    // half-width katakana to full width; a Hangul syllable as its letters (jamo), as it may be typed
    expect(norm('ｶﾀｶﾅ')).toBe('カタカナ');
    expect(norm('한')).toBe('\u1112\u1161\u11ab');
    expect(norm('\u1112\u1161\u11ab')).toBe(norm('한'));
  });

  it('turns traditional characters into simplified ones (OpenCC tables), leaving simplified text alone', () => {
    expect(norm('賭博')).toBe('赌博');
    expect(norm('六合彩時時彩')).toBe('六合彩时时彩');
    expect(norm('後來頭髮發財')).toBe('后来头发发财');
    expect(norm('網絡賭場')).toBe('网络赌场');
    // Hong Kong / Taiwan variants
    expect(norm('衞生')).toBe('卫生');
    expect(norm('綫')).toBe('线');
    // simplified text unchanged (Taiwan's 么 → 幺 variant is not applied to a simplified character)
    const simplified = '什么时候发票代开办证刷单兼职日结信用卡套现高利贷洗钱传销非法集资私服外挂翻墙后来头发';
    expect(norm(simplified)).toBe(simplified);
  });

  it('the traditional → simplified map is idempotent and maps characters to characters', () => {
    const m = buildTradMap();
    expect(m.size).toBeGreaterThan(3000);
    const broken = [...m]
      .filter(([a, b]) => m.has(b) || a === b)
      .map(([a, b]) => `${String.fromCodePoint(a)} → ${String.fromCodePoint(b)}`);
    expect(broken).toEqual([]);
  });

  it('the BMP tables agree with the per-character rule (the Han ranges take a short cut)', () => {
    const nz = new Normalizer();
    for (const [a, b] of PLAIN_CJK)
      for (let u = a; u <= b; u++) {
        const e = expandCodePoint(u);
        const n = nz.normalize(String.fromCharCode(u));
        expect(e.length).toBe(2);
        expect(e[1]).toBe(CJK);
        expect(String.fromCharCode(...n.units.subarray(0, n.length))).toBe(String.fromCodePoint(e[0]));
      }
  });
});

describe('normaliser: separators between characters', () => {
  it('ignores whitespace, punctuation and symbols next to a Chinese character', () => {
    for (const t of [
      '赌 博',
      '赌　博',
      '赌\t\n博',
      '赌*博',
      '赌.博',
      '赌，博',
      '赌、博',
      '赌★博',
      '赌😀博',
      '赌\u0001博',
      '赌 ~ * 博',
      '赌\u00a0博',
      '赌（博）',
    ])
      expect(norm(t), JSON.stringify(t)).toBe('赌博');
    expect(norm('加 V 信')).toBe('加v信');
    expect(norm('QQ 群')).toBe('qq群');
    expect(norm('【好易购】招聘')).toBe('好易购招聘');
  });

  it('joins letters or digits standing alone, keeps one space between words written with spaces', () => {
    expect(norm('v p n')).toBe('vpn');
    expect(norm('V.P.N')).toBe('vpn');
    expect(norm('v-p-n!')).toBe('vpn');
    expect(norm('1 3 8')).toBe('138');
    expect(norm('hello, world')).toBe('hello world');
    expect(norm('hello   world')).toBe('hello world');
    expect(norm('free-money')).toBe('free money');
    expect(norm('ab c d')).toBe('ab cd');
    expect(norm('x a b')).toBe('xab');
    expect(norm('  x  ')).toBe('x');
    expect(norm(' ,. ')).toBe('');
    expect(norm('')).toBe('');
  });

  it('is idempotent', () => {
    let seed = 3;
    const rnd = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const atoms = [
      '赌',
      '賭',
      '博',
      'a',
      'B',
      'ｃ',
      '1',
      ' ',
      ',',
      '，',
      '\u200b',
      '\u0301',
      '😀',
      '𝐀',
      'ｶ',
      '한',
      'Σ',
      'ς',
      '㈠',
      '½',
      'İ',
      '\ud800',
    ];
    for (let i = 0; i < 2000; i++) {
      const t = Array.from({ length: rnd(12) }, () => atoms[rnd(atoms.length)]).join('');
      const once = norm(t);
      expect(norm(once), JSON.stringify(t)).toBe(once);
    }
  });
});

describe('normaliser: offsets back to the original text', () => {
  it('each unit points at the characters it comes from', () => {
    const r = normalizeText('网络賭\u200b 博ＶＰＮ');
    expect(r.text).toBe('网络赌博vpn');
    expect(r.start).toEqual([0, 1, 2, 5, 6, 7, 8]);
    expect(r.end).toEqual([1, 2, 3, 6, 7, 8, 9]);
  });

  it('a combining mark belongs to the character before it; a character outside the BMP is two units of one character', () => {
    const r = normalizeText('e\u0301\u0302x😀y𝐀');
    // the emoji is a separator between two words: one space
    expect(r).toEqual({ text: 'ex ya', start: [0, 3, 4, 6, 7], end: [3, 4, 6, 7, 9] });
    expect(normalizeText('e\u0301x').end[0]).toBe(2);
    const a = normalizeText('𝐀𝐁');
    expect(a.text).toBe('ab');
    expect([a.start, a.end]).toEqual([
      [0, 2],
      [2, 4],
    ]);
    const emoji = normalizeText('😀😀赌');
    expect(emoji).toEqual({ text: '赌', start: [4], end: [5] });
  });

  it('removed invisible characters are inside the range of the word around them (the content test marks them too)', () => {
    const r = normalizeText('来赌\ue000博\u{10fffd}吧\ud800');
    expect(r.text).toBe('来赌博吧');
    // 来 0, 赌 1, U+E000 2, 博 3, U+10FFFD 4-5, 吧 6, lone surrogate 7
    expect(r.start).toEqual([0, 1, 3, 6]);
    expect(r.end).toEqual([1, 2, 4, 7]);
  });

  it('a run of separators read as a space points at the whole run; a character read as several points at itself', () => {
    const r = normalizeText('hello, world');
    expect(r.text).toBe('hello world');
    expect([r.start[5], r.end[5]]).toEqual([5, 7]);
    const f = normalizeText('ﬁx');
    expect(f).toEqual({ text: 'fix', start: [0, 0, 1], end: [1, 1, 2] });
  });

  it('works on long texts (the buffers grow)', () => {
    const long = '賭\u200b博 '.repeat(20_000) + '㈠'.repeat(5000);
    const r = new Normalizer().normalize(long);
    expect(r.length).toBe(45_000);
    expect(r.start[39_999]).toBe(long.length - 5000 - 2);
    expect(r.start[44_999]).toBe(long.length - 1);
  });
});

describe('normaliser: what the template check relies on', () => {
  it('edgeSensitive: letters standing alone next to a separator at the text’s edge', () => {
    const nz = new Normalizer();
    const cases: [string, boolean][] = [
      ['a b', true],
      ['x a b', true],
      ['ab c', false],
      ['a bc', false],
      ['请回复 a b', true],
      ['a b 请回复', true],
      ['请回复 ab c 好', false],
      ['a b c d', true],
      ['赌 博', false],
      ['【好易购】尊敬的', false],
      ['Hi ', false],
      [' a', false],
      ['a, ', false],
      ['', false],
    ];
    for (const [t, expected] of cases) expect(nz.edgeSensitive(t), JSON.stringify(t)).toBe(expected);
  });

  it('edgeSensitive is exactly "the text reads differently inside a longer one"', () => {
    let seed = 9;
    const rnd = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const atoms = ['a', 'b', '1', ' ', '.', '赌', '\u200b'];
    const nz = new Normalizer();
    for (let i = 0; i < 3000; i++) {
      const t = Array.from({ length: 1 + rnd(7) }, () => atoms[rnd(atoms.length)]).join('');
      const alone = norm(t);
      // inside: a letter on both sides, with and without a separator between
      const inside = [`z${t}z`, `z ${t} z`, `赌${t}赌`, `z${t}`, `${t}z`].some((x) => {
        const n = normalizeText(x);
        // the units coming from t, edge spaces dropped
        const from = x.indexOf(t);
        let s = '';
        for (let k = 0; k < n.text.length; k++) if (n.start[k] >= from && n.end[k] <= from + t.length) s += n.text[k];
        return s.trim() !== alone;
      });
      expect(nz.edgeSensitive(t), JSON.stringify(t)).toBe(inside);
    }
  });

  it('wordUnitMask: units that normalise to a word’s unit, separators, removed characters and surrogates', () => {
    const m = wordUnitMask(['赌博', 'vpn']);
    const at = (ch: string) => m[ch.charCodeAt(0)];
    expect(['赌', '賭', '博', 'v', 'V', 'Ｖ', 'ｖ', 'p', 'n'].map(at)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1]);
    expect([' ', ',', '，', '*', '\u200b', '\u0301', '\ufe0f', '\ud83d', '\ude00'].map(at)).toEqual([
      1, 1, 1, 1, 1, 1, 1, 1, 1,
    ]);
    expect(['工', 'x', 'X', '1', 'é'].map(at)).toEqual([0, 0, 0, 0, 0]);
    // a character that expands to several, one of them a separator or a word's unit
    expect(at('㈠')).toBe(1);
    expect(at('½')).toBe(1);
    expect(wordUnitMask(['金'])['⾦'.charCodeAt(0)]).toBe(1);
    expect(SEP).toBe(1);
  });
});

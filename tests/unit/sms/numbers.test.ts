/** Manual number input rules (spec 02 §5 "Ordinary send"), common/sms/numbers.ts. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { carrierOf } from '../../../common/sms/segments';
import {
  domesticMobileOf,
  MAX_NUMBERS,
  NUMBER_MESSAGES,
  checkNumbers,
  confirmNumbers,
  isChineseMobile,
  normalizeNumberInput,
  numberBoxError,
  numberPoolError,
  splitNumbers,
} from '../../../common/sms/numbers';

describe('normalizeNumberInput', () => {
  it.each([
    ['13800138000,13912345678', '13800138000,13912345678'],
    ['13800138000，13912345678', '13800138000,13912345678'], // Chinese comma
    ['13800138000\n13912345678\r\n18612345678', '13800138000,13912345678,18612345678'],
    ['13800138000 ; 13912345678', '13800138000,13912345678'],
    ['13800138000,,,,13912345678', '13800138000,13912345678'],
    ['13800138000,，\t,13912345678', '13800138000,13912345678'],
    ['+86 138-0013-8000', ',86,138,0013,8000'],
    ['13800138000,', '13800138000,'], // the trailing comma stays while typing
    ['abc', ','],
    ['', ''],
  ])('%j → %j', (input, out) => expect(normalizeNumberInput(input)).toBe(out));

  it('splitNumbers drops empty tokens', () => {
    expect(splitNumbers(',,13800138000，，abc 139\n')).toEqual(['13800138000', '139']);
    expect(splitNumbers(['13800138000', ' 13912345678 '])).toEqual(['13800138000', '13912345678']);
    expect(splitNumbers('')).toEqual([]);
  });
});

describe('isChineseMobile', () => {
  it.each(['13800138000', '13412345678', '19212345678', '17001234567', '16212345678', '16512345678', '19912345678'])(
    '%s is valid',
    (p) => expect(isChineseMobile(p)).toBe(true),
  );
  it.each([
    '1380013800', // 10 digits
    '138001380001', // 12 digits
    '8613800138000',
    '23800138000', // not 1
    '10012345678', // no segment
    '12012345678',
    '14012345678',
    '15412345678', // unassigned
    '13491234567', // satellite
    '17401234567',
    '1380013800x',
    '',
  ])('%s is invalid', (p) => expect(isChineseMobile(p)).toBe(false));
});

describe('domesticMobileOf (issue 41 item 2)', () => {
  it('reads a Chinese mobile written with 86 or 0086, nothing else', () => {
    expect(domesticMobileOf('8613800138000')).toBe('13800138000');
    expect(domesticMobileOf('008613912345678')).toBe('13912345678');
    expect(domesticMobileOf('13800138000')).toBeNull(); // already domestic: not the international page's case
    expect(domesticMobileOf('861012345678')).toBeNull(); // a Beijing landline
    expect(domesticMobileOf('8614912345678')).toBeNull(); // a data-only segment
    expect(domesticMobileOf('14155552671')).toBeNull();
    expect(domesticMobileOf('86138001380001')).toBeNull();
  });
});

describe('checkNumbers', () => {
  it('counts total, valid, invalid and repeats', () => {
    const r = checkNumbers(
      '13800138000,13912345678，13800138000\n123,18612345678 abc 18912345678,13800138000,8613800138000,123',
    );
    expect(r.total).toBe(9);
    expect(r.invalid).toBe(3);
    expect(r.invalidNumbers).toEqual(['123', '8613800138000', '123']);
    expect(r.valid).toBe(4);
    expect(r.repeat).toBe(2);
    expect(r.total).toBe(r.valid + r.invalid + r.repeat);
    expect(r.unique).toEqual(['13800138000', '13912345678', '18612345678', '18912345678']);
    expect(r.carriers).toEqual({ 1: 2, 2: 1, 3: 1 });
    expect([...r.uniqueCarriers]).toEqual([1, 1, 2, 3]);
  });

  it('agrees with split + isChineseMobile on every token', () => {
    const text = '13800138000,1,22,13800138000，19212345678 17031234567;16512345678\n15412345678,138001380001,,';
    const tokens = splitNumbers(text);
    const r = checkNumbers(text);
    expect(r.total).toBe(tokens.length);
    expect(r.invalidNumbers).toEqual(tokens.filter((t) => !isChineseMobile(t)));
    expect(r.valid).toBe(new Set(tokens.filter(isChineseMobile)).size);
    expect(r.unique).toEqual([...new Set(tokens.filter(isChineseMobile))]);
  });

  it('finds every repeat among 30,000 random numbers of few segments (the hash set grows past its first sizes)', () => {
    let seed = 1;
    const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const segs = ['1380', '1390', '1860', '1890', '1700', '1920'];
    const tokens = Array.from(
      { length: 30_000 },
      () => segs[Math.floor(rnd() * segs.length)] + String(Math.floor(rnd() * 20_000)).padStart(7, '0'),
    );
    const r = checkNumbers(tokens.join('\n'));
    const naive = [...new Set(tokens)];
    expect(r.unique).toEqual(naive);
    expect(r.repeat).toBe(tokens.length - naive.length);
    expect(r.repeat).toBeGreaterThan(1000);
  });

  it('is the plain model (regex split, isChineseMobile, a Set, carrierOf) on any input; normalising is the regex replace', () => {
    // pieces of pasted text: numbers of known and unknown segments, repeats, other digit runs, and
    // separators of every kind (full-width digits and emoji are separators too)
    const piece = fc.oneof(
      fc.constantFrom(
        '13800138000',
        '13912345678',
        '17031234567',
        '19212345678',
        '15412345678',
        '14612345678',
        '1380013800',
        '138001380001',
      ),
      fc
        .tuple(fc.integer({ min: 1000, max: 1999 }), fc.integer({ min: 0, max: 9_999_999 }))
        .map(([p, r]) => `${p}${String(r).padStart(7, '0')}`),
      fc.stringMatching(/^[0-9]{1,14}$/),
      fc.constantFrom(',', '，', '\n', '\r\n', ' ', '；', '\t', '+', '１', '😀', 'abc', ',,'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 80 }), (pieces) => {
        const text = pieces.join(pieces.length % 2 ? '' : ',');
        expect(normalizeNumberInput(text)).toBe(text.replace(/[^0-9]+/g, ','));
        const tokens = text.split(/[^0-9]+/).filter((t) => t !== '');
        const valid = tokens.filter(isChineseMobile);
        const unique = [...new Set(valid)];
        const r = checkNumbers(text);
        expect(r).toMatchObject({
          total: tokens.length,
          valid: unique.length,
          invalid: tokens.length - valid.length,
          repeat: valid.length - unique.length,
        });
        expect(r.total).toBe(r.valid + r.invalid + r.repeat);
        expect(confirmNumbers(text)).toEqual(unique);
        expect(r.unique).toEqual(unique);
        expect(r.invalidNumbers).toEqual(tokens.filter((t) => !isChineseMobile(t)));
        expect([...r.uniqueCarriers]).toEqual(unique.map(carrierOf));
        expect(r.carriers).toEqual({
          1: 0,
          2: 0,
          3: 0,
          ...Object.fromEntries([1, 2, 3].map((c) => [c, unique.filter((n) => carrierOf(n) === c).length])),
        });
      }),
      { numRuns: 500 },
    );
  });

  it('takes a list too, and counts nothing in an empty input', () => {
    expect(checkNumbers(['13800138000', '13800138000']).repeat).toBe(1);
    expect(checkNumbers('')).toMatchObject({ total: 0, valid: 0, invalid: 0, repeat: 0, unique: [] });
    expect(checkNumbers(',，,')).toMatchObject({ total: 0 });
  });

  it('a token of many digits is one invalid number, not a valid one', () => {
    const r = checkNumbers('138001380001380013800');
    expect(r).toMatchObject({ total: 1, invalid: 1, valid: 0 });
  });
});

describe('confirmNumbers', () => {
  it('keeps the distinct valid numbers in order: invalid numbers and repeats go', () => {
    expect(confirmNumbers('123,13800138000，abc,13912345678,13800138000,15412345678')).toEqual([
      '13800138000',
      '13912345678',
    ]);
    expect(confirmNumbers('123,456')).toEqual([]);
  });
});

describe('issue 27 item 5: five numbers typed, one repeated and 12345', () => {
  const typed = '13800138000\n13912345678\n13800138000\n12345\n18612345678';
  it('counts 5 = 3 valid + 1 invalid + 1 repeat, the valid ones being what is sent', () => {
    const r = checkNumbers(typed);
    expect(r).toMatchObject({ total: 5, valid: 3, invalid: 1, repeat: 1, invalidNumbers: ['12345'] });
    expect(r.unique).toHaveLength(r.valid);
  });
  it('after 确认号码 the box holds the 3 numbers, counted 3 / 3 / 0 / 0', () => {
    const kept = confirmNumbers(typed);
    expect(kept).toEqual(['13800138000', '13912345678', '18612345678']);
    expect(checkNumbers(kept.join(','))).toMatchObject({ total: 3, valid: 3, invalid: 0, repeat: 0 });
  });
});

describe('numberPoolError', () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => `138${String(i).padStart(8, '0')}`).join(',');

  it('empty pool', () => {
    expect(numberPoolError(checkNumbers(''))).toBe('号码池不能为空');
    expect(numberPoolError(checkNumbers('123,abc'))).toBe(NUMBER_MESSAGES.empty);
  });

  it('beside the box: 请输入手机号码 while empty, the pool message once something is typed', () => {
    expect(numberBoxError(checkNumbers(''))).toBe('请输入手机号码');
    expect(numberBoxError(checkNumbers(',,'))).toBe('请输入手机号码');
    expect(numberBoxError(checkNumbers('123'))).toBe('号码池不能为空');
    expect(numberBoxError(checkNumbers('13800138000'))).toBeNull();
  });

  it('60000 numbers pass, 60001 are refused', () => {
    expect(MAX_NUMBERS).toBe(60000);
    const ok = checkNumbers(many(60000));
    expect(ok).toMatchObject({ total: 60000, valid: 60000, repeat: 0 });
    expect(numberPoolError(ok)).toBeNull();
    const over = checkNumbers(many(60001));
    expect(over.total).toBe(60001);
    expect(numberPoolError(over)).toBe('号码不能大于60000个');
  });

  it('the limit counts what the box holds, duplicates and invalid ones included', () => {
    expect(numberPoolError(checkNumbers(`${many(60000)},123`))).toBe('号码不能大于60000个');
    expect(numberPoolError(checkNumbers(`${many(60000)},13800000000`))).toBe('号码不能大于60000个');
    expect(numberPoolError(checkNumbers(confirmNumbers(`${many(60000)},123`)))).toBeNull();
  });
});

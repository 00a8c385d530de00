/**
 * Variable SMS, international SMS and screening: the price table, the country check, the
 * international charge per country, the variable file's rows (errors with reasons, each good row
 * its own text and pieces, charged exactly), screening, timed sends and the international no-cancel.
 */
import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { backends, useServer, type Client } from './harness';
import {
  accountId,
  approveSign,
  as,
  balance,
  cli,
  counts,
  db,
  ledgerViolations,
  poolViolations,
  remaining,
  shanghai,
  task,
  templateId,
  upload,
} from './send-helpers';
import { sql } from 'kysely';
import { ceilCent, chargeIntlPools, settleRefunds } from '../../server/modules/billing';
import { Money, money2 } from '../../server/lib/money';
import { claimBatch } from '../../server/modules/dispatch/sql';
import { countPieces } from '../../common/sms/pieces';
import { carrierOf, regionOf } from '../../common/sms/segments';
import { screenList, screenRule } from '../../server/modules/variable-international/screening';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  FilledTemplate,
  fillTemplate,
  readSendRows,
  rowProblem,
  sendRowProblem,
  templateParts,
} from '../../server/modules/variable-international/variable';
import { checkInternational, intlNumberOf } from '../../server/modules/variable-international/international';
import { intlPriceSeed } from '../../server/modules/variable-international/prices-seed';
import { SensitiveWords } from '../../server/modules/content/sensitive-words';

const US1 = '14155552671';
const US2 = '14155552672';
const GB1 = '447400123456';
const JP1 = '819012345678';
const APPOINT = '尊敬的{name}，您预约的{service}将于{time}开始，请提前15分钟到场。';

async function xlsx(rows: (string | number)[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('s');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe('international numbers (pure)', () => {
  it('counts repeats by the E.164 number, as a set of the strings would', () => {
    const prices = new Map(
      intlPriceSeed().map((r) => [
        r.country_code,
        { iso: r.country_code, dial: r.dial_code, nameEn: r.name_en, nameZh: r.name_zh, fee: r.fee, sort: r.sort },
      ]),
    );
    const tokens = [
      GB1,
      `00${GB1}`,
      US1,
      US2,
      US1,
      '123',
      '8190123',
      JP1,
      `00${JP1}`,
      '4474001234560',
      '12012000001',
      '1201200000',
      '12012000010',
    ];
    const c = checkInternational(tokens, prices);
    const seen = new Set<string>();
    let repeat = 0;
    let invalid = 0;
    for (const t of tokens) {
      const n = intlNumberOf(t, prices);
      if (!n) invalid++;
      else if (seen.has(n.e164)) repeat++;
      else seen.add(n.e164);
    }
    expect({ total: c.total, invalid: c.invalid, repeat: c.repeat, distinct: c.distinct, unique: c.unique }).toEqual({
      total: tokens.length,
      invalid,
      repeat,
      distinct: seen.size,
      unique: [...seen],
    });
    expect(c.repeat).toBeGreaterThanOrEqual(3);
  });
});

describe('variable rows (pure)', () => {
  const t = { literals: templateParts(APPOINT), sign: '好易购' };
  it('fills the template and names the first broken rule', () => {
    expect(fillTemplate(t.literals, ['张三', '体检', '9点'])).toBe(
      '尊敬的张三，您预约的体检将于9点开始，请提前15分钟到场。',
    );
    expect(rowProblem('13800138000', ['张三', '体检', '9点'], t)).toBeNull();
    expect(rowProblem('1380013800', ['张三', '体检', '9点'], t)).toBe('手机号码格式不正确');
    expect(rowProblem('13800138000', ['张三', '体检'], t)).toBe('变量个数与模板不一致');
    expect(rowProblem('13800138000', ['张三', '', '9点'], t)).toBe('变量不能为空');
    // 7 Chinese characters = 21 bytes
    expect(rowProblem('13800138000', ['张三李四王五赵', '体检', '9点'], t)).toBe('变量长度不能超过20字节');
    expect(
      rowProblem(
        '13800138000',
        Array.from({ length: 31 }, () => 'x'),
        t,
      ),
    ).toBe('变量个数不能超过30个');
    const long = { literals: templateParts(`${'长'.repeat(470)}{a}{b}`), sign: '好易购' };
    expect(rowProblem('13800138000', ['x'.repeat(19), 'y'.repeat(19)], long)).toBe(
      '变量内容、模板和签名合计不能超过500个字符',
    );
  });

  it('screens by carrier, province and removed city', () => {
    const phones = ['13800138000', '18600186000', '18900189000', '13912345678'];
    expect(screenList(phones, screenRule({ operators: '1' })).phones).toEqual(phones.filter((p) => carrierOf(p) === 1));
    const r = regionOf('13800138000')!;
    expect(screenList(phones, screenRule({ provinces: String(r.province.provinceId) })).phones).toContain(
      '13800138000',
    );
    expect(screenList(phones, screenRule({ removeCitys: String(r.city.cityId) })).phones).not.toContain('13800138000');
    expect(screenList(phones, screenRule({})).submitTotal).toBe(4);
  });
});

describe('send file rows (pure): read as bytes, the same answers as the text rules', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sendrows-'));
  let seed = 5;
  const rnd = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  // 1, 2, 3 and 4 UTF-8 bytes; Σ (its lower case depends on its neighbours), İ (lower case longer), the Kelvin sign
  const atoms = ['a', 'Z', '7', '-', ' ', 'é', 'Σ', 'σ', 'İ', 'K', '张', '刷', '单', '，', '😀', '𐐀'];
  const word = (n: number) => Array.from({ length: n }, () => atoms[rnd(atoms.length)]).join('');
  const phone = (i: number) =>
    `${['138', '186', '189', '150', '177'][i % 5]}${String((i * 7919) % 100_000_000).padStart(8, '0')}`;
  const file = (name: string, content: string | Buffer) => {
    const f = path.join(dir, name);
    fs.writeFileSync(f, content);
    return f;
  };
  const list = (text: string) => new SensitiveWords(file(`words-${rnd(1e9)}.txt`, text));

  /** the rules on the file read as text: sendRowProblem, repeats, countPieces(fillTemplate), a word in any row's text */
  function reference(f: string, literals: string[], sign: string, words: SensitiveWords) {
    const lines = fs.readFileSync(f, 'utf8').split('\n').filter(Boolean);
    const seen = new Set<string>();
    const out = {
      phones: [] as string[],
      carriers: [] as number[],
      pieces: [] as number[],
      texts: [] as string[],
      repeatNum: 0,
      hit: false,
    };
    for (let i = 0; i < lines.length; i++) {
      const cells = lines[i].split('\t');
      const r = { phone: cells[0], vars: cells.slice(1) };
      const problem = sendRowProblem(r, { literals, sign });
      if (problem) return { error: `第${i + 1}行：${problem}` };
      if (seen.has(r.phone)) {
        out.repeatNum++;
        continue;
      }
      seen.add(r.phone);
      const pc = countPieces({ content: fillTemplate(literals, r.vars), sign });
      out.phones.push(r.phone);
      out.carriers.push(carrierOf(r.phone));
      out.pieces.push(pc.pieces);
      out.texts.push(pc.text);
      out.hit ||= words.contains(pc.text);
    }
    return out;
  }

  async function read(f: string, literals: string[], sign: string, words: SensitiveWords, chunk: number) {
    const t = new FilledTemplate(literals, sign);
    const zh = words.templateCheck([t.prefixZh + literals[0], ...literals.slice(1)]);
    const en = t.fixedAscii ? words.templateCheck([t.prefixEn + literals[0], ...literals.slice(1)]) : zh;
    try {
      const r = await readSendRows(f, t, { zh, en }, chunk);
      return {
        phones: r.phones,
        carriers: [...r.carriers],
        pieces: [...r.pieces],
        texts: r.texts,
        repeatNum: r.repeatNum,
        hit: r.hit,
      };
    } catch (e) {
      return { error: (e as Error).message };
    }
  }

  it('fills, counts and checks every row, repeats skipped, words found, across chunk boundaries', async () => {
    const seen = { error: 0, hit: 0, clean: 0 };
    for (let round = 0; round < 60; round++) {
      const english = round % 3 === 0;
      const lit = () => (english ? ['Hi ', ', your code is ', '.', ' ok'][rnd(4)] : word(rnd(5)));
      const literals = Array.from({ length: 2 + rnd(3) }, lit);
      const sign = ['ACME', '好易购', ''][rnd(3)];
      // even rounds: words that soon hit; odd ones: words of the rows' characters that never do (禁 is in no row), so rows are checked and stay clean
      const words = list(
        Array.from({ length: 1 + rnd(4) }, () => (round % 2 ? `${word(1)}禁` : word(1 + rnd(2)))).join('\n'),
      );
      const rows: string[] = [];
      const n = 50 + rnd(400);
      for (let i = 0; i < n; i++) {
        // at most 4 atoms of at most 4 bytes: under the 20-byte rule
        const vars = literals.slice(1).map(() => (english && rnd(2) ? 'x'.repeat(1 + rnd(19)) : word(1 + rnd(4))));
        rows.push([phone(rnd(3) ? i : rnd(i + 1)), ...vars].join('\t'));
        if (rnd(20) === 0) rows.push('');
      }
      // now and then one bad row: not a mobile, a variable missing or empty, 20 bytes, too long altogether
      if (round % 4 === 1) {
        const at = rnd(rows.length);
        const bad = [
          `1380013800\t${literals
            .slice(1)
            .map(() => 'v')
            .join('\t')}`,
          [phone(9999), ...literals.slice(2).map(() => 'v')].join('\t'),
          [phone(9998), '', ...literals.slice(2).map(() => 'v')].join('\t'),
          [phone(9997), '张张张张张张张', ...literals.slice(2).map(() => 'v')].join('\t'),
          [phone(9996), ...literals.slice(1).map(() => '😀😀😀😀😀')].join('\t'),
        ][rnd(5)];
        rows.splice(at, 0, bad);
      }
      const f = file(`rows-${round}.tsv`, rows.join('\n') + (rnd(2) ? '\n' : ''));
      const want = reference(f, literals, sign, words);
      expect(await read(f, literals, sign, words, 1 << 20), `round ${round}`).toEqual(want);
      expect(await read(f, literals, sign, words, 7 + rnd(200)), `round ${round}, small chunks`).toEqual(want);
      seen['error' in want ? 'error' : want.hit ? 'hit' : 'clean']++;
    }
    // every kind of answer well represented
    expect(Math.min(seen.error, seen.hit, seen.clean), JSON.stringify(seen)).toBeGreaterThan(5);
  });

  it('reads invalid UTF-8 as the text reader does (U+FFFD, 3 bytes)', async () => {
    const literals = templateParts('尊敬的{name}，您好');
    const words = list('刷单');
    const bytes = Buffer.concat([
      Buffer.from(`${phone(1)}\t张`),
      Buffer.from([0xff]),
      Buffer.from(`\n${phone(2)}\t`),
      Buffer.from([0xe5, 0x88]),
      Buffer.from(`\n`),
    ]);
    const f = file('invalid.tsv', bytes);
    const want = reference(f, literals, '好易购', words);
    expect(want).toMatchObject({ texts: ['【好易购】尊敬的张\uFFFD，您好', '【好易购】尊敬的\uFFFD，您好'] });
    expect(await read(f, literals, '好易购', words, 1 << 20)).toEqual(want);
  });

  it('a sensitive word across a variable and the template text around it intercepts; one that is not there does not', async () => {
    const literals = templateParts('招聘刷{job}，日结{pay}元');
    const words = list('刷单\n结500');
    const clean = file('clean.tsv', `${phone(1)}\t快递员\t300\n${phone(2)}\t客服\t200\n`);
    expect((await read(clean, literals, '好易购', words, 1 << 20)) as { hit: boolean }).toMatchObject({ hit: false });
    // 刷 + 单…: the word starts in the template and ends in the variable
    const spanning = file('spanning.tsv', `${phone(1)}\t快递员\t300\n${phone(2)}\t单兼职\t200\n`);
    expect(await read(spanning, literals, '好易购', words, 1 << 20)).toMatchObject({ hit: true });
    // 结 + 500: the variable's start with the literal before it
    const spanning2 = file('spanning2.tsv', `${phone(1)}\t快递员\t5000\n`);
    expect(await read(spanning2, literals, '好易购', words, 1 << 20)).toMatchObject({ hit: true });
    // the English brackets of an all-ASCII row: brackets are punctuation to the check (issue 23 item 6), so a
    // word across the sign and the text hits with either; one across the sign and an ASCII variable hits that row
    const en = templateParts('Hi {name}, welcome');
    const bracket = list('[acme]hi');
    const zhRow = file('zh-row.tsv', `${phone(1)}\t张三\n`);
    const enRow = file('en-row.tsv', `${phone(1)}\t张三\n${phone(2)}\tTom\n`);
    expect(await read(zhRow, en, 'ACME', bracket, 1 << 20)).toMatchObject({
      hit: true,
      texts: ['【ACME】Hi 张三, welcome'],
    });
    expect(await read(enRow, en, 'ACME', bracket, 1 << 20)).toMatchObject({
      hit: true,
      texts: ['【ACME】Hi 张三, welcome', '[ACME]Hi Tom, welcome'],
    });
    const tom = list('hi tom');
    expect(await read(zhRow, en, 'ACME', tom, 1 << 20)).toMatchObject({ hit: false });
    expect(await read(enRow, en, 'ACME', tom, 1 << 20)).toMatchObject({ hit: true });
  });
});

describe.each(backends)('variable and international SMS (%s)', (backend) => {
  const t = useServer(backend);
  let client1: Client;
  let client0: Client;
  let agent1: Client;
  const later = async () => t.server.clock.advance(3100);

  it('logs in', async () => {
    client1 = await as(t.server, 'client1');
    client0 = await as(t.server, 'client0');
    agent1 = await as(t.server, 'agent1');
    // the international sends below sign with ACME (an ASCII sign: the English piece rules); approved for the senders
    await approveSign(t.server, 'agent0', 'ACME');
    await approveSign(t.server, 'client1', 'ACME');
  });

  it('lists the international prices with the fields the price list reads, searchable', async () => {
    const r = await client1.get('/api/sms/gj/prices');
    expect(r.body.code).toBe(0);
    const list = r.body.data.list as any[];
    expect(list.length).toBeGreaterThan(200);
    const us = list.find((x) => x.intercode === 'US');
    expect(us).toMatchObject({
      intername: 'United States of America',
      areaname: '美国',
      prefix: '+1',
      countryCode: '1',
      countryName: '美国',
    });
    expect(Object.keys(us).sort()).toEqual(
      ['areaname', 'countryCode', 'countryName', 'fee', 'intercode', 'intername', 'prefix', 'rownum'].sort(),
    );
    expect(us.fee).toMatch(/^\d+\.\d{4}$/);
    expect(list.find((x) => x.intercode === 'CN')).toBeUndefined();
    const gb = (await client1.get('/api/sms/gj/prices?search=英国')).body.data.list;
    expect(gb.map((x: any) => x.intercode)).toEqual(['GB']);
    expect((await client1.get('/api/sms/gj/prices?search=%2B81')).body.data.list.map((x: any) => x.intercode)).toEqual([
      'JP',
    ]);
  });

  it('finds the country of each number; Chinese, invalid and repeated numbers are counted', async () => {
    const r = await client1.post('/api/send/checkMobileInternational', {
      mobiles: `${US1},${US2},${GB1},${JP1},${US1},8613800138000,12345,008613912345678,861012345678`,
    });
    expect(r.body.code).toBe(0);
    const d = r.body.data;
    expect(d.internationalPhoneNum).toBe(4);
    expect(d.parseMobilesInfo).toEqual({ submitTotal: 9, errNum: 4, repeatNum: 1 });
    // issue 41 item 2: Chinese mobiles written with 86 / 0086 are counted apart (a domestic send's),
    // not listed as bad numbers; a Beijing landline with 86 is just an error
    expect(d.domesticNum).toBe(2);
    expect(d.domesticSet).toEqual(['8613800138000', '008613912345678']);
    expect(d.errorSet).toEqual(['12345', '861012345678']);
    expect(d.countries.map((c: any) => [c.intercode, c.num])).toEqual([
      ['US', 2],
      ['GB', 1],
      ['JP', 1],
    ]);
    expect(d.internationalSet).toEqual([`+${US1}`, `+${US2}`, `+${GB1}`, `+${JP1}`]);
  });

  it('charges a direct account’s international send per country, exactly, one ledger row per country (operation_mode 0)', async () => {
    // agent0 (by amount) sends as itself, allowed international numbers
    await db(t.server).updateTable('accounts').set({ phone_inout_type: 2 }).where('clientid', '=', 'agent0').execute();
    const agent0 = await as(t.server, 'agent0');
    const fees = Object.fromEntries(
      (await db(t.server).selectFrom('intl_prices').select(['country_code', 'fee']).execute()).map((r) => [
        r.country_code,
        String(r.fee),
      ]),
    );
    const before = await balance(t.server, 'agent0');
    const content = 'Your order has shipped. '.repeat(7).trim();
    const pc = countPieces({ content, sign: 'ACME' });
    expect(pc.pieces).toBe(2);
    const preview = await agent0.post('/api/send/chargeInfoInternational', {
      clientId: 'agent0',
      content,
      sign: 'ACME',
      smstype: 0,
      mobile: `${US1},${US2},${GB1},${JP1}`,
    });
    expect(preview.body.data).toMatchObject({ chars: pc.chars, smsNum: 2, submitTotal: 4, chargeNum: 8 });
    await later();
    const r = await agent0.post('/api/send/sendingInternational', {
      clientId: 'agent0',
      content,
      sign: 'ACME',
      smstype: 0,
      mobile: `${US1},${US2},${GB1},${JP1}`,
    });
    expect(r.body.code).toBe(0);
    const perCountry = [
      ['US', 2],
      ['GB', 1],
      ['JP', 1],
    ] as const;
    const expected = perCountry.reduce(
      (s, [c, n]) => s.plus(ceilCent(new Money(fees[c]).times(2).times(n))),
      new Money(0),
    );
    expect(r.body.data.amount).toBe(money2(expected));
    expect(preview.body.data.amount).toBe(money2(expected));
    expect(new Money(before).minus(await balance(t.server, 'agent0')).toFixed(2)).toBe(money2(expected));
    const tk = await task(t.server, r.body.data.taskId);
    expect(tk.send_kind).toBe(2);
    expect(tk.charge_num_total).toBe(8);
    expect(tk.charge_mode).toBe(0);
    const rows = await db(t.server)
      .selectFrom('ledger')
      .select(['amount', 'remark', 'kind'])
      .where('remark', 'like', `%任务${tk.uid}`)
      .orderBy('id')
      .execute();
    expect(rows.map((x) => [x.kind, money2(x.amount)])).toEqual(
      perCountry.map(([c, n]) => [15, money2(ceilCent(new Money(fees[c]).times(2).times(n)).neg())]),
    );
    const msgs = await db(t.server)
      .selectFrom('sms_messages')
      .select(['phone', 'carrier', 'price', 'pieces', 'content'])
      .where('task_id', '=', tk.id)
      .orderBy('id')
      .execute();
    expect(msgs.map((m) => [m.phone, m.carrier, new Money(m.price).toFixed(4), m.pieces, m.content])).toEqual([
      [`+${US1}`, 4, new Money(fees.US).toFixed(4), 2, null],
      [`+${US2}`, 4, new Money(fees.US).toFixed(4), 2, null],
      [`+${GB1}`, 4, new Money(fees.GB).toFixed(4), 2, null],
      [`+${JP1}`, 4, new Money(fees.JP).toFixed(4), 2, null],
    ]);
    expect(await ledgerViolations(t.server)).toEqual([]);
  });

  it('charges a package account’s international send to its international pools: yuan, per country cent-ceiled, no ledger row (operation_mode 1)', async () => {
    const fees = Object.fromEntries(
      (await db(t.server).selectFrom('intl_prices').select(['country_code', 'fee']).execute()).map((r) => [
        r.country_code,
        String(r.fee),
      ]),
    );
    const money = await balance(t.server, 'client1');
    // the demo pool: 200.00 元, kept in 分
    const fen = await remaining(t.server, 'client1', 2);
    expect(fen).toBe(20000);
    const content = 'Your verification code is 482913.';
    const mobile = `${US1},${US2},${GB1}`;
    const expected = ceilCent(new Money(fees.US).times(2)).plus(ceilCent(new Money(fees.GB)));
    const preview = await client1.post('/api/send/chargeInfoInternational', {
      content,
      sign: 'ACME',
      smstype: 0,
      mobile,
    });
    expect(preview.body.data).toMatchObject({
      chargeMode: 1,
      chargeNum: 3,
      amount: money2(expected),
      remainAmount: '200.00',
    });
    expect(preview.body.data.balance).toBeUndefined();
    await later();
    const r = await client1.post('/api/send/sendingInternational', { content, sign: 'ACME', smstype: 0, mobile });
    expect(r.body).toMatchObject({ code: 0, data: { amount: money2(expected), chargeNum: 3 } });
    const tk = await task(t.server, r.body.data.taskId);
    expect(tk).toMatchObject({
      charge_mode: 1,
      send_kind: 2,
      charge_state: 1,
      amount: money2(expected),
      charge_num_total: 3,
    });
    expect(new Money(tk.cost).eq(new Money(fees.US).times(2).plus(fees.GB))).toBe(true);
    // the pool pays, the money balance does not move, no ledger row names the task
    expect(fen - (await remaining(t.server, 'client1', 2))).toBe(expected.times(100).toNumber());
    expect(await balance(t.server, 'client1')).toBe(money);
    expect(
      await db(t.server).selectFrom('ledger').select('id').where('remark', 'like', `%任务${tk.uid}`).execute(),
    ).toEqual([]);
    const moves = await db(t.server)
      .selectFrom('pool_movements')
      .select(['pieces', 'kind', 'carrier'])
      .where('task_id', '=', tk.id)
      .execute();
    expect(moves).toEqual([{ pieces: -expected.times(100).toNumber(), kind: 1, carrier: 4 }]);
    // each message its country's fee, so failures are returned by the money rule
    const msgs = await db(t.server)
      .selectFrom('sms_messages')
      .select(['phone', 'price'])
      .where('task_id', '=', tk.id)
      .orderBy('id')
      .execute();
    expect(msgs.map((m) => new Money(m.price).toFixed(4))).toEqual(
      [fees.US, fees.US, fees.GB].map((f) => new Money(f).toFixed(4)),
    );
    // the pools list and the header show yuan
    const pools = (await client1.get('/api/client/pools')).body.data.list.filter((x: any) => x.product_type === 2);
    expect(pools.map((x: any) => x.account_balance)).toEqual([`${new Money(200).minus(expected).toFixed(2)}元`]);
    const header = await client1.get('/api/index/data');
    expect(header.body.data.data.gj_remain_amount).toBe(new Money(200).minus(expected).toNumber());
    expect(await poolViolations(t.server)).toEqual([]);
    expect(await ledgerViolations(t.server)).toEqual([]);

    // failures come back to the pool that paid, by the money rule (amount − ceil₂(kept cost) − returned)
    const fail = async (phone: string) => {
      await db(t.server)
        .transaction()
        .execute(async (trx) => {
          const m = await trx
            .selectFrom('sms_messages')
            .select(['id', 'price', 'pieces'])
            .where('task_id', '=', tk.id)
            .where('phone', '=', `+${phone}`)
            .executeTakeFirstOrThrow();
          await trx.updateTable('sms_messages').set({ state: 6 }).where('id', '=', m.id).execute();
          await trx
            .updateTable('sms_tasks')
            .set({
              refundable_cost: sql`refundable_cost + ${new Money(m.price).times(m.pieces).toFixed(4)}::numeric`,
              refundable_pieces: sql`refundable_pieces + ${m.pieces}`,
              fail_num: sql`fail_num + 1`,
            })
            .where('id', '=', tk.id)
            .execute();
          await settleRefunds(trx, { now: t.server.clock.now }, [tk.id]);
        });
    };
    await fail(GB1);
    const keptUs = ceilCent(new Money(fees.US).times(2));
    const returned1 = expected.minus(keptUs);
    expect((await task(t.server, tk.uid)).refunded_amount).toBe(money2(returned1));
    // settling again returns nothing more
    await db(t.server)
      .transaction()
      .execute((trx) => settleRefunds(trx, { now: t.server.clock.now }, [tk.id]));
    expect((await task(t.server, tk.uid)).refunded_amount).toBe(money2(returned1));
    await fail(US1);
    await fail(US2);
    expect((await task(t.server, tk.uid)).refunded_amount).toBe(money2(expected));
    expect(await remaining(t.server, 'client1', 2)).toBe(fen);
    const back = await db(t.server)
      .selectFrom('pool_movements')
      .select(['pieces', 'kind', 'carrier'])
      .where('task_id', '=', tk.id)
      .where('kind', '=', 7)
      .orderBy('id')
      .execute();
    expect(back.reduce((n, m) => n + m.pieces, 0)).toBe(expected.times(100).toNumber());
    expect(back.every((m) => m.carrier === 4)).toBe(true);
    expect(await poolViolations(t.server)).toEqual([]);
  });

  it('refuses a package account’s international send its international pools cannot pay, writing nothing', async () => {
    const c1 = await accountId(t.server, 'client1');
    const intl = await db(t.server)
      .selectFrom('product_pools')
      .select(['id', 'due_time'])
      .where('account_id', '=', c1)
      .where('product_type', '=', 2)
      .execute();
    const before = await counts(t.server);
    // the pool has expired
    await db(t.server)
      .updateTable('product_pools')
      .set({ due_time: new Date(t.server.clock.now().getTime() - 1000) })
      .where(
        'id',
        'in',
        intl.map((p) => p.id),
      )
      .execute();
    await later();
    const r = await client1.post('/api/send/sendingInternational', {
      content: 'Hello',
      sign: 'ACME',
      smstype: 0,
      mobile: US1,
    });
    expect(r.body.code).not.toBe(0);
    expect(r.body.msg).toMatch(/^短信余量不足，无法发送（本次需 \d+\.\d{2} 元，国际短信余额 0\.00 元）$/);
    const preview = await client1.post('/api/send/chargeInfoInternational', {
      content: 'Hello',
      sign: 'ACME',
      smstype: 0,
      mobile: US1,
    });
    expect(preview.body.data).toMatchObject({ chargeMode: 1, remainAmount: '0.00' });
    // a timed one: code 403 with the message (the credit question)
    const at = shanghai(new Date(t.server.clock.now().getTime() + 30 * 60_000));
    const timed = await client1.post(
      '/api/send/send_time_sms',
      { sendKind: 2, content: 'Hello', smstype: 0, mobilelist: US1, sendtime: at },
      { json: true },
    );
    expect(timed.body.code).toBe(403);
    expect(timed.body.msg).toMatch(/^短信余量不足/);
    // checked again on the locked pools inside the transaction: refused there too, nothing written
    const direct = await db(t.server)
      .transaction()
      .execute((trx) =>
        chargeIntlPools(
          trx,
          { now: t.server.clock.now },
          { taskId: 0, uid: 'T0', payerId: c1, amount: new Money('0.05'), cost: new Money('0.05'), chargeNum: 1 },
        ),
      );
    expect(direct).toEqual({ ok: false, kind: 'intlPools', remain: '0.00', needed: '0.05' });
    expect(await counts(t.server)).toEqual(before);
    for (const p of intl)
      await db(t.server).updateTable('product_pools').set({ due_time: p.due_time }).where('id', '=', p.id).execute();
  });

  it('a package account’s international send rejected in review returns its yuan to the pool (the same path as domestic sends)', async () => {
    await db(t.server).updateTable('accounts').set({ needaudit: 2 }).where('clientid', '=', 'client1').execute();
    const fen = await remaining(t.server, 'client1', 2);
    await later();
    const r = await client1.post('/api/send/sendingInternational', {
      content: 'Your parcel is ready for pickup.',
      sign: 'ACME',
      smstype: 0,
      mobile: `${US1},${JP1}`,
    });
    expect(r.body).toMatchObject({ code: 0, msg: '提交成功，等待审核' });
    const tk = await task(t.server, r.body.data.taskId);
    expect(fen - (await remaining(t.server, 'client1', 2))).toBe(new Money(tk.amount).times(100).toNumber());
    expect((await cli(t.server, 'send', 'reject', tk.uid, '内容不合规')).code).toBe(0);
    expect((await task(t.server, tk.uid)).refunded_amount).toBe(tk.amount);
    expect(await remaining(t.server, 'client1', 2)).toBe(fen);
    expect(await poolViolations(t.server)).toEqual([]);
    await db(t.server).updateTable('accounts').set({ needaudit: 0 }).where('clientid', '=', 'client1').execute();
  });

  it('refuses international sends with the spec’s messages', async () => {
    const base = { content: 'Hello', smstype: 0, mobile: US1 };
    await later();
    expect((await client1.post('/api/send/sendingInternational', { ...base, sign: 'A' })).body.msg).toBe(
      '签名长度为2-12之间',
    );
    // a sign given is one of the account's approved ones (苏州好易购 still awaits review)
    expect((await client1.post('/api/send/sendingInternational', { ...base, sign: '苏州好易购' })).body.msg).toBe(
      '签名未报备或未审核通过',
    );
    expect(
      (
        await client1.post(
          '/api/send/send_time_sms',
          {
            sendKind: 2,
            ...base,
            sign: '苏州好易购',
            mobilelist: US1,
            sendtime: shanghai(new Date(t.server.clock.now().getTime() + 30 * 60_000)),
          },
          { json: true },
        )
      ).body.msg,
    ).toBe('签名未报备或未审核通过');
    expect((await client1.post('/api/send/sendingInternational', { ...base, mobile: '1415a555' })).body.msg).toBe(
      '号码只能包含数字和逗号',
    );
    expect(
      (await client1.post('/api/send/sendingInternational', { ...base, mobile: '8613800138000,123' })).body.msg,
    ).toBe('已筛选号码数量不能为0，请重新筛选。');
    // client0 is domestic only
    expect((await client0.post('/api/send/sendingInternational', base)).body.msg).toBe('该账户未开通国际短信发送');
    // no sign is fine
    await later();
    expect((await client1.post('/api/send/sendingInternational', base)).body.code).toBe(0);
  });

  it('takes an international file (txt, csv, xlsx) and refuses other types and long names', async () => {
    const bad = await upload(t.server, client1, '/api/send/uploadInternationalFile', 'numbers.doc', Buffer.from(US1));
    expect(bad.msg).toBe('请上传txt,csv,xlxs格式文件');
    const longName = await upload(
      t.server,
      client1,
      '/api/send/uploadInternationalFile',
      `${'n'.repeat(28)}.txt`,
      Buffer.from(US1),
    );
    expect(longName.msg).toBe('文件名称不能超过30个字符');
    const up = await upload(
      t.server,
      client1,
      '/api/send/uploadInternationalFile',
      'intl.txt',
      Buffer.from(`${US1}\r\n${GB1}\r\n${JP1}\r\nabc\r\n`),
    );
    expect(up.code).toBe(0);
    const parsed = await client1.post('/api/send/parsefileInternational', {
      importFilePath: up.data.importFilePath,
      fileName: 'intl.txt',
    });
    expect(parsed.body.data).toMatchObject({ internationalPhoneNum: 3 });
    await later();
    const r = await client1.post('/api/send/sendingInternational', {
      content: 'Hi',
      smstype: 0,
      fileType: 1,
      importFilePath: up.data.importFilePath,
      fileName: 'intl.txt',
    });
    expect(r.body.code).toBe(0);
    expect(r.body.data.submitTotal).toBe(3);
    // another account cannot use the file
    expect(
      (await client0.post('/api/send/parsefileInternational', { importFilePath: up.data.importFilePath })).body.code,
    ).not.toBe(0);
    expect(
      (await client1.post('/api/send/parsefileInternational', { importFilePath: '../../etc/passwd' })).body.code,
    ).not.toBe(0);
  });

  it('a scheduled international send is charged at once and cannot be cancelled', async () => {
    const before = await remaining(t.server, 'client1', 2);
    await later();
    const at = shanghai(new Date(t.server.clock.now().getTime() + 30 * 60_000));
    const r = await client1.post(
      '/api/send/send_time_sms',
      { sendKind: 2, content: 'Meeting at 3pm', smstype: 0, mobilelist: `${US1},${GB1}`, sendtime: at },
      { json: true },
    );
    expect(r.body.code).toBe(0);
    const tk = await task(t.server, r.body.data.taskId);
    expect([tk.status, tk.send_type, tk.charge_state]).toEqual([1, 1, 1]);
    expect(before - (await remaining(t.server, 'client1', 2))).toBe(new Money(tk.amount).times(100).toNumber());
    const undo = await client1.post('/api/send/undoSend', { uid: tk.uid });
    expect(undo.body.msg).toBe('国际短信定时任务提交后不可取消');
    // the timed-task list does not offer 取消 / 重新编辑 on it
    const listed = (await client1.post('/api/send/smsTimerSend/list', { page: 1, rows: 50 })).body.data.list.find(
      (x: any) => x.taskId === tk.uid,
    );
    expect(listed).toMatchObject({ status: 1, cancelFlag: 0 });
    const tooLate = shanghai(new Date(t.server.clock.now().getTime() + 25 * 3600_000));
    await later();
    expect(
      (
        await client1.post(
          '/api/send/send_time_sms',
          { sendKind: 2, content: 'x', smstype: 0, mobilelist: US1, sendtime: tooLate },
          { json: true },
        )
      ).body.msg,
    ).toBe('定时发送时间须在24小时之内');
  });

  it('send_time_sms takes a body with only the spec’s fields: the kind inferred from templateId (issue 41 item 12)', async () => {
    await later();
    const at = shanghai(new Date(t.server.clock.now().getTime() + 30 * 60_000));
    // spec 02 §7: clientId, content, fileType, importFilePath, mobilelist, smstype, sendtime, uid, chargeNum, isCheckAvailableCredit, operater
    const spec = {
      clientId: 'client1',
      content: 'See you at 3pm',
      fileType: 0,
      importFilePath: '',
      mobilelist: US1,
      smstype: 0,
      sendtime: at,
      uid: '',
      chargeNum: 1,
      isCheckAvailableCredit: 1,
      operater: '',
    };
    const r = await client1.post('/api/send/send_time_sms', spec, { json: true });
    expect(r.body).toMatchObject({ code: 0 });
    const tk = await task(t.server, r.body.data.taskId);
    expect([tk.status, tk.send_kind]).toEqual([1, 2]);
    // with a template: a variable send (here refused by the variable form's own rule, not as an international one)
    await later();
    const v = await client1.post(
      '/api/send/send_time_sms',
      { ...spec, templateId: 999999, sign: tplSign },
      { json: true },
    );
    expect(v.body.msg).toBe('变量模板不存在或未审核通过');
  });

  it('an international send with a blocked word is intercepted like a domestic one: recorded, nothing charged, no 5xx (issue 23 item 4)', async () => {
    const fen = await remaining(t.server, 'client1', 2);
    const money = await balance(t.server, 'client1');
    const check = async (r: { status: number; body: any }, n: number) => {
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        code: 0,
        msg: '短信内容包含敏感词，已拦截',
        data: { chargeNum: 0, amount: '0.00', submitTotal: n },
      });
      const tk = await task(t.server, r.body.data.taskId);
      expect(tk).toMatchObject({
        status: 3,
        send_kind: 2,
        intercept_num: n,
        charge_num_total: 0,
        charge_state: 1,
        amount: '0.00',
      });
      const msgs = await db(t.server)
        .selectFrom('sms_messages')
        .select(['carrier', 'price', 'state', 'done_at'])
        .where('task_id', '=', tk.id)
        .execute();
      expect(msgs).toHaveLength(n);
      expect(
        msgs.every((m) => m.carrier === 4 && new Money(m.price).isZero() && m.state === 11 && m.done_at !== null),
      ).toBe(true);
    };
    await later();
    // plain, then disguised (a zero-width space, traditional characters, full width)
    await check(
      await client1.post('/api/send/sendingInternational', {
        content: '网络赌博 bonus',
        sign: 'ACME',
        smstype: 0,
        mobile: `${US1},${GB1}`,
      }),
      2,
    );
    await later();
    await check(
      await client1.post('/api/send/sendingInternational', { content: '網絡賭\u200b博', smstype: 0, mobile: JP1 }),
      1,
    );
    await later();
    const at = shanghai(new Date(t.server.clock.now().getTime() + 30 * 60_000));
    await check(
      await client1.post(
        '/api/send/send_time_sms',
        { sendKind: 2, content: '六合彩 tonight', smstype: 0, mobilelist: `${US1},${US2},${GB1}`, sendtime: at },
        { json: true },
      ),
      3,
    );
    expect(await remaining(t.server, 'client1', 2)).toBe(fen);
    expect(await balance(t.server, 'client1')).toBe(money);
    // a money account (agent0, allowed international numbers above) is not charged either
    const agent0 = await as(t.server, 'agent0');
    const before = await balance(t.server, 'agent0');
    await later();
    await check(
      await agent0.post('/api/send/sendingInternational', {
        clientId: 'agent0',
        content: '赌博',
        smstype: 0,
        mobile: US1,
      }),
      1,
    );
    expect(await balance(t.server, 'agent0')).toBe(before);
    expect(await poolViolations(t.server)).toEqual([]);
    expect(await ledgerViolations(t.server)).toEqual([]);
  });

  let sendFile = '';
  let errorFile = '';
  const tplSign = '好易购';

  it('parses a variable file: good rows counted, bad rows in the error file with their reasons', async () => {
    const tpl = await templateId(t.server, '尊敬的{name}');
    const file = await xlsx([
      ['手机号码', '姓名', '项目', '时间'],
      ['13800138000', '张三', '体检', '9点'],
      ['18600186000', 'Alexander-Maximilia', 'Comprehensive-check', '2026-12-01 09:30'],
      ['18900189000', '李四', '洗牙', '10点'],
      ['13800138000', '张三', '体检', '9点'],
      ['12345', '王五', '体检', '9点'],
      ['13900139000', '赵六', '体检'],
      ['13700137000', '张三李四王五赵', '体检', '9点'],
    ]);
    const bad = await upload(t.server, client1, '/api/send/uploadVariateFile', 'vars.csv', file);
    expect(bad.msg).toBe('请上传xlsx格式文件');
    const up = await upload(t.server, client1, '/api/send/uploadVariateFile', '变量.xlsx', file);
    expect(up.code).toBe(0);
    const r = await client1.post('/api/send/parsefileVariate', {
      importFilePath: up.data.importFilePath,
      templateId: tpl,
      sign: tplSign,
      fileName: '变量.xlsx',
    });
    expect(r.body.code).toBe(0);
    expect(r.body.data).toMatchObject({
      totalNum: 7,
      submitTotal: 3,
      errNum: 3,
      repeatNum: 1,
      variateNum: 3,
      mobileNum: 1,
      unicomNum: 1,
      telecomNum: 1,
    });
    sendFile = r.body.data.sendFilePath;
    errorFile = r.body.data.errorFilePath;
    const dl = await client1.get(`/api/send/downloadtemplateVariateError?filePath=${encodeURIComponent(errorFile)}`);
    expect(dl.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(dl.raw.rawPayload as any);
    const rows: string[][] = [];
    wb.worksheets[0].eachRow((row) => rows.push((row.values as any[]).slice(1).map((v) => String(v ?? ''))));
    expect(rows[0]).toEqual(['手机号码', '变量1', '变量2', '变量3', '错误原因']);
    expect(rows.slice(1).map((x) => [x[0], x[x.length - 1]])).toEqual([
      ['13800138000', '手机号码重复'],
      ['12345', '手机号码格式不正确'],
      ['13900139000', '变量个数与模板不一致'],
      ['13700137000', '变量长度不能超过20字节'],
    ]);
    // nobody else reads it
    expect(
      (await client0.get(`/api/send/downloadtemplateVariateError?filePath=${encodeURIComponent(errorFile)}`)).body.code,
    ).not.toBe(0);
    // no template: 请先选择变量模板 (the form's message)
    expect(
      (
        await client1.post('/api/send/sendingVariable', {
          sign: tplSign,
          smstype: 0,
          fileType: 1,
          importFilePath: sendFile,
        })
      ).body.msg,
    ).toBe('请先选择变量模板');
  });

  it('sends the variable rows: each its own text and pieces, the pools charged the sum', async () => {
    const tpl = await templateId(t.server, '尊敬的{name}');
    const before = await remaining(t.server, 'client1');
    const preview = await client1.post('/api/send/chargeInfoVariable', {
      templateId: tpl,
      sign: tplSign,
      smstype: 0,
      fileType: 1,
      importFilePath: sendFile,
    });
    const texts = [
      ['13800138000', ['张三', '体检', '9点']],
      ['18600186000', ['Alexander-Maximilia', 'Comprehensive-check', '2026-12-01 09:30']],
      ['18900189000', ['李四', '洗牙', '10点']],
    ].map(
      ([p, v]) =>
        [p, countPieces({ content: fillTemplate(templateParts(APPOINT), v as string[]), sign: tplSign })] as const,
    );
    const pieces = texts.reduce((n, [, pc]) => n + pc.pieces, 0);
    expect(texts.map(([, pc]) => pc.pieces)).toEqual([1, 2, 1]);
    expect(preview.body.data).toMatchObject({ submitTotal: 3, chargeNum: pieces, chargeMode: 1 });
    await later();
    const r = await client1.post('/api/send/sendingVariable', {
      templateId: tpl,
      sign: tplSign,
      smstype: 0,
      fileType: 1,
      importFilePath: sendFile,
      fileName: '变量.xlsx',
    });
    expect(r.body.code).toBe(0);
    expect(r.body.data.chargeNum).toBe(pieces);
    expect(before - (await remaining(t.server, 'client1'))).toBe(pieces);
    const tk = await task(t.server, r.body.data.taskId);
    expect([tk.send_kind, tk.template_type, tk.charge_num_total]).toEqual([1, 1, pieces]);
    const msgs = await db(t.server)
      .selectFrom('sms_messages')
      .select(['phone', 'content', 'pieces'])
      .where('task_id', '=', tk.id)
      .orderBy('id')
      .execute();
    expect(msgs.map((m) => [m.phone, m.content, m.pieces])).toEqual(texts.map(([p, pc]) => [p, pc.text, pc.pieces]));
    // the dispatcher sends each row's own text
    const now = new Date(t.server.clock.now().getTime() + 1000);
    const claimed = await claimBatch(db(t.server), 'test', now, new Date(now.getTime() + 60_000), 10_000);
    const mine = claimed.filter((c) => c.task_id === tk.id);
    expect(mine.map((c) => c.content)).toEqual(texts.map(([, pc]) => pc.text));
    // the records show each row's own text
    const rec = await client1.post('/api/send/getrecords', { phone: '18600186000' });
    expect(rec.body.data.list.map((x: any) => x.content)).toContain(texts[1][1].text);
    expect(await poolViolations(t.server)).toEqual([]);
  });

  it('screens the variable rows of a file by carrier; the submit total follows', async () => {
    const r = await client1.post('/api/send/screenPhones', {
      type: 2,
      importFilePath: sendFile,
      operators: '1,3',
      variateNum: 3,
    });
    expect(r.body.code).toBe(0);
    expect(r.body.data).toMatchObject({ submitTotal: 2, mobileNum: 1, unicomNum: 0, telecomNum: 1 });
    const none = await client1.post('/api/send/screenPhones', {
      type: 2,
      importFilePath: r.body.data.sendFilePath,
      operators: '2',
    });
    expect(none.body.msg).toBe('已筛选号码数量不能为0，请重新筛选。');
    const manual = await client1.post('/api/send/screenPhones', {
      type: 1,
      phones: '13800138000,18600186000,18900189000',
      operators: '2',
    });
    expect(manual.body.data).toMatchObject({ submitTotal: 1, phones: '18600186000' });
  });

  it('charges money accounts each row’s pieces exactly (client0, operation_mode 0)', async () => {
    const tpl = await templateId(t.server, '亲爱的{name}');
    const file = await xlsx([
      ['13800138001', '王', '5', 'https://s.cn/a'],
      ['13800138002', 'Alexander-Maximilia', '100', 'https://s.cn/abcdef'],
    ]);
    const up = await upload(t.server, client0, '/api/send/uploadVariateFile', 'c0.xlsx', file);
    const parsed = await client0.post('/api/send/parsefileVariate', {
      importFilePath: up.data.importFilePath,
      templateId: tpl,
      sign: '瓯越鞋业',
    });
    expect(parsed.body.data.submitTotal).toBe(2);
    const before = await balance(t.server, 'client0');
    await later();
    const r = await client0.post('/api/send/sendingVariable', {
      templateId: tpl,
      sign: '瓯越鞋业',
      smstype: 5,
      fileType: 1,
      importFilePath: parsed.body.data.sendFilePath,
    });
    expect(r.body.code).toBe(0);
    const tk = await task(t.server, r.body.data.taskId);
    const msgs = await db(t.server)
      .selectFrom('sms_messages')
      .select(['price', 'pieces'])
      .where('task_id', '=', tk.id)
      .execute();
    const cost = msgs.reduce((s, m) => s.plus(new Money(m.price).times(m.pieces)), new Money(0));
    expect(msgs.map((m) => m.pieces).sort()).toEqual([1, 2]);
    expect(tk.amount).toBe(money2(ceilCent(cost)));
    expect(new Money(before).minus(await balance(t.server, 'client0')).toFixed(2)).toBe(tk.amount);
    expect(await ledgerViolations(t.server)).toEqual([]);
  });

  it('an agent sends a manual variable SMS for its sub-account; refusals carry the spec’s messages', async () => {
    const tpl = await templateId(t.server, '尊敬的{name}');
    await later();
    const ok = await agent1.post('/api/send/sendingVariable', {
      clientId: 'client1',
      templateId: tpl,
      sign: tplSign,
      smstype: 0,
      fileType: 0,
      content: '尊敬的王先生，您预约的体检将于明天开始，请提前15分钟到场。',
      mobile: '13800138000,18600186000',
    });
    expect(ok.body.code).toBe(0);
    expect(ok.body.data.submitTotal).toBe(2);
    expect(
      (
        await client1.post('/api/send/sendingVariable', {
          templateId: tpl,
          sign: tplSign,
          fileType: 0,
          content: 'x',
          mobile: '13800138000',
        })
      ).body.msg,
    ).toBe('短信类型不能为空');
    expect(
      (await client1.post('/api/send/sendingVariable', { templateId: tpl, sign: tplSign, smstype: 0, fileType: 1 }))
        .body.msg,
    ).toBe('请先上传号码');
    expect(
      (
        await client1.post('/api/send/sendingVariable', {
          templateId: tpl,
          sign: 'A',
          smstype: 0,
          fileType: 1,
          importFilePath: sendFile,
        })
      ).body.msg,
    ).toBe('签名长度为2-12之间');
    // only the account's approved signs (易购优选 was rejected)
    expect(
      (
        await client1.post('/api/send/sendingVariable', {
          templateId: tpl,
          sign: '易购优选',
          smstype: 0,
          fileType: 0,
          content: '尊敬的王先生，您预约的体检将于明天开始，请提前15分钟到场。',
          mobile: '13800138000',
        })
      ).body.msg,
    ).toBe('签名未报备或未审核通过');
    const empty = await upload(
      t.server,
      client1,
      '/api/send/uploadVariateFile',
      'empty.xlsx',
      await xlsx([['手机号码'], ['123']]),
    );
    const parsed = await client1.post('/api/send/parsefileVariate', {
      importFilePath: empty.data.importFilePath,
      templateId: tpl,
      sign: tplSign,
    });
    expect(parsed.body.msg).toBe('导入文件的有效号码个数为0');
    expect((await client1.post('/api/send/parsefileVariate', { templateId: tpl, sign: tplSign })).body.msg).toBe(
      '请上传变量文件',
    );
  });

  it('a timed variable send waits; without the credit check it is charged when it fires', async () => {
    const tpl = await templateId(t.server, '尊敬的{name}');
    await later();
    const at = shanghai(new Date(t.server.clock.now().getTime() + 10 * 60_000));
    const r = await client1.post(
      '/api/send/send_time_sms',
      {
        sendKind: 1,
        templateId: tpl,
        sign: tplSign,
        smstype: 0,
        fileType: 1,
        importFilePath: sendFile,
        sendtime: at,
        isCheckAvailableCredit: 0,
      },
      { json: true },
    );
    expect(r.body.code).toBe(0);
    const tk = await task(t.server, r.body.data.taskId);
    expect([tk.status, tk.charge_state, tk.charge_num_total]).toEqual([1, 0, 4]);
    const before = await remaining(t.server, 'client1');
    t.server.clock.advance(11 * 60_000);
    const { fireDueTimedTasks } = await import('../../server/modules/send/timer');
    await fireDueTimedTasks({ db: db(t.server), now: t.server.clock.now });
    const after = await task(t.server, tk.uid);
    expect([after.charge_state, after.charge_num_total]).toEqual([1, 4]);
    expect(before - (await remaining(t.server, 'client1'))).toBe(4);
    expect(await poolViolations(t.server)).toEqual([]);
  });
  it('is a plugin module with typed routes: bad parameters answer 400 参数错误 before the service, its service is published', async () => {
    expect(t.server.app.services.variableInternational).toBeDefined();
    expect((await client1.get(`/api/sms/gj/prices?search=${'x'.repeat(61)}`)).body).toMatchObject({
      code: 400,
      msg: '参数错误',
    });
    expect((await client1.post('/api/send/screenPhones', { type: 3, phones: '13800138000' })).body).toMatchObject({
      code: 400,
      msg: '参数错误',
    });
    expect(
      (await client1.post('/api/send/screenPhones', { type: 1, phones: '13800138000', variateNum: 'abc' })).body,
    ).toMatchObject({ code: 400, msg: '参数错误' });
    expect(
      (
        await client1.post(
          '/api/send/screenPhones',
          { type: '1', phones: '13800138000', operators: [1, '2', 3] },
          { json: true },
        )
      ).body,
    ).toMatchObject({
      code: 0,
      data: { submitTotal: 1 },
    });
    expect(
      (await client1.post('/api/send/parsefileVariate', { templateId: '2147483648', importFilePath: 'x' })).body,
    ).toMatchObject({ code: 400, msg: '参数错误' });
    expect(
      (await client1.post('/api/send/send_time_sms', { sendKind: 3, content: 'x' }, { json: true })).body,
    ).toMatchObject({ code: 400, msg: '参数错误' });
    // no sendKind: inferred (an international send here, without its time)
    expect((await client1.post('/api/send/send_time_sms', { content: 'x' }, { json: true })).body).toMatchObject({
      code: 400,
      msg: '发送时间格式不正确',
    });
    expect(
      (
        await client1.post(
          '/api/send/send_time_sms',
          { sendKind: 2, content: 'x', smstype: 0, mobilelist: US1, isCheckAvailableCredit: 2 },
          { json: true },
        )
      ).body,
    ).toMatchObject({ code: 400, msg: '参数错误' });
    const tpl = await client1.get('/api/send/downloadtemplateVariate');
    expect(tpl.raw.headers['content-disposition']).toContain(encodeURIComponent('变量短信模板.xlsx'));
  });
});

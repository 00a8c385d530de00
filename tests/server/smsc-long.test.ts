/**
 * Long messages on the carrier link (issue 25 "Long messages", docs/api-dispatch.md): how texts
 * are coded and split (`coding`, `long` link options), the parts' submits as the embedded simulator
 * and an SMSC we did not write (Perl Net::SMPP) receive them, the combined result of a request's
 * parts. No database (tests/server/dispatch-long.test.ts has the message states).
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { combineParts, createSmscLink } from '../../server/modules/smsc/client';
import { parseSmppUrl } from '../../server/modules/smsc/config';
import { encodeText, gsm7Septets, splitText } from '../../server/lib/smpp-pdu';
import { startSimulator, type RecentSubmit, type SimulatorSettings } from '../../server/modules/smsc/simulator';
import type { Receipt } from '../../server/modules/smsc/types';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

const FAST = 'reconnect_min_ms=30&reconnect_max_ms=200&receipt_batch_ms=5';

async function setup(query: string, sim: Partial<SimulatorSettings> = {}) {
  const s = await startSimulator({
    seed: 5,
    latencyMinMs: 0,
    latencyMaxMs: 5,
    moRatio: 0,
    delivered: 1,
    failed: 0,
    noReceipt: 0,
    ...sim,
  });
  open.push(s);
  const link = createSmscLink(parseSmppUrl(`${s.url}?ref_tlv=0x1401&${FAST}&${query}`));
  open.push(link);
  const receipts: Receipt[] = [];
  link.onReceipts(async (r) => void receipts.push(...r));
  await link.waitReady();
  return { sim: s, link, receipts };
}

const until = async (cond: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** the simulator's submits of one ref, in part order */
const partsOf = (recent: RecentSubmit[], ref: number) =>
  recent.filter((r) => r.ref === String(ref)).sort((a, b) => (a.part?.seq ?? 0) - (b.part?.seq ?? 0));

const CHINESE_150 = '尊敬的客户您好，您本月的账单已出，请及时查看并缴费。'.repeat(6).slice(0, 150);

describe('coding and splitting (pdu.ts splitText)', () => {
  it('UCS2: 70 characters in one SMS, else 67 a part', () => {
    expect(splitText('长'.repeat(70), 'ia5', 'udh').parts.map((p) => p.length / 2)).toEqual([70]);
    expect(splitText('长'.repeat(71), 'ia5', 'udh').parts.map((p) => p.length / 2)).toEqual([67, 4]);
    expect(splitText(CHINESE_150, 'ia5', 'udh').parts.map((p) => p.length / 2)).toEqual([67, 67, 16]);
    // payload: one part whatever the length
    expect(splitText(CHINESE_150, 'ia5', 'payload').parts).toHaveLength(1);
  });

  it('a surrogate pair is never split across parts', () => {
    // 66 BMP characters then emoji: unit 67 is a high surrogate, so part 1 ends before it
    const text = `${'长'.repeat(66)}${'😀'.repeat(10)}`;
    const { dataCoding, parts } = splitText(text, 'gsm7', 'sar');
    expect(dataCoding).toBe(8);
    expect(parts.map((p) => p.length / 2)).toEqual([66, 20]);
    const decoded = parts.map((p) => Buffer.from(p).swap16().toString('utf16le'));
    expect(decoded.join('')).toBe(text);
    for (const d of decoded)
      expect(d).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    // all emoji (2 units each): 33 a part, never 33.5
    const emoji = '😀'.repeat(40);
    expect(splitText(emoji, 'ia5', 'udh').parts.map((p) => p.length / 2)).toEqual([66, 14]);
  });

  it('coding gsm7: 160 septets in one SMS, else 153 a part; extension characters count 2 and are not split', () => {
    expect(encodeText('Hello @ home_1 {x}', 'gsm7').dataCoding).toBe(0);
    expect(splitText('a'.repeat(160), 'gsm7', 'udh').parts.map((p) => p.length)).toEqual([160]);
    expect(splitText('a'.repeat(161), 'gsm7', 'udh').parts.map((p) => p.length)).toEqual([153, 8]);
    expect(splitText('a'.repeat(459), 'gsm7', 'udh').parts.map((p) => p.length)).toEqual([153, 153, 153]);
    // '€' = 0x1B 0x65: at septet 153 the escape would end part 1, so it moves to part 2 with its character
    const parts = splitText(`${'a'.repeat(152)}€${'b'.repeat(10)}`, 'gsm7', 'udh').parts;
    expect(parts.map((p) => p.length)).toEqual([152, 12]);
    expect([...parts[1].subarray(0, 3)]).toEqual([0x1b, 0x65, 0x62]);
    expect(gsm7Septets('[]')).toEqual(Buffer.from([0x1b, 0x3c, 0x1b, 0x3e]));
    // not in GSM 03.38: UCS2
    expect(encodeText('Price 5¢', 'gsm7').dataCoding).toBe(8);
  });

  it('coding ia5 (default) and latin1: 140 octets in one SMS, else 134 a part; latin1 only for GSM texts', () => {
    expect(splitText('a'.repeat(140), 'ia5', 'udh').parts.map((p) => p.length)).toEqual([140]);
    expect(splitText('a'.repeat(300), 'ia5', 'udh').parts.map((p) => p.length)).toEqual([134, 134, 32]);
    expect(encodeText('Hello', 'ia5').dataCoding).toBe(1);
    // @ is in GSM 03.38 but not the same octet in IA5 as the library reads it: UCS2 (today's rule)
    expect(encodeText('a@b', 'ia5').dataCoding).toBe(8);
    expect(encodeText('Café @ 5€', 'latin1').dataCoding).toBe(8); // € is GSM (extension) but not Latin-1
    expect(encodeText('Café @ home', 'latin1')).toEqual({
      dataCoding: 3,
      octets: Buffer.from('Café @ home', 'latin1'),
    });
  });

  it('SMPP_URL long / coding options', () => {
    expect(parseSmppUrl('smpp://a:b@h')).toMatchObject({ long: 'udh', coding: 'ia5' });
    expect(parseSmppUrl('smpp://a:b@h?long=SAR&coding=gsm7')).toMatchObject({ long: 'sar', coding: 'gsm7' });
    expect(parseSmppUrl('smpp://a:b@h?long=payload&coding=latin1')).toMatchObject({
      long: 'payload',
      coding: 'latin1',
    });
    expect(() => parseSmppUrl('smpp://a:b@h?long=concat')).toThrow(/long must be udh, sar or payload/);
    expect(() => parseSmppUrl('smpp://a:b@h?coding=utf8')).toThrow(/coding must be gsm7, ia5 or latin1/);
  });

  it("a request's parts combine into one result", () => {
    const ok = (id: string) => ({ ref: 1, status: 'accepted' as const, msgId: id });
    expect(combineParts(1, [ok('a'), ok('b')])).toEqual({ ref: 1, status: 'accepted', msgId: 'a', parts: ['a', 'b'] });
    expect(combineParts(1, [ok('a'), { ref: 1, status: 'rejected', code: '0x00000045' }])).toEqual({
      ref: 1,
      status: 'rejected',
      code: '0x00000045',
    });
    expect(combineParts(1, [ok('a'), { ref: 1, status: 'unconfirmed', code: 'TIMEOUT' }])).toEqual({
      ref: 1,
      status: 'unconfirmed',
      code: 'TIMEOUT',
    });
    expect(combineParts(1, [ok('a'), { ref: 1, status: 'retry', code: '0x00000058', afterMs: 5 }])).toEqual({
      ref: 1,
      status: 'unconfirmed',
      code: 'PARTIAL',
    });
    const retry = { ref: 1, status: 'retry' as const, code: '0x00000058', afterMs: 5 };
    expect(combineParts(1, [retry, { ...retry, afterMs: 9 }])).toEqual({ ...retry, afterMs: 9 });
  });
});

describe('long messages against the simulator', () => {
  it('long=udh (default): one submit per part with an 8-bit reference UDH (esm_class 0x40), each with its own id and receipt', async () => {
    const { sim, link, receipts } = await setup('');
    const short = 'Your code is 1234.';
    const res = await link.submit([
      { ref: 300, to: '13912340000', from: '', text: CHINESE_150 },
      { ref: 301, to: '13912340001', from: '', text: short },
    ]);
    expect(res[0]).toMatchObject({ ref: 300, status: 'accepted' });
    const parts = (res[0] as { parts: string[] }).parts;
    expect(parts).toHaveLength(3);
    expect((res[0] as { msgId: string }).msgId).toBe(parts[0]);
    expect(res[1]).toEqual({ ref: 301, status: 'accepted', msgId: expect.any(String) });
    await until(() => receipts.length === 4);
    expect(new Set(receipts.map((r) => r.msgId))).toEqual(new Set([...parts, (res[1] as { msgId: string }).msgId]));
    const got = partsOf(sim.recent, 300);
    expect(got.map((r) => r.part)).toEqual([1, 2, 3].map((seq) => ({ ref: 300 & 0xff, total: 3, seq, via: 'udh' })));
    expect(got.every((r) => r.esmClass === 0x40 && r.dataCoding === 8 && !r.payload)).toBe(true);
    expect(got.map((r) => r.text).join('')).toBe(CHINESE_150);
    expect(got.map((r) => r.msgId)).toEqual(parts);
    // a short text: one plain submit
    const plain = partsOf(sim.recent, 301);
    expect(plain).toEqual([expect.objectContaining({ esmClass: 0, text: short })]);
    expect(plain[0].part).toBeUndefined();
    // the simulator counts the message once, its other parts apart: nothing sent twice
    expect(sim.counts()).toMatchObject({ accepted: 4, distinctRefs: 2, duplicates: [] });
    expect([...sim.partRefs.keys()].sort()).toEqual(['300/2', '300/3']);
  });

  it('long=sar: the three SAR TLVs, no UDH; coding=gsm7 counts 153 septets a part', async () => {
    const { sim, link } = await setup('long=sar&coding=gsm7');
    const text = `Dear customer, ${'your bill is ready. '.repeat(12)}`.slice(0, 200);
    const res = await link.submit([{ ref: 70_000, to: '13912340000', from: '', text }]);
    expect((res[0] as { parts: string[] }).parts).toHaveLength(2);
    const got = partsOf(sim.recent, 70_000);
    expect(got.map((r) => r.part)).toEqual([1, 2].map((seq) => ({ ref: 70_000 & 0xffff, total: 2, seq, via: 'sar' })));
    expect(got.every((r) => r.esmClass === 0 && r.dataCoding === 0)).toBe(true);
    expect(got.map((r) => r.text.length)).toEqual([153, 47]);
    expect(got.map((r) => r.text).join('')).toBe(text);
  });

  it("long=payload: today's one submit with message_payload; a carrier refusing message_payload refuses it, and takes udh / sar", async () => {
    const refusing = { refuseTlvs: [0x0424] };
    const p = await setup('long=payload', refusing);
    expect(await p.link.submit([{ ref: 1, to: '13912340000', from: '', text: CHINESE_150 }])).toEqual([
      { ref: 1, status: 'rejected', code: '0x000000C1' },
    ]);
    for (const mode of ['udh', 'sar']) {
      const { link, sim } = await setup(`long=${mode}`, refusing);
      const res = await link.submit([{ ref: 2, to: '13912340000', from: '', text: CHINESE_150 }]);
      expect(res[0]).toMatchObject({
        status: 'accepted',
        parts: [expect.any(String), expect.any(String), expect.any(String)],
      });
      expect(sim.counts().rejected).toBe(0);
    }
  });

  it('a part refused: the request is refused with its code; a throttled part is written again after the pause', async () => {
    const { link, sim } = await setup('throttle_ms=20', { maxPerSecond: 4 });
    // 2 messages of 3 parts in one second: 4 pass, the rest are throttled and written again in the next second
    const res = await link.submit([
      { ref: 10, to: '13912340000', from: '', text: CHINESE_150 },
      { ref: 11, to: '13912340001', from: '', text: CHINESE_150 },
    ]);
    expect(res.map((r) => r.status)).toEqual(['accepted', 'accepted']);
    expect(sim.counts().throttled).toBeGreaterThan(0);
    expect(sim.counts().duplicates).toEqual([]);
    sim.update({ maxPerSecond: 0, rejectRatio: 1, rejectCode: 0x45 });
    expect(await link.submit([{ ref: 12, to: '13912340000', from: '', text: CHINESE_150 }])).toEqual([
      { ref: 12, status: 'rejected', code: '0x00000045' },
    ]);
  });
});

/** Debian's libnet-smpp-perl (apt-get install libnet-smpp-perl) */
const perlSmpp = spawnSync('perl', ['-MNet::SMPP', '-e', '1']).status === 0;

describe('long messages against an SMSC we did not write (Perl Net::SMPP)', () => {
  it.skipIf(!perlSmpp).each(['udh', 'sar'] as const)(
    "long=%s: the parts as Net::SMPP reads them reassemble the text; each part's receipt is read [skipped without perl Net::SMPP]",
    async (mode) => {
      const child = spawn('perl', [path.join(__dirname, '../fixtures/smpp-smsc.pl')], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const lines: string[] = [];
      const rl = readline.createInterface({ input: child.stdout });
      rl.on('line', (l) => lines.push(l));
      const exited = new Promise((r) => child.once('exit', r));
      try {
        await until(() => lines.some((l) => l.startsWith('port ')));
        const port = Number(lines.find((l) => l.startsWith('port '))!.slice(5));
        // a configured SMSC: no ref TLV, the default coding (ia5)
        const link = createSmscLink(parseSmppUrl(`smpp://esme:pw@127.0.0.1:${port}?long=${mode}&${FAST}`));
        const receipts: Receipt[] = [];
        link.onReceipts(async (r) => void receipts.push(...r));
        await link.waitReady();
        const res = await link.submit([{ ref: 513, to: '13912340000', from: '106900011', text: CHINESE_150 }]);
        expect(res[0]).toEqual({ ref: 513, status: 'accepted', msgId: 'P1', parts: ['P1', 'P2', 'P3'] });
        await until(() => receipts.length === 3);
        expect(receipts.map((r) => r.msgId).sort()).toEqual(['P1', 'P2', 'P3']);
        expect(receipts.every((r) => r.delivered)).toBe(true);
        await link.close();
        await exited;
        const submits = lines
          .filter((l) => l.startsWith('submit '))
          .map((l) =>
            Object.fromEntries(
              l
                .split(' ')
                .slice(2)
                .map((kv) => kv.split('=')),
            ),
          );
        expect(submits).toHaveLength(3);
        let text = '';
        submits.forEach((s, i) => {
          expect(s.dc).toBe('8');
          expect(s.payload).toBe('0');
          let sm = Buffer.from(s.sm, 'hex');
          if (mode === 'udh') {
            expect(s.esm).toBe('64');
            // UDHL 5, IEI 0 (8-bit reference), IEDL 3, ref = 513 & 0xff, total 3, seq
            expect([...sm.subarray(0, 6)]).toEqual([5, 0, 3, 513 & 0xff, 3, i + 1]);
            sm = sm.subarray(6);
            expect(s.sar).toBe('-');
          } else {
            expect(s.esm).toBe('0');
            expect(s.sar).toBe(`513/3/${i + 1}`);
          }
          text += Buffer.from(sm).swap16().toString('utf16le');
        });
        expect(text).toBe(CHINESE_150);
      } finally {
        child.kill();
      }
    },
    30_000,
  );
});

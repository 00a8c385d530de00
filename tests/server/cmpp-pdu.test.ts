/**
 * The CMPP 2.0 / 3.0 codec (server/lib/cmpp-pdu.ts), no network: round trips of every packet in
 * both layouts, the authenticators against MD5s computed by hand (md5sum), Msg_Id layout, text
 * and long-message parts, and hostile input (every truncation of every packet, random bytes,
 * bad lengths): every failure is a CmppPduError, never an endless loop or a read past the end.
 */
import { describe, expect, it } from 'vitest';
import {
  CMD,
  CmppFrameSplitter,
  CmppPduError,
  type CmppVersion,
  commandName,
  connectRespLength,
  decodeCmppText,
  decodeConnect,
  decodeConnectResp,
  decodeDeliver,
  decodeDeliverResp,
  decodePacket,
  decodeReport,
  decodeSubmit,
  decodeSubmitResp,
  encodeActiveTest,
  encodeActiveTestResp,
  encodeCmppText,
  encodeConnect,
  encodeConnectResp,
  encodeDeliver,
  encodeDeliverResp,
  encodeReport,
  encodeSubmit,
  encodeSubmitResp,
  encodeTerminate,
  encodeTerminateResp,
  ismgAuthenticator,
  makeConnect,
  makeMsgId,
  MAX_PACKET,
  MsgIdSource,
  msgIdFromBuffer,
  msgIdParts,
  msgIdString,
  msgIdToBuffer,
  parseMsgId,
  parseReportTime,
  readHeader,
  reportTime,
  sourceAuthenticator,
  splitCmppText,
  splitUdh,
  SUBMIT_DEFAULTS,
  type CmppDeliver,
  type CmppSubmit,
} from '../../server/lib/cmpp-pdu';

const VERSIONS: CmppVersion[] = [2, 3];

const submit = (v: CmppVersion): CmppSubmit => ({
  ...SUBMIT_DEFAULTS,
  msgId: 0n,
  pkTotal: 2,
  pkNumber: 1,
  registeredDelivery: 1,
  msgLevel: 3,
  serviceId: 'MJS0019901',
  feeUserType: 2,
  feeTerminalId: v === 2 ? '13800138000' : '13800138000123456789012345678901',
  feeTerminalType: v === 3 ? 1 : 0,
  tpPid: 0,
  tpUdhi: 1,
  msgFmt: 8,
  msgSrc: '900001',
  feeType: '02',
  feeCode: '000010',
  validTime: '231231235959032+',
  atTime: '',
  srcId: '10690001001',
  destTerminalIds: ['13800138000', '13900139000'],
  destTerminalType: v === 3 ? 1 : 0,
  msgContent: Buffer.concat([Buffer.from([5, 0, 3, 7, 2, 1]), Buffer.from('你好', 'utf16le').swap16()]),
  linkId: v === 2 ? 'RES' : 'LINK0123456789012345',
});

const deliver = (v: CmppVersion, registeredDelivery = 0): CmppDeliver => ({
  msgId: 0x123456789abcdef0n,
  destId: '10690001001',
  serviceId: 'MJS0019901',
  tpPid: 0,
  tpUdhi: 0,
  msgFmt: 8,
  srcTerminalId: '13800138000',
  srcTerminalType: v === 3 ? 0 : 0,
  registeredDelivery,
  msgContent: Buffer.from('收到', 'utf16le').swap16(),
  linkId: v === 3 ? 'L1' : '',
});

const strip = <T extends object>(o: T) => {
  const {
    length: _l,
    commandId: _c,
    sequenceId: _s,
    ...rest
  } = o as T & { length: number; commandId: number; sequenceId: number };
  return rest;
};

/** every packet this codec writes, in one version */
function allPackets(v: CmppVersion): Buffer[] {
  const report = encodeReport(
    {
      msgId: 42n,
      stat: 'DELIVRD',
      submitTime: '2401011200',
      doneTime: '2401011201',
      destTerminalId: '13800138000',
      smscSequence: 7,
    },
    v,
  );
  return [
    encodeConnect(1, makeConnect('900001', 'secret', v, new Date(Date.UTC(2024, 0, 1, 4)))),
    encodeConnectResp(1, { status: 0, authenticatorIsmg: Buffer.alloc(16, 1), version: v === 2 ? 0x20 : 0x30 }, v),
    encodeSubmit(2, submit(v), v),
    encodeSubmitResp(2, { msgId: 99n, result: 0 }, v),
    encodeDeliver(3, deliver(v), v),
    encodeDeliver(4, { ...deliver(v, 1), msgFmt: 0, msgContent: report }, v),
    encodeDeliverResp(3, { msgId: 0x123456789abcdef0n, result: 9 }, v),
    encodeActiveTest(5),
    encodeActiveTestResp(5),
    encodeTerminate(6),
    encodeTerminateResp(6),
  ];
}

describe('CMPP codec: packets', () => {
  it('command ids and names', () => {
    expect(CMD.SUBMIT_RESP).toBe(0x80000004);
    expect(CMD.MT_ROUTE).toBe(0x10);
    expect(commandName(0x80000008)).toBe('ACTIVE_TEST_RESP');
    expect(commandName(0x00000009)).toBe('FWD');
    expect(commandName(0x12345)).toBeUndefined();
  });

  it('AuthenticatorSource / AuthenticatorISMG match MD5s computed with md5sum', () => {
    // printf '900001\0\0\0\0\0\0\0\0\0secret0101120000' | md5sum
    const src = sourceAuthenticator('900001', 'secret', 101120000);
    expect(src.toString('hex')).toBe('6d103426521d9624106b72911877fcb9');
    expect(sourceAuthenticator('900001', 'secret', '0101120000')).toEqual(src);
    // (printf '\0'; <src>; printf secret) | md5sum — Status 1 octet in 2.0, 4 in 3.0
    expect(ismgAuthenticator(0, src, 'secret', 2).toString('hex')).toBe('08118f2cfacb6b56fbabe4a4494b4015');
    expect(ismgAuthenticator(0, src, 'secret', 3).toString('hex')).toBe('df1f2de0c083531d0fa579f8891ba485');
    // 2024-01-01 04:00 UTC is 01-01 12:00:00 in Beijing
    const c = makeConnect('900001', 'secret', 2, new Date(Date.UTC(2024, 0, 1, 4)));
    expect(c.timestamp).toBe(101120000);
    expect(c.authenticatorSource).toEqual(src);
    expect(c.version).toBe(0x20);
  });

  for (const v of VERSIONS) {
    describe(`CMPP ${v}.0`, () => {
      it('CONNECT / CONNECT_RESP round trip', () => {
        const c = makeConnect('900001', 'secret', v);
        const b = encodeConnect(17, c);
        expect(b.length).toBe(39);
        expect(readHeader(b)).toEqual({ length: 39, commandId: CMD.CONNECT, sequenceId: 17 });
        expect(strip(decodeConnect(b))).toEqual(c);
        const r = {
          status: 3,
          authenticatorIsmg: ismgAuthenticator(3, c.authenticatorSource, 'x', v),
          version: v === 2 ? 0x20 : 0x30,
        };
        const rb = encodeConnectResp(17, r, v);
        expect(rb.length).toBe(connectRespLength(v));
        expect(rb.length).toBe(v === 2 ? 30 : 33);
        expect(strip(decodeConnectResp(rb))).toEqual({ ...r, layout: v });
      });

      it('SUBMIT / SUBMIT_RESP round trip', () => {
        const s = submit(v);
        const b = encodeSubmit(9, s, v);
        // fixed part + 2 numbers + 2 + 4 content octets + reserve / link id
        expect(b.length).toBe(v === 2 ? 12 + 117 + 42 + 1 + 10 + 8 : 12 + 129 + 64 + 1 + 1 + 10 + 20);
        expect(strip(decodeSubmit(b, v))).toEqual(s);
        const r = encodeSubmitResp(9, { msgId: 0xfedcba9876543210n, result: 8 }, v);
        expect(r.length).toBe(v === 2 ? 21 : 24);
        expect(strip(decodeSubmitResp(r))).toEqual({ msgId: 0xfedcba9876543210n, result: 8, layout: v });
      });

      it('DELIVER (uplink and status report) / DELIVER_RESP round trip', () => {
        const d = deliver(v);
        expect(strip(decodeDeliver(encodeDeliver(1, d, v), v))).toEqual(d);
        const rep = {
          msgId: makeMsgId({ month: 12, day: 31, hour: 23, minute: 59, second: 58, gateway: 123456, sequence: 65535 }),
          stat: 'UNDELIV',
          submitTime: '2412312359',
          doneTime: '2501010000',
          destTerminalId: '13800138000',
          smscSequence: 0xffffffff,
        };
        const content = encodeReport(rep, v);
        expect(content.length).toBe(v === 2 ? 60 : 71);
        const pkt = decodeDeliver(encodeDeliver(2, { ...d, registeredDelivery: 1, msgContent: content }, v), v);
        expect(decodeReport(pkt.msgContent, v)).toEqual(rep);
        const r = encodeDeliverResp(2, { msgId: rep.msgId, result: 0 }, v);
        expect(strip(decodeDeliverResp(r))).toEqual({ msgId: rep.msgId, result: 0, layout: v });
      });

      it('decodePacket reads every packet; every truncation and every extension throws CmppPduError', () => {
        for (const b of allPackets(v)) {
          expect(decodePacket(b, v).commandId).toBe(b.readUInt32BE(4));
          for (let n = 0; n < b.length; n++) {
            const cut = Buffer.from(b.subarray(0, n));
            if (n >= 4) cut.writeUInt32BE(n, 0); // a consistent Total_Length, the body short
            const header = b.readUInt32BE(4);
            if (
              (header === CMD.ACTIVE_TEST ||
                header === CMD.TERMINATE ||
                header === CMD.TERMINATE_RESP ||
                header === CMD.ACTIVE_TEST_RESP) &&
              n >= 12
            )
              continue;
            // a 3.0 response cut to the 2.0 layout's length is a whole 2.0 response (read by its length)
            if (
              v === 3 &&
              ((header === CMD.CONNECT_RESP && n === 30) ||
                ((header === CMD.SUBMIT_RESP || header === CMD.DELIVER_RESP) && n === 21))
            )
              continue;
            expect(() => decodePacket(cut, v), `${commandName(header)} cut to ${n}`).toThrow(CmppPduError);
          }
          // one octet too many
          const long = Buffer.concat([b, Buffer.from([0])]);
          long.writeUInt32BE(long.length, 0);
          const id = b.readUInt32BE(4);
          if (![CMD.ACTIVE_TEST, CMD.ACTIVE_TEST_RESP, CMD.TERMINATE, CMD.TERMINATE_RESP].includes(id as never))
            expect(() => decodePacket(long, v)).toThrow(CmppPduError);
          // Total_Length not the buffer's
          const lie = Buffer.from(b);
          lie.writeUInt32BE(b.length + 1, 0);
          expect(() => decodePacket(lie, v)).toThrow(CmppPduError);
        }
      });

      it('a status report shorter than its layout throws; the other layout is read by its length', () => {
        const rep = {
          msgId: 1n,
          stat: 'DELIVRD',
          submitTime: '2401011200',
          doneTime: '2401011200',
          destTerminalId: '1380013',
          smscSequence: 1,
        };
        const c = encodeReport(rep, v);
        for (let n = 0; n < c.length; n++)
          if (n !== 60) expect(() => decodeReport(c.subarray(0, n), v)).toThrow(CmppPduError);
        const other: CmppVersion = v === 2 ? 3 : 2;
        expect(decodeReport(encodeReport(rep, other), v)).toEqual(rep);
      });
    });
  }

  it('a DestUsr_tl of 0 or over 100, or one running past the packet, throws', () => {
    const b = encodeSubmit(1, submit(2), 2);
    const at = 12 + 116;
    for (const n of [0, 101, 255, 50]) {
      const x = Buffer.from(b);
      x[at] = n;
      expect(() => decodeSubmit(x, 2)).toThrow(CmppPduError);
    }
  });

  it('encoders refuse what does not fit', () => {
    expect(() => encodeSubmit(1, { ...submit(2), msgSrc: '1234567' }, 2)).toThrow(RangeError);
    expect(() => encodeSubmit(1, { ...submit(2), destTerminalIds: [] }, 2)).toThrow(RangeError);
    expect(() => encodeSubmit(1, { ...submit(2), msgContent: Buffer.alloc(256) }, 2)).toThrow(RangeError);
    expect(() => encodeSubmit(1, { ...submit(2), destTerminalIds: ['1'.repeat(22)] }, 2)).toThrow(RangeError);
    expect(encodeSubmit(1, { ...submit(3), destTerminalIds: ['1'.repeat(32)] }, 3).length).toBeGreaterThan(0);
  });
});

describe('CMPP codec: hostile streams', () => {
  it('the splitter cuts packets however the bytes arrive', () => {
    const stream = Buffer.concat([...allPackets(2), ...allPackets(2)]);
    for (const step of [1, 2, 3, 7, 13, 64, stream.length]) {
      const s = new CmppFrameSplitter();
      const out: Buffer[] = [];
      for (let o = 0; o < stream.length; o += step) out.push(...s.push(stream.subarray(o, o + step)));
      expect(Buffer.concat(out)).toEqual(stream);
      expect(out.length).toBe(allPackets(2).length * 2);
      expect(s.pending).toBe(0);
    }
  });

  it('a Total_Length below 12 or above the maximum throws at once (no wait for more)', () => {
    for (const len of [0, 1, 11, MAX_PACKET + 1, 0xffffffff]) {
      const s = new CmppFrameSplitter();
      const b = Buffer.alloc(4);
      b.writeUInt32BE(len >>> 0, 0);
      expect(() => s.push(b)).toThrow(CmppPduError);
      expect(() => s.push(Buffer.alloc(12))).toThrow(CmppPduError); // failed for good
    }
    const s = new CmppFrameSplitter(100);
    const big = Buffer.alloc(4);
    big.writeUInt32BE(101, 0);
    expect(() => s.push(big)).toThrow(/Total_Length 101/);
  });

  it('random bytes: every outcome is packets or CmppPduError, decoders too', () => {
    let seed = 12345;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) & 0xff;
    for (let round = 0; round < 3000; round++) {
      const n = rnd() % 200;
      const b = Buffer.alloc(n);
      for (let i = 0; i < n; i++) b[i] = rnd();
      if (n >= 12 && round % 2) {
        b.writeUInt32BE(n, 0);
        b.writeUInt32BE(
          [CMD.CONNECT, CMD.CONNECT_RESP, CMD.SUBMIT, CMD.SUBMIT_RESP, CMD.DELIVER, CMD.DELIVER_RESP][rnd() % 6],
          4,
        );
      }
      const s = new CmppFrameSplitter();
      try {
        for (const p of s.push(b)) for (const v of VERSIONS) decodePacket(p, v);
      } catch (e) {
        expect(e).toBeInstanceOf(CmppPduError);
      }
      for (const v of VERSIONS) {
        try {
          decodePacket(b, v);
        } catch (e) {
          expect(e).toBeInstanceOf(CmppPduError);
        }
        try {
          decodeReport(b, v);
        } catch (e) {
          expect(e).toBeInstanceOf(CmppPduError);
        }
      }
      try {
        splitUdh(b);
      } catch (e) {
        expect(e).toBeInstanceOf(CmppPduError);
      }
      decodeCmppText(b, [0, 8, 15, 4][round % 4]);
    }
  });
});

describe('CMPP codec: Msg_Id, times, text', () => {
  it('Msg_Id layout: month day hour minute second gateway sequence', () => {
    const p = { month: 15, day: 31, hour: 31, minute: 63, second: 63, gateway: 0x3fffff, sequence: 0xffff };
    const id = makeMsgId(p);
    expect(id).toBe(0xffffffffffffffffn);
    expect(msgIdParts(id)).toEqual(p);
    const q = { month: 1, day: 2, hour: 3, minute: 4, second: 5, gateway: 6, sequence: 7 };
    const id2 = makeMsgId(q);
    expect(id2).toBe((1n << 60n) | (2n << 55n) | (3n << 50n) | (4n << 44n) | (5n << 38n) | (6n << 16n) | 7n);
    expect(msgIdParts(id2)).toEqual(q);
    expect(msgIdFromBuffer(msgIdToBuffer(id2))).toBe(id2);
    expect(msgIdToBuffer(id2).length).toBe(8);
    expect(() => msgIdFromBuffer(Buffer.alloc(7))).toThrow(CmppPduError);
    expect(msgIdString(id)).toBe('18446744073709551615');
    expect(parseMsgId('18446744073709551615')).toBe(id);
    expect(parseMsgId('18446744073709551616')).toBeNull();
    expect(parseMsgId('12a')).toBeNull();
    const src = new MsgIdSource(1234);
    const a = src.next(new Date(Date.UTC(2024, 4, 6, 0, 1, 2)));
    const b = src.next(new Date(Date.UTC(2024, 4, 6, 0, 1, 2)));
    expect(msgIdParts(a)).toEqual({ month: 5, day: 6, hour: 8, minute: 1, second: 2, gateway: 1234, sequence: 1 });
    expect(b - a).toBe(1n);
  });

  it('report times', () => {
    const d = new Date(Date.UTC(2024, 11, 31, 16, 5));
    expect(reportTime(d)).toBe('2501010005');
    expect(parseReportTime('2501010005')).toEqual(d);
    expect(parseReportTime('2513010005')).toBeNull();
    expect(parseReportTime('25010100')).toBeNull();
  });

  it('ASCII, UCS2 (surrogate pairs), GB18030', () => {
    expect(encodeCmppText('Hello 123')).toEqual({ msgFmt: 0, octets: Buffer.from('Hello 123') });
    const u = encodeCmppText('验证码😀');
    expect(u.msgFmt).toBe(8);
    expect(u.octets.toString('hex')).toBe('9a8c8bc17801d83dde00');
    expect(decodeCmppText(u.octets, 8)).toBe('验证码😀');
    expect(decodeCmppText(Buffer.from('c4e3bac3', 'hex'), 15)).toBe('你好');
    expect(decodeCmppText(Buffer.from('abc'), 0)).toBe('abc');
  });

  it('long texts: 67 UCS2 characters or 134 octets a part after 05 00 03 ref total number', () => {
    expect(splitCmppText('短'.repeat(70), 1).contents).toHaveLength(1);
    const p = splitCmppText('长'.repeat(150), 0x1ff);
    expect(p.msgFmt).toBe(8);
    expect(p.contents.map((c) => c.length)).toEqual([140, 140, 6 + 32]);
    p.contents.forEach((c, i) => {
      expect([...c.subarray(0, 6)]).toEqual([5, 0, 3, 0xff, 3, i + 1]);
      const { concat, body } = splitUdh(c);
      expect(concat).toEqual({ ref: 0xff, total: 3, number: i + 1 });
      expect(decodeCmppText(body, 8)).toBe('长'.repeat(i < 2 ? 67 : 16));
    });
    const a = splitCmppText('x'.repeat(141), 5);
    expect(a.msgFmt).toBe(0);
    expect(a.contents.map((c) => c.length)).toEqual([140, 13]);
    expect(splitUdh(Buffer.from([6, 8, 4, 1, 2, 3, 1, 0x41]))).toEqual({
      concat: { ref: 0x102, total: 3, number: 1 },
      body: Buffer.from('A'),
    });
    expect(() => splitUdh(Buffer.from([9, 0, 3]))).toThrow(CmppPduError);
  });
});

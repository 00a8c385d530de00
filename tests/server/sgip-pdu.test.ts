/**
 * The SGIP 1.2 codec (server/lib/sgip-pdu.ts), no network: round trips of every packet it encodes,
 * the 12-octet sequence number and its text form, long-message parts, and hostile input (every
 * truncation of every packet, random bytes, bad lengths): every failure is an SgipPduError, never
 * an endless loop or a read past the end.
 */
import { describe, expect, it } from 'vitest';
import {
  BIND_LENGTH,
  CMD,
  commandName,
  decodeBind,
  decodeCheckUser,
  decodeCheckUserResp,
  decodeDeliver,
  decodePacket,
  decodeReport,
  decodeResp,
  decodeSgipText,
  decodeSubmit,
  decodeTrace,
  decodeTraceResp,
  decodeUserRpt,
  encodeBind,
  encodeBindResp,
  encodeCheckUser,
  encodeCheckUserResp,
  encodeDeliver,
  encodeDeliverResp,
  encodeReport,
  encodeReportResp,
  encodeSgipText,
  encodeSubmit,
  encodeSubmitResp,
  encodeTrace,
  encodeTraceResp,
  encodeUnbind,
  encodeUnbindResp,
  encodeUserRpt,
  HEADER_LENGTH,
  MAX_PACKET,
  parseSeq,
  readHeader,
  REPORT_LENGTH,
  RESP_LENGTH,
  SeqSource,
  seqString,
  SgipFrameSplitter,
  SgipPduError,
  splitSgipText,
  splitSgipUdh,
  SUBMIT_DEFAULTS,
  submitLength,
  MAX_TRACE_HOPS,
  TRACE_HOP_LENGTH,
  TRACE_LENGTH,
  traceNodeId,
  traceRespLength,
  traceTime,
  withCountryCode,
  withoutCountryCode,
  type SgipSeq,
  type SgipSubmit,
} from '../../server/lib/sgip-pdu';

const SEQ: SgipSeq = { node: 3000012345, time: 1205123456, number: 0xfffffffe };

const submit = (): SgipSubmit => ({
  ...SUBMIT_DEFAULTS,
  spNumber: '1065500012',
  userNumbers: ['8613000000001', '8613000000002'],
  corpId: '12345',
  serviceType: 'HELP',
  messageCoding: 8,
  messageContent: Buffer.from('6536', 'hex'),
});

/** every packet the codec writes, with its decoder */
const SAMPLES: [string, Buffer, (b: Buffer) => unknown][] = [
  ['BIND', encodeBind(SEQ, { loginType: 1, loginName: 'sp1', loginPassword: 'secret' }), decodeBind],
  ['BIND_RESP', encodeBindResp(SEQ, 1), (b) => decodeResp(b, CMD.BIND_RESP)],
  ['SUBMIT', encodeSubmit(SEQ, submit()), decodeSubmit],
  ['SUBMIT_RESP', encodeSubmitResp(SEQ, 0), (b) => decodeResp(b, CMD.SUBMIT_RESP)],
  [
    'DELIVER',
    encodeDeliver(SEQ, {
      userNumber: '8613000000001',
      spNumber: '106550001',
      tpPid: 0,
      tpUdhi: 0,
      messageCoding: 8,
      messageContent: Buffer.from('6536', 'hex'),
    }),
    decodeDeliver,
  ],
  ['DELIVER_RESP', encodeDeliverResp(SEQ, 0), (b) => decodeResp(b, CMD.DELIVER_RESP)],
  [
    'REPORT',
    encodeReport(SEQ, { submitSeq: SEQ, reportType: 0, userNumber: '8613000000001', state: 2, errorCode: 29 }),
    decodeReport,
  ],
  ['REPORT_RESP', encodeReportResp(SEQ, 0), (b) => decodeResp(b, CMD.REPORT_RESP)],
  ['USERRPT', encodeUserRpt(SEQ, { spNumber: '10655', userNumber: '8613000000001', userCondition: 1 }), decodeUserRpt],
  ['CHECKUSER', encodeCheckUser(SEQ, { userName: 'u', password: 'p', userNumber: '8613000000001' }), decodeCheckUser],
  ['CHECKUSER_RESP', encodeCheckUserResp(SEQ, 0, 1), decodeCheckUserResp],
  ['TRACE', encodeTrace(SEQ, { submitSeq: SEQ, userNumber: '8613000000001' }), decodeTrace],
  [
    'TRACE_RESP',
    encodeTraceResp(SEQ, [{ result: 0, nodeId: '300001', receiveTime: '261205120000', sendTime: '261205120100' }]),
    decodeTraceResp,
  ],
  [
    'TRACE_RESP',
    encodeTraceResp(SEQ, [
      { result: 0, nodeId: '300001', receiveTime: '261205120000', sendTime: '261205120100' },
      { result: 1, nodeId: '', receiveTime: '', sendTime: '' },
    ]),
    decodeTraceResp,
  ],
];

describe('SGIP 1.2 packets', () => {
  it('the header: length, command id, the three numbers of the sequence', () => {
    const b = encodeUnbind(SEQ);
    expect(b.toString('hex')).toBe('00000014' + '00000002' + 'b2d08e39' + '47d4b980' + 'fffffffe');
    expect(readHeader(b)).toEqual({ length: 20, commandId: CMD.UNBIND, seq: SEQ });
    expect(decodePacket(encodeUnbindResp(SEQ))).toMatchObject({ command: 'UNBIND_RESP', seq: SEQ });
    expect(commandName(0x80001000)).toBe('TRACE_RESP');
    expect(commandName(0x12)).toBeUndefined();
    expect(decodePacket(encodeUnbind(SEQ))).toMatchObject({ command: 'UNBIND' });
  });

  it('lengths as the protocol gives them', () => {
    expect(BIND_LENGTH).toBe(61);
    expect(RESP_LENGTH).toBe(29);
    expect(REPORT_LENGTH).toBe(64);
    expect(encodeSubmit(SEQ, submit()).length).toBe(submitLength(2, 2));
    expect(submitLength(1, 0)).toBe(
      20 + 21 + 21 + 1 + 21 + 5 + 10 + 1 + 6 + 6 + 1 + 1 + 1 + 16 + 16 + 1 + 1 + 1 + 1 + 1 + 4 + 8,
    );
  });

  it('round trips', () => {
    expect(decodeBind(SAMPLES[0][1])).toMatchObject({
      loginType: 1,
      loginName: 'sp1',
      loginPassword: 'secret',
      seq: SEQ,
    });
    expect(decodeSubmit(SAMPLES[2][1])).toMatchObject({ ...submit(), seq: SEQ });
    expect(decodeDeliver(SAMPLES[4][1])).toMatchObject({
      userNumber: '8613000000001',
      spNumber: '106550001',
      messageCoding: 8,
    });
    expect(decodeReport(SAMPLES[6][1])).toMatchObject({
      submitSeq: SEQ,
      reportType: 0,
      userNumber: '8613000000001',
      state: 2,
      errorCode: 29,
    });
    expect(decodeResp(SAMPLES[1][1], CMD.BIND_RESP).result).toBe(1);
    expect(decodeUserRpt(SAMPLES[8][1])).toMatchObject({ userCondition: 1 });
    expect(decodeCheckUserResp(SAMPLES[10][1])).toMatchObject({ result: 0, status: 1 });
    expect(decodeTraceResp(SAMPLES[12][1]).hops).toEqual([
      { result: 0, nodeId: '300001', receiveTime: '261205120000', sendTime: '261205120100' },
    ]);
    expect(decodeTrace(SAMPLES[11][1])).toMatchObject({ submitSeq: SEQ, userNumber: '8613000000001' });
    for (const [name, b] of SAMPLES) {
      const p = decodePacket(b);
      expect(p.command === 'OTHER' ? p.name : p.command).toBe(name);
    }
    // 100 numbers, and not 0 or 101
    const s = {
      ...submit(),
      userNumbers: Array.from({ length: 100 }, (_, i) => `86130000${String(i).padStart(5, '0')}`),
    };
    expect(decodeSubmit(encodeSubmit(SEQ, s)).userNumbers).toHaveLength(100);
    expect(() => encodeSubmit(SEQ, { ...s, userNumbers: [] })).toThrow(RangeError);
    expect(() => encodeSubmit(SEQ, { ...s, userNumbers: [...s.userNumbers, '1'] })).toThrow(RangeError);
    expect(() => encodeBind(SEQ, { loginType: 1, loginName: 'x'.repeat(17), loginPassword: '' })).toThrow(RangeError);
  });

  it('TRACE / TRACE_RESP: the layout of SGIP 1.2 (Count, then Result NodeId ReceiveTime SendTime Reserve per node)', () => {
    expect(TRACE_LENGTH).toBe(61);
    expect(TRACE_HOP_LENGTH).toBe(47);
    // one node: 68 octets, as go_sgip-style codecs write it (Count Result NodeId ReceiveTime SendTime Reserve)
    const one = SAMPLES[12][1];
    expect(one.length).toBe(68);
    expect(traceRespLength(1)).toBe(68);
    expect(one[20]).toBe(1);
    expect(one[21]).toBe(0);
    expect(one.toString('latin1', 22, 28)).toBe('300001');
    expect(one.toString('latin1', 28, 40)).toBe('261205120000');
    expect(one.toString('latin1', 44, 56)).toBe('261205120100');
    expect(one.subarray(60, 68)).toEqual(Buffer.alloc(8));
    // two nodes: the Reserve repeated with each
    const two = SAMPLES[13][1];
    expect(two.length).toBe(20 + 1 + 2 * 47);
    expect(two[20]).toBe(2);
    expect(two[21 + 47]).toBe(1);
    expect(decodeTraceResp(two).hops).toEqual([
      { result: 0, nodeId: '300001', receiveTime: '261205120000', sendTime: '261205120100' },
      { result: 1, nodeId: '', receiveTime: '', sendTime: '' },
    ]);
    // none: the Count alone
    expect(encodeTraceResp(SEQ, []).length).toBe(21);
    expect(decodeTraceResp(encodeTraceResp(SEQ, [])).hops).toEqual([]);
    // a Count beyond the packet, or more nodes than a packet holds
    const lying = Buffer.from(one);
    lying[20] = 2;
    expect(() => decodeTraceResp(lying)).toThrow(SgipPduError);
    const hop = { result: 0, nodeId: '', receiveTime: '', sendTime: '' };
    expect(encodeTraceResp(SEQ, Array(MAX_TRACE_HOPS).fill(hop)).length).toBeLessThanOrEqual(MAX_PACKET);
    expect(() => encodeTraceResp(SEQ, Array(MAX_TRACE_HOPS + 1).fill(hop))).toThrow(RangeError);
    expect(() => encodeTraceResp(SEQ, [{ ...hop, nodeId: '1234567' }])).toThrow(RangeError);
    // times: YYMMDDHHMMSS in Beijing time, '' for none; node ids: their last 6 digits
    expect(traceTime(new Date(Date.UTC(2026, 11, 31, 17, 5, 6)))).toBe('270101010506');
    expect(traceTime(null)).toBe('');
    expect(traceTime('not a time')).toBe('');
    expect(traceNodeId(3000012345)).toBe('012345');
    expect(traceNodeId(42)).toBe('42');
  });

  it('sequence numbers: text form, a source of them', () => {
    expect(seqString({ node: 3000012345, time: 105010203, number: 7 })).toBe('3000012345-105010203-7');
    expect(parseSeq('3000012345-0105010203-7')).toEqual({ node: 3000012345, time: 105010203, number: 7 });
    expect(parseSeq('1-2')).toBeNull();
    expect(parseSeq('4294967296-1-1')).toBeNull();
    const src = new SeqSource(42, 480, 0xfffffffe);
    const at = new Date(Date.UTC(2026, 11, 5, 4, 5, 6)); // 12:05:06 in Beijing
    expect(src.next(at)).toEqual({ node: 42, time: 1205120506, number: 0xffffffff });
    expect(src.next(at).number).toBe(1);
  });

  it('numbers with and without 86', () => {
    expect(withCountryCode('13000000001')).toBe('8613000000001');
    expect(withCountryCode('+8613000000001')).toBe('8613000000001');
    expect(withCountryCode('8613000000001')).toBe('8613000000001');
    expect(withoutCountryCode('8613000000001')).toBe('13000000001');
    expect(withoutCountryCode('13000000001')).toBe('13000000001');
  });

  it('text: coding 0 / 8 / 15, long texts in parts with the concatenation header', () => {
    expect(encodeSgipText('abc')).toEqual({ messageCoding: 0, octets: Buffer.from('abc') });
    expect(encodeSgipText('收').messageCoding).toBe(8);
    expect(decodeSgipText(Buffer.from('6536', 'hex'), 8)).toBe('收');
    expect(decodeSgipText(Buffer.from('cad5', 'hex'), 15)).toBe('收');
    const p = splitSgipText('长'.repeat(150), 9);
    expect(p.msgFmt).toBe(8);
    expect(p.contents).toHaveLength(3);
    expect(p.contents[0].subarray(0, 6).toString('hex')).toBe('050003090301');
    const u = splitSgipUdh(p.contents[2]);
    expect(u.concat).toEqual({ ref: 9, total: 3, number: 3 });
    expect(decodeSgipText(u.body, 8)).toBe('长'.repeat(16));
    expect(() => splitSgipUdh(Buffer.from([9, 1]))).toThrow(SgipPduError);
  });
});

describe('hostile input', () => {
  it('every truncation and extension of every packet is an SgipPduError', () => {
    for (const [name, b, decode] of SAMPLES) {
      for (let n = 0; n < b.length; n++) {
        const cut = Buffer.from(b.subarray(0, n));
        if (n >= 4) cut.writeUInt32BE(n, 0);
        expect(() => decode(cut), `${name} cut at ${n}`).toThrow(SgipPduError);
        expect(() => decodePacket(cut), `${name} cut at ${n}`).toThrow(SgipPduError);
      }
      const longer = Buffer.concat([b, Buffer.alloc(3)]);
      longer.writeUInt32BE(longer.length, 0);
      expect(() => decode(longer), `${name} + 3`).toThrow(SgipPduError);
    }
  });

  it('a UserCount of 0 or over 100, a MessageLength beyond the packet', () => {
    const b = encodeSubmit(SEQ, submit());
    const zero = Buffer.from(b);
    zero[HEADER_LENGTH + 42] = 0;
    expect(() => decodeSubmit(zero)).toThrow(/UserCount/);
    const big = Buffer.from(b);
    big.writeUInt32BE(0xffffffff, b.length - 8 - 2 - 4);
    expect(() => decodeSubmit(big)).toThrow(SgipPduError);
  });

  it('random bytes: decoded or an SgipPduError, never anything else', () => {
    let seed = 12345;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed / 0x7fffffff);
    for (let i = 0; i < 5000; i++) {
      const len = HEADER_LENGTH + Math.floor(rnd() * 200);
      const b = Buffer.alloc(len);
      for (let j = 0; j < len; j++) b[j] = Math.floor(rnd() * 256);
      b.writeUInt32BE(len, 0);
      const ids = Object.values(CMD);
      b.writeUInt32BE(rnd() < 0.8 ? ids[Math.floor(rnd() * ids.length)] : Math.floor(rnd() * 2 ** 32), 4);
      try {
        decodePacket(b);
      } catch (e) {
        expect(e).toBeInstanceOf(SgipPduError);
      }
    }
  });

  it('the splitter: whole packets from any chunking; a bad length fails the stream', () => {
    const all = Buffer.concat(SAMPLES.map((s) => s[1]));
    for (const size of [1, 7, 20, 64, all.length]) {
      const sp = new SgipFrameSplitter();
      const out: Buffer[] = [];
      for (let o = 0; o < all.length; o += size) out.push(...sp.push(all.subarray(o, o + size)));
      expect(out.map((b) => b.length)).toEqual(SAMPLES.map((s) => s[1].length));
      expect(sp.pending).toBe(0);
    }
    for (const len of [0, 19, MAX_PACKET + 1, 0xffffffff]) {
      const sp = new SgipFrameSplitter();
      const b = Buffer.alloc(8);
      b.writeUInt32BE(len, 0);
      expect(() => sp.push(b)).toThrow(SgipPduError);
      expect(() => sp.push(Buffer.alloc(1))).toThrow(SgipPduError);
    }
  });
});

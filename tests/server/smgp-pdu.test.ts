/**
 * The SMGP 3.0 codec (server/lib/smgp-pdu.ts), no network: round trips of every packet, TLVs, the
 * authenticators against an MD5 computed by hand, the 10-octet BCD MsgID, the 122-octet report
 * text, text parts, and hostile input (every truncation of every packet, random bytes, bad
 * lengths): every failure is an SmgpPduError, never an endless loop or a read past the end.
 */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  clientAuthenticator,
  CMD,
  commandName,
  decodeDeliver,
  decodeDeliverResp,
  decodeLogin,
  decodeLoginResp,
  decodePacket,
  decodeReport,
  decodeSmgpText,
  decodeSubmit,
  decodeSubmitResp,
  encodeActiveTest,
  encodeActiveTestResp,
  encodeDeliver,
  encodeDeliverResp,
  encodeExit,
  encodeExitResp,
  encodeLogin,
  encodeLoginResp,
  encodeReport,
  encodeSubmit,
  encodeSubmitResp,
  LOGIN_LENGTH,
  makeLogin,
  makeSmgpMsgId,
  MAX_PACKET,
  parseSmgpMsgId,
  REPORT_LENGTH,
  serverAuthenticator,
  SmgpFrameSplitter,
  SmgpMsgIdSource,
  smgpMsgIdParts,
  smgpMsgIdString,
  SmgpPduError,
  splitSmgpText,
  splitUdh,
  SUBMIT_DEFAULTS,
  TAG,
} from '../../server/lib/smgp-pdu';

const md5 = (b: Buffer) => crypto.createHash('md5').update(b).digest();

function submitPacket(over: Partial<Parameters<typeof encodeSubmit>[1]> = {}) {
  return encodeSubmit(7, {
    ...SUBMIT_DEFAULTS,
    serviceId: 'SVC01',
    srcTermId: '10690001123',
    destTermIds: ['13300000001', '13300000002'],
    msgContent: Buffer.from('hello'),
    msgSrc: '10690001',
    ...over,
  });
}

function deliverPacket() {
  return encodeDeliver(9, {
    msgId: makeSmgpMsgId({ gateway: 123456, month: 12, day: 5, hour: 20, minute: 10, sequence: 42 }),
    isReport: 0,
    msgFormat: 8,
    recvTime: '20261205201000',
    srcTermId: '13300000001',
    destTermId: '10690001123',
    msgContent: Buffer.from('收到', 'utf16le').swap16(),
    reserve: '',
    tpUdhi: 0,
    linkId: '',
  });
}

const ALL = () => [
  encodeLogin(1, makeLogin('100001', 'secret', 2)),
  encodeLoginResp(1, { status: 0, authenticatorServer: Buffer.alloc(16, 1), serverVersion: 0x30 }),
  submitPacket(),
  submitPacket({ tpUdhi: 1, pkTotal: 2, pkNumber: 1, linkId: 'L1' }),
  encodeSubmitResp(7, { msgId: Buffer.alloc(10, 0x12), status: 0 }),
  deliverPacket(),
  encodeDeliverResp(9, { msgId: Buffer.alloc(10, 0x34), status: 0 }),
  encodeActiveTest(3),
  encodeActiveTestResp(3),
  encodeExit(4),
  encodeExitResp(4),
];

describe('SMGP packets', () => {
  it('LOGIN and LOGIN_RESP round-trip; the authenticators are the MD5s of the spec', () => {
    const auth = clientAuthenticator('10690001', 'secret', 1205201000);
    expect(auth).toEqual(
      md5(Buffer.concat([Buffer.from('10690001'), Buffer.alloc(7), Buffer.from('secret'), Buffer.from('1205201000')])),
    );
    // a timestamp below 10 digits is zero-padded
    expect(clientAuthenticator('a', 's', 301000000)).toEqual(
      md5(Buffer.concat([Buffer.from('a'), Buffer.alloc(7), Buffer.from('s'), Buffer.from('0301000000')])),
    );
    const b = encodeLogin(5, {
      clientId: '10690001',
      authenticatorClient: auth,
      loginMode: 2,
      timestamp: 1205201000,
      clientVersion: 0x30,
    });
    expect(b.length).toBe(LOGIN_LENGTH);
    expect(b.length).toBe(42);
    const l = decodeLogin(b);
    expect(l).toMatchObject({
      requestId: CMD.LOGIN,
      sequenceId: 5,
      clientId: '10690001',
      loginMode: 2,
      timestamp: 1205201000,
      clientVersion: 0x30,
    });
    const st = Buffer.alloc(4);
    expect(serverAuthenticator(0, auth, 'secret')).toEqual(md5(Buffer.concat([st, auth, Buffer.from('secret')])));
    const r = decodeLoginResp(
      encodeLoginResp(5, { status: 21, authenticatorServer: Buffer.alloc(16), serverVersion: 0x30 }),
    );
    expect(r).toMatchObject({ status: 21, serverVersion: 0x30, length: 33 });
    const m = makeLogin('abc', 'pw', 1, new Date(Date.UTC(2026, 0, 2, 3, 4, 5)));
    expect(m.timestamp).toBe(102110405);
    expect(m.authenticatorClient).toEqual(clientAuthenticator('abc', 'pw', '0102110405'));
  });

  it('SUBMIT round-trips with its TLVs, up to 100 numbers', () => {
    const s = decodeSubmit(submitPacket({ tpUdhi: 1, pkTotal: 3, pkNumber: 2, linkId: 'LINK', needReport: 0 }));
    expect(s).toMatchObject({
      msgType: 6,
      needReport: 0,
      serviceId: 'SVC01',
      feeType: '00',
      srcTermId: '10690001123',
      destTermIds: ['13300000001', '13300000002'],
      tpUdhi: 1,
      pkTotal: 3,
      pkNumber: 2,
      msgSrc: '10690001',
      linkId: 'LINK',
    });
    expect(s.msgContent.toString()).toBe('hello');
    const dests = Array.from({ length: 100 }, (_, i) => `1330000${String(i).padStart(4, '0')}`);
    const big = submitPacket({ destTermIds: dests, msgContent: Buffer.alloc(140, 0x41) });
    expect(big.length).toBeLessThan(MAX_PACKET);
    expect(decodeSubmit(big).destTermIds).toEqual(dests);
    expect(() => submitPacket({ destTermIds: [...dests, '1'] })).toThrow(RangeError);
    expect(() => submitPacket({ destTermIds: [] })).toThrow(RangeError);
    // a TLV not known is kept and ignored; the TLV bytes are Tag(2) Length(2) Value
    const plain = submitPacket({ msgSrc: '' });
    const extra = Buffer.concat([plain, Buffer.from([0x00, 0x77, 0x00, 0x02, 0xaa, 0xbb])]);
    extra.writeUInt32BE(extra.length, 0);
    const d = decodeSubmit(extra);
    expect(d.tlvs!.get(0x77)).toEqual(Buffer.from([0xaa, 0xbb]));
    expect(d.tpUdhi).toBe(0);
    const withUdhi = submitPacket({ msgSrc: '', tpUdhi: 1 });
    expect(withUdhi.subarray(withUdhi.length - 5)).toEqual(Buffer.from([0x00, TAG.TP_udhi, 0x00, 0x01, 0x01]));
  });

  it('SUBMIT_RESP / DELIVER_RESP: 10-octet MsgID and a 4-octet Status', () => {
    const id = makeSmgpMsgId({ gateway: 1, month: 1, day: 2, hour: 3, minute: 4, sequence: 5 });
    const s = decodeSubmitResp(encodeSubmitResp(3, { msgId: id, status: 0 }));
    expect(s).toMatchObject({ length: 26, status: 0 });
    expect(s.msgId).toEqual(id);
    expect(decodeDeliverResp(encodeDeliverResp(4, { msgId: id, status: 10 })).status).toBe(10);
  });

  it('DELIVER round-trips (uplink and report)', () => {
    const d = decodeDeliver(deliverPacket());
    expect(d).toMatchObject({
      isReport: 0,
      msgFormat: 8,
      recvTime: '20261205201000',
      srcTermId: '13300000001',
      destTermId: '10690001123',
      tpUdhi: 0,
    });
    expect(decodeSmgpText(d.msgContent, 8)).toBe('收到');
    const id = makeSmgpMsgId({ gateway: 7, month: 12, day: 31, hour: 23, minute: 59, sequence: 999999 });
    const report = encodeReport({
      msgId: id,
      sub: '001',
      dlvrd: '001',
      submitDate: '2612052010',
      doneDate: '2612052011',
      stat: 'DELIVRD',
      err: '000',
      text: Buffer.from('hello'),
    });
    expect(report.length).toBe(REPORT_LENGTH);
    const r = decodeDeliver(
      encodeDeliver(1, {
        ...decodeDeliver(deliverPacket()),
        isReport: 1,
        msgFormat: 0,
        msgContent: report,
        tpUdhi: 0,
        linkId: '',
      }),
    );
    const rep = decodeReport(r.msgContent);
    expect(rep.msgId).toEqual(id);
    expect(rep).toMatchObject({
      sub: '001',
      dlvrd: '001',
      submitDate: '2612052010',
      doneDate: '2612052011',
      stat: 'DELIVRD',
      err: '000',
    });
    expect(report.toString('latin1', 13)).toBe(
      ' sub:001 dlvrd:001 Submit date:2612052010 done date:2612052011 stat:DELIVRD err:000 Text:hello\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0',
    );
    expect(() => decodeReport(Buffer.from('id:xx'))).toThrow(SmgpPduError);
  });

  it('MsgID: BCD of gateway, MMDDHHMM, sequence; the hex string form', () => {
    const id = makeSmgpMsgId({ gateway: 123456, month: 12, day: 5, hour: 20, minute: 10, sequence: 654321 });
    expect(smgpMsgIdString(id)).toBe('12345612052010654321');
    expect(smgpMsgIdParts(id)).toEqual({ gateway: 123456, month: 12, day: 5, hour: 20, minute: 10, sequence: 654321 });
    expect(parseSmgpMsgId('12345612052010654321')).toEqual(id);
    expect(parseSmgpMsgId('123')).toBeNull();
    expect(smgpMsgIdParts(Buffer.alloc(10, 0xff))).toBeNull();
    const src = new SmgpMsgIdSource(42);
    const a = src.next(new Date(Date.UTC(2026, 11, 5, 12, 0)));
    const b = src.next(new Date(Date.UTC(2026, 11, 5, 12, 0)));
    expect(smgpMsgIdString(a)).toBe('00004212052000000001');
    expect(smgpMsgIdString(b)).toBe('00004212052000000002');
  });

  it('text: one SMS or parts with the 05 00 03 header', () => {
    expect(splitSmgpText('hello', 1)).toEqual({ msgFormat: 0, contents: [Buffer.from('hello')] });
    const long = splitSmgpText('验'.repeat(150), 9);
    expect(long.msgFormat).toBe(8);
    expect(long.contents.length).toBe(3);
    expect(long.contents[0].subarray(0, 6)).toEqual(Buffer.from([5, 0, 3, 9, 3, 1]));
    const u = splitUdh(long.contents[2]);
    expect(u.concat).toEqual({ ref: 9, total: 3, number: 3 });
    expect(long.contents.map((c) => decodeSmgpText(splitUdh(c).body, 8)).join('')).toBe('验'.repeat(150));
  });

  it('decodePacket names every packet; other ids come back as OTHER', () => {
    expect(ALL().map((b) => decodePacket(b).command)).toEqual([
      'LOGIN',
      'LOGIN_RESP',
      'SUBMIT',
      'SUBMIT',
      'SUBMIT_RESP',
      'DELIVER',
      'DELIVER_RESP',
      'ACTIVE_TEST',
      'ACTIVE_TEST_RESP',
      'EXIT',
      'EXIT_RESP',
    ]);
    const q = encodeExit(1);
    q.writeUInt32BE(CMD.QUERY, 4);
    expect(decodePacket(q)).toMatchObject({ command: 'OTHER', name: 'QUERY' });
    expect(commandName(0x12345)).toBeUndefined();
  });
});

describe('SMGP hostile input', () => {
  it('every truncation of every packet throws SmgpPduError (or reads as a shorter valid packet)', () => {
    for (const p of ALL()) {
      for (let n = 0; n < p.length; n++) {
        const cut = Buffer.from(p.subarray(0, n));
        if (n >= 4) cut.writeUInt32BE(n, 0);
        try {
          decodePacket(cut);
        } catch (err) {
          expect(err).toBeInstanceOf(SmgpPduError);
        }
      }
    }
  });

  it('random bodies never throw anything but SmgpPduError', () => {
    for (let i = 0; i < 3000; i++) {
      const len = 12 + Math.floor(Math.random() * 300);
      const b = crypto.randomBytes(len);
      b.writeUInt32BE(len, 0);
      b.writeUInt32BE([1, 2, 3, 0x80000001, 0x80000002, 0x80000003, 4, 6][i % 8] >>> 0, 4);
      try {
        decodePacket(b);
      } catch (err) {
        expect(err).toBeInstanceOf(SmgpPduError);
      }
    }
  });

  it('the splitter cuts whole packets and refuses lengths out of bounds', () => {
    const sp = new SmgpFrameSplitter();
    const all = Buffer.concat(ALL());
    const out: Buffer[] = [];
    for (let o = 0; o < all.length; o += 7) out.push(...sp.push(all.subarray(o, o + 7)));
    expect(out.length).toBe(ALL().length);
    expect(sp.pending).toBe(0);
    const bad = Buffer.alloc(8);
    bad.writeUInt32BE(11, 0);
    expect(() => new SmgpFrameSplitter().push(bad)).toThrow(SmgpPduError);
    bad.writeUInt32BE(MAX_PACKET + 1, 0);
    const s2 = new SmgpFrameSplitter();
    expect(() => s2.push(bad)).toThrow(SmgpPduError);
    expect(() => s2.push(Buffer.alloc(1))).toThrow(SmgpPduError);
  });
});

/**
 * The customer doors under fuzzing (issue 35 item 1): every command id a door's protocol can carry
 * (0x00000000-0x000000FF and 0x80000000-0x800000FF, to 0x1FF / 0x800001FF on SMPP, whose ids
 * reach 0x113, and random ones), with an empty body and with
 * random bodies, before and after a bind, on every door (SMPP, SMPP over TLS, CMPP, SMGP, SGIP) and on the
 * SGIP carrier link's callback listener (where an SMG binds back). What must hold: the
 * process never ends (an uncaught error in the listener fails this file), a command the protocol
 * answers gets its answer (a response or generic_nack) and one without a response gets none of
 * its own, a PDU the library cannot read closes that connection only, and afterwards the door still
 * binds and accepts a message.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import smpp from 'smpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, useServer, type TestServer } from './harness';
import { prng } from '../../server/lib/prng';
import { TEST_TLS_CERT, TEST_TLS_KEY } from '../fixtures/smpp-tls';
import { CMD, encodeConnect, makeConnect } from '../../server/lib/cmpp-pdu';
import { CMD as SMGP_CMD, encodeLogin, makeLogin } from '../../server/lib/smgp-pdu';
import {
  CMD as SGIP,
  decodePacket as decodeSgip,
  encodeBind as encodeSgipBind,
  encodeReport as encodeSgipReport,
} from '../../server/lib/sgip-pdu';
import { createSgipLink, type SgipLinkHandle } from '../../server/modules/smsc/sgip-client';
import { parseSmppUrl } from '../../server/modules/smsc/config';

const tlsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'door-fuzz-'));
fs.writeFileSync(path.join(tlsDir, 'key.pem'), TEST_TLS_KEY);
fs.writeFileSync(path.join(tlsDir, 'cert.pem'), TEST_TLS_CERT);

const DEMO_INTERFACE_PASSWORD = 'Demo2468';

/** What the fuzzer needs of a door's protocol: framing, a bind, a probe that is always answered. */
interface Door {
  name: string;
  port(server: TestServer): number;
  tls: boolean;
  /** a PDU of `commandId` with `body`, sequence `seq` */
  frame(commandId: number, seq: number, body: Buffer): Buffer;
  /** the sequence number and command id of a received frame */
  read(frame: Buffer): { seq: number; commandId: number; status: number };
  bind(seq: number): Buffer;
  /** a command answered in every state (SMPP enquire_link) */
  probe(seq: number): Buffer;
  /** the ids to try with an empty body (every id the protocol defines and its neighbourhood) */
  ids: number[];
  /** whether an id is never answered (a response; CMPP: any command the door does not serve), and whether an id ends the session (before or after the bind) */
  isResponse(id: number): boolean;
  closes(id: number, bound: boolean): boolean;
}

const cstr = (s: string) => Buffer.concat([Buffer.from(s, 'latin1'), Buffer.alloc(1)]);

function smppFrame(commandId: number, seq: number, body: Buffer): Buffer {
  const h = Buffer.alloc(16);
  h.writeUInt32BE(16 + body.length, 0);
  h.writeUInt32BE(commandId >>> 0, 4);
  h.writeUInt32BE(0, 8);
  h.writeUInt32BE(seq >>> 0, 12);
  return Buffer.concat([h, body]);
}

/** the command ids SMPP 3.4 / 5.0 define (the library's table): an id not there is answered generic_nack whatever its high bit */
const SMPP_DEFINED = (smpp as unknown as { commandsById: Record<number, unknown> }).commandsById;

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

function smppDoor(name: string, tlsDoor: boolean): Door {
  return {
    name,
    tls: tlsDoor,
    port: (server) => (tlsDoor ? server.app.services.smppServer!.tlsPort : server.app.services.smppServer!.port),
    frame: smppFrame,
    read: (f) => ({ commandId: f.readUInt32BE(4), status: f.readUInt32BE(8), seq: f.readUInt32BE(12) }),
    // bind_transceiver: system_id, password, system_type, interface_version, addr_ton, addr_npi, address_range
    bind: (seq) =>
      smppFrame(
        0x09,
        seq,
        Buffer.concat([cstr('client1'), cstr(DEMO_INTERFACE_PASSWORD), cstr(''), Buffer.from([0x34, 0, 0]), cstr('')]),
      ),
    probe: (seq) => smppFrame(0x15, seq, Buffer.alloc(0)),
    ids: [...range(0x00000000, 0x000001ff), ...range(0x80000000, 0x800001ff)],
    isResponse: (id) => (id & 0x80000000) !== 0 && !!SMPP_DEFINED[id],
    // unbind ends the session after its answer
    closes: (id) => id === 0x06,
  };
}

function cmppFrame(commandId: number, seq: number, body: Buffer): Buffer {
  const h = Buffer.alloc(12);
  h.writeUInt32BE(12 + body.length, 0);
  h.writeUInt32BE(commandId >>> 0, 4);
  h.writeUInt32BE(seq >>> 0, 8);
  return Buffer.concat([h, body]);
}

/** the requests the CMPP door answers after CMPP_CONNECT (docs/api-cmpp.md "Commands"): CONNECT (status 5), TERMINATE, SUBMIT, ACTIVE_TEST */
const CMPP_ANSWERED = new Set<number>([CMD.CONNECT, CMD.TERMINATE, CMD.SUBMIT, CMD.ACTIVE_TEST]);

const cmppDoor: Door = {
  name: 'CMPP',
  tls: false,
  port: (server) => server.app.services.cmppServer!.port,
  frame: cmppFrame,
  // the CONNECT_RESP status (3.0 layout: 4 octets); other frames' status is not looked at
  read: (f) => ({
    commandId: f.readUInt32BE(4),
    seq: f.readUInt32BE(8),
    status: f.length >= 16 ? f.readUInt32BE(12) : -1,
  }),
  bind: (seq) => encodeConnect(seq, makeConnect('cli001', DEMO_INTERFACE_PASSWORD, 3)),
  probe: (seq) => cmppFrame(CMD.ACTIVE_TEST, seq, Buffer.alloc(0)),
  ids: [...range(0x00000000, 0x000000ff), ...range(0x80000000, 0x800000ff)],
  // never answered: responses, and every command the door does not serve (no generic error in CMPP)
  isResponse: (id) => !CMPP_ANSWERED.has(id),
  // before CMPP_CONNECT every packet closes the connection (a CONNECT that cannot be read or is refused too); after it TERMINATE
  closes: (id, bound) => !bound || id === CMD.TERMINATE,
};

/** the requests the SMGP door answers after SMGP_LOGIN (docs/api-smgp.md "Commands"): LOGIN (status 10), EXIT, SUBMIT, ACTIVE_TEST */
const SMGP_ANSWERED = new Set<number>([SMGP_CMD.LOGIN, SMGP_CMD.EXIT, SMGP_CMD.SUBMIT, SMGP_CMD.ACTIVE_TEST]);

const smgpDoor: Door = {
  name: 'SMGP',
  tls: false,
  port: (server) => server.app.services.smgpServer!.port,
  // the same 12-octet header as CMPP's
  frame: cmppFrame,
  read: (f) => ({
    commandId: f.readUInt32BE(4),
    seq: f.readUInt32BE(8),
    status: f.length >= 16 ? f.readUInt32BE(12) : -1,
  }),
  bind: (seq) => encodeLogin(seq, makeLogin('cli001', DEMO_INTERFACE_PASSWORD, 2)),
  probe: (seq) => cmppFrame(SMGP_CMD.ACTIVE_TEST, seq, Buffer.alloc(0)),
  ids: [...range(0x00000000, 0x000000ff), ...range(0x80000000, 0x800000ff)],
  isResponse: (id) => !SMGP_ANSWERED.has(id),
  // before SMGP_LOGIN every packet closes the connection; after it SMGP_EXIT
  closes: (id, bound) => !bound || id === SMGP_CMD.EXIT,
};

function sgipFrame(commandId: number, seq: number, body: Buffer): Buffer {
  const h = Buffer.alloc(20);
  h.writeUInt32BE(20 + body.length, 0);
  h.writeUInt32BE(commandId >>> 0, 4);
  h.writeUInt32BE(3000000001, 8);
  h.writeUInt32BE(1205000000, 12);
  h.writeUInt32BE(seq >>> 0, 16);
  return Buffer.concat([h, body]);
}
const SGIP_IDS = [...range(0x00000000, 0x000000ff), ...range(0x80000000, 0x800000ff), 0x00001000, 0x80001000];
const sgipSeq = (seq: number) => ({ node: 3000000001, time: 1205000000, number: seq });
const sgipRead = (f: Buffer) => ({
  commandId: f.readUInt32BE(4),
  seq: f.readUInt32BE(16),
  status: f.length >= 21 ? f[20] : -1,
});

/** the requests the SGIP door answers after SGIP_BIND (docs/api-sgip.md "Commands"): BIND (result 2), UNBIND, SUBMIT, TRACE (an unreadable one too), and the SMG's commands (result 30) */
const SGIP_ANSWERED = new Set<number>([
  SGIP.BIND,
  SGIP.UNBIND,
  SGIP.SUBMIT,
  SGIP.TRACE,
  SGIP.DELIVER,
  SGIP.REPORT,
  SGIP.USERRPT,
  SGIP.ADDSP,
  SGIP.MODIFYSP,
  SGIP.DELETESP,
  SGIP.ADDTELESEG,
  SGIP.MODIFYTELESEG,
  SGIP.DELETETELESEG,
  SGIP.ADDSMG,
  SGIP.MODIFYSMG,
  SGIP.DELETESMG,
]);

const sgipDoor: Door = {
  name: 'SGIP',
  tls: false,
  port: (server) => server.app.services.sgipServer!.port,
  frame: sgipFrame,
  read: sgipRead,
  bind: (seq) =>
    encodeSgipBind(sgipSeq(seq), { loginType: 1, loginName: 'cli001', loginPassword: DEMO_INTERFACE_PASSWORD }),
  // SGIP has no keep-alive: a second SGIP_BIND is answered (result 2) on a bound session
  probe: (seq) =>
    encodeSgipBind(sgipSeq(seq), { loginType: 1, loginName: 'cli001', loginPassword: DEMO_INTERFACE_PASSWORD }),
  ids: SGIP_IDS,
  isResponse: (id) => !SGIP_ANSWERED.has(id),
  // before SGIP_BIND every packet closes the connection; after it UNBIND
  closes: (id, bound) => !bound || id === SGIP.UNBIND,
};

/** the SGIP carrier link's callback listener (sgip-client.ts): the SMG binds back to it */
let sgipLink: SgipLinkHandle | null = null;
let sgipLinkPort = 0;
const sgipEmptyUnreadable = (id: number) => {
  try {
    decodeSgip(sgipFrame(id, 1, Buffer.alloc(0)));
    return false;
  } catch {
    return true;
  }
};
const sgipCallbackDoor: Door = {
  name: 'SGIP link callback listener',
  tls: false,
  port: () => sgipLinkPort,
  frame: sgipFrame,
  read: sgipRead,
  bind: (seq) => encodeSgipBind(sgipSeq(seq), { loginType: 2, loginName: 'smg', loginPassword: 'cbpw' }),
  // a status report: answered (after its handler) on a bound connection
  probe: (seq) =>
    encodeSgipReport(sgipSeq(seq), {
      submitSeq: sgipSeq(seq),
      reportType: 0,
      userNumber: '8613000000001',
      state: 0,
      errorCode: 0,
    }),
  ids: SGIP_IDS,
  // answered: REPORT, DELIVER, USERRPT, TRACE (and UNBIND, which closes); nothing else
  isResponse: (id) =>
    id !== SGIP.REPORT && id !== SGIP.DELIVER && id !== SGIP.USERRPT && id !== SGIP.TRACE && id !== SGIP.UNBIND,
  // before the bind every packet closes; after it UNBIND and UNBIND_RESP (the SMG's goodbye), and a packet it cannot read (the empty body of a command with fields)
  closes: (id, bound) => !bound || id === SGIP.UNBIND || id === SGIP.UNBIND_RESP || sgipEmptyUnreadable(id),
};

beforeAll(async () => {
  sgipLink = createSgipLink(
    parseSmppUrl(
      'sgip://sp1:x@127.0.0.1:1?callback_port=0&callback_host=127.0.0.1&callback_user=smg&callback_password=cbpw&reconnect_min_ms=1000&receipt_batch_ms=0',
    ),
  );
  sgipLink.onReceipts(async () => {});
  sgipLink.onMo(async () => {});
  sgipLinkPort = (await sgipLink.callbackListening())!;
});
afterAll(async () => {
  await sgipLink?.close();
});

const DOORS = [
  smppDoor('SMPP', false),
  smppDoor('SMPP over TLS', true),
  cmppDoor,
  smgpDoor,
  sgipDoor,
  sgipCallbackDoor,
];

/** A raw connection that splits what it receives into frames (4-octet length first). */
class Conn {
  readonly frames: Buffer[] = [];
  closed = false;
  private buf = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  private constructor(readonly sock: net.Socket) {
    // a command and its probe go out at once: with Nagle's algorithm the probe would wait for the
    // door's delayed ACK of a command it does not answer (about 40 ms each)
    sock.setNoDelay(true);
    sock.on('data', (d: Buffer) => {
      this.buf = Buffer.concat([this.buf, d]);
      while (this.buf.length >= 4) {
        const len = this.buf.readUInt32BE(0);
        if (len < 4 || this.buf.length < len) break;
        this.frames.push(this.buf.subarray(0, len));
        this.buf = this.buf.subarray(len);
      }
      this.wake();
    });
    sock.on('error', () => {});
    sock.on('close', () => {
      this.closed = true;
      this.wake();
    });
  }
  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }
  static open(door: Door, port: number): Promise<Conn> {
    return new Promise((resolve, reject) => {
      const sock = door.tls
        ? tls.connect({ port, host: '127.0.0.1', rejectUnauthorized: false })
        : net.connect(port, '127.0.0.1');
      sock.once(door.tls ? 'secureConnect' : 'connect', () => resolve(new Conn(sock)));
      sock.once('error', reject);
    });
  }
  write(b: Buffer) {
    if (!this.closed) this.sock.write(b);
  }
  /** the frame answering `seq`, or null once the connection closed or `ms` passed */
  async answer(door: Door, seq: number, ms = 5000): Promise<Buffer | null> {
    const end = Date.now() + ms;
    for (;;) {
      const i = this.frames.findIndex((f) => door.read(f).seq === seq);
      if (i >= 0) return this.frames.splice(i, 1)[0];
      if (this.closed || Date.now() > end) return null;
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 50);
      });
    }
  }
  close() {
    this.sock.destroy();
  }
}

describe.each(backends)('every door under fuzzing (%s)', (backend) => {
  const t = useServer(backend, {
    config: {
      smppServerPort: -1,
      smppServerHost: '127.0.0.1',
      smppServerTlsPort: -1,
      smppServerTlsCert: path.join(tlsDir, 'cert.pem'),
      smppServerTlsKey: path.join(tlsDir, 'key.pem'),
      cmppServerPort: -1,
      cmppServerHost: '127.0.0.1',
      smgpServerPort: -1,
      smgpServerHost: '127.0.0.1',
      sgipServerPort: -1,
      sgipServerHost: '127.0.0.1',
    },
  });

  /** lifts the per-address connection limits for the fuzzer's many connections */
  const unlimited = () => {
    t.server.app.services.smppServer!.opts.maxConnectAttempts = 1_000_000;
    t.server.app.services.cmppServer!.opts.maxConnectAttempts = 1_000_000;
    t.server.app.services.smgpServer!.opts.maxConnectAttempts = 1_000_000;
    t.server.app.services.sgipServer!.opts.maxConnectAttempts = 1_000_000;
  };

  async function session(door: Door, bound: boolean): Promise<Conn> {
    const c = await Conn.open(door, door.port(t.server));
    if (bound) {
      c.write(door.bind(1));
      const r = await c.answer(door, 1);
      expect(r && door.read(r).status).toBe(0);
    }
    return c;
  }

  /** sends each id (empty body, or `body(id)`) followed by a probe; checks the answers; reconnects after a close */
  async function sweep(door: Door, bound: boolean, items: { id: number; body: Buffer }[]) {
    let c = await session(door, bound);
    let seq = 100;
    let closes = 0;
    try {
      for (const { id, body } of items) {
        const s = ++seq;
        const probe = ++seq;
        c.write(door.frame(id, s, body));
        c.write(door.probe(probe));
        const p = await c.answer(door, probe);
        if (door.closes(id, bound)) {
          // a command that ends the session (its answer may come first): the next ones on a new connection
          await c.answer(door, -1, 2000);
          expect(c.closed, `${door.name}: 0x${id.toString(16)} did not end the session`).toBe(true);
          c = await session(door, bound);
          continue;
        }
        if (p === null) {
          // the connection closed: only a command that ends the session or a PDU the library cannot read may do that
          expect(c.closed, `${door.name} 0x${id.toString(16)}: neither closed nor answered the probe`).toBe(true);
          if (!body.length && !door.closes(id, bound))
            throw new Error(
              `${door.name}${bound ? ' bound' : ''}: empty 0x${id.toString(16)} closed the connection (${c.frames.map((f) => f.toString('hex')).join(' ')})`,
            );
          closes++;
          c = await session(door, bound);
          continue;
        }
        if (!body.length) {
          // empty bodies: a response is never answered (ignored at once, so before the probe's answer);
          // every other id is, with its response or generic_nack (a bind's answer may follow the probe's)
          if (door.isResponse(id))
            expect(
              c.frames.some((f) => door.read(f).seq === s),
              `${door.name}: response 0x${id.toString(16)} was answered`,
            ).toBe(false);
          else expect(await c.answer(door, s), `${door.name}: 0x${id.toString(16)} got no answer`).not.toBeNull();
        }
        c.frames.length = 0;
      }
    } finally {
      c.close();
    }
    return closes;
  }

  /** the door still binds and a submit is accepted after the fuzzing */
  async function stillServes(door: Door) {
    const c = await session(door, true);
    c.write(door.probe(7));
    expect(await c.answer(door, 7)).not.toBeNull();
    c.close();
  }

  for (const door of DOORS) {
    it(`${door.name}: every command id with an empty body, before a bind and after it`, async () => {
      unlimited();
      const items = door.ids.map((id) => ({ id, body: Buffer.alloc(0) }));
      for (const bound of [false, true]) await sweep(door, bound, items);
      await stillServes(door);
    });

    it(`${door.name}: random ids and random bodies, before a bind and after it`, async () => {
      unlimited();
      const rnd = prng(35 + door.name.length);
      const defined = door.ids;
      const items = Array.from({ length: 300 }, () => {
        const id = rnd() < 0.7 ? defined[Math.floor(rnd() * defined.length)] : Math.floor(rnd() * 0x100000000);
        const body = Buffer.from(Array.from({ length: Math.floor(rnd() * 120) }, () => Math.floor(rnd() * 256)));
        return { id, body };
      });
      for (const bound of [false, true]) await sweep(door, bound, items);
      await stillServes(door);
    });
  }
});

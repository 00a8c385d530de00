/**
 * The carrier link over China Telecom's SMGP 3.0 (smgp:// URLs; the codec is
 * server/lib/smgp-pdu.ts). The same contract and rules as the SMPP and CMPP links (client.ts,
 * cmpp-client.ts; docs/api-dispatch.md "SMGP link"), over the same machinery (link-core.ts); this
 * file is only what is SMGP's own — SMGP_LOGIN, writing an SMGP_SUBMIT and reading its answer,
 * SMGP_ACTIVE_TEST, SMGP_EXIT, SMGP_DELIVER → Receipt / MoMessage and SMGP_DELIVER_RESP:
 * - `connections` TCP connections, each SMGP_LOGIN in transmit mode (2) with AuthenticatorClient
 *   (ClientID, secret, Beijing-time timestamp), at most `window` SMGP_SUBMIT unanswered each,
 *   SMGP_ACTIVE_TEST every `enquireLinkMs` (unanswered → the connection is dropped), reconnect with
 *   exponential back-off (a refused LOGIN starts high). A PacketLength out of bounds or a packet
 *   that cannot be read closes the connection.
 * - A submit: SrcTermID = src + what the request's `from` carries beyond the platform's prefix,
 *   ServiceID = service_id, NeedReport 1, MsgType 6, one DestTermID, the MsgSrc TLV = sp_id. A
 *   text over one SMS goes as parts with the TP_udhi / PkTotal / PkNumber TLVs and the
 *   `05 00 03 ref total number` header; the request's result combines the parts' (accepted with
 *   `parts` = every part's MsgID).
 * - SMGP_SUBMIT_RESP Status 0 → accepted (msgId = the MsgID's 20 hex digits); 1 (system busy:
 *   SMGW flow control) → 'retry' with the connection paused; anything else → 'rejected' with code
 *   `SMGP:<status>`. No answer when the connection drops or after submitTimeoutMs → 'unconfirmed'.
 * - SMGP_DELIVER: IsReport 1 → a receipt (the report text's id, stat, done date, SrcTermID as the
 *   phone), matched by MsgID; 0 → an uplink (DestTermID = src + extension is given back as prefix +
 *   extension); answered with SMGP_DELIVER_RESP only after the handler resolved: Status 0, or 1
 *   when the handler failed so the gateway delivers again.
 */
import net from 'node:net';
import { ENV_DEFAULTS } from '../../env';
import type { MoMessage, Receipt, SubmitRequest } from './types';
import { describeSmsc, type SmgpSettings, type SmscConfig } from './config';
import { LinkConn, LinkCore, silentLog, type Delivery, type LinkLog, type LinkWords, type Pending as CorePending, type SmscLinkHandle } from './link-core';
import {
  decodePacket,
  decodeReport,
  decodeSmgpText,
  encodeActiveTest,
  encodeActiveTestResp,
  encodeDeliverResp,
  encodeExit,
  encodeExitResp,
  encodeLogin,
  encodeSubmit,
  LOGIN_MODE,
  makeLogin,
  parseReportTime,
  serverAuthenticator,
  SmgpFrameSplitter,
  smgpMsgIdString,
  splitSmgpText,
  splitUdh,
  STATUS,
  SUBMIT_DEFAULTS,
  type SmgpParts,
} from '../../lib/smgp-pdu';

/** the platform's prefix of a request's `from` when neither the URL nor the pipeline names one (SMS_SOURCE_PREFIX's default) */
const DEFAULT_PREFIX = ENV_DEFAULTS.SMS_SOURCE_PREFIX;
const CONNECT_TIMEOUT_MS = 10_000;
/** DELIVER_RESP Status when the handler failed: system busy, the gateway delivers it again */
const HANDLER_FAILED = STATUS.SYSTEM_BUSY;
const TEXT_MAX = 4000;

type Pending = CorePending<SmgpParts>;
interface SmgpDelivery<T> extends Delivery<T> {
  conn: Conn;
  socket: net.Socket;
  sequenceId: number;
  msgId: Buffer;
}

class Conn extends LinkConn<SmgpParts> {
  seq = 0;
  nextSeq(): number {
    this.seq = this.seq >= 0x7fffffff ? 1 : this.seq + 1;
    return this.seq;
  }
}

export interface SmgpLinkOptions {
  /** the platform's prefix of a request's `from` (the dispatcher's sourcePrefix) when the URL has none */
  sourcePrefix?: string;
}

export function createSmgpLink(config: SmscConfig, log: LinkLog = silentLog, opts: SmgpLinkOptions = {}): SmscLinkHandle {
  return new SmgpLink(config, log, opts);
}

const WORDS: LinkWords = {
  link: 'SMGP',
  ready: 'logged in',
  receipt: 'report',
  mo: 'uplink',
  peer: 'gateway',
  probe: 'SMGP_ACTIVE_TEST',
  closedCode: 'SMGP:LINK_CLOSED',
  throttledCode: `SMGP:${STATUS.SYSTEM_BUSY}`,
  unboundCode: 'SMGP:NOT_LOGGED_IN',
};

export class SmgpLink extends LinkCore<SmgpParts, Conn, SmgpDelivery<Receipt>, SmgpDelivery<MoMessage>> {
  private readonly smgp: SmgpSettings;
  private readonly prefix: string;

  constructor(cfg: SmscConfig, log: LinkLog, opts: SmgpLinkOptions = {}) {
    if (cfg.protocol !== 'smgp' || !cfg.smgp) throw new Error('SMGP link: not an smgp:// configuration');
    super(cfg, log, WORDS, (id) => new Conn(id));
    this.smgp = cfg.smgp;
    this.prefix = cfg.smgp.prefix ?? opts.sourcePrefix ?? DEFAULT_PREFIX;
    this.start();
  }

  // ---------------------------------------------------------------- submit

  protected prepare(p: Pending): number | string {
    const problem = this.localProblem(p.req);
    if (problem) return problem;
    try {
      p.split = this.encoded(p.req.text);
    } catch {
      return `SMGP:${STATUS.BAD_MSG_LENGTH}`;
    }
    return p.split.contents.length;
  }

  protected encodeText(text: string): SmgpParts {
    return splitSmgpText(text, 0);
  }

  private srcOf(from: string): string {
    const f = typeof from === 'string' ? from : '';
    const rest = this.prefix && f.startsWith(this.prefix) ? f.slice(this.prefix.length) : this.smgp.src ? '' : f;
    return `${this.smgp.src}${rest}`;
  }

  /** a request that cannot be valid: its code (SMGP statuses: 47 destination, 46 SrcTermID, 36 length) */
  private localProblem(req: SubmitRequest): string | null {
    if (typeof req.to !== 'string' || !/^\+?\d{1,21}$/.test(req.to)) return `SMGP:${STATUS.BAD_DEST_TERM_ID}`;
    if (typeof req.from !== 'string' || !/^\d*$/.test(req.from)) return `SMGP:${STATUS.BAD_SRC_TERM_ID}`;
    if (this.srcOf(req.from).length > 21) return `SMGP:${STATUS.BAD_SRC_TERM_ID}`;
    if (typeof req.text !== 'string' || req.text.length > TEXT_MAX) return `SMGP:${STATUS.BAD_MSG_LENGTH}`;
    return null;
  }

  private submitPacket(p: Pending, seq: number): Buffer {
    const split = p.split ?? this.encoded(p.req.text);
    const total = split.contents.length;
    const number = p.seg?.seq ?? 1;
    let content = split.contents[number - 1];
    if (total > 1) {
      content = Buffer.from(content);
      content[3] = p.req.ref & 0xff;
    }
    const to = p.req.to.startsWith('+') ? p.req.to.slice(1) : p.req.to;
    return encodeSubmit(seq, {
      ...SUBMIT_DEFAULTS,
      needReport: 1,
      serviceId: this.smgp.serviceId,
      msgFormat: split.msgFormat,
      srcTermId: this.srcOf(p.req.from),
      destTermIds: [to],
      msgContent: content,
      tpUdhi: total > 1 ? 1 : 0,
      pkTotal: total > 1 ? total : 0,
      pkNumber: total > 1 ? number : 0,
      msgSrc: this.smgp.spId,
    });
  }

  protected write(c: Conn, p: Pending): boolean {
    const socket = c.socket;
    if (!socket || !socket.writable) {
      this.drop(c, 'socket not writable');
      return false;
    }
    const seq = c.nextSeq();
    let packet: Buffer;
    try {
      packet = this.submitPacket(p, seq);
    } catch {
      this.finish(p, { ref: p.req.ref, status: 'rejected', code: `SMGP:${STATUS.BAD_STRUCTURE}` });
      return true;
    }
    socket.write(packet);
    p.sentAt = Date.now();
    c.inflight.set(seq, p);
    this.stats.submitted++;
    return true;
  }

  private onSubmitResp(c: Conn, sequenceId: number, msgId: Buffer, status: number) {
    const p = c.inflight.get(sequenceId);
    if (!p) return;
    c.inflight.delete(sequenceId);
    if (status === STATUS.OK) this.accept(c, p, smgpMsgIdString(msgId));
    else if (status === STATUS.SYSTEM_BUSY) this.retry(p, `SMGP:${status}`, this.throttle(c));
    else this.finish(p, { ref: p.req.ref, status: 'rejected', code: `SMGP:${status}` });
    this.schedulePump();
  }

  // ---------------------------------------------------------------- connections

  protected connect(c: Conn): void {
    if (this.closed) return;
    c.state = 'connecting';
    c.reconnectTimer = null;
    const socket = net.connect({ host: this.cfg.host, port: this.cfg.port });
    c.socket = socket;
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 30_000);
    const splitter = new SmgpFrameSplitter();
    let loginSeq = 0;
    let authClient: Buffer | null = null;
    const connectTimer = setTimeout(() => {
      this.log.warn({ smsc: describeSmsc(this.cfg), conn: c.id }, 'SMGP login timed out');
      socket.destroy();
    }, this.cfg.connectTimeoutMs + CONNECT_TIMEOUT_MS);
    socket.once('connect', () => {
      const hello = makeLogin(this.cfg.systemId, this.cfg.password, LOGIN_MODE.TRANSMIT, new Date(), this.cfg.tzMinutes);
      authClient = hello.authenticatorClient;
      loginSeq = c.nextSeq();
      socket.write(encodeLogin(loginSeq, hello));
    });
    socket.on('data', (chunk: Buffer) => {
      if (c.socket !== socket) return;
      let packets: Buffer[];
      try {
        packets = splitter.push(chunk);
      } catch (e) {
        this.log.warn({ conn: c.id, err: (e as Error).message }, 'SMGP stream unreadable: dropping the connection');
        socket.destroy();
        return;
      }
      for (const b of packets) {
        if (c.socket !== socket || socket.destroyed) return;
        try {
          const pkt = decodePacket(b);
          if (pkt.command === 'LOGIN_RESP') {
            clearTimeout(connectTimer);
            if (c.state !== 'connecting' || pkt.sequenceId !== loginSeq) continue;
            this.onLoginResp(c, socket, pkt.status, pkt.authenticatorServer, authClient);
          } else if (c.state !== 'connecting' || pkt.command === 'EXIT' || pkt.command === 'ACTIVE_TEST') this.onPacket(c, socket, pkt);
        } catch (e) {
          this.log.warn({ conn: c.id, err: (e as Error).message }, 'SMGP packet unreadable: dropping the connection');
          socket.destroy();
          return;
        }
      }
    });
    socket.on('error', (e) => {
      if (c.state !== 'closed') this.log.warn({ smsc: describeSmsc(this.cfg), conn: c.id, err: e.message }, 'SMGP connection error');
    });
    socket.once('close', () => {
      clearTimeout(connectTimer);
      this.closedConn(c, socket);
    });
    if (this.readingPaused) socket.pause();
  }

  private onLoginResp(c: Conn, socket: net.Socket, status: number, authServer: Buffer, authClient: Buffer | null) {
    if (status !== STATUS.OK) {
      c.failures = Math.max(c.failures, 4);
      this.log.error({ smsc: describeSmsc(this.cfg), conn: c.id, status }, 'SMGP login refused');
      socket.destroy();
      return;
    }
    if (authClient && !serverAuthenticator(status, authClient, this.cfg.password).equals(authServer)) {
      this.log.warn({ conn: c.id }, 'SMGP AuthenticatorServer does not match (accepted: many gateways fill it loosely)');
    }
    this.log.info({ smsc: describeSmsc(this.cfg), conn: c.id }, 'SMGP logged in');
    this.bound(c);
  }

  private onPacket(c: Conn, socket: net.Socket, pkt: ReturnType<typeof decodePacket>) {
    switch (pkt.command) {
      case 'SUBMIT_RESP':
        this.onSubmitResp(c, pkt.sequenceId, pkt.msgId, pkt.status);
        return;
      case 'DELIVER':
        this.onDeliver(c, socket, pkt);
        return;
      case 'ACTIVE_TEST':
        socket.write(encodeActiveTestResp(pkt.sequenceId));
        return;
      case 'ACTIVE_TEST_RESP':
        if (pkt.sequenceId === c.probe) c.probe = 0;
        return;
      case 'EXIT':
        socket.write(encodeExitResp(pkt.sequenceId));
        this.log.warn({ conn: c.id }, 'SMGP gateway exits');
        if (c.state !== 'closed') c.state = 'idle';
        setTimeout(() => c.socket === socket && socket.destroy(), 100).unref();
        return;
      case 'EXIT_RESP':
        socket.end();
        return;
      default:
        this.log.warn({ conn: c.id, command: pkt.command, id: `0x${pkt.requestId.toString(16)}` }, 'SMGP packet not expected on a carrier link: ignored');
    }
  }

  protected sendProbe(c: Conn): number {
    const seq = c.nextSeq();
    (c.socket as net.Socket).write(encodeActiveTest(seq));
    return seq;
  }

  protected goodbye(c: Conn, socket: net.Socket, wasBound: boolean): void {
    if (wasBound && socket.writable) socket.write(encodeExit(c.nextSeq()));
    else socket.destroy();
  }

  // ---------------------------------------------------------------- incoming

  private onDeliver(c: Conn, socket: net.Socket, d: Extract<ReturnType<typeof decodePacket>, { command: 'DELIVER' }>) {
    const now = new Date();
    const base = { conn: c, socket, sequenceId: d.sequenceId, msgId: d.msgId };
    if (d.isReport === 1) {
      let report;
      try {
        report = decodeReport(d.msgContent);
      } catch {
        this.log.warn({ conn: c.id, hex: d.msgContent.toString('hex').slice(0, 300) }, 'SMGP status report unreadable: acknowledged and ignored');
        socket.write(encodeDeliverResp(d.sequenceId, { msgId: d.msgId, status: 0 }));
        return;
      }
      const stat = report.stat.trim().toUpperCase();
      const delivered = stat === 'DELIVRD';
      const phone = d.srcTermId.slice(0, 21);
      this.received('receipts', {
        ...base,
        item: {
          msgId: smgpMsgIdString(report.msgId),
          delivered,
          stat: stat || 'UNKNOWN',
          err: delivered ? '' : report.err && report.err !== '000' ? report.err : stat,
          doneAt: parseReportTime(report.doneDate, this.cfg.tzMinutes) ?? now,
          ...(phone ? { phone } : {}),
        },
      });
    } else {
      let body = d.msgContent;
      if (d.tpUdhi) {
        try {
          body = splitUdh(d.msgContent).body;
        } catch {
          body = d.msgContent;
        }
      }
      const text = decodeSmgpText(body, d.msgFormat);
      const to = this.smgp.src && d.destTermId.startsWith(this.smgp.src) ? `${this.prefix}${d.destTermId.slice(this.smgp.src.length)}` : d.destTermId;
      this.received('mos', { ...base, item: { from: d.srcTermId, to, text, smscRef: `smgp:${smgpMsgIdString(d.msgId)}`, receivedAt: now } });
    }
  }

  protected acknowledge(taken: SmgpDelivery<unknown>[], failed: boolean): void {
    const status = failed ? HANDLER_FAILED : 0;
    const sockets = new Set<net.Socket>();
    for (const d of taken) {
      if (d.conn.socket !== d.socket || !d.socket.writable) continue;
      if (!sockets.has(d.socket)) {
        sockets.add(d.socket);
        d.socket.cork();
      }
      d.socket.write(encodeDeliverResp(d.sequenceId, { msgId: d.msgId, status }));
    }
    for (const s of sockets) s.uncork();
  }
}

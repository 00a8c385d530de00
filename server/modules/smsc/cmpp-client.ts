/**
 * The carrier link over China Mobile's CMPP 2.0 / 3.0 (cmpp:// URLs; the codec is
 * server/lib/cmpp-pdu.ts). The same contract and rules as the SMPP link (client.ts; docs/api-dispatch.md
 * "CMPP link"), over the same machinery: a LinkCore (link-core.ts: queue, pump, batch results,
 * parts combined, stats, pause and back-off, keep-alive schedule, receipt/MO batcher, close); this
 * file is only what is CMPP's own — CONNECT, writing a CMPP_SUBMIT and reading its answer,
 * CMPP_ACTIVE_TEST, TERMINATE, CMPP_DELIVER → Receipt / MoMessage and CMPP_DELIVER_RESP:
 * - `connections` TCP connections, each CMPP_CONNECT with AuthenticatorSource (SP id, secret,
 *   Beijing-time timestamp), at most `window` CMPP_SUBMIT unanswered each, CMPP_ACTIVE_TEST every
 *   `enquireLinkMs` (no answer within min(10 s, period) → the connection is dropped), reconnect with
 *   exponential back-off (reconnectMinMs .. reconnectMaxMs, jittered; a refused CONNECT starts high).
 *   A Total_Length out of bounds or a packet that cannot be read closes the connection.
 * - A submit: Msg_src = msg_src (the SP id), Src_Id = src_id + what the request's `from` carries
 *   beyond the platform's prefix (the account and its extension), Service_Id = service_id,
 *   Registered_Delivery 1, one Dest_terminal_Id. A text over one SMS goes as TP_udhi 1 parts with
 *   Pk_total / Pk_number and the `05 00 03 ref total number` header (67 UCS2 characters or 134
 *   ASCII octets a part); the request's result combines the parts' (link-core.ts combineParts):
 *   accepted with `parts` = every part's Msg_Id as a decimal string.
 * - CMPP_SUBMIT_RESP Result 0 → accepted (msgId = Msg_Id in decimal); 8 (flow control) → 'retry'
 *   (the connection pauses with back-off, as SMPP's 0x58; a part of a long text is written again
 *   within queueWaitMs); anything else → 'rejected' with code `CMPP:<result>`. A submit written
 *   without an answer when the connection drops or after submitTimeoutMs → 'unconfirmed' (never
 *   resubmitted); a request not written within queueWaitMs → 'retry'.
 * - CMPP_DELIVER: Registered_Delivery 1 → a receipt (the report's Msg_Id in decimal, Stat,
 *   Done_time, Dest_terminal_Id as the phone), 0 → an uplink (Dest_Id = src_id + extension is
 *   given back as prefix + extension, so the dispatcher routes it as an SMPP uplink); batched
 *   (receiptBatch / receiptBatchMs) and answered with CMPP_DELIVER_RESP only after the handler
 *   resolved: Result 0, or 8 when the handler failed so the gateway delivers again.
 */
import net from 'node:net';
import type { MoMessage, Receipt, SubmitRequest } from './types';
import { describeSmsc, type CmppSettings, type SmscConfig } from './config';
import { LinkConn, LinkCore, silentLog, type Delivery, type LinkLog, type LinkWords, type Pending as CorePending, type SmscLinkHandle } from './link-core';
import {
  CmppFrameSplitter,
  CONNECT_STATUS,
  type CmppParts,
  type CmppVersion,
  decodeCmppText,
  decodePacket,
  decodeReport,
  encodeActiveTest,
  encodeActiveTestResp,
  encodeConnect,
  encodeDeliverResp,
  encodeSubmit,
  encodeTerminate,
  encodeTerminateResp,
  ismgAuthenticator,
  makeConnect,
  msgIdString,
  parseReportTime,
  RESULT,
  splitCmppText,
  splitUdh,
  SUBMIT_DEFAULTS,
  versionOf,
} from '../../lib/cmpp-pdu';

/** the platform's prefix of a request's `from` when neither the URL nor the pipeline names one (dispatcher.ts DEFAULT_SOURCE_PREFIX) */
const DEFAULT_PREFIX = '106900';
const CONNECT_TIMEOUT_MS = 10_000;
/** DELIVER_RESP Result when the handler failed: flow control, the gateway delivers it again */
const HANDLER_FAILED = RESULT.FLOW_CONTROL;
/** longest text taken (as the SMPP link: 4,000 characters) */
const TEXT_MAX = 4000;

type Pending = CorePending<CmppParts>;
/** a CMPP_DELIVER waiting for its handler: answered on its connection while that lasts */
interface CmppDelivery<T> extends Delivery<T> {
  conn: Conn;
  socket: net.Socket;
  sequenceId: number;
  msgId: bigint;
  version: CmppVersion;
}

class Conn extends LinkConn<CmppParts> {
  version: CmppVersion = 2;
  seq = 0;
  nextSeq(): number {
    this.seq = this.seq >= 0x7fffffff ? 1 : this.seq + 1;
    return this.seq;
  }
}

export interface CmppLinkOptions {
  /** the platform's prefix of a request's `from` (the dispatcher's sourcePrefix) when the URL has none */
  sourcePrefix?: string;
}

export function createCmppLink(config: SmscConfig, log: LinkLog = silentLog, opts: CmppLinkOptions = {}): SmscLinkHandle {
  return new CmppLink(config, log, opts);
}

const WORDS: LinkWords = {
  link: 'CMPP',
  ready: 'connected',
  receipt: 'report',
  mo: 'uplink',
  peer: 'gateway',
  probe: 'CMPP_ACTIVE_TEST',
  closedCode: 'CMPP:LINK_CLOSED',
  throttledCode: `CMPP:${RESULT.FLOW_CONTROL}`,
  unboundCode: 'CMPP:NOT_CONNECTED',
};

export class CmppLink extends LinkCore<CmppParts, Conn, CmppDelivery<Receipt>, CmppDelivery<MoMessage>> {
  private readonly cmpp: CmppSettings;
  private readonly prefix: string;

  constructor(cfg: SmscConfig, log: LinkLog, opts: CmppLinkOptions = {}) {
    if (cfg.protocol !== 'cmpp' || !cfg.cmpp) throw new Error('CMPP link: not a cmpp:// configuration');
    super(cfg, log, WORDS, (id) => new Conn(id));
    this.cmpp = cfg.cmpp;
    this.prefix = cfg.cmpp.prefix ?? opts.sourcePrefix ?? DEFAULT_PREFIX;
    this.start();
  }

  // ---------------------------------------------------------------- submit

  protected prepare(p: Pending): number | string {
    const problem = this.localProblem(p.req);
    if (problem) return problem;
    try {
      p.split = this.encoded(p.req.text);
    } catch {
      return `CMPP:${RESULT.MSG_TOO_LONG}`;
    }
    return p.split.contents.length;
  }

  /** the text's Msg_Contents (UDH reference 0; the request's own is written in at submit) */
  protected encodeText(text: string): CmppParts {
    return splitCmppText(text, 0);
  }

  /** Src_Id: the channel's number + what `from` carries beyond the platform's prefix */
  private srcIdOf(from: string): string {
    const f = typeof from === 'string' ? from : '';
    const rest = this.prefix && f.startsWith(this.prefix) ? f.slice(this.prefix.length) : this.cmpp.srcId ? '' : f;
    return `${this.cmpp.srcId}${rest}`;
  }

  /** a request that cannot be valid: its code (CMPP results: 13 destination, 10 Src_Id, 6 too long) */
  private localProblem(req: SubmitRequest): string | null {
    if (typeof req.to !== 'string' || !/^\+?\d{1,21}$/.test(req.to)) return `CMPP:${RESULT.BAD_DEST_TERMINAL}`;
    if (typeof req.from !== 'string' || !/^\d*$/.test(req.from)) return `CMPP:${RESULT.BAD_SRC_ID}`;
    if (this.srcIdOf(req.from).length > 21) return `CMPP:${RESULT.BAD_SRC_ID}`;
    if (typeof req.text !== 'string' || req.text.length > TEXT_MAX) return `CMPP:${RESULT.MSG_TOO_LONG}`;
    return null;
  }

  private submitPacket(c: Conn, p: Pending, seq: number): Buffer {
    const split = p.split ?? this.encoded(p.req.text);
    const total = split.contents.length;
    const number = p.seg?.seq ?? 1;
    let content = split.contents[number - 1];
    if (total > 1) {
      content = Buffer.from(content);
      content[3] = p.req.ref & 0xff; // the concatenation reference: the message's id, so neighbours differ
    }
    const to = p.req.to.startsWith('+') ? p.req.to.slice(1) : p.req.to;
    return encodeSubmit(
      seq,
      {
        ...SUBMIT_DEFAULTS,
        pkTotal: total,
        pkNumber: number,
        registeredDelivery: 1,
        serviceId: this.cmpp.serviceId,
        tpUdhi: total > 1 ? 1 : 0,
        msgFmt: split.msgFmt,
        msgSrc: this.cmpp.msgSrc,
        srcId: this.srcIdOf(p.req.from),
        destTerminalIds: [to],
        msgContent: content,
      },
      c.version,
    );
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
      packet = this.submitPacket(c, p, seq);
    } catch {
      this.finish(p, { ref: p.req.ref, status: 'rejected', code: `CMPP:${RESULT.BAD_STRUCTURE}` });
      return true;
    }
    socket.write(packet);
    p.sentAt = Date.now();
    c.inflight.set(seq, p);
    this.stats.submitted++;
    return true;
  }

  private onSubmitResp(c: Conn, sequenceId: number, msgId: bigint, result: number) {
    const p = c.inflight.get(sequenceId);
    if (!p) return; // already settled (timed out → unconfirmed)
    c.inflight.delete(sequenceId);
    if (result === RESULT.OK) this.accept(c, p, msgIdString(msgId));
    else if (result === RESULT.FLOW_CONTROL) this.retry(p, `CMPP:${result}`, this.throttle(c));
    else this.finish(p, { ref: p.req.ref, status: 'rejected', code: `CMPP:${result}` });
    this.schedulePump();
  }

  // ---------------------------------------------------------------- connections

  protected connect(c: Conn): void {
    if (this.closed) return;
    c.state = 'connecting';
    c.reconnectTimer = null;
    c.version = this.cmpp.version;
    const socket = net.connect({ host: this.cfg.host, port: this.cfg.port });
    c.socket = socket;
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 30_000);
    const splitter = new CmppFrameSplitter();
    let connectSeq = 0;
    let authSource: Buffer | null = null;
    const connectTimer = setTimeout(() => {
      this.log.warn({ smsc: describeSmsc(this.cfg), conn: c.id }, 'CMPP connect timed out');
      socket.destroy();
    }, this.cfg.connectTimeoutMs + CONNECT_TIMEOUT_MS);
    socket.once('connect', () => {
      const hello = makeConnect(this.cfg.systemId, this.cfg.password, this.cmpp.version, new Date(), this.cfg.tzMinutes);
      authSource = hello.authenticatorSource;
      connectSeq = c.nextSeq();
      socket.write(encodeConnect(connectSeq, hello));
    });
    socket.on('data', (chunk: Buffer) => {
      if (c.socket !== socket) return;
      let packets: Buffer[];
      try {
        packets = splitter.push(chunk);
      } catch (e) {
        this.log.warn({ conn: c.id, err: (e as Error).message }, 'CMPP stream unreadable: dropping the connection');
        socket.destroy();
        return;
      }
      for (const b of packets) {
        if (c.socket !== socket || socket.destroyed) return;
        try {
          const pkt = decodePacket(b, c.version);
          if (pkt.command === 'CONNECT_RESP') {
            clearTimeout(connectTimer);
            if (c.state !== 'connecting' || pkt.sequenceId !== connectSeq) continue;
            this.onConnectResp(c, socket, pkt.status, pkt.version, pkt.authenticatorIsmg, authSource);
          } else if (c.state !== 'connecting' || pkt.command === 'TERMINATE' || pkt.command === 'ACTIVE_TEST') this.onPacket(c, socket, pkt);
        } catch (e) {
          this.log.warn({ conn: c.id, err: (e as Error).message }, 'CMPP packet unreadable: dropping the connection');
          socket.destroy();
          return;
        }
      }
    });
    socket.on('error', (e) => {
      if (c.state !== 'closed') this.log.warn({ smsc: describeSmsc(this.cfg), conn: c.id, err: e.message }, 'CMPP connection error');
    });
    socket.once('close', () => {
      clearTimeout(connectTimer);
      this.closedConn(c, socket);
    });
    if (this.readingPaused) socket.pause();
  }

  private onConnectResp(c: Conn, socket: net.Socket, status: number, version: number, authIsmg: Buffer, authSource: Buffer | null) {
    if (status !== CONNECT_STATUS.OK) {
      c.failures = Math.max(c.failures, 4); // wrong credentials or version: do not hammer the gateway
      this.log.error({ smsc: describeSmsc(this.cfg), conn: c.id, status }, 'CMPP connect refused');
      socket.destroy();
      return;
    }
    const v = versionOf(version) ?? this.cmpp.version;
    if (v !== this.cmpp.version) this.log.warn({ conn: c.id, asked: this.cmpp.version, got: version }, 'CMPP gateway answers in another version: using it');
    c.version = v;
    if (
      authSource &&
      !ismgAuthenticator(status, authSource, this.cfg.password, v).equals(authIsmg) &&
      !ismgAuthenticator(status, authSource, this.cfg.password, v === 2 ? 3 : 2).equals(authIsmg)
    ) {
      this.log.warn({ conn: c.id }, 'CMPP AuthenticatorISMG does not match (accepted: many gateways fill it loosely)');
    }
    this.log.info({ smsc: describeSmsc(this.cfg), conn: c.id, version: v }, 'CMPP connected');
    this.bound(c);
  }

  private onPacket(c: Conn, socket: net.Socket, pkt: ReturnType<typeof decodePacket>) {
    switch (pkt.command) {
      case 'SUBMIT_RESP':
        this.onSubmitResp(c, pkt.sequenceId, pkt.msgId, pkt.result);
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
      case 'TERMINATE':
        socket.write(encodeTerminateResp(pkt.sequenceId));
        this.log.warn({ conn: c.id }, 'CMPP gateway terminates');
        if (c.state !== 'closed') c.state = 'idle';
        setTimeout(() => c.socket === socket && socket.destroy(), 100).unref();
        return;
      case 'TERMINATE_RESP':
        socket.end();
        return;
      default:
        this.log.warn({ conn: c.id, command: pkt.command, id: `0x${pkt.commandId.toString(16)}` }, 'CMPP packet not expected on a carrier link: ignored');
    }
  }

  /** CMPP_ACTIVE_TEST (the core drops the connection when it goes unanswered): its sequence is the token */
  protected sendProbe(c: Conn): number {
    const seq = c.nextSeq();
    (c.socket as net.Socket).write(encodeActiveTest(seq));
    return seq;
  }

  protected goodbye(c: Conn, socket: net.Socket, wasBound: boolean): void {
    // in-flight submits get a last chance to be answered before TERMINATE_RESP
    if (wasBound && socket.writable) socket.write(encodeTerminate(c.nextSeq()));
    else socket.destroy();
  }

  // ---------------------------------------------------------------- incoming

  private onDeliver(c: Conn, socket: net.Socket, d: Extract<ReturnType<typeof decodePacket>, { command: 'DELIVER' }>) {
    const now = new Date();
    const base = { conn: c, socket, sequenceId: d.sequenceId, msgId: d.msgId, version: c.version };
    if (d.registeredDelivery === 1) {
      let report;
      try {
        report = decodeReport(d.msgContent, c.version);
      } catch {
        this.log.warn({ conn: c.id, hex: d.msgContent.toString('hex').slice(0, 200) }, 'CMPP status report unreadable: acknowledged and ignored');
        socket.write(encodeDeliverResp(d.sequenceId, { msgId: d.msgId, result: 0 }, c.version));
        return;
      }
      const stat = report.stat.trim().toUpperCase();
      const delivered = stat === 'DELIVRD';
      const phone = report.destTerminalId.slice(0, 32);
      this.received('receipts', {
        ...base,
        item: {
          msgId: msgIdString(report.msgId),
          delivered,
          stat: stat || 'UNKNOWN',
          err: delivered ? '' : stat,
          doneAt: parseReportTime(report.doneTime, this.cfg.tzMinutes) ?? now,
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
      const text = decodeCmppText(body, d.msgFmt);
      // Dest_Id = src_id + extension → the platform's prefix + extension, as the dispatcher routes uplinks
      const to = this.cmpp.srcId && d.destId.startsWith(this.cmpp.srcId) ? `${this.prefix}${d.destId.slice(this.cmpp.srcId.length)}` : d.destId;
      this.received('mos', { ...base, item: { from: d.srcTerminalId, to, text, smscRef: `cmpp:${msgIdString(d.msgId)}`, receivedAt: now } });
    }
  }

  /** CMPP_DELIVER_RESP for each: Result 0, or 8 when the handler failed */
  protected acknowledge(taken: CmppDelivery<unknown>[], failed: boolean): void {
    const result = failed ? HANDLER_FAILED : 0;
    const sockets = new Set<net.Socket>();
    for (const d of taken) {
      // a connection gone since: the gateway delivers again on another (the handlers are idempotent)
      if (d.conn.socket !== d.socket || !d.socket.writable) continue;
      if (!sockets.has(d.socket)) {
        sockets.add(d.socket);
        d.socket.cork();
      }
      d.socket.write(encodeDeliverResp(d.sequenceId, { msgId: d.msgId, result }, d.version));
    }
    for (const s of sockets) s.uncork();
  }
}

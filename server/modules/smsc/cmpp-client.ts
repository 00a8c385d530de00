/**
 * The carrier link over China Mobile's CMPP 2.0 / 3.0 (cmpp:// URLs; the codec is
 * server/lib/cmpp-pdu.ts). The same contract and rules as the SMPP link (client.ts; docs/api-dispatch.md
 * "CMPP link"):
 * - `connections` TCP connections, each CMPP_CONNECT with AuthenticatorSource (SP id, secret,
 *   Beijing-time timestamp), at most `window` CMPP_SUBMIT unanswered each, CMPP_ACTIVE_TEST every
 *   `enquireLinkMs` (no answer within min(10 s, period) → the connection is dropped), reconnect with
 *   exponential back-off (reconnectMinMs .. reconnectMaxMs, jittered; a refused CONNECT starts high).
 *   A Total_Length out of bounds or a packet that cannot be read closes the connection.
 * - A submit: Msg_src = msg_src (the SP id), Src_Id = src_id + what the request's `from` carries
 *   beyond the platform's prefix (the account and its extension), Service_Id = service_id,
 *   Registered_Delivery 1, one Dest_terminal_Id. A text over one SMS goes as TP_udhi 1 parts with
 *   Pk_total / Pk_number and the `05 00 03 ref total number` header (67 UCS2 characters or 134
 *   ASCII octets a part); the request's result combines the parts' (client.ts combineParts):
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
import type { MoMessage, Receipt, SubmitRequest, SubmitResult } from './types';
import { describeSmsc, type CmppSettings, type SmscConfig } from './config';
import { combineParts, type LinkLog, type SmscLinkHandle, type SmscLinkStats } from './client';
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
const ACTIVE_TIMEOUT_MS = 10_000;
const CONNECT_TIMEOUT_MS = 10_000;
const MAX_BUFFERED_DELIVERIES = 100_000;
/** DELIVER_RESP Result when the handler failed: flow control, the gateway delivers it again */
const HANDLER_FAILED = RESULT.FLOW_CONTROL;
/** longest text taken (as the SMPP link: 4,000 characters) */
const TEXT_MAX = 4000;

interface BatchState {
  results: SubmitResult[];
  left: number;
  resolve: (r: SubmitResult[]) => void;
}
interface Multi {
  results: SubmitResult[];
  left: number;
}
interface Pending {
  req: SubmitRequest;
  batch: BatchState;
  index: number;
  queuedAt: number;
  sentAt: number;
  split?: CmppParts;
  srcId: string;
  seg?: { m: Multi; seq: number };
}
interface Delivery<T> {
  item: T;
  conn: Conn;
  socket: net.Socket;
  sequenceId: number;
  msgId: bigint;
  version: CmppVersion;
}

type ConnState = 'idle' | 'connecting' | 'bound' | 'closed';

class Conn {
  state: ConnState = 'idle';
  socket: net.Socket | null = null;
  version: CmppVersion = 2;
  seq = 0;
  inflight = new Map<number, Pending>();
  pausedUntil = 0;
  throttleLevel = 0;
  failures = 0;
  /** the sequence of the unanswered CMPP_ACTIVE_TEST, 0 none */
  activeSeq = 0;
  reconnectTimer: NodeJS.Timeout | null = null;
  constructor(readonly id: number) {}
  nextSeq(): number {
    this.seq = this.seq >= 0x7fffffff ? 1 : this.seq + 1;
    return this.seq;
  }
}

export interface CmppLinkOptions {
  /** the platform's prefix of a request's `from` (the dispatcher's sourcePrefix) when the URL has none */
  sourcePrefix?: string;
}

export function createCmppLink(config: SmscConfig, log: LinkLog = { info() {}, warn() {}, error() {} }, opts: CmppLinkOptions = {}): SmscLinkHandle {
  return new CmppLink(config, log, opts);
}

export class CmppLink implements SmscLinkHandle {
  private readonly conns: Conn[];
  private readonly cmpp: CmppSettings;
  private readonly prefix: string;
  private queue: Pending[] = [];
  private qHead = 0;
  private closed = false;
  private pumpScheduled = false;
  private sweepTimer: NodeJS.Timeout;
  private activeTimer: NodeJS.Timeout;
  private receiptHandler: ((r: Receipt[]) => Promise<void>) | null = null;
  private moHandler: ((m: MoMessage[]) => Promise<void>) | null = null;
  private receipts: Delivery<Receipt>[] = [];
  private mos: Delivery<MoMessage>[] = [];
  private flushing = { receipts: 0, mos: 0 };
  private flushTimers: { receipts: NodeJS.Timeout | null; mos: NodeJS.Timeout | null } = { receipts: null, mos: null };
  private readingPaused = false;
  private readyWaiters: (() => void)[] = [];
  private rr = 0;
  private readonly textCache = new Map<string, CmppParts>();
  readonly stats: SmscLinkStats = { submitted: 0, accepted: 0, rejected: 0, retried: 0, unconfirmed: 0, receipts: 0, mo: 0, reconnects: 0, queued: 0, inflight: 0 };

  constructor(
    private readonly cfg: SmscConfig,
    private readonly log: LinkLog,
    opts: CmppLinkOptions = {},
  ) {
    if (cfg.protocol !== 'cmpp' || !cfg.cmpp) throw new Error('CMPP link: not a cmpp:// configuration');
    this.cmpp = cfg.cmpp;
    this.prefix = cfg.cmpp.prefix ?? opts.sourcePrefix ?? DEFAULT_PREFIX;
    this.conns = Array.from({ length: Math.max(1, cfg.connections) }, (_, i) => new Conn(i));
    this.sweepTimer = setInterval(() => this.sweep(), Math.min(1000, Math.max(50, Math.floor(cfg.queueWaitMs / 4) || 50)));
    this.sweepTimer.unref();
    this.activeTimer = setInterval(() => this.activeTest(), cfg.enquireLinkMs);
    this.activeTimer.unref();
    for (const c of this.conns) this.connect(c);
  }

  get ready(): boolean {
    return this.conns.some((c) => c.state === 'bound');
  }

  get capacity(): number {
    return this.cfg.window * this.conns.length;
  }

  waitReady(timeoutMs = 10_000): Promise<void> {
    if (this.ready) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`CMPP link ${describeSmsc(this.cfg)} not connected after ${timeoutMs} ms`)), timeoutMs);
      this.readyWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  // ---------------------------------------------------------------- submit

  submit(batch: SubmitRequest[]): Promise<SubmitResult[]> {
    if (!batch.length) return Promise.resolve([]);
    return new Promise((resolve) => {
      const state: BatchState = { results: new Array(batch.length), left: batch.length, resolve };
      const now = Date.now();
      batch.forEach((req, index) => {
        const p: Pending = { req, batch: state, index, queuedAt: now, sentAt: 0, srcId: '' };
        if (this.closed) return this.finish(p, { ref: req.ref, status: 'retry', code: 'CMPP:LINK_CLOSED', afterMs: this.cfg.reconnectMinMs });
        const problem = this.localProblem(req);
        if (problem) return this.finish(p, { ref: req.ref, status: 'rejected', code: problem });
        p.srcId = this.srcIdOf(req.from);
        try {
          p.split = this.encoded(req.text);
        } catch {
          return this.finish(p, { ref: req.ref, status: 'rejected', code: `CMPP:${RESULT.MSG_TOO_LONG}` });
        }
        const n = p.split.contents.length;
        if (n === 1) this.queue.push(p);
        else {
          const m: Multi = { results: new Array<SubmitResult>(n), left: n };
          for (let seq = 1; seq <= n; seq++) this.queue.push({ ...p, seg: { m, seq } });
        }
      });
      this.pump();
    });
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

  private finish(p: Pending, result: SubmitResult) {
    switch (result.status) {
      case 'accepted':
        this.stats.accepted++;
        break;
      case 'rejected':
        this.stats.rejected++;
        break;
      case 'retry':
        this.stats.retried++;
        break;
      case 'unconfirmed':
        this.stats.unconfirmed++;
        break;
    }
    if (p.seg) {
      const m = p.seg.m;
      m.results[p.seg.seq - 1] = result;
      if (--m.left > 0) return;
      result = combineParts(p.req.ref, m.results);
    }
    p.batch.results[p.index] = result;
    if (--p.batch.left === 0) p.batch.resolve(p.batch.results);
  }

  private schedulePump() {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  private pump() {
    if (this.closed || this.qHead >= this.queue.length) return this.compact();
    const now = Date.now();
    const usable = this.conns.filter((c) => c.state === 'bound' && c.pausedUntil <= now && c.inflight.size < this.cfg.window);
    if (!usable.length) return;
    for (const c of usable) c.socket?.cork();
    try {
      let progress = true;
      while (progress && this.qHead < this.queue.length) {
        progress = false;
        for (let i = 0; i < usable.length && this.qHead < this.queue.length; i++) {
          const c = usable[(this.rr + i) % usable.length];
          let n = Math.min(32, this.cfg.window - c.inflight.size);
          while (n-- > 0 && this.qHead < this.queue.length && c.state === 'bound') {
            const p = this.queue[this.qHead++];
            if (!this.write(c, p)) {
              this.queue[--this.qHead] = p;
              break;
            }
            progress = true;
          }
        }
        this.rr++;
      }
    } finally {
      for (const c of usable) c.socket?.uncork();
    }
    this.compact();
  }

  private compact() {
    if (this.qHead > 0 && (this.qHead >= this.queue.length || this.qHead > 4096)) {
      this.queue = this.queue.slice(this.qHead);
      this.qHead = 0;
    }
  }

  /** the text's Msg_Contents (UDH reference 0; the request's own is written in at submit), cached for a task's shared text */
  private encoded(text: string): CmppParts {
    let e = this.textCache.get(text);
    if (!e) {
      if (this.textCache.size >= 256) this.textCache.clear();
      this.textCache.set(text, (e = splitCmppText(text, 0)));
    }
    return e;
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
        srcId: p.srcId,
        destTerminalIds: [to],
        msgContent: content,
      },
      c.version,
    );
  }

  private write(c: Conn, p: Pending): boolean {
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
    const ref = p.req.ref;
    if (result === RESULT.OK) {
      c.throttleLevel = 0;
      this.finish(p, { ref, status: 'accepted', msgId: msgIdString(msgId) });
    } else if (result === RESULT.FLOW_CONTROL) {
      const now = Date.now();
      if (now >= c.pausedUntil) {
        // one step per pause: the rest of the window answered 8 too, that is the same event
        c.throttleLevel = Math.min(c.throttleLevel + 1, 5);
        c.pausedUntil = now + this.cfg.throttleMs * 2 ** (c.throttleLevel - 1);
        setTimeout(() => this.schedulePump(), c.pausedUntil - now).unref();
      }
      const afterMs = c.pausedUntil - now;
      if (p.seg && !this.closed && now - p.queuedAt < this.cfg.queueWaitMs) {
        // a part of a long text: its other parts may be accepted already, so this one is written again (after the pause)
        this.stats.retried++;
        p.sentAt = 0;
        this.queue.push(p);
      } else this.finish(p, { ref, status: 'retry', code: `CMPP:${result}`, afterMs });
    } else {
      this.finish(p, { ref, status: 'rejected', code: `CMPP:${result}` });
    }
    this.schedulePump();
  }

  /** timeouts: unanswered submits → unconfirmed; requests not written in time → retry */
  private sweep() {
    const now = Date.now();
    for (const c of this.conns) {
      for (const [seq, p] of c.inflight) {
        if (now - p.sentAt < this.cfg.submitTimeoutMs) break; // insertion order = send order
        c.inflight.delete(seq);
        this.finish(p, { ref: p.req.ref, status: 'unconfirmed', code: 'TIMEOUT' });
      }
    }
    if (this.qHead < this.queue.length && now - this.queue[this.qHead].queuedAt >= this.cfg.queueWaitMs) {
      const bound = this.ready;
      const code = bound ? `CMPP:${RESULT.FLOW_CONTROL}` : 'CMPP:NOT_CONNECTED';
      const afterMs = bound ? this.cfg.throttleMs : this.cfg.reconnectMinMs;
      while (this.qHead < this.queue.length && now - this.queue[this.qHead].queuedAt >= this.cfg.queueWaitMs) {
        const p = this.queue[this.qHead++];
        this.finish(p, { ref: p.req.ref, status: 'retry', code, afterMs });
      }
      this.compact();
    }
    this.stats.queued = this.queue.length - this.qHead;
    this.stats.inflight = this.conns.reduce((n, c) => n + c.inflight.size, 0);
    this.pump();
  }

  // ---------------------------------------------------------------- connections

  private connect(c: Conn) {
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
      this.onClose(c, socket);
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
    c.state = 'bound';
    c.failures = 0;
    c.throttleLevel = 0;
    c.pausedUntil = 0;
    c.activeSeq = 0;
    this.log.info({ smsc: describeSmsc(this.cfg), conn: c.id, version: v }, 'CMPP connected');
    const waiters = this.readyWaiters;
    this.readyWaiters = [];
    for (const w of waiters) w();
    this.pump();
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
        if (pkt.sequenceId === c.activeSeq) c.activeSeq = 0;
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

  private drop(c: Conn, why: string) {
    if (!c.socket) return;
    this.log.warn({ conn: c.id, why }, 'CMPP dropping connection');
    c.socket.destroy();
  }

  private onClose(c: Conn, socket: net.Socket) {
    if (c.socket !== socket) return;
    const wasBound = c.state === 'bound';
    c.socket = null;
    for (const p of c.inflight.values()) this.finish(p, { ref: p.req.ref, status: 'unconfirmed', code: 'LINK_DOWN' });
    c.inflight.clear();
    if (c.state === 'closed' || this.closed) {
      c.state = 'closed';
      return;
    }
    c.state = 'idle';
    if (wasBound) this.log.warn({ smsc: describeSmsc(this.cfg), conn: c.id }, 'CMPP connection lost');
    const base = Math.min(this.cfg.reconnectMaxMs, this.cfg.reconnectMinMs * 2 ** Math.min(c.failures, 16));
    const delay = Math.round(base * (0.75 + Math.random() * 0.5));
    c.failures++;
    this.stats.reconnects++;
    c.reconnectTimer = setTimeout(() => this.connect(c), delay);
  }

  /** CMPP_ACTIVE_TEST every period; no answer within min(10 s, period) → the connection is dropped */
  private activeTest() {
    const timeout = Math.min(ACTIVE_TIMEOUT_MS, this.cfg.enquireLinkMs);
    for (const c of this.conns) {
      if (c.state !== 'bound' || !c.socket || c.activeSeq) continue;
      const socket = c.socket;
      const seq = c.nextSeq();
      c.activeSeq = seq;
      socket.write(encodeActiveTest(seq));
      setTimeout(() => {
        if (c.socket === socket && c.activeSeq === seq) this.drop(c, 'CMPP_ACTIVE_TEST unanswered');
      }, timeout).unref();
    }
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
      this.receipts.push({
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
      this.stats.receipts++;
      this.scheduleFlush('receipts');
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
      this.mos.push({ ...base, item: { from: d.srcTerminalId, to, text, smscRef: `cmpp:${msgIdString(d.msgId)}`, receivedAt: now } });
      this.stats.mo++;
      this.scheduleFlush('mos');
    }
    this.checkBackpressure();
  }

  private checkBackpressure() {
    const buffered = this.receipts.length + this.mos.length;
    if (!this.readingPaused && buffered >= MAX_BUFFERED_DELIVERIES) {
      this.readingPaused = true;
      for (const c of this.conns) c.socket?.pause();
    } else if (this.readingPaused && buffered < MAX_BUFFERED_DELIVERIES / 2) {
      this.readingPaused = false;
      for (const c of this.conns) c.socket?.resume();
    }
  }

  onReceipts(handler: (r: Receipt[]) => Promise<void>): void {
    this.receiptHandler = handler;
    this.scheduleFlush('receipts');
  }

  onMo(handler: (m: MoMessage[]) => Promise<void>): void {
    this.moHandler = handler;
    this.scheduleFlush('mos');
  }

  private scheduleFlush(kind: 'receipts' | 'mos') {
    const buf = this[kind];
    if (!buf.length || this.flushing[kind] >= this.cfg.receiptFlushes) return;
    if (buf.length >= this.cfg.receiptBatch || this.cfg.receiptBatchMs === 0) {
      if (this.flushTimers[kind]) clearTimeout(this.flushTimers[kind]);
      this.flushTimers[kind] = null;
      setImmediate(() => void this.flush(kind));
    } else if (!this.flushTimers[kind]) {
      this.flushTimers[kind] = setTimeout(() => {
        this.flushTimers[kind] = null;
        void this.flush(kind);
      }, this.cfg.receiptBatchMs);
    }
  }

  private async flush(kind: 'receipts' | 'mos') {
    const handler = (kind === 'receipts' ? this.receiptHandler : this.moHandler) as ((items: unknown[]) => Promise<void>) | null;
    if (this.flushing[kind] >= this.cfg.receiptFlushes || !handler) return; // kept until a handler is registered
    const buf = this[kind] as Delivery<unknown>[];
    if (!buf.length) return;
    this.flushing[kind]++;
    const taken = buf.splice(0, this.cfg.receiptBatch);
    let result = 0;
    try {
      await handler(taken.map((d) => d.item));
    } catch (e) {
      result = HANDLER_FAILED;
      this.log.error({ err: (e as Error).message, count: taken.length }, `CMPP ${kind === 'receipts' ? 'report' : 'uplink'} handler failed: the gateway will deliver them again`);
    }
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
    this.flushing[kind]--;
    this.checkBackpressure();
    this.scheduleFlush(kind);
  }

  // ---------------------------------------------------------------- close

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.sweepTimer);
    clearInterval(this.activeTimer);
    for (const t of Object.values(this.flushTimers)) if (t) clearTimeout(t);
    while (this.qHead < this.queue.length) {
      const p = this.queue[this.qHead++];
      this.finish(p, { ref: p.req.ref, status: 'retry', code: 'CMPP:LINK_CLOSED', afterMs: this.cfg.reconnectMinMs });
    }
    this.queue = [];
    this.qHead = 0;
    await Promise.all(this.conns.map((c) => this.closeConn(c)));
  }

  private closeConn(c: Conn): Promise<void> {
    if (c.reconnectTimer) clearTimeout(c.reconnectTimer);
    const socket = c.socket;
    const wasBound = c.state === 'bound';
    c.state = 'closed';
    if (!socket) return Promise.resolve();
    return new Promise((resolve) => {
      // in-flight submits get a last chance to be answered before TERMINATE_RESP
      const done = setTimeout(() => socket.destroy(), 1000);
      socket.once('close', () => {
        clearTimeout(done);
        resolve();
      });
      if (wasBound && socket.writable) socket.write(encodeTerminate(c.nextSeq()));
      else socket.destroy();
    });
  }
}

/**
 * The carrier link: SMPP 3.4 transceiver connections to one SMSC (the `smpp` package).
 * Rules (docs/api-dispatch.md "SMPP link and simulator"):
 * - `connections` sessions, each bind_transceiver, at most `window` submit_sm in flight each,
 *   enquire_link every `enquireLinkMs` (no answer within 10 s → the connection is dropped),
 *   reconnect with exponential backoff (reconnectMinMs .. reconnectMaxMs, jittered).
 * - A text that fits one SMS = one submit_sm = one receipt. A longer one (`long`, docs/api-dispatch.md
 *   "Long messages"): `udh` / `sar` one submit_sm per part (splitText: 67 UCS2 characters, 153 GSM
 *   septets or 134 octets a part), each with its own answer and receipt; the request's result
 *   combines the parts' (accepted with every part's message id when all were; the first refusal
 *   when one was refused; unconfirmed when one went without an answer, or when some were accepted
 *   and others could not be written). A part answered with a retry status is written again (it
 *   waits for the connection's pause) as long as its request is within queueWaitMs.
 *   `payload`: one submit_sm with the text in message_payload when over 140 octets.
 *   A submit carries our ref (sms_messages.id) in the vendor TLV `refTlv` when one is set (the
 *   embedded simulator's link; off by default, most SMSCs refuse unknown TLVs).
 * - Receipts: the id of `receipted_message_id`, else of the text; its hex ↔ decimal readings
 *   (`receiptIds`) go with it, tried when it matches no message as written.
 * - submit_sm_resp: 0 → accepted; 0x58 throttled / 0x14 queue full / 0x64 temporary / 0x08 system
 *   error / 0x04 not bound → 'retry' (the connection pauses with backoff; 0x04 drops it);
 *   anything else → 'rejected' (code in hex).
 *   A submit written without a response when the connection drops or after submitTimeoutMs →
 *   'unconfirmed' (at-most-once: never resubmitted). A request never written within queueWaitMs
 *   (no bound connection, throttled) → 'retry'.
 * - deliver_sm: receipts (esm_class 0x04) and MO are batched (receiptBatch / receiptBatchMs) and
 *   answered with deliver_sm_resp only after the handler resolves; a failed handler → 0x64
 *   (ESME_RX_T_APPN, temporary) so the SMSC delivers again. Handlers must be idempotent.
 */
import net from 'node:net';
import tls from 'node:tls';
import smpp, { type PDU, type Session } from 'smpp';
import type { MoMessage, Receipt, SmscLink, SubmitRequest, SubmitResult } from './types';
import { describeSmsc, type SmscConfig } from './config';
import {
  concatUdh,
  corkForTick,
  cstr,
  DC_GSM7,
  encodeResp,
  encodeSm,
  ESM_RECEIPT,
  ESM_TYPE_MASK,
  ESM_UDHI,
  hexCode,
  idReadings,
  parseReceiptText,
  PAYLOAD_MAX,
  pduText,
  RawPdu,
  refTlvName,
  sarTlvs,
  SHORT_MESSAGE_MAX,
  SINGLE_SEPTETS,
  splitText,
  STATE_STAT,
  STATUS,
  TLV_MESSAGE_PAYLOAD,
  type SplitText,
} from '../../lib/smpp-pdu';

const EMPTY = Buffer.alloc(0);

export interface LinkLog {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

const silent: LinkLog = { info() {}, warn() {}, error() {} };

/**
 * statuses after which the same request may be submitted again later: the SMSC did not take it
 * (throttled, queue full, temporary, not bound, its own system error). None is a failure of the
 * message; the dispatcher reads them as the channel's state (docs/api-dispatch.md "Carrier back-off").
 */
const RETRY_STATUSES = new Set<number>([STATUS.THROTTLED, STATUS.MSGQFUL, STATUS.X_T_APPN, STATUS.INVBNDSTS, STATUS.SYSERR]);
const ENQUIRE_TIMEOUT_MS = 10_000;
const BIND_TIMEOUT_MS = 10_000;
/**
 * deliver_sm waiting for a handler beyond this: stop reading from the SMSC until half have been
 * handled. Normally the SMSC's own window of unacknowledged deliver_sm keeps the buffer far below;
 * this only bounds memory (while reading is paused, submit answers wait too).
 */
const MAX_BUFFERED_DELIVERIES = 100_000;

interface BatchState {
  results: SubmitResult[];
  left: number;
  resolve: (r: SubmitResult[]) => void;
}
/** a request sent as several submits: the parts' results, combined when the last is in */
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
  /** the text's parts (undefined: not encoded, the request was settled before) */
  split?: SplitText;
  /** a part of a multi-part request: seq 1..n */
  seg?: { m: Multi; seq: number };
}
interface Delivery<T> {
  item: T;
  session: Session;
  pdu: PDU;
}

type ConnState = 'idle' | 'connecting' | 'bound' | 'closed';

class Conn {
  state: ConnState = 'idle';
  session: Session | null = null;
  socket: net.Socket | null = null;
  inflight = new Map<number, Pending>();
  pausedUntil = 0;
  throttleLevel = 0;
  failures = 0;
  enquireSentAt = 0;
  reconnectTimer: NodeJS.Timeout | null = null;
  boundAt = 0;
  constructor(readonly id: number) {}
}

export interface SmscLinkStats {
  submitted: number;
  accepted: number;
  rejected: number;
  retried: number;
  unconfirmed: number;
  receipts: number;
  mo: number;
  reconnects: number;
  queued: number;
  inflight: number;
}

export interface SmscLinkHandle extends SmscLink {
  readonly stats: SmscLinkStats;
  /** resolves when a connection is bound (rejects after timeoutMs) */
  waitReady(timeoutMs?: number): Promise<void>;
}

export function createSmscLink(config: SmscConfig, log: LinkLog = silent): SmscLinkHandle {
  return new Link(config, log);
}

class Link implements SmscLinkHandle {
  private readonly conns: Conn[];
  private queue: Pending[] = [];
  private qHead = 0;
  private closed = false;
  private pumpScheduled = false;
  private sweepTimer: NodeJS.Timeout;
  private enquireTimer: NodeJS.Timeout;
  private readonly refName: string | null;
  private receiptHandler: ((r: Receipt[]) => Promise<void>) | null = null;
  private moHandler: ((m: MoMessage[]) => Promise<void>) | null = null;
  private receipts: Delivery<Receipt>[] = [];
  private mos: Delivery<MoMessage>[] = [];
  /** batches in the handler now, per kind (at most receiptFlushes) */
  private flushing = { receipts: 0, mos: 0 };
  private flushTimers: { receipts: NodeJS.Timeout | null; mos: NodeJS.Timeout | null } = { receipts: null, mos: null };
  private readingPaused = false;
  private readyWaiters: (() => void)[] = [];
  private rr = 0;
  private readonly textCache = new Map<string, SplitText>();
  readonly stats: SmscLinkStats = { submitted: 0, accepted: 0, rejected: 0, retried: 0, unconfirmed: 0, receipts: 0, mo: 0, reconnects: 0, queued: 0, inflight: 0 };

  constructor(
    private readonly cfg: SmscConfig,
    private readonly log: LinkLog,
  ) {
    this.refName = cfg.refTlv ? refTlvName(cfg.refTlv) : null;
    this.conns = Array.from({ length: Math.max(1, cfg.connections) }, (_, i) => new Conn(i));
    this.sweepTimer = setInterval(() => this.sweep(), Math.min(1000, Math.max(50, Math.floor(cfg.queueWaitMs / 4) || 50)));
    this.sweepTimer.unref();
    this.enquireTimer = setInterval(() => this.enquire(), cfg.enquireLinkMs);
    this.enquireTimer.unref();
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
      const timer = setTimeout(() => reject(new Error(`SMPP link ${describeSmsc(this.cfg)} not bound after ${timeoutMs} ms`)), timeoutMs);
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
        const p: Pending = { req, batch: state, index, queuedAt: now, sentAt: 0 };
        if (this.closed) return this.finish(p, { ref: req.ref, status: 'retry', code: hexCode(STATUS.INVBNDSTS), afterMs: this.cfg.reconnectMinMs });
        const local = this.localProblem(req);
        if (local !== null) return this.finish(p, { ref: req.ref, status: 'rejected', code: hexCode(local) });
        try {
          p.split = this.encoded(req.text);
        } catch {
          return this.finish(p, { ref: req.ref, status: 'rejected', code: hexCode(STATUS.INVMSGLEN) });
        }
        const n = p.split.parts.length;
        if (n === 1) this.queue.push(p);
        else {
          const m: Multi = { results: new Array<SubmitResult>(n), left: n };
          for (let seq = 1; seq <= n; seq++) this.queue.push({ ...p, seg: { m, seq } });
        }
      });
      this.pump();
    });
  }

  /** checks made before anything is written: a request that cannot be valid is rejected here */
  private localProblem(req: SubmitRequest): number | null {
    if (typeof req.to !== 'string' || !/^\+?\d{1,20}$/.test(req.to)) return STATUS.INVDSTADR;
    const from = req.from || this.cfg.sourceAddr;
    if (typeof from !== 'string' || from.length > 20 || !/^[\x20-\x7e]*$/.test(from)) return STATUS.INVSRCADR;
    if (typeof req.text !== 'string' || req.text.length > PAYLOAD_MAX / 2) return STATUS.INVMSGLEN;
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
          // up to 32 at a time per connection, so several connections share a batch
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

  /** the text's parts: a task's messages share their text, so it is encoded once (bounded cache); RangeError over 255 parts */
  private encoded(text: string): SplitText {
    let e = this.textCache.get(text);
    if (!e) {
      if (this.textCache.size >= 256) this.textCache.clear();
      this.textCache.set(text, (e = splitText(text, this.cfg.coding, this.cfg.long)));
    }
    return e;
  }

  private submitPdu(p: Pending): RawPdu {
    const req = p.req;
    const from = req.from || this.cfg.sourceAddr;
    const alpha = /[^\d+]/.test(from);
    const intl = req.to.startsWith('+');
    const { dataCoding, parts } = p.split ?? this.encoded(req.text);
    const tlvs: [number, Buffer][] = [];
    let esmClass = 0;
    let shortMessage: Buffer;
    if (!p.seg) {
      const octets = parts[0];
      const short = octets.length <= (dataCoding === DC_GSM7 ? SINGLE_SEPTETS : SHORT_MESSAGE_MAX);
      if (!short) tlvs.push([TLV_MESSAGE_PAYLOAD, octets]);
      shortMessage = short ? octets : EMPTY;
    } else if (this.cfg.long === 'sar') {
      // the reference: the message's id (low 16 bits), so that parts of one message share it and neighbours differ
      tlvs.push(...sarTlvs(req.ref, parts.length, p.seg.seq));
      shortMessage = parts[p.seg.seq - 1];
    } else {
      esmClass = ESM_UDHI;
      shortMessage = Buffer.concat([concatUdh(req.ref, parts.length, p.seg.seq), parts[p.seg.seq - 1]]);
    }
    if (this.cfg.refTlv) tlvs.push([this.cfg.refTlv, cstr(String(req.ref))]);
    return encodeSm('submit_sm', {
      sourceTon: alpha ? 0x05 : 0x00,
      sourceNpi: alpha ? 0x00 : 0x01,
      source: from,
      destTon: intl ? 0x01 : 0x00,
      destNpi: 0x01,
      dest: intl ? req.to.slice(1) : req.to,
      esmClass,
      registeredDelivery: 0x01,
      dataCoding,
      shortMessage,
      tlvs,
    });
  }

  /** false: nothing written (the connection is going down) */
  private write(c: Conn, p: Pending): boolean {
    const session = c.session;
    if (!session) return false;
    let pdu: RawPdu;
    try {
      pdu = this.submitPdu(p);
    } catch {
      this.finish(p, { ref: p.req.ref, status: 'rejected', code: hexCode(STATUS.INVMSGLEN) });
      return true;
    }
    const ok = session.send(pdu as unknown as PDU, (resp) => this.onSubmitResp(c, session, resp));
    if (!ok) {
      this.drop(c, 'socket not writable');
      return false;
    }
    p.sentAt = Date.now();
    c.inflight.set(pdu.sequence_number, p);
    this.stats.submitted++;
    return true;
  }

  private onSubmitResp(c: Conn, session: Session, resp: PDU) {
    if (c.session !== session) return;
    const p = c.inflight.get(resp.sequence_number);
    if (!p) return; // already settled (timed out → unconfirmed)
    c.inflight.delete(resp.sequence_number);
    const status = resp.command_status >>> 0;
    const ref = p.req.ref;
    if (status === STATUS.OK && resp.command === 'submit_sm_resp') {
      c.throttleLevel = 0;
      const msgId = String(resp.message_id ?? '');
      if (!msgId) this.log.warn({ ref }, 'SMPP submit_sm_resp without message_id');
      this.finish(p, { ref, status: 'accepted', msgId });
    } else if (RETRY_STATUSES.has(status)) {
      let afterMs: number;
      const again = p.seg && !this.closed && Date.now() - p.queuedAt < this.cfg.queueWaitMs;
      if (status === STATUS.INVBNDSTS) {
        afterMs = this.cfg.reconnectMinMs;
        this.drop(c, 'SMSC says not bound');
      } else {
        const now = Date.now();
        if (now >= c.pausedUntil) {
          // one step per pause: the rest of the window answered throttled too, that is the same event
          c.throttleLevel = Math.min(c.throttleLevel + 1, 5);
          c.pausedUntil = now + this.cfg.throttleMs * 2 ** (c.throttleLevel - 1);
          setTimeout(() => this.schedulePump(), c.pausedUntil - now).unref();
        }
        afterMs = c.pausedUntil - now;
      }
      if (again) {
        // a part of a long message: its other parts may be accepted already, so this one is written again (after the pause)
        this.stats.retried++;
        p.sentAt = 0;
        this.queue.push(p);
      } else this.finish(p, { ref, status: 'retry', code: hexCode(status), afterMs });
    } else {
      this.finish(p, { ref, status: 'rejected', code: hexCode(status || STATUS.SYSERR) });
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
      const code = hexCode(bound ? STATUS.THROTTLED : STATUS.INVBNDSTS);
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
    const { host, port } = this.cfg;
    const socket = this.cfg.tls ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host, rejectUnauthorized: this.cfg.tlsVerify }) : net.connect({ host, port });
    c.socket = socket;
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 30_000);
    const connectTimer = setTimeout(() => {
      this.log.warn({ smsc: describeSmsc(this.cfg), conn: c.id }, 'SMPP connect timed out');
      socket.destroy();
    }, this.cfg.connectTimeoutMs);
    socket.once(this.cfg.tls ? 'secureConnect' : 'connect', () => {
      clearTimeout(connectTimer);
      this.bind(c, socket);
    });
    socket.on('error', (e) => {
      if (c.state !== 'closed') this.log.warn({ smsc: describeSmsc(this.cfg), conn: c.id, err: e.message }, 'SMPP connection error');
    });
    socket.once('close', () => {
      clearTimeout(connectTimer);
      this.onClose(c, socket);
    });
  }

  private bind(c: Conn, socket: net.Socket) {
    const session = new smpp.Session({ socket });
    c.session = session;
    session.on('error', (e: Error) => {
      // a PDU the library cannot parse leaves the session unusable: start again
      this.log.warn({ conn: c.id, err: e.message }, 'SMPP session error');
      socket.destroy();
    });
    session.on('pdu', (pdu: PDU) => this.onPdu(c, session, pdu));
    if (this.readingPaused) session.pause();
    const bindTimer = setTimeout(() => {
      this.log.warn({ conn: c.id }, 'SMPP bind timed out');
      socket.destroy();
    }, BIND_TIMEOUT_MS);
    session.bind_transceiver(
      {
        system_id: this.cfg.systemId,
        password: this.cfg.password,
        system_type: this.cfg.systemType,
        interface_version: 0x34,
      },
      (resp) => {
        clearTimeout(bindTimer);
        if (c.session !== session) return;
        if (resp.command_status !== STATUS.OK) {
          c.failures = Math.max(c.failures, 4); // wrong credentials: do not hammer the SMSC
          this.log.error({ smsc: describeSmsc(this.cfg), conn: c.id, code: hexCode(resp.command_status) }, 'SMPP bind refused');
          socket.destroy();
          return;
        }
        c.state = 'bound';
        c.boundAt = Date.now();
        c.failures = 0;
        c.throttleLevel = 0;
        c.pausedUntil = 0;
        c.enquireSentAt = 0;
        this.log.info({ smsc: describeSmsc(this.cfg), conn: c.id }, 'SMPP bound (transceiver)');
        const waiters = this.readyWaiters;
        this.readyWaiters = [];
        for (const w of waiters) w();
        this.pump();
      },
    );
  }

  private onClose(c: Conn, socket: net.Socket) {
    if (c.socket !== socket) return;
    const wasBound = c.state === 'bound';
    c.session = null;
    c.socket = null;
    // written without an answer: at-most-once, never submitted again
    for (const p of c.inflight.values()) this.finish(p, { ref: p.req.ref, status: 'unconfirmed', code: 'LINK_DOWN' });
    c.inflight.clear();
    if (c.state === 'closed' || this.closed) {
      c.state = 'closed';
      return;
    }
    c.state = 'idle';
    if (wasBound) this.log.warn({ smsc: describeSmsc(this.cfg), conn: c.id }, 'SMPP connection lost');
    const base = Math.min(this.cfg.reconnectMaxMs, this.cfg.reconnectMinMs * 2 ** Math.min(c.failures, 16));
    const delay = Math.round(base * (0.75 + Math.random() * 0.5));
    c.failures++;
    this.stats.reconnects++;
    c.reconnectTimer = setTimeout(() => this.connect(c), delay);
  }

  private drop(c: Conn, why: string) {
    if (!c.socket) return;
    this.log.warn({ conn: c.id, why }, 'SMPP dropping connection');
    c.socket.destroy();
  }

  /** enquire_link every period; no answer within min(10 s, period) → the connection is dropped */
  private enquire() {
    const timeout = Math.min(ENQUIRE_TIMEOUT_MS, this.cfg.enquireLinkMs);
    for (const c of this.conns) {
      if (c.state !== 'bound' || !c.session || c.enquireSentAt) continue;
      const session = c.session;
      c.enquireSentAt = Date.now();
      session.enquire_link({}, () => {
        if (c.session === session) c.enquireSentAt = 0;
      });
      setTimeout(() => {
        if (c.session === session && c.enquireSentAt) this.drop(c, 'enquire_link unanswered');
      }, timeout).unref();
    }
  }

  // ---------------------------------------------------------------- incoming

  private onPdu(c: Conn, session: Session, pdu: PDU) {
    if (pdu.isResponse()) return;
    switch (pdu.command) {
      case 'deliver_sm':
        this.onDeliver(session, pdu);
        return;
      case 'enquire_link':
        session.send(pdu.response());
        return;
      case 'unbind':
        session.send(pdu.response());
        this.log.warn({ conn: c.id }, 'SMSC unbinds');
        c.state = c.state === 'closed' ? 'closed' : 'idle';
        setTimeout(() => c.socket === session.socket && session.socket.destroy(), 100).unref();
        return;
      case 'unknown':
        session.send(pdu.response());
        return;
      default:
        try {
          session.send(pdu.response({ command_status: 0x03 }));
        } catch {
          // a command without a response PDU (alert_notification): nothing to answer
        }
    }
  }

  private onDeliver(session: Session, pdu: PDU) {
    const now = new Date();
    const esm = Number(pdu.esm_class ?? 0) & ESM_TYPE_MASK;
    const text = pduText(pdu);
    if (esm === ESM_RECEIPT) {
      const parsed = parseReceiptText(text, this.cfg.tzMinutes);
      const msgId = String(pdu.receipted_message_id ?? '') || parsed.id;
      let stat = parsed.stat;
      if (typeof pdu.message_state === 'number' && STATE_STAT[pdu.message_state]) stat = STATE_STAT[pdu.message_state];
      if (!msgId || !stat || stat === 'ENROUTE' || stat === 'SCHEDUL') {
        if (!msgId || !stat) this.log.warn({ text: text.slice(0, 200) }, 'SMPP receipt without id or stat: acknowledged and ignored');
        session.send(pdu.response());
        return;
      }
      // ACCEPTD: final, read on behalf of the subscriber (SMPP 3.4 5.2.28): counted as delivered
      const delivered = stat === 'DELIVRD' || stat === 'ACCEPTD';
      const err = parsed.err || (pdu.network_error_code ? Buffer.from(pdu.network_error_code).toString('hex') : '');
      const readings = idReadings(msgId, this.cfg.receiptIds);
      const phone = String(pdu.source_addr ?? '').slice(0, 32);
      this.receipts.push({
        item: { msgId, delivered, stat, err, doneAt: parsed.done ?? now, ...(readings.length ? { readings } : {}), ...(phone ? { phone } : {}) },
        session,
        pdu,
      });
      this.stats.receipts++;
      this.scheduleFlush('receipts');
    } else if (esm === 0) {
      const ref = this.refName ? pdu[this.refName] : undefined;
      const smscRef = ref ? `ref:${String(ref).slice(0, 64)}` : `${pdu.source_addr}-${pdu.destination_addr}-${now.getTime()}-${pdu.sequence_number}`;
      this.mos.push({ item: { from: String(pdu.source_addr ?? ''), to: String(pdu.destination_addr ?? ''), text, smscRef, receivedAt: now }, session, pdu });
      this.stats.mo++;
      this.scheduleFlush('mos');
    } else {
      // intermediate notifications, SME acknowledgements: nothing to record
      session.send(pdu.response());
      return;
    }
    this.checkBackpressure();
  }

  private checkBackpressure() {
    const buffered = this.receipts.length + this.mos.length;
    if (!this.readingPaused && buffered >= MAX_BUFFERED_DELIVERIES) {
      this.readingPaused = true;
      for (const c of this.conns) c.session?.pause();
    } else if (this.readingPaused && buffered < MAX_BUFFERED_DELIVERIES / 2) {
      this.readingPaused = false;
      for (const c of this.conns) c.session?.resume();
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
    let status = 0;
    try {
      await handler(taken.map((d) => d.item));
    } catch (e) {
      status = STATUS.X_T_APPN;
      this.log.error({ err: (e as Error).message, count: taken.length }, `SMPP ${kind === 'receipts' ? 'receipt' : 'MO'} handler failed: the SMSC will deliver them again`);
    }
    for (const d of taken) {
      corkForTick(d.session.socket);
      d.session.send(encodeResp('deliver_sm_resp', d.pdu.sequence_number, status) as unknown as PDU);
    }
    this.flushing[kind]--;
    this.checkBackpressure();
    this.scheduleFlush(kind);
  }

  // ---------------------------------------------------------------- close

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.sweepTimer);
    clearInterval(this.enquireTimer);
    for (const t of Object.values(this.flushTimers)) if (t) clearTimeout(t);
    // not written: the caller may try later
    while (this.qHead < this.queue.length) {
      const p = this.queue[this.qHead++];
      this.finish(p, { ref: p.req.ref, status: 'retry', code: hexCode(STATUS.INVBNDSTS), afterMs: this.cfg.reconnectMinMs });
    }
    this.queue = [];
    this.qHead = 0;
    await Promise.all(this.conns.map((c) => this.closeConn(c)));
  }

  private closeConn(c: Conn): Promise<void> {
    if (c.reconnectTimer) clearTimeout(c.reconnectTimer);
    const socket = c.socket;
    const session = c.session;
    const wasBound = c.state === 'bound';
    c.state = 'closed';
    if (!socket) return Promise.resolve();
    return new Promise((resolve) => {
      const done = setTimeout(() => socket.destroy(), 1000);
      socket.once('close', () => {
        clearTimeout(done);
        resolve();
      });
      if (wasBound && session && !socket.destroyed) {
        // in-flight submits get a last chance to be answered before unbind_resp
        const ok = session.unbind({}, () => socket.end());
        if (!ok) socket.destroy();
      } else socket.destroy();
    });
  }
}

/**
 * One result for a request sent as several submits: accepted (with every part's id) when all parts
 * were; else the first part refused; else unconfirmed (a part without an answer, or parts accepted
 * beside parts not written: sending it again would send those twice); else (no part accepted) retry.
 */
export function combineParts(ref: number, results: readonly SubmitResult[]): SubmitResult {
  if (results.every((r) => r.status === 'accepted' && r.msgId)) {
    const parts = results.map((r) => (r as { msgId: string }).msgId);
    return { ref, status: 'accepted', msgId: parts[0], parts };
  }
  const refused = results.find((r) => r.status === 'rejected');
  if (refused) return { ...refused, ref };
  const lost = results.find((r) => r.status === 'unconfirmed');
  if (lost) return { ...lost, ref };
  if (results.some((r) => r.status === 'accepted')) return { ref, status: 'unconfirmed', code: 'PARTIAL' };
  const retry = results.filter((r): r is Extract<SubmitResult, { status: 'retry' }> => r.status === 'retry');
  return { ref, status: 'retry', code: retry[0]?.code ?? hexCode(STATUS.THROTTLED), afterMs: Math.max(0, ...retry.map((r) => r.afterMs)) };
}

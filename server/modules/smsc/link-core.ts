/**
 * The protocol-neutral machinery of a carrier link (docs/api-dispatch.md "SMPP link and simulator",
 * "CMPP link"). A protocol is a codec, a door and a link; its link is a `LinkCore` subclass
 * (client.ts SMPP, cmpp-client.ts CMPP) that supplies only what is its own:
 * - `prepare` (checks and encoding of a request: how many submits it takes, or the code it is
 *   refused with), `write` (one submit of a request on a connection) and reading its answer
 *   (then `accept` / `throttle` + `retry` / `finish`);
 * - `connect` (socket + bind / CONNECT; `bound` when done), `probe` (the keep-alive packet),
 *   `goodbye` (unbind / TERMINATE on close);
 * - turning a received deliver into a Receipt or MoMessage (`received`) and `acknowledge`
 *   (the deliver responses of a batch, after the handler).
 * The core owns the rest: the submit queue (qHead + compact), the pump over bound connections
 * (round-robin, up to 32 a connection at a time, corked), the batch results and stats (`finish`,
 * long-message parts combined by `combineParts`), the pause on throttling and the re-write of a
 * part within queueWaitMs, the sweep (unanswered submits → unconfirmed, requests not written in
 * time → retry), the keep-alive schedule and its timeout, reconnect back-off, the receipt/MO
 * batcher with its read back-pressure, and close.
 * Hot path (the SMPP link reaches ~14,000 messages/s): `pump` and `finish` allocate nothing per
 * message; a Pending is the only object a request's submit costs here.
 *
 * `FramedLink` (below) is the LinkCore of the links that read their own frames off a plain socket
 * (CMPP, SMGP, SGIP): the connection and its login handshake, the submit's write and its answer,
 * the request checks and the deliver answers, so that each of those links is its codec and session.
 */
import net from 'node:net';
import type { MoMessage, Receipt, SmscLink, SubmitRequest, SubmitResult } from './types';
import { describeSmsc, type SmscConfig } from './config';
import { messageOf } from '../../lib/error-code';

export interface LinkLog {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

export const silentLog: LinkLog = { info() {}, warn() {}, error() {} };

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

/** keep-alive unanswered this long (or the period when shorter) → the connection is dropped */
const KEEPALIVE_TIMEOUT_MS = 10_000;
/**
 * deliveries waiting for a handler beyond this: stop reading from the carrier until half have been
 * handled. Normally the carrier's own window of unacknowledged delivers keeps the buffer far below;
 * this only bounds memory (while reading is paused, submit answers wait too).
 */
const MAX_BUFFERED_DELIVERIES = 100_000;
/** submits written to one connection in a row by the pump, so several connections share a batch */
const PUMP_RUN = 32;

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
/** one submit to write (a request, or one part of it); S: the protocol's encoded text */
export interface Pending<S> {
  req: SubmitRequest;
  batch: BatchState;
  index: number;
  queuedAt: number;
  sentAt: number;
  /** the text's parts (undefined: not encoded, the request was settled before) */
  split?: S;
  /** a part of a multi-part request: seq 1..n */
  seg?: { m: Multi; seq: number };
}

/** a received receipt or MO waiting for its handler; the protocol adds what its acknowledgement needs */
export interface Delivery<T> {
  item: T;
}

export type ConnState = 'idle' | 'connecting' | 'bound' | 'closed';

/** one connection to the carrier; a protocol extends it with its own session state */
export class LinkConn<S> {
  state: ConnState = 'idle';
  socket: net.Socket | null = null;
  readonly inflight = new Map<number, Pending<S>>();
  pausedUntil = 0;
  throttleLevel = 0;
  failures = 0;
  /** the unanswered keep-alive's token (nonzero), 0 none */
  probe = 0;
  reconnectTimer: NodeJS.Timeout | null = null;
  constructor(readonly id: number) {}
  /** the socket closed: forget what belonged to it */
  detach(): void {
    this.socket = null;
  }
  pauseReading(): void {
    this.socket?.pause();
  }
  resumeReading(): void {
    this.socket?.resume();
  }
}

/** how a protocol's link names things in its log lines and results */
export interface LinkWords {
  /** 'SMPP' | 'CMPP' */
  link: string;
  /** what a ready connection is: 'bound' | 'connected' */
  ready: string;
  receipt: string;
  mo: string;
  /** who delivers again when a handler failed: 'SMSC' | 'gateway' */
  peer: string;
  /** the keep-alive packet, in "… unanswered" */
  probe: string;
  /** result codes: a request taken after close, and one not written within queueWaitMs while bound / while not bound */
  closedCode: string;
  throttledCode: string;
  unboundCode: string;
}

type Kind = 'receipts' | 'mos';

export abstract class LinkCore<
  S,
  C extends LinkConn<S>,
  R extends Delivery<Receipt>,
  M extends Delivery<MoMessage>,
> implements SmscLinkHandle {
  protected readonly conns: C[];
  protected closed = false;
  /** reading from the carrier is paused (too many deliveries wait for a handler): a new connection starts paused */
  protected readingPaused = false;
  readonly stats: SmscLinkStats = {
    submitted: 0,
    accepted: 0,
    rejected: 0,
    retried: 0,
    unconfirmed: 0,
    receipts: 0,
    mo: 0,
    reconnects: 0,
    queued: 0,
    inflight: 0,
  };
  private queue: Pending<S>[] = [];
  private qHead = 0;
  private pumpScheduled = false;
  private sweepTimer: NodeJS.Timeout | null = null;
  private probeTimer: NodeJS.Timeout | null = null;
  private receiptHandler: ((r: Receipt[]) => Promise<void>) | null = null;
  private moHandler: ((m: MoMessage[]) => Promise<void>) | null = null;
  private receipts: R[] = [];
  private mos: M[] = [];
  /** batches in the handler now, per kind (at most receiptFlushes) */
  private flushing = { receipts: 0, mos: 0 };
  private flushTimers: { receipts: NodeJS.Timeout | null; mos: NodeJS.Timeout | null } = { receipts: null, mos: null };
  private readyWaiters: (() => void)[] = [];
  private rr = 0;
  private readonly textCache = new Map<string, S>();

  protected constructor(
    protected readonly cfg: SmscConfig,
    protected readonly log: LinkLog,
    protected readonly words: LinkWords,
    newConn: (id: number) => C,
  ) {
    this.conns = Array.from({ length: Math.max(1, cfg.connections) }, (_, i) => newConn(i));
  }

  // ---------------------------------------------------------------- the protocol's part

  /** checks and encodes a request (p.split): the number of submits it takes, or the code it is refused with */
  protected abstract prepare(p: Pending<S>): number | string;
  /** the text's parts (a RangeError or the codec's error when it cannot be sent) */
  protected abstract encodeText(text: string): S;
  /** writes one submit (records it in c.inflight, stats.submitted); false: nothing written, the connection is going down */
  protected abstract write(c: C, p: Pending<S>): boolean;
  /** opens the connection (state 'connecting', c.socket); calls `bound` once usable and `closedConn` when the socket closes */
  protected abstract connect(c: C): void;
  /** writes a keep-alive on a bound connection: its token (nonzero), cleared in c.probe by the answer; 0: the protocol has none, nothing written */
  protected abstract sendProbe(c: C): number;
  /** a bound connection at close: unbind / terminate (the socket is destroyed after 1 s regardless) */
  protected abstract goodbye(c: C, socket: net.Socket, wasBound: boolean): void;
  /** answers a batch of deliveries after the handler: `failed` → the carrier delivers them again */
  protected abstract acknowledge(taken: (R | M)[], failed: boolean): void;

  /** starts the connections and timers: the subclass's constructor calls it last */
  protected start(): void {
    const cfg = this.cfg;
    this.sweepTimer = setInterval(
      () => this.sweep(),
      Math.min(1000, Math.max(50, Math.floor(cfg.queueWaitMs / 4) || 50)),
    );
    this.sweepTimer.unref();
    this.probeTimer = setInterval(() => this.keepAlive(), cfg.enquireLinkMs);
    this.probeTimer.unref();
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
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `${this.words.link} link ${describeSmsc(this.cfg)} not ${this.words.ready} after ${timeoutMs} ms`,
            ),
          ),
        timeoutMs,
      );
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
        const p: Pending<S> = { req, batch: state, index, queuedAt: now, sentAt: 0 };
        if (this.closed)
          return this.finish(p, {
            ref: req.ref,
            status: 'retry',
            code: this.words.closedCode,
            afterMs: this.cfg.reconnectMinMs,
          });
        const n = this.prepare(p);
        if (typeof n === 'string') return this.finish(p, { ref: req.ref, status: 'rejected', code: n });
        if (n === 1) this.queue.push(p);
        else {
          const m: Multi = { results: new Array<SubmitResult>(n), left: n };
          for (let seq = 1; seq <= n; seq++) this.queue.push({ ...p, seg: { m, seq } });
        }
      });
      this.pump();
    });
  }

  /** the text's parts: a task's messages share their text, so it is encoded once (bounded cache) */
  protected encoded(text: string): S {
    let e = this.textCache.get(text);
    if (!e) {
      if (this.textCache.size >= 256) this.textCache.clear();
      this.textCache.set(text, (e = this.encodeText(text)));
    }
    return e;
  }

  /** a submit's (or a request's) outcome: counted, combined with its sibling parts, given to its batch */
  protected finish(p: Pending<S>, result: SubmitResult): void {
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

  /** the carrier took a submit: the connection's throttling is over */
  protected accept(c: C, p: Pending<S>, msgId: string): void {
    c.throttleLevel = 0;
    this.finish(p, { ref: p.req.ref, status: 'accepted', msgId });
  }

  /** the carrier throttles: the connection pauses (one back-off step per pause); the ms left of the pause */
  protected throttle(c: C): number {
    const now = Date.now();
    if (now >= c.pausedUntil) {
      // one step per pause: the rest of the window answered throttled too, that is the same event
      c.throttleLevel = Math.min(c.throttleLevel + 1, 5);
      c.pausedUntil = now + this.cfg.throttleMs * 2 ** (c.throttleLevel - 1);
      setTimeout(() => this.schedulePump(), c.pausedUntil - now).unref();
    }
    return c.pausedUntil - now;
  }

  /** a submit the carrier did not take: a part of a long text is written again within queueWaitMs, anything else is 'retry' */
  protected retry(p: Pending<S>, code: string, afterMs: number): void {
    if (p.seg && !this.closed && Date.now() - p.queuedAt < this.cfg.queueWaitMs) {
      // its other parts may be accepted already, so this one is written again (after the pause)
      this.stats.retried++;
      p.sentAt = 0;
      this.queue.push(p);
    } else this.finish(p, { ref: p.req.ref, status: 'retry', code, afterMs });
  }

  protected schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  /** writes queued submits over the usable connections, round-robin, corked */
  protected pump(): void {
    if (this.closed || this.qHead >= this.queue.length) return this.compact();
    const now = Date.now();
    const window = this.cfg.window;
    const usable = this.conns.filter((c) => c.state === 'bound' && c.pausedUntil <= now && c.inflight.size < window);
    if (!usable.length) return;
    for (const c of usable) c.socket?.cork();
    try {
      let progress = true;
      while (progress && this.qHead < this.queue.length) {
        progress = false;
        for (let i = 0; i < usable.length && this.qHead < this.queue.length; i++) {
          const c = usable[(this.rr + i) % usable.length];
          let n = Math.min(PUMP_RUN, window - c.inflight.size);
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
      const code = bound ? this.words.throttledCode : this.words.unboundCode;
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

  /** the connection is usable (bound / connected): ready waiters are woken, the queue pumped */
  protected bound(c: C): void {
    c.state = 'bound';
    c.failures = 0;
    c.throttleLevel = 0;
    c.pausedUntil = 0;
    c.probe = 0;
    const waiters = this.readyWaiters;
    this.readyWaiters = [];
    for (const w of waiters) w();
    this.pump();
  }

  /** the connection's socket closed: its unanswered submits are unconfirmed; reconnect with back-off */
  protected closedConn(c: C, socket: net.Socket): void {
    if (c.socket !== socket) return;
    const wasBound = c.state === 'bound';
    c.detach();
    // written without an answer: at-most-once, never submitted again
    for (const p of c.inflight.values()) this.finish(p, { ref: p.req.ref, status: 'unconfirmed', code: 'LINK_DOWN' });
    c.inflight.clear();
    if (c.state === 'closed' || this.closed) {
      c.state = 'closed';
      return;
    }
    c.state = 'idle';
    if (wasBound) this.log.warn({ smsc: describeSmsc(this.cfg), conn: c.id }, `${this.words.link} connection lost`);
    const base = Math.min(this.cfg.reconnectMaxMs, this.cfg.reconnectMinMs * 2 ** Math.min(c.failures, 16));
    const delay = Math.round(base * (0.75 + Math.random() * 0.5));
    c.failures++;
    this.stats.reconnects++;
    c.reconnectTimer = setTimeout(() => {
      c.reconnectTimer = null;
      this.connect(c);
    }, delay);
  }

  protected drop(c: C, why: string): void {
    if (!c.socket) return;
    this.log.warn({ conn: c.id, why }, `${this.words.link} dropping connection`);
    c.socket.destroy();
  }

  /** a keep-alive every period on each bound connection; no answer within min(10 s, period) → the connection is dropped */
  private keepAlive() {
    const timeout = Math.min(KEEPALIVE_TIMEOUT_MS, this.cfg.enquireLinkMs);
    for (const c of this.conns) {
      if (c.state !== 'bound' || !c.socket || c.probe) continue;
      const socket = c.socket;
      const token = this.sendProbe(c);
      if (!token) continue; // a protocol without a keep-alive packet (SGIP)
      c.probe = token;
      setTimeout(() => {
        if (c.socket === socket && c.probe === token) this.drop(c, `${this.words.probe} unanswered`);
      }, timeout).unref();
    }
  }

  // ---------------------------------------------------------------- incoming

  /** a receipt / MO read from the carrier: kept for its handler, acknowledged after it */
  protected received(kind: 'receipts', d: R): void;
  protected received(kind: 'mos', d: M): void;
  protected received(kind: Kind, d: R | M): void {
    if (kind === 'receipts') {
      this.receipts.push(d as R);
      this.stats.receipts++;
    } else {
      this.mos.push(d as M);
      this.stats.mo++;
    }
    this.scheduleFlush(kind);
    this.checkBackpressure();
  }

  private checkBackpressure() {
    const buffered = this.receipts.length + this.mos.length;
    if (!this.readingPaused && buffered >= MAX_BUFFERED_DELIVERIES) {
      this.readingPaused = true;
      for (const c of this.conns) c.pauseReading();
      this.readingChanged(true);
    } else if (this.readingPaused && buffered < MAX_BUFFERED_DELIVERIES / 2) {
      this.readingPaused = false;
      for (const c of this.conns) c.resumeReading();
      this.readingChanged(false);
    }
  }

  /** reading from the carrier paused / resumed: a protocol that receives on other sockets than its connections' (SGIP's callback listener) follows */
  protected readingChanged(paused: boolean): void {
    void paused;
  }

  onReceipts(handler: (r: Receipt[]) => Promise<void>): void {
    this.receiptHandler = handler;
    this.scheduleFlush('receipts');
  }

  onMo(handler: (m: MoMessage[]) => Promise<void>): void {
    this.moHandler = handler;
    this.scheduleFlush('mos');
  }

  private scheduleFlush(kind: Kind) {
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

  private async flush(kind: Kind) {
    const handler = (kind === 'receipts' ? this.receiptHandler : this.moHandler) as
      ((items: unknown[]) => Promise<void>) | null;
    if (this.flushing[kind] >= this.cfg.receiptFlushes || !handler) return; // kept until a handler is registered
    const buf: (R | M)[] = this[kind];
    if (!buf.length) return;
    this.flushing[kind]++;
    const taken = buf.splice(0, this.cfg.receiptBatch);
    let failed = false;
    try {
      await handler(taken.map((d) => d.item));
    } catch (e) {
      failed = true;
      const what = kind === 'receipts' ? this.words.receipt : this.words.mo;
      this.log.error(
        { err: messageOf(e), count: taken.length },
        `${this.words.link} ${what} handler failed: the ${this.words.peer} will deliver them again`,
      );
    }
    this.acknowledge(taken, failed);
    this.flushing[kind]--;
    this.checkBackpressure();
    this.scheduleFlush(kind);
  }

  // ---------------------------------------------------------------- close

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    if (this.probeTimer) clearInterval(this.probeTimer);
    for (const t of Object.values(this.flushTimers)) if (t) clearTimeout(t);
    // not written: the caller may try later
    while (this.qHead < this.queue.length) {
      const p = this.queue[this.qHead++];
      this.finish(p, {
        ref: p.req.ref,
        status: 'retry',
        code: this.words.closedCode,
        afterMs: this.cfg.reconnectMinMs,
      });
    }
    this.queue = [];
    this.qHead = 0;
    await Promise.all(this.conns.map((c) => this.closeConn(c)));
  }

  private closeConn(c: C): Promise<void> {
    if (c.reconnectTimer) clearTimeout(c.reconnectTimer);
    const socket = c.socket;
    const wasBound = c.state === 'bound';
    c.state = 'closed';
    if (!socket) return Promise.resolve();
    return new Promise((resolve) => {
      // in-flight submits get a last chance to be answered before the carrier's goodbye
      const done = setTimeout(() => socket.destroy(), 1000);
      socket.once('close', () => {
        clearTimeout(done);
        resolve();
      });
      this.goodbye(c, socket, wasBound);
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
  // (no parts at all: SMPP's throttled, as before the core was shared)
  return {
    ref,
    status: 'retry',
    code: retry[0]?.code ?? '0x00000058',
    afterMs: Math.max(0, ...retry.map((r) => r.afterMs)),
  };
}

// ---------------------------------------------------------------- the framed links (CMPP, SMGP, SGIP)

/** a login not answered within the connect timeout plus this long: the connection is dropped */
const LOGIN_TIMEOUT_MS = 10_000;
/** the longest text a framed link takes (as the SMPP link: 4,000 characters) */
const TEXT_MAX = 4000;

/** a framed link's connection: its own running sequence (CMPP, SMGP; SGIP numbers from its node's source) */
export class FramedConn<S> extends LinkConn<S> {
  seq = 0;
  nextSeq(): number {
    this.seq = this.seq >= 0x7fffffff ? 1 : this.seq + 1;
    return this.seq;
  }
}

/** what a framed link says beyond LinkWords: its login packet's name and the codes of what it refuses itself */
export interface FramedLinkWords extends LinkWords {
  /** in "… timed out" / "… refused": 'connect' | 'login' | 'bind' */
  login: string;
  /** a destination that cannot be one, a source that cannot be one, a text too long, a submit the codec could not write */
  badDestinationCode: string;
  badSourceCode: string;
  tooLongCode: string;
  badStructureCode: string;
  /** the most digits of a destination as the request gives it (after an optional +) */
  destinationDigits: number;
}

/** how a submit was answered: accepted, throttled (the connection pauses, it is written again), or refused */
export type SubmitAnswer = 'accepted' | 'throttled' | 'refused';

/**
 * A link reading its own frames (CMPP, SMGP, SGIP). The protocol gives its splitter and decoder,
 * its login packet and what its answer means, a submit's packet, its session's other packets
 * (`onPacket`) and its goodbye; this class owns the socket and the login handshake (the login
 * timer, the answer matched by its sequence, a refusal backing off high), writing a submit and
 * settling its answer, the request checks, the source number and the deliver answers.
 */
export abstract class FramedLink<
  S extends { contents: Buffer[] },
  C extends FramedConn<S>,
  R extends Delivery<Receipt>,
  M extends Delivery<MoMessage>,
  P,
> extends LinkCore<S, C, R, M> {
  protected constructor(
    cfg: SmscConfig,
    log: LinkLog,
    protected readonly words: FramedLinkWords,
    newConn: (id: number) => C,
    /** the platform's prefix of a request's `from`, replaced by the channel's own number */
    protected readonly prefix: string,
    /** the channel's own number (CMPP src_id, SMGP src, SGIP sp_number) */
    private readonly ownNumber: string,
  ) {
    super(cfg, log, words, newConn);
    this.destination = new RegExp(`^\\+?\\d{1,${words.destinationDigits}}$`);
  }
  private readonly destination: RegExp;

  // ---------------------------------------------------------------- the protocol's part

  /** cuts the connection's byte stream into packets (throws when it cannot: the connection is closed) */
  protected abstract splitter(): { push(chunk: Buffer): Buffer[] };
  /** one packet of the connection (throws when unreadable: the connection is closed) */
  protected abstract decode(c: C, frame: Buffer): P;
  /** the login packet for a new connection and the sequence its answer carries */
  protected abstract hello(c: C): { seq: number; packet: Buffer };
  /** the sequence of a login answer; null for any other packet */
  protected abstract loginAnswerSeq(p: P): number | null;
  /** the login's answer: `loggedIn` or `loginRefused` */
  protected abstract onLoginAnswer(c: C, socket: net.Socket, p: P): void;
  /** a packet the connection serves before its login is answered (the gateway's goodbye, its keep-alive) */
  protected abstract beforeLogin(p: P): boolean;
  /** any other packet of the connection */
  protected abstract onPacket(c: C, socket: net.Socket, p: P): void;
  /** the sequence the next submit on this connection goes with (its answer carries it) */
  protected abstract submitSeq(c: C): number;
  /** one submit's packet with that sequence (throws when the codec cannot write it: refused) */
  protected abstract submitPacket(c: C, p: Pending<S>, seq: number): Buffer;
  /** the goodbye on a bound connection at close (TERMINATE, EXIT, UNBIND) */
  protected abstract farewell(c: C): Buffer;

  // ---------------------------------------------------------------- requests

  /** the request's own checks, then its text split once: the number of submits it takes, or its code */
  protected prepare(p: Pending<S>): number | string {
    const problem = this.localProblem(p.req);
    if (problem) return problem;
    try {
      p.split = this.encoded(p.req.text);
    } catch {
      return this.words.tooLongCode;
    }
    return p.split.contents.length;
  }

  /** the source a submit carries: the channel's number + what `from` carries beyond the platform's prefix */
  protected sourceOf(from: string): string {
    const f = typeof from === 'string' ? from : '';
    const rest = this.prefix && f.startsWith(this.prefix) ? f.slice(this.prefix.length) : this.ownNumber ? '' : f;
    return `${this.ownNumber}${rest}`;
  }

  /** an uplink's destination as the dispatcher routes it: the channel's number + extension → the platform's prefix + extension */
  protected uplinkTo(dest: string): string {
    return this.ownNumber && dest.startsWith(this.ownNumber)
      ? `${this.prefix}${dest.slice(this.ownNumber.length)}`
      : dest;
  }

  /** a request that cannot be valid: its code */
  private localProblem(req: SubmitRequest): string | null {
    if (typeof req.to !== 'string' || !this.destination.test(req.to)) return this.words.badDestinationCode;
    if (typeof req.from !== 'string' || !/^\d*$/.test(req.from) || this.sourceOf(req.from).length > 21)
      return this.words.badSourceCode;
    if (typeof req.text !== 'string' || req.text.length > TEXT_MAX) return this.words.tooLongCode;
    return null;
  }

  /** the text's part this submit carries (`split`: the request's text split, p.split or encoded again): a long text's concatenation reference is the request's, so neighbours differ */
  protected partContent(p: Pending<S>, split: S): Buffer {
    const content = split.contents[(p.seg?.seq ?? 1) - 1];
    if (split.contents.length === 1) return content;
    const own = Buffer.from(content);
    own[3] = p.req.ref & 0xff;
    return own;
  }

  protected write(c: C, p: Pending<S>): boolean {
    const socket = c.socket;
    if (!socket || !socket.writable) {
      this.drop(c, 'socket not writable');
      return false;
    }
    const seq = this.submitSeq(c);
    let packet: Buffer;
    try {
      packet = this.submitPacket(c, p, seq);
    } catch {
      this.finish(p, { ref: p.req.ref, status: 'rejected', code: this.words.badStructureCode });
      return true;
    }
    socket.write(packet);
    p.sentAt = Date.now();
    c.inflight.set(seq, p);
    this.stats.submitted++;
    return true;
  }

  /**
   * A submit's answer: `idOrCode` the message id when accepted, else the result code (nothing
   * when the submit was settled already: timed out → unconfirmed).
   */
  protected submitAnswered(c: C, seq: number, answer: SubmitAnswer, idOrCode: string): void {
    const p = c.inflight.get(seq);
    if (!p) return;
    c.inflight.delete(seq);
    if (answer === 'accepted') this.accept(c, p, this.acceptedId(p, idOrCode));
    else if (answer === 'throttled') this.retry(p, idOrCode, this.throttle(c));
    else this.finish(p, { ref: p.req.ref, status: 'rejected', code: idOrCode });
    this.schedulePump();
  }

  /** the message id of an accepted submit: the answer's (SGIP: the sequence it was written with) */
  protected acceptedId(p: Pending<S>, answered: string): string {
    void p;
    return answered;
  }

  // ---------------------------------------------------------------- connections

  protected connect(c: C): void {
    if (this.closed) return;
    c.state = 'connecting';
    c.reconnectTimer = null;
    this.connecting(c);
    const w = this.words;
    const socket = net.connect({ host: this.cfg.host, port: this.cfg.port });
    c.socket = socket;
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 30_000);
    const splitter = this.splitter();
    let loginSeq = 0;
    const loginTimer = setTimeout(() => {
      this.log.warn({ smsc: describeSmsc(this.cfg), conn: c.id }, `${w.link} ${w.login} timed out`);
      socket.destroy();
    }, this.cfg.connectTimeoutMs + LOGIN_TIMEOUT_MS);
    socket.once('connect', () => {
      const h = this.hello(c);
      loginSeq = h.seq;
      socket.write(h.packet);
    });
    socket.on('data', (chunk: Buffer) => {
      if (c.socket !== socket) return;
      let packets: Buffer[];
      try {
        packets = splitter.push(chunk);
      } catch (e) {
        this.log.warn({ conn: c.id, err: messageOf(e) }, `${w.link} stream unreadable: dropping the connection`);
        socket.destroy();
        return;
      }
      for (const b of packets) {
        if (c.socket !== socket || socket.destroyed) return;
        try {
          const pkt = this.decode(c, b);
          const answered = this.loginAnswerSeq(pkt);
          if (answered !== null) {
            clearTimeout(loginTimer);
            if (c.state !== 'connecting' || answered !== loginSeq) continue;
            this.onLoginAnswer(c, socket, pkt);
          } else if (c.state !== 'connecting' || this.beforeLogin(pkt)) this.onPacket(c, socket, pkt);
        } catch (e) {
          this.log.warn({ conn: c.id, err: messageOf(e) }, `${w.link} packet unreadable: dropping the connection`);
          socket.destroy();
          return;
        }
      }
    });
    socket.on('error', (e) => {
      if (c.state !== 'closed')
        this.log.warn({ smsc: describeSmsc(this.cfg), conn: c.id, err: e.message }, `${w.link} connection error`);
    });
    socket.once('close', () => {
      clearTimeout(loginTimer);
      this.closedConn(c, socket);
    });
    if (this.readingPaused) socket.pause();
  }

  /** a new connection is being made (before its socket) */
  protected connecting(c: C): void {
    void c;
  }

  /** the login was accepted: logged, the connection usable */
  protected loggedIn(c: C, detail: object = {}): void {
    this.log.info({ smsc: describeSmsc(this.cfg), conn: c.id, ...detail }, `${this.words.link} ${this.words.ready}`);
    this.bound(c);
  }

  /** the login was refused (wrong credentials or version): the back-off starts high, so the gateway is not hammered */
  protected loginRefused(c: C, socket: net.Socket, detail: object): void {
    c.failures = Math.max(c.failures, 4);
    this.log.error(
      { smsc: describeSmsc(this.cfg), conn: c.id, ...detail },
      `${this.words.link} ${this.words.login} refused`,
    );
    socket.destroy();
  }

  /** the gateway says goodbye (its answer written by the caller): the connection is made again */
  protected peerLeaves(c: C, socket: net.Socket): void {
    if (c.state !== 'closed') c.state = 'idle';
    setTimeout(() => c.socket === socket && socket.destroy(), 100).unref();
  }

  protected goodbye(c: C, socket: net.Socket, wasBound: boolean): void {
    // in-flight submits get a last chance to be answered before the goodbye's answer
    if (wasBound && socket.writable) socket.write(this.farewell(c));
    else socket.destroy();
  }

  /** the answers of a batch of deliveries, corked per socket; one whose socket is gone (`live` false) is left: the gateway delivers it again */
  protected answerDeliveries<D extends { socket: net.Socket }>(
    taken: D[],
    live: (d: D) => boolean,
    answer: (d: D) => Buffer,
  ): void {
    const sockets = new Set<net.Socket>();
    for (const d of taken) {
      if (!live(d) || !d.socket.writable) continue;
      if (!sockets.has(d.socket)) {
        sockets.add(d.socket);
        d.socket.cork();
      }
      d.socket.write(answer(d));
    }
    for (const s of sockets) s.uncork();
  }
}

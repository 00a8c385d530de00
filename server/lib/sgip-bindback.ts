/**
 * SGIP's second connection, from the side that binds back: an SMG (the embedded simulator) or the
 * platform's SGIP door binds to the other side's listener (Login_Type 2) to hand it SGIP_REPORT and
 * SGIP_DELIVER. One `SgipBindBack` is one such listener: it connects on the first packet, binds,
 * keeps up to `window` packets unanswered, and unbinds after `idleMs` without traffic.
 *
 * send() resolves with the Result of the packet's response (matched by its sequence number), and
 * rejects (SgipBindBackError) when the listener cannot be reached, refuses the bind, closes the
 * connection or leaves the packet unanswered for `respTimeoutMs`: the caller keeps the packet and
 * tries again later. Nothing here retries by itself.
 */
import net from 'node:net';
import {
  CMD,
  decodePacket,
  encodeBind,
  encodeUnbind,
  encodeUnbindResp,
  LOGIN_TYPE,
  RESULT,
  SgipFrameSplitter,
  type SeqSource,
  type SgipSeq,
} from './sgip-pdu';

export interface SgipBindBackOptions {
  host: string;
  port: number;
  loginName: string;
  loginPassword: string;
  seqs: SeqSource;
  /** packets unanswered at once */
  window?: number;
  connectTimeoutMs?: number;
  respTimeoutMs?: number;
  /** unbind after this long without a packet to send or an answer due */
  idleMs?: number;
  log?: { warn(obj: unknown, msg?: string): void };
}

export class SgipBindBackError extends Error {
  constructor(
    readonly reason: 'connect' | 'bind' | 'closed' | 'timeout' | 'unwritable',
    message: string,
  ) {
    super(message);
    this.name = 'SgipBindBackError';
  }
}

interface Waiting {
  build: (seq: SgipSeq) => Buffer;
  resolve: (result: number) => void;
  reject: (e: Error) => void;
}

interface Sent extends Waiting {
  at: number;
}

export class SgipBindBack {
  private socket: net.Socket | null = null;
  private state: 'idle' | 'connecting' | 'bound' = 'idle';
  private readonly waiting: Waiting[] = [];
  private readonly inflight = new Map<number, Sent>();
  private idleTimer: NodeJS.Timeout | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly window: number;
  private readonly connectTimeoutMs: number;
  private readonly respTimeoutMs: number;
  private readonly idleMs: number;
  /** binds done (counted for tests and logs) */
  binds = 0;

  constructor(private readonly o: SgipBindBackOptions) {
    this.window = o.window ?? 16;
    this.connectTimeoutMs = o.connectTimeoutMs ?? 5000;
    this.respTimeoutMs = o.respTimeoutMs ?? 10_000;
    this.idleMs = o.idleMs ?? 5000;
  }

  get bound(): boolean {
    return this.state === 'bound';
  }

  /** packets waiting or unanswered */
  get pending(): number {
    return this.waiting.length + this.inflight.size;
  }

  /** the Result the listener answers the packet `build(seq)` makes with */
  send(build: (seq: SgipSeq) => Buffer): Promise<number> {
    if (this.closed) return Promise.reject(new SgipBindBackError('closed', 'closed'));
    return new Promise((resolve, reject) => {
      this.waiting.push({ build, resolve, reject });
      if (this.state === 'idle') this.connect();
      else this.pump();
    });
  }

  /** unbinds (when bound) and fails what is waiting */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const s = this.socket;
    if (s && this.state === 'bound' && s.writable) {
      s.write(encodeUnbind(this.o.seqs.next()));
      await new Promise<void>((r) => {
        const t = setTimeout(() => (s.destroy(), r()), 500);
        s.once('close', () => (clearTimeout(t), r()));
      });
    }
    this.fail(new SgipBindBackError('closed', 'closed'));
  }

  private connect() {
    this.state = 'connecting';
    const socket = net.connect({ host: this.o.host, port: this.o.port });
    this.socket = socket;
    socket.setNoDelay(true);
    const splitter = new SgipFrameSplitter();
    let bindSeq: SgipSeq | null = null;
    const timer = setTimeout(() => {
      if (this.socket === socket && this.state !== 'bound')
        this.drop(
          socket,
          new SgipBindBackError(
            'connect',
            `no SGIP_BIND_RESP from ${this.o.host}:${this.o.port} within ${this.connectTimeoutMs} ms`,
          ),
        );
    }, this.connectTimeoutMs);
    socket.once('connect', () => {
      bindSeq = this.o.seqs.next();
      socket.write(
        encodeBind(bindSeq, {
          loginType: LOGIN_TYPE.SMG_TO_SP,
          loginName: this.o.loginName,
          loginPassword: this.o.loginPassword,
        }),
      );
    });
    socket.on('data', (chunk: Buffer) => {
      if (this.socket !== socket) return;
      let packets: Buffer[];
      try {
        packets = splitter.push(chunk);
      } catch (e) {
        return this.drop(socket, new SgipBindBackError('closed', (e as Error).message));
      }
      for (const b of packets) {
        if (this.socket !== socket) return;
        let p;
        try {
          p = decodePacket(b);
        } catch (e) {
          return this.drop(socket, new SgipBindBackError('closed', (e as Error).message));
        }
        if (p.command === 'BIND_RESP') {
          clearTimeout(timer);
          if (this.state !== 'connecting' || !bindSeq || p.seq.number !== bindSeq.number) continue;
          if (p.result !== RESULT.OK)
            return this.drop(socket, new SgipBindBackError('bind', `SGIP_BIND refused with result ${p.result}`));
          this.state = 'bound';
          this.binds++;
          this.sweepTimer ??= setInterval(() => this.sweep(), Math.min(1000, this.respTimeoutMs)).unref();
          this.pump();
        } else if (p.command === 'UNBIND') {
          socket.write(encodeUnbindResp(p.seq));
          socket.end();
        } else if (p.command === 'UNBIND_RESP') {
          socket.end();
        } else if (
          p.command === 'SUBMIT_RESP' ||
          p.command === 'DELIVER_RESP' ||
          p.command === 'REPORT_RESP' ||
          p.command === 'USERRPT_RESP'
        ) {
          const w = this.inflight.get(p.seq.number);
          if (!w) continue;
          this.inflight.delete(p.seq.number);
          w.resolve(p.result);
          this.pump();
        } else if (p.command !== 'OTHER' && p.commandId !== CMD.BIND_RESP) {
          // a listener has nothing else to say on this connection
          return this.drop(socket, new SgipBindBackError('closed', `unexpected ${p.command}`));
        }
      }
    });
    socket.on('error', (e) => {
      if (this.state === 'connecting')
        this.o.log?.warn(
          { listener: `${this.o.host}:${this.o.port}`, err: e.message },
          'SGIP bind-back: listener not reachable',
        );
    });
    socket.once('close', () => {
      clearTimeout(timer);
      if (this.socket !== socket) return;
      this.socket = null;
      const was = this.state;
      this.state = 'idle';
      if (this.idleTimer) clearTimeout(this.idleTimer);
      this.idleTimer = null;
      // unanswered packets and those waiting fail: the caller tries them again later
      this.fail(
        new SgipBindBackError(
          was === 'bound' ? 'closed' : 'connect',
          `connection to ${this.o.host}:${this.o.port} closed`,
        ),
      );
    });
  }

  private drop(socket: net.Socket, e: SgipBindBackError) {
    this.o.log?.warn(
      { listener: `${this.o.host}:${this.o.port}`, err: e.message },
      'SGIP bind-back: dropping the connection',
    );
    this.fail(e);
    socket.destroy();
  }

  private fail(e: Error) {
    const all = [...this.inflight.values(), ...this.waiting.splice(0)];
    this.inflight.clear();
    for (const w of all) w.reject(e);
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
  }

  private pump() {
    const s = this.socket;
    if (this.state !== 'bound' || !s) return;
    if (!s.writable) return this.drop(s, new SgipBindBackError('unwritable', 'socket not writable'));
    while (this.waiting.length && this.inflight.size < this.window) {
      const w = this.waiting.shift()!;
      const seq = this.o.seqs.next();
      let packet: Buffer;
      try {
        packet = w.build(seq);
      } catch (e) {
        w.reject(e as Error);
        continue;
      }
      this.inflight.set(seq.number, { ...w, at: Date.now() });
      s.write(packet);
    }
    this.armIdle();
  }

  private armIdle() {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      const s = this.socket;
      if (this.state === 'bound' && s && !this.pending && s.writable) {
        s.write(encodeUnbind(this.o.seqs.next()));
        setTimeout(() => s.destroy(), 1000).unref();
      } else if (this.state === 'bound') this.armIdle();
    }, this.idleMs);
    this.idleTimer.unref();
  }

  private sweep() {
    const now = Date.now();
    for (const w of this.inflight.values()) {
      if (now - w.at >= this.respTimeoutMs && this.socket)
        return this.drop(
          this.socket,
          new SgipBindBackError('timeout', `a packet unanswered for ${this.respTimeoutMs} ms`),
        );
    }
  }
}

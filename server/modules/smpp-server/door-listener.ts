/**
 * What every door's listener does the same way, beside the protocol-neutral core (door-core.ts):
 *
 * - `DoorListener`: the core, the listening sockets' lifecycle (`listen`, `close`), the counters the
 *   benchmarks and tests read (`stats`: accepted, refused by code and reason with the last message,
 *   long messages expired), and the fault rule: whatever goes wrong in one packet's handling ends
 *   that session (logged), never the process. The SMPP door (server.ts, on the `smpp` library's
 *   sessions) builds on it directly.
 * - `FramedDoor`: a door reading its own frames off a plain socket (CMPP, SMGP, SGIP): the session
 *   closed when it has not logged in within the login timeout (a login being checked gets its
 *   answer first), frames read one at a time (a frame the splitter cannot read closes the stream),
 *   the packets written in one turn of the event loop leaving in one write, and the active test of
 *   sessions silent for a while (where the protocol has one).
 *
 * A protocol door gives its codec's pieces: the session it makes for a socket, what one packet
 * does, and how it writes a report and an uplink (`deliver`, `deliverMo`).
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { AppContext } from '../../context';
import { clientAddress } from '../../lib/ip-allow';
import {
  DoorCore,
  type DoorCoreOptions,
  type DoorPlatform,
  type DoorSession,
  type MoRow,
  type ReceiptRow,
} from './door-core';

/** what every door's listener is given beside the core's settings */
export interface DoorListenerOptions extends DoorCoreOptions {
  host: string;
  /** -1: any free port (tests); 0 is "off" and never reaches here */
  port: number;
  /** connections open at once in all */
  maxConnections: number;
}

/** a door's counters (benchmarks print them, tests read them) */
export interface DoorStats {
  accepted: number;
  /** long messages accepted as they were after reassemblyMs */
  readonly partsExpired: number;
  /** refused submits by `code reason` (`0x58 accessSpeed`, `8 window`, `101 refusal`, …), with the last message of each */
  refused: Record<string, { count: number; last: string }>;
}

export abstract class DoorListener<
  S extends DoorSession,
  O extends DoorListenerOptions = DoorListenerOptions,
  X extends object = object,
> {
  /** the protocol-neutral door: limits, login gate, session rows, parts, receipt / uplink queues (door-core.ts) */
  readonly core: DoorCore<S>;
  /** this process in smpp_sessions */
  readonly processId: string;
  /** the port listened on (the first listener's) */
  port = 0;
  readonly stats: DoorStats & X;
  private servers: net.Server[] = [];

  protected constructor(
    protected readonly ctx: AppContext,
    protected readonly platform: DoorPlatform,
    /** the settings (read live: tests shorten the timeouts of a running listener) */
    readonly opts: O,
    /** the door's name in log lines */
    protected readonly protocol: string,
    /** the door's own counters beside the common ones */
    extraStats: X,
  ) {
    const core = (this.core = new DoorCore<S>(
      ctx,
      platform,
      opts,
      { receipt: (s, row) => this.deliver(s, row), mo: (s, row) => this.deliverMo(s, row) },
      protocol,
    ));
    this.processId = core.processId;
    const stats = { accepted: 0, refused: {}, ...extraStats };
    Object.defineProperty(stats, 'partsExpired', { enumerable: true, get: () => core.partsExpired });
    this.stats = stats as DoorStats & X;
  }

  /** writes a queue's report as the protocol's packet (then core.sent; on its answer core.answered) */
  protected abstract deliver(s: S, row: ReceiptRow): void;
  /** writes a queue's uplink as the protocol's packet */
  protected abstract deliverMo(s: S, row: MoRow): void;
  /** the listening socket of one port, each connection handed to the door */
  protected abstract createServer(): net.Server;

  /** Listens on `opts.port` and starts the core's timers; the port listened on. */
  async listen(): Promise<number> {
    this.port = await this.serve(this.createServer(), this.opts.port);
    this.core.start();
    this.started();
    return this.port;
  }

  /** after the listener and the core started (a door's own timers) */
  protected started(): void {}

  /** Starts one listening socket (a door may have more: SMPP's TLS port); its port. */
  protected async serve(server: net.Server, port: number): Promise<number> {
    server.maxConnections = this.opts.maxConnections;
    this.servers.push(server);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port < 0 ? 0 : port, this.opts.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    // a listener's own error after it listens (EMFILE, a TLS handshake gone wrong): logged, the process goes on
    server.on('error', (err: Error) => this.ctx.log.warn({ err }, `${this.protocol} listener error`));
    return (server.address() as AddressInfo).port;
  }

  /**
   * Stops: the core's timers and sessions (answers received are recorded first), then `sessionsClosed`
   * (a door's own connections), the listening sockets, and this process's session rows.
   */
  async close(sessionsClosed?: () => Promise<void>): Promise<void> {
    await this.core.close();
    await sessionsClosed?.();
    const servers = this.servers;
    this.servers = [];
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    await this.core.removeRows();
  }

  /** open connections in this process (tests) */
  connectionCount(): number {
    return this.core.connectionCount();
  }

  /** Forgets the account rows read (tests that change an account and submit at once). */
  forgetAccounts() {
    this.core.forgetAccounts();
  }

  /** Accepts the long messages whose parts waited reassemblyMs (door-core.ts `expireParts`). */
  expireParts(): Promise<number> {
    return this.core.expireParts();
  }

  /** Counts a refused submit by its code as the protocol writes it and a reason (`stats.refused`), the last message of each kept. */
  protected countRefusal(code: string, reason: string, detail = '') {
    const r = (this.stats.refused[`${code} ${reason}`] ??= { count: 0, last: '' });
    r.count++;
    if (detail) r.last = detail.slice(0, 300);
  }

  /** A fault in a session's handling: logged, that session closed, nothing else. */
  protected fault(s: S, err: unknown, commandId?: number) {
    this.ctx.log.warn({ err, peer: s.ip, commandId }, `${this.protocol} session closed after a fault in its handling`);
    s.destroy();
  }

  /** Runs an asynchronous handler of a session: a rejection is that session's fault. */
  protected guard(s: S, commandId: number | undefined, work: Promise<unknown>) {
    work.catch((err) => this.fault(s, err, commandId));
  }
}

/** a session of a door reading its own frames off a plain socket */
export interface FramedSession extends DoorSession {
  socket: net.Socket;
  splitter: { push(chunk: Buffer): Buffer[] };
  /** a login (CONNECT, LOGIN, BIND) being checked now: the login timer waits for its answer */
  loggingIn: boolean;
  loginTimer?: NodeJS.Timeout;
  /** submits being accepted now (the door's window) */
  inflight: number;
  /** the sequence of the packets this door sends on it (DELIVER, ACTIVE_TEST) */
  seq: number;
  /** when the last active test was sent */
  lastTestAt: number;
}

/** a session read off its own socket (SGIP's bind-back sessions of the core are not) */
const isFramed = <C extends FramedSession>(s: DoorSession): s is C => 'splitter' in s;

/** The command id of a frame (its second 32-bit field in CMPP, SMGP and SGIP alike), for the log. */
const commandIdOf = (frame: Buffer | undefined) => (frame && frame.length >= 8 ? frame.readUInt32BE(4) : undefined);

export abstract class FramedDoor<
  S extends DoorSession,
  C extends S & FramedSession,
  O extends DoorListenerOptions = DoorListenerOptions,
  X extends object = object,
> extends DoorListener<S, O, X> {
  private tester?: NodeJS.Timeout;

  /** a new connection's session (not yet logged in) */
  protected abstract newSession(socket: net.Socket): C;
  /** one frame of a session (synchronous part: asynchronous work goes through `guard`) */
  protected abstract onPacket(s: C, frame: Buffer): void;
  /** a connection that has not logged in within this long is closed */
  protected abstract get loginTimeoutMs(): number;
  /** the active test packet with this sequence (null: the protocol's door sends none) */
  protected activeTestPacket(_seq: number): Buffer | null {
    return null;
  }
  /** a logged-in session silent for this long is sent an active test (again each period); idleTimeoutMs closes it */
  protected activeTestMs(): number {
    return 0;
  }

  protected createServer(): net.Server {
    return net.createServer((socket) => this.onConnection(socket));
  }

  /** what every framed session starts with (a door's `newSession` adds its own fields) */
  protected framedSession(socket: net.Socket, splitter: FramedSession['splitter']): FramedSession {
    return {
      socket,
      splitter,
      ip: clientAddress(socket.remoteAddress ?? ''),
      accountId: null,
      receive: false,
      unacked: new Map(),
      lastPduAt: Date.now(),
      loggingIn: false,
      inflight: 0,
      seq: 0,
      lastTestAt: 0,
      writable: () => socket.writable,
      destroy: () => socket.destroy(),
    };
  }

  protected override started() {
    const every = this.activeTestMs();
    if (every > 0) {
      this.tester = setInterval(() => this.activeTests(), Math.max(50, Math.min(1000, every / 2)));
      this.tester.unref();
    }
  }

  override async close(sessionsClosed?: () => Promise<void>): Promise<void> {
    clearInterval(this.tester);
    await super.close(sessionsClosed);
  }

  private onConnection(socket: net.Socket) {
    socket.on('error', () => {});
    if (!this.core.admit(socket)) return;
    const s = this.newSession(socket);
    this.core.sessions.add(s);
    socket.setNoDelay(true);
    // not logged in in time: closed (a login being checked gets its answer first)
    const expire = () => {
      if (s.accountId !== null) return;
      if (s.loggingIn) {
        s.loginTimer = setTimeout(expire, 250);
        s.loginTimer.unref();
        return;
      }
      socket.destroy();
    };
    s.loginTimer = setTimeout(expire, this.loginTimeoutMs);
    s.loginTimer.unref();
    socket.once('close', () => {
      clearTimeout(s.loginTimer);
      // its row goes; reports and uplinks sent on it and not answered: sent again at once
      this.core.removed(s);
    });
    socket.on('data', (chunk: Buffer) => {
      let frames: Buffer[];
      try {
        frames = s.splitter.push(chunk);
      } catch {
        // a length below the header or above the largest packet: the stream cannot be read on
        socket.destroy();
        return;
      }
      for (const f of frames) {
        if (socket.destroyed) return;
        // whatever goes wrong in one packet's handling ends that session, never the process
        try {
          this.onPacket(s, f);
        } catch (err) {
          this.fault(s, err, commandIdOf(f));
        }
      }
    });
  }

  /** Runs an asynchronous handler of a frame: a rejection is that session's fault. */
  protected guardFrame(s: C, frame: Buffer, work: Promise<unknown>) {
    this.guard(s, commandIdOf(frame), work);
  }

  /** the packets written in one turn of the event loop leave in one write; false: not written (the socket is closing) */
  protected write(s: C, b: Buffer): boolean {
    const socket = s.socket;
    if (!socket.writable) return false;
    if (!socket.writableCorked) {
      socket.cork();
      setImmediate(() => socket.uncork());
    }
    return socket.write(b);
  }

  protected nextSeq(s: C): number {
    s.seq = s.seq >= 0x7fffffff ? 1 : s.seq + 1;
    return s.seq;
  }

  /** logged-in sessions silent for activeTestMs are sent an active test (the core's idle timeout drops those that never answer) */
  private activeTests() {
    const now = Date.now();
    const every = this.activeTestMs();
    for (const c of this.core.sessions) {
      if (c.accountId === null || !isFramed<C>(c)) continue;
      if (now - c.lastPduAt >= every && now - c.lastTestAt >= every) {
        c.lastTestAt = now;
        const packet = this.activeTestPacket(this.nextSeq(c));
        if (packet) this.write(c, packet);
      }
    }
  }
}

/**
 * What the carrier simulators of the framed protocols do the same way (cmpp-simulator.ts,
 * smgp-simulator.ts, sgip-simulator.ts; docs/api-dispatch.md "Simulator" of each link), so that
 * each is its codec's login, submit and report and nothing else:
 *
 * - `simSettings`: the defaults with the given values of their own keys (the SMPP simulator's
 *   SMSC_SIM_* settings name more: those are ignored), the seed as a number;
 * - `SimCore`: the seeded PRNG and the decisions drawn from it in a fixed order (same seed + same
 *   submits = same outcomes): the report's outcome, the failure's word, the latency, an uplink's
 *   reply; `maxPerSecond`; the latest 1,000 submits and the submits per destination;
 * - `SimQueue`: the reports and uplinks of a gateway that sends them on the SP's own connections
 *   (CMPP, SMGP): handed out every 20 ms to the live sessions, each kept until its answer is 0,
 *   sent again after `redeliverMs` when the answer is another or the connection drops first;
 * - `listenFrames`: the listening socket, each connection read frame by frame (a stream or a packet
 *   that cannot be read closes it), and its close; `simHandle` what the simulator's handle shows of them.
 */
import net from 'node:net';
import { prng } from '../../lib/prng';

/** the settings every framed simulator has (each adds its login and codes) */
export interface SimCoreSettings {
  host: string;
  /** 0 = any free port */
  port: number;
  delivered: number;
  failed: number;
  noReceipt: number;
  latencyMinMs: number;
  latencyMaxMs: number;
  /** submits a second beyond which the answer is the protocol's "busy" (0 = no limit) */
  maxPerSecond: number;
  moRatio: number;
  moTexts: string[];
  moDelayMs: number;
  redeliverMs: number;
  seed?: number;
  tzMinutes: number;
}

/** the defaults, with the given values of their keys (the others ignored); the seed as a number */
export function simSettings<T extends SimCoreSettings>(defaults: T, given: Partial<T> & Record<string, unknown>): T {
  const s: T = { ...defaults };
  for (const k of Object.keys(defaults) as (keyof T)[])
    if (given[k as string] !== undefined) s[k] = given[k as string] as T[keyof T];
  if (given.seed !== undefined) s.seed = Number(given.seed);
  return s;
}

/** the latest submits a simulator keeps (tests and benches read them) */
const RECENT = 1000;

export class SimCore<Sub> {
  readonly rnd: () => number;
  /** the latest RECENT submits accepted */
  readonly recent: Sub[] = [];
  /** destination → submits accepted for it (first parts only): the protocols carry no ref of ours, the crash bench counts by number */
  readonly phones = new Map<string, number>();
  private second = 0;
  private inSecond = 0;
  private readonly total: number;

  constructor(private readonly s: SimCoreSettings) {
    this.rnd = prng(s.seed ?? Math.floor(Math.random() * 2 ** 32));
    this.total = s.delivered + s.failed + s.noReceipt || 1;
  }

  /** one more submit in this second: true beyond maxPerSecond (answered "busy") */
  throttled(nowMs: number): boolean {
    const sec = Math.floor(nowMs / 1000);
    if (sec !== this.second) [this.second, this.inSecond] = [sec, 0];
    return !!this.s.maxPerSecond && ++this.inSecond > this.s.maxPerSecond;
  }

  /** a submit accepted: kept among the latest; its destinations counted when it is a message's first part */
  took(sub: Sub, first: boolean, destinations: readonly string[]): void {
    this.recent.push(sub);
    if (this.recent.length > RECENT) this.recent.splice(0, this.recent.length - RECENT);
    if (first) for (const d of destinations) this.phones.set(d, (this.phones.get(d) ?? 0) + 1);
  }

  /** the submit's report: delivered, failed, or none (one draw) */
  outcome(): 'delivered' | 'failed' | null {
    const r = this.rnd() * this.total;
    if (r >= this.s.delivered + this.s.failed) return null;
    return r < this.s.delivered ? 'delivered' : 'failed';
  }

  /** one of these (one draw) */
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.rnd() * list.length)];
  }

  /** how long after the submit its report goes (one draw) */
  latency(): number {
    return this.s.latencyMinMs + this.rnd() * (this.s.latencyMaxMs - this.s.latencyMinMs);
  }

  /** after a delivered report was answered: the recipient's reply, or null (moRatio; no draw when it is 0) */
  reply(): string | null {
    if (!(this.s.moRatio > 0) || this.rnd() >= this.s.moRatio) return null;
    return this.pick(this.s.moTexts) ?? 'TD';
  }
}

/** a report or an uplink to hand over */
export interface SimJob {
  due: number;
  kind: 'report' | 'mo';
}

/** an SP's connection that takes reports and uplinks: its running sequence and what it has not answered */
export interface SimSession<J extends SimJob> {
  socket: net.Socket;
  seq: number;
  unacked: Map<number, J>;
}

/** unanswered per session beyond which it is given no more */
const SESSION_WINDOW = 1000;

export class SimQueue<J extends SimJob, S extends SimSession<J>> {
  readonly jobs: J[] = [];
  readonly sessions = new Set<S>();
  private readonly tick: NodeJS.Timeout;

  constructor(
    private readonly redeliverMs: number,
    /** a session that may be handed jobs (logged in, receiving) */
    private readonly live: (s: S) => boolean,
    /** writes the job's packet with this sequence */
    private readonly send: (s: S, seq: number, job: J) => void,
  ) {
    this.tick = setInterval(() => this.handOut(), 20);
    this.tick.unref();
  }

  /** the jobs due, round robin over the live sessions */
  private handOut() {
    const now = Date.now();
    const live = [...this.sessions].filter((x) => this.live(x) && x.unacked.size < SESSION_WINDOW);
    if (!live.length) return;
    const due: J[] = [];
    const later: J[] = [];
    for (const j of this.jobs) (j.due <= now ? due : later).push(j);
    if (!due.length) return;
    this.jobs.length = 0;
    for (const j of later) this.jobs.push(j);
    due.forEach((job, i) => {
      const sess = live[i % live.length];
      const seq = (sess.seq = sess.seq >= 0x7fffffff ? 1 : sess.seq + 1);
      sess.unacked.set(seq, job);
      this.send(sess, seq, job);
    });
  }

  /** a job to hand over when due */
  add(job: J): void {
    this.jobs.push(job);
  }

  /** the session's packet of this sequence was answered: its job when the answer was 0 (else it is sent again later); undefined when none waited */
  answered(sess: S, seq: number, ok: boolean): J | undefined {
    const job = sess.unacked.get(seq);
    if (!job) return undefined;
    sess.unacked.delete(seq);
    if (ok) return job;
    this.jobs.push({ ...job, due: Date.now() + this.redeliverMs });
    return undefined;
  }

  /** the session closed: what it had not answered is sent again later */
  closed(sess: S): void {
    for (const job of sess.unacked.values()) this.jobs.push({ ...job, due: Date.now() + this.redeliverMs });
    sess.unacked.clear();
    this.sessions.delete(sess);
  }

  /** reports not yet answered 0 */
  pendingReports(): number {
    return (
      this.jobs.filter((j) => j.kind === 'report').length +
      [...this.sessions].reduce((n, x) => n + [...x.unacked.values()].filter((j) => j.kind === 'report').length, 0)
    );
  }

  stop(): void {
    clearInterval(this.tick);
  }
}

/** what a connection of a simulator does with its frames */
export interface FrameHandler {
  splitter: { push(chunk: Buffer): Buffer[] };
  /** one frame (throws when it cannot be read: the connection is closed); false: read no more of this chunk (the connection is ending) */
  frame(b: Buffer): boolean | void;
  closed?(): void;
}

export interface FrameListener {
  readonly port: number;
  /** host:port for a URL */
  readonly address: string;
  readonly sockets: ReadonlySet<net.Socket>;
  dropConnections(): void;
  close(): Promise<void>;
}

/** Listens on host:port (0 any free one); each connection's frames to its handler, one at a time. */
export async function listenFrames(
  s: { host: string; port: number },
  open: (socket: net.Socket) => FrameHandler,
): Promise<FrameListener> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    const h = open(socket);
    socket.setNoDelay(true);
    socket.on('error', () => {});
    socket.on('close', () => {
      sockets.delete(socket);
      h.closed?.();
    });
    socket.on('data', (chunk: Buffer) => {
      let frames: Buffer[];
      try {
        frames = h.splitter.push(chunk);
      } catch {
        return void socket.destroy();
      }
      for (const b of frames) {
        try {
          if (h.frame(b) === false) return;
        } catch {
          return void socket.destroy();
        }
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(s.port, s.host, () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    address: `${s.host.includes(':') ? `[${s.host}]` : s.host}:${port}`,
    sockets,
    dropConnections: () => {
      for (const x of sockets) x.destroy();
    },
    close: async () => {
      for (const x of sockets) x.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** what every simulator's handle has: its URL (scheme://login:secret@host:port), port, settings, latest submits, numbers, and dropConnections */
export function simHandle<T extends SimCoreSettings, Sub>(
  scheme: string,
  login: string,
  secret: string,
  s: T,
  sim: SimCore<Sub>,
  listener: FrameListener,
) {
  s.port = listener.port;
  return {
    url: `${scheme}://${encodeURIComponent(login)}:${encodeURIComponent(secret)}@${listener.address}`,
    port: listener.port,
    settings: s,
    recent: sim.recent,
    phones: sim.phones,
    dropConnections: () => listener.dropConnections(),
  };
}

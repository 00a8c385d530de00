/**
 * The carrier link over China Unicom's SGIP 1.2 (sgip:// URLs; the codec is server/lib/sgip-pdu.ts).
 * The same contract and rules as the SMPP and CMPP links (docs/api-dispatch.md "SGIP link"), over
 * the same machinery (link-core.ts); this file is only what is SGIP's own. SGIP runs over two
 * connections:
 * - to the SMG: `connections` TCP connections, each SGIP_BIND with Login_Type 1 and the URL's login
 *   and password, at most `window` SGIP_SUBMIT unanswered each, reconnect with back-off (a refused
 *   bind starts high). SGIP has no keep-alive packet: a connection the SMG closes when idle is
 *   opened again. A submit: SPNumber = sp_number + what the request's `from` carries beyond the
 *   platform's prefix, CorpId, ServiceType, ReportFlag 1, one UserNumber with 86; a text over one
 *   SMS as TP_udhi 1 parts with the `05 00 03 ref total number` header. Its 12-octet sequence number
 *   (node_id, MMDDHHMMSS, a number unique in the link) as `node-time-number` is the message id:
 *   SGIP_SUBMIT_RESP Result 0 → accepted with it; 11 (node busy) / 33 (queue full) → 'retry' with
 *   the connection paused; anything else → 'rejected' `SGIP:<result>`; unanswered → 'unconfirmed'.
 * - from the SMG: a listener on callback_port the SMG binds back to (Login_Type 2, callback_user /
 *   callback_password) to hand SGIP_REPORT (a receipt: SubmitSequenceNumber → msgId, State 0
 *   delivered, ErrorCode as err) and SGIP_DELIVER (an uplink: SPNumber = sp_number + extension
 *   given back as prefix + extension). Both are answered (REPORT_RESP / DELIVER_RESP) only after
 *   the handler resolved: Result 0, or 11 when it failed so the SMG delivers again. SGIP_USERRPT is
 *   answered 0, SGIP_TRACE with no node (an SP is not on an MT message's path). A bind with
 *   another type or login is refused (Result 1 / 4) and closed; packets before the bind, unreadable
 *   packets, and a connection silent for 2 minutes are closed too.
 */
import net from 'node:net';
import { ENV_DEFAULTS } from '../../env';
import type { MoMessage, Receipt, SubmitRequest } from './types';
import { describeSmsc, type SgipSettings, type SmscConfig } from './config';
import { LinkConn, LinkCore, silentLog, type Delivery, type LinkLog, type LinkWords, type Pending as CorePending, type SmscLinkHandle } from './link-core';
import {
  decodePacket,
  decodeSgipText,
  encodeBind,
  encodeBindResp,
  encodeDeliverResp,
  encodeReportResp,
  encodeResp,
  encodeSubmit,
  encodeTraceResp,
  encodeUnbind,
  encodeUnbindResp,
  LOGIN_TYPE,
  REPORT_FLAG,
  REPORT_STATE,
  reportStat,
  RESULT,
  SeqSource,
  seqString,
  SgipFrameSplitter,
  splitSgipText,
  splitSgipUdh,
  SUBMIT_DEFAULTS,
  withCountryCode,
  withoutCountryCode,
  CMD,
  type SgipParts,
  type SgipSeq,
} from '../../lib/sgip-pdu';

/** the platform's prefix of a request's `from` when neither the URL nor the pipeline names one */
const DEFAULT_PREFIX = ENV_DEFAULTS.SMS_SOURCE_PREFIX;
const BIND_TIMEOUT_MS = 10_000;
/** a callback connection without a packet this long is closed (the SMG binds again when it has more) */
const CALLBACK_IDLE_MS = 120_000;
/** callback connections at once (an SMG opens a few) */
const MAX_CALLBACK_CONNECTIONS = 64;
/** REPORT_RESP / DELIVER_RESP Result when the handler failed: node busy, the SMG delivers it again */
const HANDLER_FAILED = RESULT.NODE_BUSY;
const TEXT_MAX = 4000;

type Pending = CorePending<SgipParts>;

interface SgipDelivery<T> extends Delivery<T> {
  socket: net.Socket;
  seq: SgipSeq;
  commandId: number;
}

class Conn extends LinkConn<SgipParts> {}

export interface SgipLinkOptions {
  sourcePrefix?: string;
}

export interface SgipLinkHandle extends SmscLinkHandle {
  /** the callback listener's port once it listens (null: none configured) */
  callbackListening(): Promise<number | null>;
}

export function createSgipLink(config: SmscConfig, log: LinkLog = silentLog, opts: SgipLinkOptions = {}): SgipLinkHandle {
  return new SgipLink(config, log, opts);
}

const WORDS: LinkWords = {
  link: 'SGIP',
  ready: 'bound',
  receipt: 'report',
  mo: 'uplink',
  peer: 'SMG',
  probe: 'keep-alive',
  closedCode: 'SGIP:LINK_CLOSED',
  throttledCode: `SGIP:${RESULT.NODE_BUSY}`,
  unboundCode: 'SGIP:NOT_BOUND',
};

export class SgipLink extends LinkCore<SgipParts, Conn, SgipDelivery<Receipt>, SgipDelivery<MoMessage>> implements SgipLinkHandle {
  private readonly sgip: SgipSettings;
  private readonly prefix: string;
  private readonly seqs: SeqSource;
  private server: net.Server | null = null;
  private readonly callbacks = new Set<net.Socket>();
  private listening: Promise<number | null>;
  /** the sequence number each written submit went with (its message id) */
  private readonly ids = new WeakMap<Pending, string>();

  constructor(cfg: SmscConfig, log: LinkLog, opts: SgipLinkOptions = {}) {
    if (cfg.protocol !== 'sgip' || !cfg.sgip) throw new Error('SGIP link: not an sgip:// configuration');
    super(cfg, log, WORDS, (id) => new Conn(id));
    this.sgip = cfg.sgip;
    this.prefix = cfg.sgip.prefix ?? opts.sourcePrefix ?? DEFAULT_PREFIX;
    this.seqs = new SeqSource(cfg.sgip.nodeId, cfg.tzMinutes);
    this.listening = this.listen();
    this.start();
  }

  callbackListening(): Promise<number | null> {
    return this.listening;
  }

  // ---------------------------------------------------------------- submit

  protected prepare(p: Pending): number | string {
    const problem = this.localProblem(p.req);
    if (problem) return problem;
    try {
      p.split = this.encoded(p.req.text);
    } catch {
      return `SGIP:${RESULT.BAD_MESSAGE_LENGTH}`;
    }
    return p.split.contents.length;
  }

  protected encodeText(text: string): SgipParts {
    return splitSgipText(text, 0);
  }

  private spNumberOf(from: string): string {
    const f = typeof from === 'string' ? from : '';
    const rest = this.prefix && f.startsWith(this.prefix) ? f.slice(this.prefix.length) : this.sgip.spNumber ? '' : f;
    return `${this.sgip.spNumber}${rest}`;
  }

  private localProblem(req: SubmitRequest): string | null {
    if (typeof req.to !== 'string' || !/^\+?\d{1,19}$/.test(req.to)) return `SGIP:${RESULT.BAD_USER_NUMBER}`;
    if (typeof req.from !== 'string' || !/^\d*$/.test(req.from) || this.spNumberOf(req.from).length > 21) return `SGIP:${RESULT.BAD_PARAMETER}`;
    if (typeof req.text !== 'string' || req.text.length > TEXT_MAX) return `SGIP:${RESULT.BAD_MESSAGE_LENGTH}`;
    return null;
  }

  protected write(c: Conn, p: Pending): boolean {
    const socket = c.socket;
    if (!socket || !socket.writable) {
      this.drop(c, 'socket not writable');
      return false;
    }
    const seq = this.seqs.next();
    let packet: Buffer;
    try {
      const split = p.split ?? this.encoded(p.req.text);
      const total = split.contents.length;
      let content = split.contents[(p.seg?.seq ?? 1) - 1];
      if (total > 1) {
        content = Buffer.from(content);
        content[3] = p.req.ref & 0xff;
      }
      packet = encodeSubmit(seq, {
        ...SUBMIT_DEFAULTS,
        spNumber: this.spNumberOf(p.req.from),
        userNumbers: [withCountryCode(p.req.to)],
        corpId: this.sgip.corpId,
        serviceType: this.sgip.serviceType,
        reportFlag: REPORT_FLAG.ALWAYS,
        tpUdhi: total > 1 ? 1 : 0,
        messageCoding: split.msgFmt,
        messageContent: content,
      });
    } catch {
      this.finish(p, { ref: p.req.ref, status: 'rejected', code: `SGIP:${RESULT.BAD_PARAMETER}` });
      return true;
    }
    socket.write(packet);
    p.sentAt = Date.now();
    c.inflight.set(seq.number, p);
    this.ids.set(p, seqString(seq));
    this.stats.submitted++;
    return true;
  }

  private onSubmitResp(c: Conn, seq: SgipSeq, result: number) {
    const p = c.inflight.get(seq.number);
    if (!p) return;
    c.inflight.delete(seq.number);
    if (result === RESULT.OK) this.accept(c, p, this.ids.get(p) ?? seqString(seq));
    else if (result === RESULT.NODE_BUSY || result === RESULT.QUEUE_FULL) this.retry(p, `SGIP:${result}`, this.throttle(c));
    else this.finish(p, { ref: p.req.ref, status: 'rejected', code: `SGIP:${result}` });
    this.schedulePump();
  }

  // ---------------------------------------------------------------- connections to the SMG

  protected connect(c: Conn): void {
    if (this.closed) return;
    c.state = 'connecting';
    c.reconnectTimer = null;
    const socket = net.connect({ host: this.cfg.host, port: this.cfg.port });
    c.socket = socket;
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 30_000);
    const splitter = new SgipFrameSplitter();
    let bindSeq: SgipSeq | null = null;
    const bindTimer = setTimeout(() => {
      this.log.warn({ smsc: describeSmsc(this.cfg), conn: c.id }, 'SGIP bind timed out');
      socket.destroy();
    }, this.cfg.connectTimeoutMs + BIND_TIMEOUT_MS);
    socket.once('connect', () => {
      bindSeq = this.seqs.next();
      socket.write(encodeBind(bindSeq, { loginType: LOGIN_TYPE.SP_TO_SMG, loginName: this.cfg.systemId, loginPassword: this.cfg.password }));
    });
    socket.on('data', (chunk: Buffer) => {
      if (c.socket !== socket) return;
      let packets: Buffer[];
      try {
        packets = splitter.push(chunk);
      } catch (e) {
        this.log.warn({ conn: c.id, err: (e as Error).message }, 'SGIP stream unreadable: dropping the connection');
        socket.destroy();
        return;
      }
      for (const b of packets) {
        if (c.socket !== socket || socket.destroyed) return;
        try {
          const pkt = decodePacket(b);
          if (pkt.command === 'BIND_RESP') {
            clearTimeout(bindTimer);
            if (c.state !== 'connecting' || !bindSeq || pkt.seq.number !== bindSeq.number) continue;
            if (pkt.result !== RESULT.OK) {
              c.failures = Math.max(c.failures, 4);
              this.log.error({ smsc: describeSmsc(this.cfg), conn: c.id, result: pkt.result }, 'SGIP bind refused');
              socket.destroy();
              continue;
            }
            this.log.info({ smsc: describeSmsc(this.cfg), conn: c.id }, 'SGIP bound');
            this.bound(c);
          } else if (pkt.command === 'SUBMIT_RESP') {
            if (c.state === 'bound') this.onSubmitResp(c, pkt.seq, pkt.result);
          } else if (pkt.command === 'UNBIND') {
            socket.write(encodeUnbindResp(pkt.seq));
            if (c.state !== 'closed') c.state = 'idle';
            setTimeout(() => c.socket === socket && socket.destroy(), 100).unref();
          } else if (pkt.command === 'UNBIND_RESP') {
            socket.end();
          } else {
            this.log.warn({ conn: c.id, command: pkt.command, id: `0x${pkt.commandId.toString(16)}` }, 'SGIP packet not expected from the SMG on this connection: ignored');
          }
        } catch (e) {
          this.log.warn({ conn: c.id, err: (e as Error).message }, 'SGIP packet unreadable: dropping the connection');
          socket.destroy();
          return;
        }
      }
    });
    socket.on('error', (e) => {
      if (c.state !== 'closed') this.log.warn({ smsc: describeSmsc(this.cfg), conn: c.id, err: e.message }, 'SGIP connection error');
    });
    socket.once('close', () => {
      clearTimeout(bindTimer);
      this.closedConn(c, socket);
    });
    if (this.readingPaused) socket.pause();
  }

  /** SGIP has no keep-alive packet */
  protected sendProbe(): number {
    return 0;
  }

  protected goodbye(c: Conn, socket: net.Socket, wasBound: boolean): void {
    if (wasBound && socket.writable) socket.write(encodeUnbind(this.seqs.next()));
    else socket.destroy();
  }

  // ---------------------------------------------------------------- the callback listener

  private listen(): Promise<number | null> {
    const port = this.sgip.callbackPort;
    if (port === null) return Promise.resolve(null);
    const server = net.createServer((socket) => this.onCallback(socket));
    server.maxConnections = MAX_CALLBACK_CONNECTIONS;
    this.server = server;
    return new Promise((resolve) => {
      const attempt = () => {
        if (this.closed) return resolve(null);
        server.once('error', (e) => {
          this.log.error({ smsc: describeSmsc(this.cfg), port, err: e.message }, 'SGIP callback listener cannot listen: trying again in 5 s');
          setTimeout(attempt, 5000).unref();
        });
        server.listen(port, this.sgip.callbackHost, () => {
          server.removeAllListeners('error');
          server.on('error', (e) => this.log.warn({ err: e.message }, 'SGIP callback listener error'));
          const p = (server.address() as net.AddressInfo).port;
          this.log.info({ smsc: describeSmsc(this.cfg), port: p }, 'SGIP callback listener up');
          resolve(p);
        });
      };
      attempt();
    });
  }

  private onCallback(socket: net.Socket) {
    if (this.closed) return void socket.destroy();
    this.callbacks.add(socket);
    socket.setNoDelay(true);
    if (this.readingPaused) socket.pause();
    const splitter = new SgipFrameSplitter();
    let bound = false;
    const idle = () => {
      this.log.warn({ bound }, 'SGIP callback connection silent: closed');
      socket.destroy();
    };
    let timer = setTimeout(idle, BIND_TIMEOUT_MS);
    socket.on('error', () => {});
    socket.once('close', () => {
      clearTimeout(timer);
      this.callbacks.delete(socket);
    });
    socket.on('data', (chunk: Buffer) => {
      clearTimeout(timer);
      timer = setTimeout(idle, bound ? CALLBACK_IDLE_MS : BIND_TIMEOUT_MS);
      let packets: Buffer[];
      try {
        packets = splitter.push(chunk);
      } catch (e) {
        this.log.warn({ err: (e as Error).message }, 'SGIP callback stream unreadable: closed');
        return void socket.destroy();
      }
      for (const b of packets) {
        if (socket.destroyed) return;
        let pkt;
        try {
          pkt = decodePacket(b);
        } catch (e) {
          this.log.warn({ err: (e as Error).message }, 'SGIP callback packet unreadable: closed');
          return void socket.destroy();
        }
        if (!bound) {
          if (pkt.command !== 'BIND') {
            this.log.warn({ command: pkt.command }, 'SGIP callback: a packet before SGIP_BIND: closed');
            return void socket.destroy();
          }
          const s = this.sgip;
          const checked = s.callbackUser !== '' || s.callbackPassword !== '';
          const result =
            pkt.loginType !== LOGIN_TYPE.SMG_TO_SP
              ? RESULT.BAD_LOGIN_TYPE
              : checked && (pkt.loginName !== s.callbackUser || pkt.loginPassword !== s.callbackPassword)
                ? RESULT.BAD_LOGIN
                : RESULT.OK;
          socket.write(encodeBindResp(pkt.seq, result));
          if (result !== RESULT.OK) {
            this.log.warn({ loginType: pkt.loginType, result }, 'SGIP callback bind refused');
            socket.end();
            setTimeout(() => socket.destroy(), 1000).unref();
            return;
          }
          bound = true;
          continue;
        }
        switch (pkt.command) {
          case 'REPORT': {
            const delivered = pkt.state === REPORT_STATE.DELIVERED;
            const stat = reportStat(pkt.state);
            const phone = withoutCountryCode(pkt.userNumber);
            this.received('receipts', {
              socket,
              seq: pkt.seq,
              commandId: CMD.REPORT_RESP,
              item: { msgId: seqString(pkt.submitSeq), delivered, stat, err: delivered ? '' : String(pkt.errorCode), doneAt: new Date(), ...(phone ? { phone } : {}) },
            });
            break;
          }
          case 'DELIVER': {
            let body = pkt.messageContent;
            if (pkt.tpUdhi) {
              try {
                body = splitSgipUdh(pkt.messageContent).body;
              } catch {
                body = pkt.messageContent;
              }
            }
            const sp = pkt.spNumber;
            const to = this.sgip.spNumber && sp.startsWith(this.sgip.spNumber) ? `${this.prefix}${sp.slice(this.sgip.spNumber.length)}` : sp;
            this.received('mos', {
              socket,
              seq: pkt.seq,
              commandId: CMD.DELIVER_RESP,
              item: { from: withoutCountryCode(pkt.userNumber), to, text: decodeSgipText(body, pkt.messageCoding), smscRef: `sgip:${seqString(pkt.seq)}`, receivedAt: new Date() },
            });
            break;
          }
          case 'USERRPT':
            socket.write(encodeResp(CMD.USERRPT_RESP, pkt.seq, RESULT.OK));
            break;
          case 'TRACE':
            // an SP is where MT messages start, not a node they pass through: no node to report
            // (answered, so that an SMG asking does not wait for it)
            socket.write(encodeTraceResp(pkt.seq, []));
            break;
          case 'UNBIND':
            socket.write(encodeUnbindResp(pkt.seq));
            socket.end();
            break;
          case 'UNBIND_RESP':
            socket.end();
            break;
          default:
            this.log.warn({ command: pkt.command, id: `0x${pkt.commandId.toString(16)}` }, 'SGIP callback: packet not expected: ignored');
        }
      }
    });
  }

  protected readingChanged(paused: boolean): void {
    for (const s of this.callbacks) {
      if (paused) s.pause();
      else s.resume();
    }
  }

  /** REPORT_RESP / DELIVER_RESP for each, on the connection it came on: Result 0, or 11 when the handler failed */
  protected acknowledge(taken: SgipDelivery<unknown>[], failed: boolean): void {
    const result = failed ? HANDLER_FAILED : RESULT.OK;
    const sockets = new Set<net.Socket>();
    for (const d of taken) {
      if (!d.socket.writable) continue; // gone: the SMG delivers it again
      if (!sockets.has(d.socket)) {
        sockets.add(d.socket);
        d.socket.cork();
      }
      d.socket.write(d.commandId === CMD.REPORT_RESP ? encodeReportResp(d.seq, result) : encodeDeliverResp(d.seq, result));
    }
    for (const s of sockets) s.uncork();
  }

  async close(): Promise<void> {
    await super.close();
    const server = this.server;
    this.server = null;
    for (const s of this.callbacks) s.destroy();
    if (server?.listening) await new Promise<void>((r) => server.close(() => r()));
  }
}

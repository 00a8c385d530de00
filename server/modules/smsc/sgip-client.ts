/**
 * The carrier link over China Unicom's SGIP 1.2 (sgip:// URLs; the codec is server/lib/sgip-pdu.ts).
 * The same contract and rules as the SMPP and CMPP links (docs/api-dispatch.md "SGIP link"), over
 * the same machinery (link-core.ts's FramedLink, as the CMPP and SMGP links); this file is only what
 * is SGIP's own. SGIP runs over two connections:
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
import type { MoMessage, Receipt } from './types';
import { describeSmsc, type SgipSettings, type SmscConfig } from './config';
import {
  FramedConn,
  FramedLink,
  silentLog,
  type Delivery,
  type FramedLinkWords,
  type LinkLog,
  type Pending as CorePending,
  type SmscLinkHandle,
} from './link-core';
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
import { messageOf } from '../../lib/error-code';

/** the platform's prefix of a request's `from` when neither the URL nor the pipeline names one */
const DEFAULT_PREFIX = ENV_DEFAULTS.SMS_SOURCE_PREFIX;
/** a callback connection that has not bound within this long is closed */
const BIND_TIMEOUT_MS = 10_000;
/** a callback connection without a packet this long is closed (the SMG binds again when it has more) */
const CALLBACK_IDLE_MS = 120_000;
/** callback connections at once (an SMG opens a few) */
const MAX_CALLBACK_CONNECTIONS = 64;
/** REPORT_RESP / DELIVER_RESP Result when the handler failed: node busy, the SMG delivers it again */
const HANDLER_FAILED = RESULT.NODE_BUSY;

type Pending = CorePending<SgipParts>;
type Packet = ReturnType<typeof decodePacket>;

interface SgipDelivery<T> extends Delivery<T> {
  socket: net.Socket;
  seq: SgipSeq;
  commandId: number;
}

/** (its own `seq` unused: SGIP numbers every packet from the link's node, SeqSource) */
class Conn extends FramedConn<SgipParts> {}

export interface SgipLinkOptions {
  sourcePrefix?: string;
}

export interface SgipLinkHandle extends SmscLinkHandle {
  /** the callback listener's port once it listens (null: none configured) */
  callbackListening(): Promise<number | null>;
}

export function createSgipLink(
  config: SmscConfig,
  log: LinkLog = silentLog,
  opts: SgipLinkOptions = {},
): SgipLinkHandle {
  return new SgipLink(config, log, opts);
}

const WORDS: FramedLinkWords = {
  link: 'SGIP',
  ready: 'bound',
  login: 'bind',
  receipt: 'report',
  mo: 'uplink',
  peer: 'SMG',
  probe: 'keep-alive',
  closedCode: 'SGIP:LINK_CLOSED',
  throttledCode: `SGIP:${RESULT.NODE_BUSY}`,
  unboundCode: 'SGIP:NOT_BOUND',
  // SGIP results: 6 user number, 5 parameter, 8 message length
  badDestinationCode: `SGIP:${RESULT.BAD_USER_NUMBER}`,
  badSourceCode: `SGIP:${RESULT.BAD_PARAMETER}`,
  tooLongCode: `SGIP:${RESULT.BAD_MESSAGE_LENGTH}`,
  badStructureCode: `SGIP:${RESULT.BAD_PARAMETER}`,
  // 86 and the number within UserNumber's 21 octets
  destinationDigits: 19,
};

export class SgipLink
  extends FramedLink<SgipParts, Conn, SgipDelivery<Receipt>, SgipDelivery<MoMessage>, Packet>
  implements SgipLinkHandle
{
  private readonly sgip: SgipSettings;
  private readonly seqs: SeqSource;
  private server: net.Server | null = null;
  private readonly callbacks = new Set<net.Socket>();
  private listening: Promise<number | null>;
  /** the sequence number each written submit went with (its message id) */
  private readonly ids = new WeakMap<Pending, string>();
  /** the sequence of the submit being written (submitSeq → submitPacket) */
  private writing: SgipSeq | null = null;

  constructor(cfg: SmscConfig, log: LinkLog, opts: SgipLinkOptions = {}) {
    if (cfg.protocol !== 'sgip' || !cfg.sgip) throw new Error('SGIP link: not an sgip:// configuration');
    super(
      cfg,
      log,
      WORDS,
      (id) => new Conn(id),
      cfg.sgip.prefix ?? opts.sourcePrefix ?? DEFAULT_PREFIX,
      cfg.sgip.spNumber,
    );
    this.sgip = cfg.sgip;
    this.seqs = new SeqSource(cfg.sgip.nodeId, cfg.tzMinutes);
    this.listening = this.listen();
    this.start();
  }

  callbackListening(): Promise<number | null> {
    return this.listening;
  }

  // ---------------------------------------------------------------- submit

  protected encodeText(text: string): SgipParts {
    return splitSgipText(text, 0);
  }

  protected submitSeq(): number {
    this.writing = this.seqs.next();
    return this.writing.number;
  }

  protected submitPacket(_c: Conn, p: Pending): Buffer {
    const seq = this.writing!;
    const split = p.split ?? this.encoded(p.req.text);
    const total = split.contents.length;
    const packet = encodeSubmit(seq, {
      ...SUBMIT_DEFAULTS,
      spNumber: this.sourceOf(p.req.from),
      userNumbers: [withCountryCode(p.req.to)],
      corpId: this.sgip.corpId,
      serviceType: this.sgip.serviceType,
      reportFlag: REPORT_FLAG.ALWAYS,
      tpUdhi: total > 1 ? 1 : 0,
      messageCoding: split.msgFmt,
      messageContent: this.partContent(p, split),
    });
    this.ids.set(p, seqString(seq));
    return packet;
  }

  protected acceptedId(p: Pending, answered: string): string {
    return this.ids.get(p) ?? answered;
  }

  // ---------------------------------------------------------------- connections to the SMG

  protected splitter() {
    return new SgipFrameSplitter();
  }

  protected decode(_c: Conn, b: Buffer): Packet {
    return decodePacket(b);
  }

  protected hello() {
    const seq = this.seqs.next();
    return {
      seq: seq.number,
      packet: encodeBind(seq, {
        loginType: LOGIN_TYPE.SP_TO_SMG,
        loginName: this.cfg.systemId,
        loginPassword: this.cfg.password,
      }),
    };
  }

  protected loginAnswerSeq(p: Packet): number | null {
    return p.command === 'BIND_RESP' ? p.seq.number : null;
  }

  /** every packet is read while the bind is answered (a submit's answer only once bound) */
  protected beforeLogin(): boolean {
    return true;
  }

  protected onLoginAnswer(c: Conn, socket: net.Socket, p: Packet) {
    if (p.command !== 'BIND_RESP') return;
    if (p.result !== RESULT.OK) return this.loginRefused(c, socket, { result: p.result });
    this.loggedIn(c);
  }

  protected onPacket(c: Conn, socket: net.Socket, pkt: Packet) {
    switch (pkt.command) {
      case 'SUBMIT_RESP': {
        if (c.state !== 'bound') return;
        const result = pkt.result;
        if (result === RESULT.OK) this.submitAnswered(c, pkt.seq.number, 'accepted', seqString(pkt.seq));
        else
          this.submitAnswered(
            c,
            pkt.seq.number,
            result === RESULT.NODE_BUSY || result === RESULT.QUEUE_FULL ? 'throttled' : 'refused',
            `SGIP:${result}`,
          );
        return;
      }
      case 'UNBIND':
        socket.write(encodeUnbindResp(pkt.seq));
        this.peerLeaves(c, socket);
        return;
      case 'UNBIND_RESP':
        socket.end();
        return;
      default:
        this.log.warn(
          { conn: c.id, command: pkt.command, id: `0x${pkt.commandId.toString(16)}` },
          'SGIP packet not expected from the SMG on this connection: ignored',
        );
    }
  }

  /** SGIP has no keep-alive packet */
  protected sendProbe(): number {
    return 0;
  }

  protected farewell(): Buffer {
    return encodeUnbind(this.seqs.next());
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
          this.log.error(
            { smsc: describeSmsc(this.cfg), port, err: e.message },
            'SGIP callback listener cannot listen: trying again in 5 s',
          );
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
        this.log.warn({ err: messageOf(e) }, 'SGIP callback stream unreadable: closed');
        return void socket.destroy();
      }
      for (const b of packets) {
        if (socket.destroyed) return;
        let pkt;
        try {
          pkt = decodePacket(b);
        } catch (e) {
          this.log.warn({ err: messageOf(e) }, 'SGIP callback packet unreadable: closed');
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
              item: {
                msgId: seqString(pkt.submitSeq),
                delivered,
                stat,
                err: delivered ? '' : String(pkt.errorCode),
                doneAt: new Date(),
                ...(phone ? { phone } : {}),
              },
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
            this.received('mos', {
              socket,
              seq: pkt.seq,
              commandId: CMD.DELIVER_RESP,
              item: {
                from: withoutCountryCode(pkt.userNumber),
                to: this.uplinkTo(pkt.spNumber),
                text: decodeSgipText(body, pkt.messageCoding),
                smscRef: `sgip:${seqString(pkt.seq)}`,
                receivedAt: new Date(),
              },
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
            this.log.warn(
              { command: pkt.command, id: `0x${pkt.commandId.toString(16)}` },
              'SGIP callback: packet not expected: ignored',
            );
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

  /** REPORT_RESP / DELIVER_RESP for each, on the connection it came on: Result 0, or 11 when the handler failed; a connection gone: the SMG delivers it again */
  protected acknowledge(taken: SgipDelivery<unknown>[], failed: boolean): void {
    const result = failed ? HANDLER_FAILED : RESULT.OK;
    this.answerDeliveries(
      taken,
      () => true,
      (d) => (d.commandId === CMD.REPORT_RESP ? encodeReportResp(d.seq, result) : encodeDeliverResp(d.seq, result)),
    );
  }

  async close(): Promise<void> {
    await super.close();
    const server = this.server;
    this.server = null;
    for (const s of this.callbacks) s.destroy();
    if (server?.listening) await new Promise<void>((r) => server.close(() => r()));
  }
}

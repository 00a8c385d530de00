/**
 * The carrier link over China Telecom's SMGP 3.0 (smgp:// URLs; the codec is
 * server/lib/smgp-pdu.ts). The same contract and rules as the SMPP and CMPP links (client.ts,
 * cmpp-client.ts; docs/api-dispatch.md "SMGP link"), over the same machinery (link-core.ts's
 * FramedLink); this file is only what is SMGP's own — SMGP_LOGIN, an SMGP_SUBMIT and its answer,
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
import type net from 'node:net';
import { ENV_DEFAULTS } from '../../env';
import type { MoMessage, Receipt } from './types';
import type { SmgpSettings, SmscConfig } from './config';
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
/** DELIVER_RESP Status when the handler failed: system busy, the gateway delivers it again */
const HANDLER_FAILED = STATUS.SYSTEM_BUSY;

type Pending = CorePending<SmgpParts>;
type Packet = ReturnType<typeof decodePacket>;
interface SmgpDelivery<T> extends Delivery<T> {
  conn: Conn;
  socket: net.Socket;
  sequenceId: number;
  msgId: Buffer;
}

class Conn extends FramedConn<SmgpParts> {
  /** the AuthenticatorClient of its LOGIN (the answer's AuthenticatorServer is checked against it) */
  authClient: Buffer | null = null;
}

export interface SmgpLinkOptions {
  /** the platform's prefix of a request's `from` (the dispatcher's sourcePrefix) when the URL has none */
  sourcePrefix?: string;
}

export function createSmgpLink(
  config: SmscConfig,
  log: LinkLog = silentLog,
  opts: SmgpLinkOptions = {},
): SmscLinkHandle {
  return new SmgpLink(config, log, opts);
}

const WORDS: FramedLinkWords = {
  link: 'SMGP',
  ready: 'logged in',
  login: 'login',
  receipt: 'report',
  mo: 'uplink',
  peer: 'gateway',
  probe: 'SMGP_ACTIVE_TEST',
  closedCode: 'SMGP:LINK_CLOSED',
  throttledCode: `SMGP:${STATUS.SYSTEM_BUSY}`,
  unboundCode: 'SMGP:NOT_LOGGED_IN',
  // SMGP statuses: 47 destination, 46 SrcTermID, 36 length, structure
  badDestinationCode: `SMGP:${STATUS.BAD_DEST_TERM_ID}`,
  badSourceCode: `SMGP:${STATUS.BAD_SRC_TERM_ID}`,
  tooLongCode: `SMGP:${STATUS.BAD_MSG_LENGTH}`,
  badStructureCode: `SMGP:${STATUS.BAD_STRUCTURE}`,
  destinationDigits: 21,
};

export class SmgpLink extends FramedLink<SmgpParts, Conn, SmgpDelivery<Receipt>, SmgpDelivery<MoMessage>, Packet> {
  private readonly smgp: SmgpSettings;

  constructor(cfg: SmscConfig, log: LinkLog, opts: SmgpLinkOptions = {}) {
    if (cfg.protocol !== 'smgp' || !cfg.smgp) throw new Error('SMGP link: not an smgp:// configuration');
    super(cfg, log, WORDS, (id) => new Conn(id), cfg.smgp.prefix ?? opts.sourcePrefix ?? DEFAULT_PREFIX, cfg.smgp.src);
    this.smgp = cfg.smgp;
    this.start();
  }

  // ---------------------------------------------------------------- submit

  protected encodeText(text: string): SmgpParts {
    return splitSmgpText(text, 0);
  }

  protected submitSeq(c: Conn): number {
    return c.nextSeq();
  }

  protected submitPacket(_c: Conn, p: Pending, seq: number): Buffer {
    const split = p.split ?? this.encoded(p.req.text);
    const total = split.contents.length;
    const to = p.req.to.startsWith('+') ? p.req.to.slice(1) : p.req.to;
    return encodeSubmit(seq, {
      ...SUBMIT_DEFAULTS,
      needReport: 1,
      serviceId: this.smgp.serviceId,
      msgFormat: split.msgFormat,
      srcTermId: this.sourceOf(p.req.from),
      destTermIds: [to],
      msgContent: this.partContent(p, split),
      tpUdhi: total > 1 ? 1 : 0,
      pkTotal: total > 1 ? total : 0,
      pkNumber: total > 1 ? (p.seg?.seq ?? 1) : 0,
      msgSrc: this.smgp.spId,
    });
  }

  // ---------------------------------------------------------------- connections

  protected splitter() {
    return new SmgpFrameSplitter();
  }

  protected decode(_c: Conn, b: Buffer): Packet {
    return decodePacket(b);
  }

  protected hello(c: Conn) {
    const hello = makeLogin(this.cfg.systemId, this.cfg.password, LOGIN_MODE.TRANSMIT, new Date(), this.cfg.tzMinutes);
    c.authClient = hello.authenticatorClient;
    const seq = c.nextSeq();
    return { seq, packet: encodeLogin(seq, hello) };
  }

  protected loginAnswerSeq(p: Packet): number | null {
    return p.command === 'LOGIN_RESP' ? p.sequenceId : null;
  }

  protected beforeLogin(p: Packet): boolean {
    return p.command === 'EXIT' || p.command === 'ACTIVE_TEST';
  }

  protected onLoginAnswer(c: Conn, socket: net.Socket, p: Packet) {
    if (p.command !== 'LOGIN_RESP') return;
    const { status, authenticatorServer: authServer } = p;
    if (status !== STATUS.OK) return this.loginRefused(c, socket, { status });
    if (c.authClient && !serverAuthenticator(status, c.authClient, this.cfg.password).equals(authServer)) {
      this.log.warn(
        { conn: c.id },
        'SMGP AuthenticatorServer does not match (accepted: many gateways fill it loosely)',
      );
    }
    this.loggedIn(c);
  }

  protected onPacket(c: Conn, socket: net.Socket, pkt: Packet) {
    switch (pkt.command) {
      case 'SUBMIT_RESP': {
        const status = pkt.status;
        if (status === STATUS.OK) this.submitAnswered(c, pkt.sequenceId, 'accepted', smgpMsgIdString(pkt.msgId));
        else
          this.submitAnswered(
            c,
            pkt.sequenceId,
            status === STATUS.SYSTEM_BUSY ? 'throttled' : 'refused',
            `SMGP:${status}`,
          );
        return;
      }
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
        this.peerLeaves(c, socket);
        return;
      case 'EXIT_RESP':
        socket.end();
        return;
      default:
        this.log.warn(
          { conn: c.id, command: pkt.command, id: `0x${pkt.requestId.toString(16)}` },
          'SMGP packet not expected on a carrier link: ignored',
        );
    }
  }

  protected sendProbe(c: Conn): number {
    const seq = c.nextSeq();
    (c.socket as net.Socket).write(encodeActiveTest(seq));
    return seq;
  }

  protected farewell(c: Conn): Buffer {
    return encodeExit(c.nextSeq());
  }

  // ---------------------------------------------------------------- incoming

  private onDeliver(c: Conn, socket: net.Socket, d: Extract<Packet, { command: 'DELIVER' }>) {
    const now = new Date();
    const base = { conn: c, socket, sequenceId: d.sequenceId, msgId: d.msgId };
    if (d.isReport === 1) {
      let report;
      try {
        report = decodeReport(d.msgContent);
      } catch {
        this.log.warn(
          { conn: c.id, hex: d.msgContent.toString('hex').slice(0, 300) },
          'SMGP status report unreadable: acknowledged and ignored',
        );
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
      this.received('mos', {
        ...base,
        item: {
          from: d.srcTermId,
          to: this.uplinkTo(d.destTermId),
          text,
          smscRef: `smgp:${smgpMsgIdString(d.msgId)}`,
          receivedAt: now,
        },
      });
    }
  }

  /** SMGP_DELIVER_RESP for each: Status 0, or 1 when the handler failed; a connection gone since: the gateway delivers again */
  protected acknowledge(taken: SmgpDelivery<unknown>[], failed: boolean): void {
    const status = failed ? HANDLER_FAILED : 0;
    this.answerDeliveries(
      taken,
      (d) => d.conn.socket === d.socket,
      (d) => encodeDeliverResp(d.sequenceId, { msgId: d.msgId, status }),
    );
  }
}

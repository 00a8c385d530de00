/**
 * The carrier link over China Mobile's CMPP 2.0 / 3.0 (cmpp:// URLs; the codec is
 * server/lib/cmpp-pdu.ts). The same contract and rules as the SMPP link (client.ts; docs/api-dispatch.md
 * "CMPP link"), over the same machinery: a FramedLink (link-core.ts: queue, pump, batch results,
 * parts combined, stats, pause and back-off, keep-alive schedule, receipt/MO batcher, close; the
 * socket, its login handshake, the submit's write and answer, the request checks); this file is
 * only what is CMPP's own — CONNECT, a CMPP_SUBMIT and its answer, CMPP_ACTIVE_TEST, TERMINATE,
 * CMPP_DELIVER → Receipt / MoMessage and CMPP_DELIVER_RESP:
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
import type net from 'node:net';
import type { MoMessage, Receipt } from './types';
import type { CmppSettings, SmscConfig } from './config';
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
/** DELIVER_RESP Result when the handler failed: flow control, the gateway delivers it again */
const HANDLER_FAILED = RESULT.FLOW_CONTROL;

type Pending = CorePending<CmppParts>;
type Packet = ReturnType<typeof decodePacket>;
/** a CMPP_DELIVER waiting for its handler: answered on its connection while that lasts */
interface CmppDelivery<T> extends Delivery<T> {
  conn: Conn;
  socket: net.Socket;
  sequenceId: number;
  msgId: bigint;
  version: CmppVersion;
}

class Conn extends FramedConn<CmppParts> {
  version: CmppVersion = 2;
  /** the AuthenticatorSource of its CONNECT (the answer's AuthenticatorISMG is checked against it) */
  authSource: Buffer | null = null;
}

export interface CmppLinkOptions {
  /** the platform's prefix of a request's `from` (the dispatcher's sourcePrefix) when the URL has none */
  sourcePrefix?: string;
}

export function createCmppLink(
  config: SmscConfig,
  log: LinkLog = silentLog,
  opts: CmppLinkOptions = {},
): SmscLinkHandle {
  return new CmppLink(config, log, opts);
}

const WORDS: FramedLinkWords = {
  link: 'CMPP',
  ready: 'connected',
  login: 'connect',
  receipt: 'report',
  mo: 'uplink',
  peer: 'gateway',
  probe: 'CMPP_ACTIVE_TEST',
  closedCode: 'CMPP:LINK_CLOSED',
  throttledCode: `CMPP:${RESULT.FLOW_CONTROL}`,
  unboundCode: 'CMPP:NOT_CONNECTED',
  // CMPP results: 13 destination, 10 Src_Id, 6 too long, 1 structure
  badDestinationCode: `CMPP:${RESULT.BAD_DEST_TERMINAL}`,
  badSourceCode: `CMPP:${RESULT.BAD_SRC_ID}`,
  tooLongCode: `CMPP:${RESULT.MSG_TOO_LONG}`,
  badStructureCode: `CMPP:${RESULT.BAD_STRUCTURE}`,
  destinationDigits: 21,
};

export class CmppLink extends FramedLink<CmppParts, Conn, CmppDelivery<Receipt>, CmppDelivery<MoMessage>, Packet> {
  private readonly cmpp: CmppSettings;

  constructor(cfg: SmscConfig, log: LinkLog, opts: CmppLinkOptions = {}) {
    if (cfg.protocol !== 'cmpp' || !cfg.cmpp) throw new Error('CMPP link: not a cmpp:// configuration');
    super(
      cfg,
      log,
      WORDS,
      (id) => new Conn(id),
      cfg.cmpp.prefix ?? opts.sourcePrefix ?? DEFAULT_PREFIX,
      cfg.cmpp.srcId,
    );
    this.cmpp = cfg.cmpp;
    this.start();
  }

  // ---------------------------------------------------------------- submit

  /** the text's Msg_Contents (UDH reference 0; the request's own is written in at submit) */
  protected encodeText(text: string): CmppParts {
    return splitCmppText(text, 0);
  }

  protected submitSeq(c: Conn): number {
    return c.nextSeq();
  }

  protected submitPacket(c: Conn, p: Pending, seq: number): Buffer {
    const split = p.split ?? this.encoded(p.req.text);
    const total = split.contents.length;
    const to = p.req.to.startsWith('+') ? p.req.to.slice(1) : p.req.to;
    return encodeSubmit(
      seq,
      {
        ...SUBMIT_DEFAULTS,
        pkTotal: total,
        pkNumber: p.seg?.seq ?? 1,
        registeredDelivery: 1,
        serviceId: this.cmpp.serviceId,
        tpUdhi: total > 1 ? 1 : 0,
        msgFmt: split.msgFmt,
        msgSrc: this.cmpp.msgSrc,
        srcId: this.sourceOf(p.req.from),
        destTerminalIds: [to],
        msgContent: this.partContent(p, split),
      },
      c.version,
    );
  }

  // ---------------------------------------------------------------- connections

  protected splitter() {
    return new CmppFrameSplitter();
  }

  protected decode(c: Conn, b: Buffer): Packet {
    return decodePacket(b, c.version);
  }

  protected connecting(c: Conn): void {
    c.version = this.cmpp.version;
  }

  protected hello(c: Conn) {
    const hello = makeConnect(this.cfg.systemId, this.cfg.password, this.cmpp.version, new Date(), this.cfg.tzMinutes);
    c.authSource = hello.authenticatorSource;
    const seq = c.nextSeq();
    return { seq, packet: encodeConnect(seq, hello) };
  }

  protected loginAnswerSeq(p: Packet): number | null {
    return p.command === 'CONNECT_RESP' ? p.sequenceId : null;
  }

  protected beforeLogin(p: Packet): boolean {
    return p.command === 'TERMINATE' || p.command === 'ACTIVE_TEST';
  }

  protected onLoginAnswer(c: Conn, socket: net.Socket, p: Packet) {
    if (p.command !== 'CONNECT_RESP') return;
    const { status, version, authenticatorIsmg: authIsmg } = p;
    if (status !== CONNECT_STATUS.OK) return this.loginRefused(c, socket, { status });
    const v = versionOf(version) ?? this.cmpp.version;
    if (v !== this.cmpp.version)
      this.log.warn(
        { conn: c.id, asked: this.cmpp.version, got: version },
        'CMPP gateway answers in another version: using it',
      );
    c.version = v;
    const authSource = c.authSource;
    if (
      authSource &&
      !ismgAuthenticator(status, authSource, this.cfg.password, v).equals(authIsmg) &&
      !ismgAuthenticator(status, authSource, this.cfg.password, v === 2 ? 3 : 2).equals(authIsmg)
    ) {
      this.log.warn({ conn: c.id }, 'CMPP AuthenticatorISMG does not match (accepted: many gateways fill it loosely)');
    }
    this.loggedIn(c, { version: v });
  }

  protected onPacket(c: Conn, socket: net.Socket, pkt: Packet) {
    switch (pkt.command) {
      case 'SUBMIT_RESP': {
        const result = pkt.result;
        if (result === RESULT.OK) this.submitAnswered(c, pkt.sequenceId, 'accepted', msgIdString(pkt.msgId));
        else
          this.submitAnswered(
            c,
            pkt.sequenceId,
            result === RESULT.FLOW_CONTROL ? 'throttled' : 'refused',
            `CMPP:${result}`,
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
      case 'TERMINATE':
        socket.write(encodeTerminateResp(pkt.sequenceId));
        this.log.warn({ conn: c.id }, 'CMPP gateway terminates');
        this.peerLeaves(c, socket);
        return;
      case 'TERMINATE_RESP':
        socket.end();
        return;
      default:
        this.log.warn(
          { conn: c.id, command: pkt.command, id: `0x${pkt.commandId.toString(16)}` },
          'CMPP packet not expected on a carrier link: ignored',
        );
    }
  }

  /** CMPP_ACTIVE_TEST (the core drops the connection when it goes unanswered): its sequence is the token */
  protected sendProbe(c: Conn): number {
    const seq = c.nextSeq();
    (c.socket as net.Socket).write(encodeActiveTest(seq));
    return seq;
  }

  protected farewell(c: Conn): Buffer {
    return encodeTerminate(c.nextSeq());
  }

  // ---------------------------------------------------------------- incoming

  private onDeliver(c: Conn, socket: net.Socket, d: Extract<Packet, { command: 'DELIVER' }>) {
    const now = new Date();
    const base = { conn: c, socket, sequenceId: d.sequenceId, msgId: d.msgId, version: c.version };
    if (d.registeredDelivery === 1) {
      let report;
      try {
        report = decodeReport(d.msgContent, c.version);
      } catch {
        this.log.warn(
          { conn: c.id, hex: d.msgContent.toString('hex').slice(0, 200) },
          'CMPP status report unreadable: acknowledged and ignored',
        );
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
      this.received('mos', {
        ...base,
        item: {
          from: d.srcTerminalId,
          to: this.uplinkTo(d.destId),
          text,
          smscRef: `cmpp:${msgIdString(d.msgId)}`,
          receivedAt: now,
        },
      });
    }
  }

  /** CMPP_DELIVER_RESP for each: Result 0, or 8 when the handler failed; a connection gone since: the gateway delivers again on another (the handlers are idempotent) */
  protected acknowledge(taken: CmppDelivery<unknown>[], failed: boolean): void {
    const result = failed ? HANDLER_FAILED : 0;
    this.answerDeliveries(
      taken,
      (d) => d.conn.socket === d.socket,
      (d) => encodeDeliverResp(d.sequenceId, { msgId: d.msgId, result }, d.version),
    );
  }
}

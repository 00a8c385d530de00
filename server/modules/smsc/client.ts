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
 * The machinery that is not SMPP's own (queue, pump, batch results, parts combined, stats, pause
 * and back-off, keep-alive schedule, receipt/MO batcher, close) is the LinkCore of link-core.ts,
 * shared with the CMPP link; this file is bind_transceiver, submit_sm and its answer, enquire_link,
 * unbind, deliver_sm → Receipt / MoMessage and deliver_sm_resp.
 */
import net from 'node:net';
import tls from 'node:tls';
import smpp, { type PDU, type Session } from 'smpp';
import type { MoMessage, Receipt, SubmitRequest } from './types';
import {
  LinkConn,
  LinkCore,
  silentLog,
  type Delivery,
  type LinkLog,
  type LinkWords,
  type Pending as CorePending,
  type SmscLinkHandle,
} from './link-core';
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

export { combineParts, type LinkLog, type SmscLinkHandle, type SmscLinkStats } from './link-core';

/**
 * statuses after which the same request may be submitted again later: the SMSC did not take it
 * (throttled, queue full, temporary, not bound, its own system error). None is a failure of the
 * message; the dispatcher reads them as the channel's state (docs/api-dispatch.md "Carrier back-off").
 */
const RETRY_STATUSES = new Set<number>([
  STATUS.THROTTLED,
  STATUS.MSGQFUL,
  STATUS.X_T_APPN,
  STATUS.INVBNDSTS,
  STATUS.SYSERR,
]);
const BIND_TIMEOUT_MS = 10_000;

type Pending = CorePending<SplitText>;
/** a deliver_sm waiting for its handler: answered on its session */
interface SmppDelivery<T> extends Delivery<T> {
  session: Session;
  pdu: PDU;
}

class Conn extends LinkConn<SplitText> {
  session: Session | null = null;
  boundAt = 0;
  override detach(): void {
    super.detach();
    this.session = null;
  }
  override pauseReading(): void {
    this.session?.pause();
  }
  override resumeReading(): void {
    this.session?.resume();
  }
}

export function createSmscLink(config: SmscConfig, log: LinkLog = silentLog): SmscLinkHandle {
  return new Link(config, log);
}

const WORDS: LinkWords = {
  link: 'SMPP',
  ready: 'bound',
  receipt: 'receipt',
  mo: 'MO',
  peer: 'SMSC',
  probe: 'enquire_link',
  closedCode: hexCode(STATUS.INVBNDSTS),
  throttledCode: hexCode(STATUS.THROTTLED),
  unboundCode: hexCode(STATUS.INVBNDSTS),
};

class Link extends LinkCore<SplitText, Conn, SmppDelivery<Receipt>, SmppDelivery<MoMessage>> {
  private readonly refName: string | null;
  private probeSeq = 0;

  constructor(cfg: SmscConfig, log: LinkLog) {
    super(cfg, log, WORDS, (id) => new Conn(id));
    this.refName = cfg.refTlv ? refTlvName(cfg.refTlv) : null;
    this.start();
  }

  // ---------------------------------------------------------------- submit

  /** checks made before anything is written (a request that cannot be valid is rejected here), then the text's parts */
  protected prepare(p: Pending): number | string {
    const local = this.localProblem(p.req);
    if (local !== null) return hexCode(local);
    try {
      p.split = this.encoded(p.req.text);
    } catch {
      return hexCode(STATUS.INVMSGLEN);
    }
    return p.split.parts.length;
  }

  private localProblem(req: SubmitRequest): number | null {
    if (typeof req.to !== 'string' || !/^\+?\d{1,20}$/.test(req.to)) return STATUS.INVDSTADR;
    const from = req.from || this.cfg.sourceAddr;
    if (typeof from !== 'string' || from.length > 20 || !/^[\x20-\x7e]*$/.test(from)) return STATUS.INVSRCADR;
    if (typeof req.text !== 'string' || req.text.length > PAYLOAD_MAX / 2) return STATUS.INVMSGLEN;
    return null;
  }

  /** the text's parts (RangeError over 255 parts) */
  protected encodeText(text: string): SplitText {
    return splitText(text, this.cfg.coding, this.cfg.long);
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
  protected write(c: Conn, p: Pending): boolean {
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
    if (status === STATUS.OK && resp.command === 'submit_sm_resp') {
      const msgId = String(resp.message_id ?? '');
      if (!msgId) this.log.warn({ ref: p.req.ref }, 'SMPP submit_sm_resp without message_id');
      this.accept(c, p, msgId);
    } else if (RETRY_STATUSES.has(status)) {
      let afterMs: number;
      if (status === STATUS.INVBNDSTS) {
        afterMs = this.cfg.reconnectMinMs;
        this.drop(c, 'SMSC says not bound');
      } else afterMs = this.throttle(c);
      this.retry(p, hexCode(status), afterMs);
    } else {
      this.finish(p, { ref: p.req.ref, status: 'rejected', code: hexCode(status || STATUS.SYSERR) });
    }
    this.schedulePump();
  }

  // ---------------------------------------------------------------- connections

  protected connect(c: Conn): void {
    if (this.closed) return;
    c.state = 'connecting';
    c.reconnectTimer = null;
    const { host, port } = this.cfg;
    const socket = this.cfg.tls
      ? tls.connect({
          host,
          port,
          servername: net.isIP(host) ? undefined : host,
          rejectUnauthorized: this.cfg.tlsVerify,
        })
      : net.connect({ host, port });
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
      if (c.state !== 'closed')
        this.log.warn({ smsc: describeSmsc(this.cfg), conn: c.id, err: e.message }, 'SMPP connection error');
    });
    socket.once('close', () => {
      clearTimeout(connectTimer);
      this.closedConn(c, socket);
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
          this.log.error(
            { smsc: describeSmsc(this.cfg), conn: c.id, code: hexCode(resp.command_status) },
            'SMPP bind refused',
          );
          socket.destroy();
          return;
        }
        c.boundAt = Date.now();
        this.log.info({ smsc: describeSmsc(this.cfg), conn: c.id }, 'SMPP bound (transceiver)');
        this.bound(c);
      },
    );
  }

  /** enquire_link (the core drops the connection when it goes unanswered) */
  protected sendProbe(c: Conn): number {
    const session = c.session as Session;
    const token = (this.probeSeq = (this.probeSeq % 0x7fffffff) + 1);
    session.enquire_link({}, () => {
      if (c.session === session && c.probe === token) c.probe = 0;
    });
    return token;
  }

  protected goodbye(c: Conn, socket: net.Socket, wasBound: boolean): void {
    const session = c.session;
    if (wasBound && session && !socket.destroyed) {
      // in-flight submits get a last chance to be answered before unbind_resp
      const ok = session.unbind({}, () => socket.end());
      if (!ok) socket.destroy();
    } else socket.destroy();
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
        if (!msgId || !stat)
          this.log.warn({ text: text.slice(0, 200) }, 'SMPP receipt without id or stat: acknowledged and ignored');
        session.send(pdu.response());
        return;
      }
      // ACCEPTD: final, read on behalf of the subscriber (SMPP 3.4 5.2.28): counted as delivered
      const delivered = stat === 'DELIVRD' || stat === 'ACCEPTD';
      const err = parsed.err || (pdu.network_error_code ? Buffer.from(pdu.network_error_code).toString('hex') : '');
      const readings = idReadings(msgId, this.cfg.receiptIds);
      const phone = String(pdu.source_addr ?? '').slice(0, 32);
      this.received('receipts', {
        item: {
          msgId,
          delivered,
          stat,
          err,
          doneAt: parsed.done ?? now,
          ...(readings.length ? { readings } : {}),
          ...(phone ? { phone } : {}),
        },
        session,
        pdu,
      });
    } else if (esm === 0) {
      const ref = this.refName ? pdu[this.refName] : undefined;
      const smscRef = ref
        ? `ref:${String(ref).slice(0, 64)}`
        : `${pdu.source_addr}-${pdu.destination_addr}-${now.getTime()}-${pdu.sequence_number}`;
      this.received('mos', {
        item: {
          from: String(pdu.source_addr ?? ''),
          to: String(pdu.destination_addr ?? ''),
          text,
          smscRef,
          receivedAt: now,
        },
        session,
        pdu,
      });
    } else {
      // intermediate notifications, SME acknowledgements: nothing to record
      session.send(pdu.response());
    }
  }

  /** deliver_sm_resp for each: 0, or 0x64 (ESME_RX_T_APPN, temporary) when the handler failed */
  protected acknowledge(taken: SmppDelivery<unknown>[], failed: boolean): void {
    const status = failed ? STATUS.X_T_APPN : 0;
    for (const d of taken) {
      corkForTick(d.session.socket);
      d.session.send(encodeResp('deliver_sm_resp', d.pdu.sequence_number, status) as unknown as PDU);
    }
  }
}

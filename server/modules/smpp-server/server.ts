/**
 * The SMPP 3.4 listener for customers (issue 24; docs/api-smpp.md): a customer's gateway binds
 * with system_id = its clientid and password = its interface password, and submits messages that
 * go through the same acceptance, charge and dispatch as a console send
 * (send/interface.ts `acceptInterfaceMessage`).
 *
 * Shared by every listener process through the database (docs/api-smpp.md "Several processes"):
 * the `nodenum` session count (smpp_sessions, rows with a heartbeat), the `accessSpeed` token
 * bucket (api_throttle, taken in small grants), the receipt and uplink queues (smpp_receipts,
 * smpp_mo), the parts of a long message being reassembled (smpp_parts). Per process: the sockets
 * and the per-address connection limits. Everything accepted is in the database at once (a submit_sm_resp is
 * sent after its transaction commits).
 */
import fs from 'node:fs';
import type net from 'node:net';
import smpp, { type PDU, type Session } from 'smpp';
import type { AppContext } from '../../context';
import { ENV_DEFAULTS } from '../../env';
import {
  cstr,
  DC_IA5,
  encodeResp,
  encodeSm,
  encodeText,
  ESM_RECEIPT,
  fieldText,
  receiptText,
  SHORT_MESSAGE_MAX,
  STAT_STATE,
  STATUS,
  TLV_MESSAGE_STATE,
  TLV_RECEIPTED_MESSAGE_ID,
} from '../../lib/smpp-pdu';
import { dummyInterfaceHash, interfacePasswordMatches } from '../../lib/interface-password';
import { clientAddress, ipAllowed } from '../../lib/ip-allow';
import { MAX_MESSAGE_CHARS } from '../../../common/sms/pieces';
import type { InterfaceRefusalReason } from '../send';
import {
  extensionOf,
  interfaceRefusal,
  MAX_PARTS,
  PARTS_FULL,
  type DoorPlatform,
  type DoorSession,
  type DoorSubmitResult,
  type MoRow,
  type Pending,
  type ReceiptRow,
} from './door-core';
import { DoorListener, type DoorListenerOptions } from './door-listener';
import { codeOf, messageOf } from '../../lib/error-code';

export { SharedBuckets, combinedDelivery, sessionLimit, extensionOf, MAX_PARTS } from './door-core';
export { ipAllowed };

/**
 * A command_length below the 16-octet header is never valid, but the library then waits for ever
 * (0) or reads a negative length (1-15): such a length is made an error, which closes that
 * connection (here and on the carrier link alike; the check is the library's own for > 16 KB).
 */
const libraryCommandLength = (smpp.PDU as unknown as { commandLength(stream: unknown): number | false }).commandLength;
(smpp.PDU as unknown as { commandLength(stream: unknown): number | false }).commandLength = (stream: unknown) => {
  const n = libraryCommandLength(stream);
  if (n !== false && n < 16) throw new Error(`PDU length ${n} is below the 16-octet header`);
  return n;
};

/** the commands SMPP defines that have a response (`<command>_resp`): the others (outbind, alert_notification) are never answered with one */
export const HAS_RESPONSE = new Set(
  Object.keys((smpp as unknown as { commands: Record<string, unknown> }).commands).filter(
    (c) => !c.endsWith('_resp') && (smpp as unknown as { commands: Record<string, unknown> }).commands[`${c}_resp`],
  ),
);

/** the requests this listener serves (onPdu's cases); every other command with a response is answered 0x04 before a bind and generic_nack 0x03 after it */
export const SERVED_COMMANDS = [
  'bind_transmitter',
  'bind_receiver',
  'bind_transceiver',
  'enquire_link',
  'unbind',
  'submit_sm',
  'data_sm',
] as const;

/** SMPP statuses of this listener beyond the shared ones (lib/smpp-pdu STATUS) */
export const SMPP_STATUS = {
  ...STATUS,
  INVCMDID: 0x03,
  ALYBND: 0x05,
  SUBMITFAIL: 0x45,
  /** vendor-specific (0x400-0x4FF): the reasons of a refused submit_sm, nothing charged */
  X_ACCOUNT: 0x401,
  X_SIGN: 0x402,
  X_CREDIT: 0x403,
  X_DOMESTIC: 0x404,
  /** a marketing message to a number on the account's or the platform's blacklist (docs/api-blacklist.md) */
  X_BLACKLIST: 0x405,
} as const;

/** the SMPP status of a submit_sm the acceptance refused (docs/api-smpp.md "submit_sm") */
export const SMPP_REFUSAL_STATUS: Record<InterfaceRefusalReason, number> = {
  account: SMPP_STATUS.X_ACCOUNT,
  domestic: SMPP_STATUS.X_DOMESTIC,
  sign: SMPP_STATUS.X_SIGN,
  credit: SMPP_STATUS.X_CREDIT,
  number: SMPP_STATUS.INVDSTADR,
  length: SMPP_STATUS.INVMSGLEN,
  /** a transient database conflict (deadlock retries exhausted): nothing written, to be sent again */
  busy: SMPP_STATUS.THROTTLED,
  blacklist: SMPP_STATUS.X_BLACKLIST,
};

/** the system_id of every bind answer */
export const BIND_RESP_SYSTEM_ID = 'SMSP';

export interface SmppServerOptions extends DoorListenerOptions {
  /** a second listener speaking SMPP over TLS (0: none; -1 any free port) with this PEM certificate and key (file paths) */
  tlsPort: number;
  tlsCert: string;
  tlsKey: string;
  /** the source number prefix of the dispatch (SMS_SOURCE_PREFIX): a source_addr starting with prefix + the account's id gives what follows as the extension */
  sourcePrefix: string;
  /** a connection that has not bound within this long is closed */
  bindTimeoutMs: number;
  /** submit_sm being accepted at once per session; beyond it 0x58 */
  window: number;
  /** UTC offset of the receipt dates (Asia/Shanghai) */
  tzMinutes: number;
}

export const SMPP_SERVER_DEFAULTS: Omit<SmppServerOptions, 'port'> = {
  host: '0.0.0.0',
  tlsPort: 0,
  tlsCert: '',
  tlsKey: '',
  maxConnectionsPerAddress: 50,
  maxConnectAttempts: 200,
  connectWindowMs: 10_000,
  maxConnections: 5000,
  /** SMS_SOURCE_PREFIX's default (the module passes ctx.config.smsSourcePrefix) */
  sourcePrefix: ENV_DEFAULTS.SMS_SOURCE_PREFIX,
  heartbeatMs: 10_000,
  bindTimeoutMs: 10_000,
  idleTimeoutMs: 120_000,
  window: 100,
  reassemblyMs: 60_000,
  partsMaxBytes: 1024 * 1024,
  deliverWindow: 100,
  receiptPollMs: 200,
  receiptLeaseMs: 30_000,
  accountCacheMs: 1000,
  tzMinutes: 480,
};

export type SubmitResult = DoorSubmitResult;

/** What the listener needs from the platform (index.ts wires the send module). */
export type SmppPlatform = DoorPlatform;

interface Bound {
  id: number;
  clientid: string;
  transmit: boolean;
  receive: boolean;
}

interface CustomerSession extends DoorSession {
  session: Session;
  bound: Bound | null;
  binding: boolean;
  inflight: number;
  bindTimer?: NodeJS.Timeout;
}

/** The part number of a long message, from its UDH (IE 0x00 / 0x08) or its SAR TLVs. */
export function partOf(pdu: PDU): { ref: number; total: number; seq: number } | null {
  const sm = pdu.short_message as { udh?: Buffer[] } | undefined;
  for (const ie of sm && typeof sm === 'object' && !Buffer.isBuffer(sm) ? (sm.udh ?? []) : []) {
    if (ie[0] === 0x00 && ie[1] === 3 && ie.length >= 5) return { ref: ie[2], total: ie[3], seq: ie[4] };
    if (ie[0] === 0x08 && ie[1] === 4 && ie.length >= 6) return { ref: ie.readUInt16BE(2), total: ie[4], seq: ie[5] };
  }
  if (
    pdu.sar_msg_ref_num !== undefined &&
    pdu.sar_total_segments !== undefined &&
    pdu.sar_segment_seqnum !== undefined
  ) {
    return {
      ref: Number(pdu.sar_msg_ref_num),
      total: Number(pdu.sar_total_segments),
      seq: Number(pdu.sar_segment_seqnum),
    };
  }
  return null;
}

/** The text of a submit_sm: short_message (UDH removed by the library), else message_payload. */
export function submitText(pdu: PDU): string {
  const dc = Number(pdu.data_coding ?? 0);
  const short = fieldText(pdu.short_message, dc);
  if (short) return short;
  return pdu.message_payload !== undefined ? fieldText(pdu.message_payload, dc) : '';
}

/** registered_delivery's low two bits: 0 none, 1 every final state, 2 failures only (3, reserved: as 1) */
export function receiptWanted(registeredDelivery: unknown): number {
  const r = Number(registeredDelivery ?? 0) & 0x03;
  return r === 3 ? 1 : r;
}

export class SmppServer extends DoorListener<CustomerSession, SmppServerOptions> {
  /** the TLS listener's port (0: none) */
  tlsPort = 0;

  constructor(ctx: AppContext, platform: SmppPlatform, opts: SmppServerOptions) {
    super(ctx, platform, opts, 'smpp', {});
  }

  private get sessions() {
    return this.core.sessions;
  }

  /** a listening socket of the `smpp` library (plain or TLS), each session handed to the door */
  protected createServer(tls: { key: Buffer; cert: Buffer } | null = null): net.Server {
    const server = smpp.createServer(tls ?? {}, (s: Session) => this.onSession(s));
    // before the library makes a session (and before a TLS handshake): the per-address limits
    server.prependListener('connection', (socket: net.Socket) => this.core.admit(socket));
    server.on('tlsClientError', (err: Error, socket: net.Socket) => {
      socket.destroy();
      this.ctx.log.debug({ err }, 'smpp TLS handshake failed');
    });
    return server;
  }

  /** the plain listener, then the TLS one when tlsPort is set */
  override async listen(): Promise<number> {
    // the certificate read first: a missing file fails the start before anything listens
    const tls = this.opts.tlsPort
      ? { key: fs.readFileSync(this.opts.tlsKey), cert: fs.readFileSync(this.opts.tlsCert) }
      : null;
    const port = await super.listen();
    if (tls) this.tlsPort = await this.serve(this.createServer(tls), this.opts.tlsPort);
    return port;
  }

  /** bound sessions of an account in this process */
  boundCount(accountId: number): number {
    return this.core.boundCount(accountId);
  }

  /** Looks at the receipt queue now (door-core.ts `kick`). */
  kick(again = false) {
    this.core.kick(again);
  }

  private onSession(session: Session) {
    if (session.socket.destroyed) return;
    const cs: CustomerSession = {
      session,
      ip: clientAddress(session.socket.remoteAddress ?? ''),
      accountId: null,
      receive: false,
      bound: null,
      binding: false,
      inflight: 0,
      unacked: new Map(),
      lastPduAt: Date.now(),
      writable: () => session.socket.writable,
      destroy: () => session.socket.destroy(),
    };
    this.sessions.add(cs);
    // a malformed or oversized PDU: the library cannot read on, the connection is closed
    session.on('error', () => session.socket.destroy());
    session.socket.on('error', () => {});
    // the PDUs written in one turn of the event loop (a batch of submit_sm_resp, a pump's deliver_sm)
    // leave in one write: the socket is corked at the first and uncorked on the next turn
    const write = session.send.bind(session);
    let corked = false;
    session.send = (...args: Parameters<Session['send']>) => {
      if (!corked && session.socket.writable) {
        corked = true;
        session.socket.cork();
        setImmediate(() => {
          corked = false;
          session.socket.uncork();
        });
      }
      return write(...args);
    };
    // not bound in time: closed; a bind being checked at that moment (password hash, session count) gets its answer first
    const expire = () => {
      if (cs.bound) return;
      if (cs.binding) {
        cs.bindTimer = setTimeout(expire, 250);
        cs.bindTimer.unref();
        return;
      }
      session.socket.destroy();
    };
    cs.bindTimer = setTimeout(expire, this.opts.bindTimeoutMs);
    cs.bindTimer.unref();
    session.socket.once('close', () => {
      clearTimeout(cs.bindTimer);
      // its row goes; receipts and uplinks sent on it and not answered: sent again (on this or another session) at once
      this.core.removed(cs);
    });
    session.on('pdu', (pdu: PDU) => {
      // whatever goes wrong in one PDU's handling ends that session, never the process (the
      // library emits 'pdu' from the socket's readable handler: a throw there is uncaught)
      try {
        this.onPdu(cs, pdu);
      } catch (err) {
        this.fault(cs, err, pdu.command_id);
      }
    });
  }

  /**
   * One PDU of a customer (docs/api-smpp.md "Commands"): every command id SMPP defines gets its
   * answer, and no answer is ever made of a command that has none (outbind, alert_notification,
   * generic_nack and every response: the library cannot build a response of them).
   */
  private onPdu(cs: CustomerSession, pdu: PDU) {
    const session = cs.session;
    cs.lastPduAt = Date.now();
    const nack = (status: number) =>
      session.send(new smpp.PDU('generic_nack', { sequence_number: pdu.sequence_number, command_status: status }));
    // an id SMPP does not define: generic_nack 0x03
    if (pdu.command === 'unknown') return nack(SMPP_STATUS.INVCMDID);
    // responses (deliver_sm_resp …: their callbacks take them; a stray one is ignored) and generic_nack
    if (pdu.isResponse()) return;
    switch (pdu.command) {
      case 'bind_transmitter':
        return this.guard(cs, pdu.command_id, this.bind(cs, pdu, true, false));
      case 'bind_receiver':
        return this.guard(cs, pdu.command_id, this.bind(cs, pdu, false, true));
      case 'bind_transceiver':
        return this.guard(cs, pdu.command_id, this.bind(cs, pdu, true, true));
      case 'enquire_link':
        return session.send(pdu.response());
      case 'unbind':
        cs.bound = null;
        cs.accountId = null;
        cs.receive = false;
        return session.send(pdu.response(), () => session.socket.end());
      case 'submit_sm':
      case 'data_sm':
        if (!cs.bound?.transmit) return session.send(pdu.response({ command_status: SMPP_STATUS.INVBNDSTS }));
        return this.guard(cs, pdu.command_id, this.onSubmit(cs, pdu));
      default:
        // a command without a response (outbind, alert_notification: an SMSC's, never a customer's): generic_nack 0x03
        if (!HAS_RESPONSE.has(pdu.command)) return nack(SMPP_STATUS.INVCMDID);
        // any other operation: before a bind its response with 0x04, after it not offered here (generic_nack 0x03)
        if (!cs.bound) return session.send(pdu.response({ command_status: SMPP_STATUS.INVBNDSTS }));
        return nack(SMPP_STATUS.INVCMDID);
    }
  }
  /**
   * A bind: the same answer (0x0E) for an unknown system_id and a wrong password, after the same
   * work; failures counted per (system_id, address) with the console's lockout (a locked pair is
   * refused 0x0D before any password is looked at); the account's gates (active, certified, not a
   * test account, an interface password set, the whitelist, nodenum) after the right password.
   */
  private async bind(cs: CustomerSession, pdu: PDU, transmit: boolean, receive: boolean) {
    const refuse = (status: number) => cs.session.send(pdu.response({ command_status: status }));
    if (cs.bound || cs.binding) return refuse(SMPP_STATUS.ALYBND);
    cs.binding = true;
    try {
      const systemId = String(pdu.system_id ?? '');
      const password = String(pdu.password ?? '');
      const gate = await this.core.authenticate(
        cs,
        systemId,
        () => this.ctx.db.selectFrom('accounts').selectAll().where('clientid', '=', systemId).executeTakeFirst(),
        // an unknown name costs the same hash check as a known one
        async (a) => interfacePasswordMatches(a ? a.interface_password_hash : await dummyInterfaceHash(), password),
      );
      if (!gate.ok) {
        if (gate.why === 'gone') return;
        return refuse(
          gate.why === 'auth'
            ? SMPP_STATUS.INVPASWD
            : gate.why === 'nodenum'
              ? SMPP_STATUS.ALYBND
              : SMPP_STATUS.BINDFAIL,
        );
      }
      const a = gate.account;
      cs.rowId = gate.rowId;
      cs.bound = { id: a.id, clientid: a.clientid, transmit, receive };
      cs.accountId = a.id;
      cs.receive = receive;
      clearTimeout(cs.bindTimer);
      cs.session.send(pdu.response({ system_id: BIND_RESP_SYSTEM_ID }));
      if (receive) this.core.kick();
    } catch (err) {
      this.ctx.log.warn({ err }, 'smpp bind failed');
      refuse(SMPP_STATUS.BINDFAIL);
    } finally {
      cs.binding = false;
    }
  }

  /** Counts a refused submit by status and reason (`stats.refused`), the last message of each kept. */
  private refused(status: number, reason: string, detail = '') {
    this.countRefusal(`0x${status.toString(16).padStart(2, '0')}`, reason, detail);
  }

  private async onSubmit(cs: CustomerSession, pdu: PDU) {
    const bound = cs.bound!;
    // submit_sm_resp written directly (lib/smpp-pdu encodeResp), not through the library's generic encoder
    const answer = (status: number, id = '') =>
      cs.session.send(
        pdu.command === 'submit_sm'
          ? (encodeResp('submit_sm_resp', pdu.sequence_number, status, id) as unknown as PDU)
          : pdu.response(status ? { command_status: status } : { message_id: id }),
      );
    const refuse = (status: number, reason: string, detail = '') => {
      this.refused(status, reason, detail);
      return answer(status);
    };
    if (cs.inflight >= this.opts.window) return refuse(SMPP_STATUS.THROTTLED, 'window');
    cs.inflight++;
    try {
      // the account's gates on its row of at most accountCacheMs (a freeze after the bind is noticed)
      const account = await this.core.account(bound.id);
      if (!account || interfaceRefusal(account)) return refuse(SMPP_STATUS.X_ACCOUNT, 'account');
      const phone = String(pdu.destination_addr ?? '');
      const sourceAddr = String(pdu.source_addr ?? '');
      let text = submitText(pdu);
      const part = partOf(pdu);
      // needextend 1: the source_addr is the extension; otherwise the account's own number is used
      const extension =
        account.needextend === 1 ? extensionOf(sourceAddr, `${this.opts.sourcePrefix}${account.id}`) : '';
      const registeredDelivery = receiptWanted(pdu.registered_delivery);
      const long = !!part && part.total > 1;
      // a part is refused before anything is stored: out of its message, of a message longer than
      // any the platform sends, or itself longer than a whole message may be
      if (long && (part.seq < 1 || part.seq > part.total || part.total > MAX_PARTS))
        return refuse(SMPP_STATUS.INVMSGLEN, 'part');
      if ([...text].length > MAX_MESSAGE_CHARS) return refuse(SMPP_STATUS.INVMSGLEN, 'length');
      // every submit_sm takes a token of the account's accessSpeed, a part like a whole message
      // (throttled: nothing stored, the customer sends it again)
      if (!(await this.core.buckets.take(account.id, account.access_speed)))
        return refuse(SMPP_STATUS.THROTTLED, 'accessSpeed');
      let claim: string | null = null;
      let partIds: string[] | undefined;
      let delivery = registeredDelivery;
      if (long) {
        claim = `${sourceAddr}|${phone}|${part.ref}|${part.total}`;
        const added = await this.core.addPart(account.id, {
          key: claim,
          seq: part.seq,
          total: part.total,
          text,
          phone,
          sourceAddr,
          extension,
          registeredDelivery,
        });
        // the account's unfinished parts are at their ceiling (partsMaxBytes): refused, nothing stored
        if (added === PARTS_FULL) return refuse(SMPP_STATUS.MSGQFUL, 'parts');
        // an earlier part: answered at once with its part id (a number from the messages' own
        // sequence; its receipt comes with the message's); the part that completes the message (on
        // any connection or process) is answered with the message's id
        if ('partId' in added) return answer(0, added.partId);
        ({ text, partIds, registeredDelivery: delivery } = added);
        // the parts are taken by one submit only (the same part sent twice at once, on two
        // connections): the other is answered with this part's id
        if (!(await this.core.claimParts(account.id, claim))) return answer(0, added.ownPartId);
      }
      const r = await this.platform.submit(account, {
        phone,
        text,
        sourceAddr,
        extension,
        registeredDelivery: delivery,
        partIds,
      });
      if (!r.ok) return refuse(r.status, 'refusal', r.message);
      this.stats.accepted++;
      return answer(0, r.msgId);
    } catch (err) {
      this.ctx.log.warn({ err }, 'smpp submit_sm failed');
      return refuse(SMPP_STATUS.SYSERR, 'error', `${codeOf(err) ?? ''} ${messageOf(err)}`);
    } finally {
      cs.inflight--;
    }
  }

  /** Sends a deliver_sm carrying a queue row; the row goes when the customer answers 0, else it comes back a second later. */
  private send(cs: CustomerSession, pdu: PDU, pending: Pending) {
    const sent = cs.session.send(pdu, (resp: PDU) => {
      this.core.answered(cs, pdu.sequence_number, resp.command_status === SMPP_STATUS.OK);
    });
    if (sent) this.core.sent(cs, pdu.sequence_number, pending);
  }

  protected deliver(cs: CustomerSession, row: ReceiptRow) {
    // the id the customer holds: a part's (its submit_sm_resp gave it) or the message's
    const msgId = row.part_id || String(row.message_id);
    const text = receiptText({
      msgId,
      stat: row.stat,
      err: row.err,
      submitAt: new Date(row.submit_at),
      doneAt: new Date(row.done_at),
      text: row.text,
      tzMinutes: this.opts.tzMinutes,
    });
    const state = STAT_STATE[row.stat] ?? STAT_STATE.UNKNOWN;
    // written directly (lib/smpp-pdu encodeSm: the receipt text is IA5, the ids short) instead of the
    // library's generic encoder; anything that does not fit it goes the library's way
    const octets = Buffer.from(text, 'latin1');
    const fits =
      octets.length <= 254 &&
      /^[\x20-\x7e]*$/.test(text) &&
      row.phone.length <= 20 &&
      (cs.bound?.clientid ?? '').length <= 20;
    if (fits) {
      const raw = encodeSm('deliver_sm', {
        sourceTon: 0,
        sourceNpi: 0,
        source: row.phone,
        destTon: 0,
        destNpi: 0,
        dest: cs.bound?.clientid ?? '',
        esmClass: ESM_RECEIPT,
        registeredDelivery: 0,
        dataCoding: DC_IA5,
        shortMessage: octets,
        tlvs: [
          [TLV_RECEIPTED_MESSAGE_ID, cstr(msgId)],
          [TLV_MESSAGE_STATE, Buffer.from([state])],
        ],
      });
      return this.send(cs, raw as unknown as PDU, { table: 'smpp_receipts', id: row.id });
    }
    const pdu = new smpp.PDU('deliver_sm', {
      source_addr: row.phone,
      destination_addr: cs.bound?.clientid ?? '',
      esm_class: 0x04,
      data_coding: 0x01,
      short_message: text,
      receipted_message_id: msgId,
      message_state: state,
    });
    this.send(cs, pdu, { table: 'smpp_receipts', id: row.id });
  }

  /** An uplink: from the mobile to the number it replied to (prefix + account id + extension); a text over 140 octets goes as message_payload. */
  protected deliverMo(cs: CustomerSession, row: MoRow) {
    const { dataCoding, octets } = encodeText(row.content);
    const pdu = new smpp.PDU('deliver_sm', {
      source_addr: row.phone,
      destination_addr: row.dest,
      esm_class: 0x00,
      data_coding: dataCoding,
      ...(octets.length <= SHORT_MESSAGE_MAX ? { short_message: octets } : { message_payload: octets }),
    });
    this.send(cs, pdu, { table: 'smpp_mo', id: row.id });
  }
}

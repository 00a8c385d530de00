/**
 * The SMGP 3.0 listener for customers (issue 38; docs/api-smgp.md): a customer's system logs in
 * with ClientID = the account's interface login (as CMPP's Source_Addr: lib/interface-password.ts
 * interfaceLoginOf) and AuthenticatorClient = MD5(ClientID + 7 zero octets + the interface
 * password + TimeStamp), in LoginMode 0 (send), 1 (receive) or 2 (transmit), and submits messages
 * that go through the same acceptance, charge and dispatch as the other doors' and the console's
 * (send/interface.ts).
 *
 * Only the codec (lib/smgp-pdu.ts) and the session are here: the limits, the login gate, the
 * session rows, the long-message parts and the receipt / uplink queues are the doors' shared core
 * (door-core.ts). Reports and uplinks go to sessions of LoginMode 1 and 2 only.
 *
 * MsgID: BCD of 6 + 8 + 6 digits; the door writes a number n of sms_messages' own id sequence in
 * its first 6 digits (n / 10^6, the "SMGW code") and its last 6 (n mod 10^6) around the MMDDHHMM
 * of its time: for a whole message its message id with the time of its created_at (so a receipt
 * rebuilds it from message_id and submit_at), for an earlier part of a long message a fresh number
 * of that sequence with the time of the answer (its 20 hex digits are the part id kept in
 * smpp_parts / interface_part_ids, which its receipt names).
 */
import type net from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import { interfaceLoginOf } from '../../lib/interface-password';
import type { AppContext } from '../../context';
import { ENV_DEFAULTS } from '../../env';
import {
  clientAuthenticator,
  CMD,
  CONTENT_MAX,
  decodeDeliverResp,
  decodeLogin,
  decodeSmgpText,
  decodeSubmit,
  encodeActiveTest,
  encodeActiveTestResp,
  encodeDeliver,
  encodeExitResp,
  encodeLoginResp,
  encodeReport,
  encodeSmgpText,
  encodeSubmitResp,
  isResponse,
  LOGIN_MODE,
  makeSmgpMsgId,
  MAX_PACKET,
  MSG_FORMAT,
  parseSmgpMsgId,
  readHeader,
  recvTime,
  reportTime,
  serverAuthenticator,
  SMGP_VERSION,
  SmgpFrameSplitter,
  smgpMsgIdString,
  splitSmgpText,
  splitUdh,
  STATUS,
  ZERO_MSG_ID,
} from '../../lib/smgp-pdu';
import { openInterfaceSecret } from '../../lib/interface-secret';
import { MAX_MESSAGE_CHARS } from '../../../common/sms/pieces';
import type { InterfaceRefusalReason } from '../send';
import {
  extensionOf,
  interfaceRefusal,
  MAX_PARTS,
  PARTS_FULL,
  type DoorPlatform,
  type MoRow,
  type ReceiptRow,
} from './door-core';
import { FramedDoor, type DoorListenerOptions, type FramedSession } from './door-listener';
import { codeOf, messageOf } from '../../lib/error-code';

/** the Status of this door's answers (docs/api-smgp.md "Status"): SMGP 3.0's, and vendor codes from 100 for the platform's refusals (nothing charged) */
export const SMGP_RESULT = {
  OK: STATUS.OK,
  /** flow control: the window or accessSpeed is full, or the platform is busy: send it again later */
  SYSTEM_BUSY: STATUS.SYSTEM_BUSY,
  /** the account's nodenum sessions are open already */
  TOO_MANY_CONNECTIONS: STATUS.TOO_MANY_CONNECTIONS,
  BAD_STRUCTURE: STATUS.BAD_STRUCTURE,
  /** a submit on a session logged in to receive only */
  BAD_COMMAND: STATUS.BAD_COMMAND,
  BAD_AUTH: STATUS.BAD_AUTH,
  VERSION_TOO_HIGH: STATUS.VERSION_TOO_HIGH,
  BAD_MSG_FORMAT: STATUS.BAD_MSG_FORMAT,
  BAD_MSG_LENGTH: STATUS.BAD_MSG_LENGTH,
  BAD_DEST_TERM_ID: STATUS.BAD_DEST_TERM_ID,
  /** the account may not send or log in (frozen, uncertified, test account, not in its whitelist, login locked after failures) */
  X_ACCOUNT: 100,
  /** no sign, or a sign not approved */
  X_SIGN: 101,
  /** balance or pools cannot pay */
  X_CREDIT: 102,
  /** a marketing message to a blacklisted number */
  X_BLACKLIST: 104,
  /** the unfinished long-message parts of the account are at their ceiling */
  X_PARTS_FULL: 105,
  /** the platform failed (nothing written): send again */
  X_SYSTEM: 199,
} as const;

/** the Status of an SMGP_SUBMIT the acceptance refused (docs/api-smgp.md "Status") */
export const SMGP_REFUSAL_STATUS: Record<InterfaceRefusalReason, number> = {
  account: SMGP_RESULT.X_ACCOUNT,
  domestic: SMGP_RESULT.X_ACCOUNT,
  sign: SMGP_RESULT.X_SIGN,
  credit: SMGP_RESULT.X_CREDIT,
  number: SMGP_RESULT.BAD_DEST_TERM_ID,
  length: SMGP_RESULT.BAD_MSG_LENGTH,
  /** nothing written: to be sent again */
  busy: SMGP_RESULT.SYSTEM_BUSY,
  blacklist: SMGP_RESULT.X_BLACKLIST,
};

export interface SmgpServerOptions extends DoorListenerOptions {
  /** the source number prefix of the dispatch (SMS_SOURCE_PREFIX): the account's number is prefix + id */
  sourcePrefix: string;
  /** a connection that has not logged in within this long is closed */
  connectTimeoutMs: number;
  /** a logged-in session silent for this long is sent an SMGP_ACTIVE_TEST (again each period); idleTimeoutMs closes it */
  activeTestMs: number;
  /** submits being accepted at once per session; beyond it Status 1 */
  window: number;
  /** UTC offset of MsgID times and report times (Asia/Shanghai) */
  tzMinutes: number;
}

export const SMGP_SERVER_DEFAULTS: Omit<SmgpServerOptions, 'port'> = {
  host: '0.0.0.0',
  maxConnectionsPerAddress: 50,
  maxConnectAttempts: 200,
  connectWindowMs: 10_000,
  maxConnections: 5000,
  sourcePrefix: ENV_DEFAULTS.SMS_SOURCE_PREFIX,
  heartbeatMs: 10_000,
  connectTimeoutMs: 10_000,
  idleTimeoutMs: 180_000,
  activeTestMs: 60_000,
  window: 100,
  reassemblyMs: 60_000,
  partsMaxBytes: 1024 * 1024,
  deliverWindow: 100,
  receiptPollMs: 200,
  receiptLeaseMs: 30_000,
  accountCacheMs: 1000,
  tzMinutes: 480,
};

interface SmgpSession extends FramedSession {
  /** the LoginMode (0 send, 1 receive, 2 transmit; -1 before) */
  mode: number;
  /** the account's number (prefix + id): DestTermID of reports */
  number: string;
}

/** the MsgID carrying `n` with the time `at` */
function msgIdOf(n: bigint, at: Date, tzMinutes: number): Buffer {
  const t = new Date(at.getTime() + tzMinutes * 60_000);
  return makeSmgpMsgId({
    gateway: Number((n / 1_000_000n) % 1_000_000n),
    month: t.getUTCMonth() + 1,
    day: t.getUTCDate(),
    hour: t.getUTCHours(),
    minute: t.getUTCMinutes(),
    sequence: Number(n % 1_000_000n),
  });
}

/** The MsgID a whole message was answered with: its id with the time of its created_at (what its receipt row's submit_at holds). */
export function smgpMessageId(messageId: number | string, createdAt: Date, tzMinutes = 480): Buffer {
  return msgIdOf(BigInt(messageId), createdAt, tzMinutes);
}

/** SMGP's ClientID of an account: the interface login (CMPP's Source_Addr) */
export const smgpLoginOf = interfaceLoginOf;

const DUMMY_SECRET = 'no such login';
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

export class SmgpServer extends FramedDoor<SmgpSession, SmgpSession, SmgpServerOptions> {
  constructor(
    ctx: AppContext,
    platform: DoorPlatform,
    /** the key sealing interface passwords (lib/interface-secret.ts) */
    private readonly secretKey: Buffer,
    opts: SmgpServerOptions,
  ) {
    super(ctx, platform, opts, 'smgp', {});
  }

  protected get loginTimeoutMs() {
    return this.opts.connectTimeoutMs;
  }

  protected override activeTestMs() {
    return this.opts.activeTestMs;
  }

  protected override activeTestPacket(seq: number) {
    return encodeActiveTest(seq);
  }

  protected newSession(socket: net.Socket): SmgpSession {
    return { ...this.framedSession(socket, new SmgpFrameSplitter(MAX_PACKET)), mode: -1, number: '' };
  }

  /**
   * One packet (docs/api-smgp.md "Commands"). Before SMGP_LOGIN: anything else closes the
   * connection. After it: LOGIN again → Status 10; SUBMIT → its SUBMIT_RESP; ACTIVE_TEST → its
   * response; EXIT → EXIT_RESP, then the connection ends; DELIVER_RESP / ACTIVE_TEST_RESP are
   * taken; any other request id gets no answer and the session goes on.
   */
  protected onPacket(ss: SmgpSession, b: Buffer) {
    const h = readHeader(b);
    ss.lastPduAt = Date.now();
    if (ss.accountId === null) {
      if (h.requestId === CMD.LOGIN && !ss.loggingIn) return this.guardFrame(ss, b, this.login(ss, b, h.sequenceId));
      return ss.socket.destroy();
    }
    switch (h.requestId) {
      case CMD.LOGIN:
        this.write(
          ss,
          encodeLoginResp(h.sequenceId, {
            status: SMGP_RESULT.BAD_STRUCTURE,
            authenticatorServer: Buffer.alloc(16),
            serverVersion: SMGP_VERSION,
          }),
        );
        return;
      case CMD.ACTIVE_TEST:
        this.write(ss, encodeActiveTestResp(h.sequenceId));
        return;
      case CMD.EXIT:
        ss.accountId = null;
        ss.receive = false;
        this.write(ss, encodeExitResp(h.sequenceId));
        ss.socket.end();
        return;
      case CMD.SUBMIT:
        return this.guardFrame(ss, b, this.onSubmit(ss, b, h.sequenceId));
      case CMD.DELIVER_RESP: {
        let ok: boolean;
        try {
          ok = decodeDeliverResp(b).status === STATUS.OK;
        } catch {
          // unreadable: as an error answer (the row comes back later)
          ok = false;
        }
        this.core.answered(ss, h.sequenceId, ok);
        return;
      }
      default:
        if (isResponse(h.requestId)) return;
        return;
    }
  }

  /**
   * SMGP_LOGIN: ClientVersion above 3.x → 22; a LoginMode other than 0/1/2 or a ClientID empty or
   * not printable → 10; an unknown login and a wrong authenticator answer 21 alike after the same
   * work, counted by the console's lockout per (login, address); a locked pair and the account's
   * gates (frozen, uncertified, test account, whitelist) answer 100, its nodenum 2. A refused
   * login is answered, then closed.
   */
  private async login(ss: SmgpSession, b: Buffer, seq: number) {
    const l = decodeLogin(b);
    const refuse = (status: number) => {
      this.write(
        ss,
        encodeLoginResp(seq, { status, authenticatorServer: Buffer.alloc(16), serverVersion: SMGP_VERSION }),
      );
      ss.socket.end();
    };
    if (l.clientVersion >> 4 > 3) return refuse(SMGP_RESULT.VERSION_TOO_HIGH);
    if (l.loginMode !== LOGIN_MODE.SEND && l.loginMode !== LOGIN_MODE.RECEIVE && l.loginMode !== LOGIN_MODE.TRANSMIT)
      return refuse(SMGP_RESULT.BAD_STRUCTURE);
    const login = l.clientId;
    if (!/^[\x21-\x7e]{1,8}$/.test(login)) return refuse(SMGP_RESULT.BAD_STRUCTURE);
    ss.loggingIn = true;
    try {
      const ts = String(l.timestamp >>> 0).padStart(10, '0');
      const gate = await this.core.authenticate(
        ss,
        login,
        () =>
          this.ctx.db
            .selectFrom('accounts')
            .selectAll()
            .where((eb) =>
              eb.or([
                eb('interface_login', '=', login),
                eb.and([eb('interface_login', 'is', null), eb('clientid', '=', login)]),
              ]),
            )
            .orderBy('interface_login')
            .executeTakeFirst(),
        async (a) => {
          const secret = a ? openInterfaceSecret(this.secretKey, a.id, a.interface_secret) : null;
          const expected = clientAuthenticator(login, secret ?? DUMMY_SECRET, ts);
          return timingSafeEqual(expected, l.authenticatorClient) && secret !== null;
        },
      );
      if (!gate.ok) {
        if (gate.why === 'gone') return;
        return refuse(
          gate.why === 'auth'
            ? SMGP_RESULT.BAD_AUTH
            : gate.why === 'nodenum'
              ? SMGP_RESULT.TOO_MANY_CONNECTIONS
              : SMGP_RESULT.X_ACCOUNT,
        );
      }
      const a = gate.account;
      const secret = openInterfaceSecret(this.secretKey, a.id, a.interface_secret) ?? '';
      ss.rowId = gate.rowId;
      ss.accountId = a.id;
      ss.mode = l.loginMode;
      ss.receive = l.loginMode !== LOGIN_MODE.SEND;
      ss.number = `${this.opts.sourcePrefix}${a.id}`;
      clearTimeout(ss.loginTimer);
      this.write(
        ss,
        encodeLoginResp(seq, {
          status: 0,
          authenticatorServer: serverAuthenticator(0, l.authenticatorClient, secret),
          serverVersion: SMGP_VERSION,
        }),
      );
      if (ss.receive) this.core.kick();
    } catch (err) {
      this.ctx.log.warn({ err }, 'smgp login failed');
      refuse(SMGP_RESULT.SYSTEM_BUSY);
    } finally {
      ss.loggingIn = false;
    }
  }

  private refused(status: number, reason: string, detail = '') {
    this.countRefusal(String(status), reason, detail);
  }

  /**
   * SMGP_SUBMIT (docs/api-smgp.md "Submit"): each DestTermID is one message through the
   * acceptance; the answer carries the first number's result (its MsgID, or its refusal), the
   * other numbers are accepted or refused on their own, their reports naming the answered MsgID.
   * NeedReport 0 asks for none. A long message's part (TP_udhi 1 with a 05 00 03 / 06 08 04
   * header) is stored with the others (door-core `addPart`) and answered at once with its own
   * MsgID; the part that completes it is answered with the message's.
   */
  private async onSubmit(ss: SmgpSession, b: Buffer, seq: number) {
    const accountId = ss.accountId!;
    const answer = (status: number, id: Buffer = ZERO_MSG_ID) =>
      this.write(ss, encodeSubmitResp(seq, { msgId: id, status }));
    const refuse = (status: number, reason: string, detail = '') => {
      this.refused(status, reason, detail);
      return answer(status);
    };
    if (ss.mode === LOGIN_MODE.RECEIVE) return refuse(SMGP_RESULT.BAD_COMMAND, 'mode');
    let s;
    try {
      s = decodeSubmit(b);
    } catch (err) {
      return refuse(SMGP_RESULT.BAD_STRUCTURE, 'structure', messageOf(err));
    }
    if (ss.inflight >= this.opts.window) return refuse(SMGP_RESULT.SYSTEM_BUSY, 'window');
    ss.inflight++;
    try {
      const account = await this.core.account(accountId);
      if (!account || interfaceRefusal(account)) return refuse(SMGP_RESULT.X_ACCOUNT, 'account');
      if (s.msgFormat !== MSG_FORMAT.ASCII && s.msgFormat !== MSG_FORMAT.UCS2 && s.msgFormat !== MSG_FORMAT.GB)
        return refuse(SMGP_RESULT.BAD_MSG_FORMAT, 'msgFormat');
      let body = s.msgContent;
      let part: { ref: number; total: number; seq: number } | null = null;
      if (s.tpUdhi) {
        const u = splitUdh(s.msgContent);
        body = u.body;
        if (u.concat) part = { ref: u.concat.ref, total: u.concat.total, seq: u.concat.number };
      }
      let text = decodeSmgpText(body, s.msgFormat);
      const phones = s.destTermIds.map((d) => d.trim());
      const long = !!part && part.total > 1;
      if (long && (part!.seq < 1 || part!.seq > part!.total || part!.total > MAX_PARTS || phones.length !== 1))
        return refuse(SMGP_RESULT.BAD_STRUCTURE, 'part');
      if ([...text].length > MAX_MESSAGE_CHARS) return refuse(SMGP_RESULT.BAD_MSG_LENGTH, 'length');
      const sourceAddr = s.srcTermId.trim();
      const extension =
        account.needextend === 1 ? extensionOf(sourceAddr, `${this.opts.sourcePrefix}${account.id}`) : '';
      const registeredDelivery = s.needReport === 0 ? 0 : 1;
      for (let i = 0; i < phones.length; i++) {
        if (!(await this.core.buckets.take(account.id, account.access_speed)))
          return refuse(SMGP_RESULT.SYSTEM_BUSY, 'accessSpeed');
      }
      const tz = this.opts.tzMinutes;
      let partIds: string[] | undefined;
      let delivery = registeredDelivery;
      if (long) {
        const p = part!;
        const phone = phones[0];
        const key = `smgp|${sourceAddr}|${phone}|${p.ref}|${p.total}`;
        const added = await this.core.addPart(
          account.id,
          { key, seq: p.seq, total: p.total, text, phone, sourceAddr, extension, registeredDelivery },
          (n) => smgpMsgIdString(msgIdOf(n, new Date(), tz)),
        );
        if (added === PARTS_FULL) return refuse(SMGP_RESULT.X_PARTS_FULL, 'parts');
        if ('partId' in added) return answer(0, parseSmgpMsgId(added.partId) ?? ZERO_MSG_ID);
        ({ text, partIds, registeredDelivery: delivery } = added);
        if (!(await this.core.claimParts(account.id, key)))
          return answer(0, parseSmgpMsgId(added.ownPartId) ?? ZERO_MSG_ID);
      }
      const first = await this.platform.submit(account, {
        phone: phones[0],
        text,
        sourceAddr,
        extension,
        registeredDelivery: delivery,
        partIds,
      });
      if (!first.ok) return refuse(first.status, 'refusal', first.message);
      this.stats.accepted++;
      const id = smgpMessageId(first.msgId, first.createdAt ?? new Date(), tz);
      if (phones.length > 1) {
        const others = await Promise.all(
          phones.slice(1).map((phone) =>
            this.platform
              .submit(account, {
                phone,
                text,
                sourceAddr,
                extension,
                registeredDelivery: delivery,
                partIds: [smgpMsgIdString(id)],
              })
              .catch((err: unknown) => ({ ok: false as const, status: SMGP_RESULT.X_SYSTEM, message: String(err) })),
          ),
        );
        for (const r of others) {
          if (r.ok) this.stats.accepted++;
          else this.refused(r.status, 'refusal', r.message);
        }
      }
      return answer(0, id);
    } catch (err) {
      this.ctx.log.warn({ err }, 'smgp submit failed');
      return refuse(SMGP_RESULT.X_SYSTEM, 'error', `${codeOf(err) ?? ''} ${messageOf(err)}`);
    } finally {
      ss.inflight--;
    }
  }

  /** A status report: SMGP_DELIVER with IsReport 1 whose content is the 122-octet report naming the MsgID the customer holds. */
  protected deliver(ss: SmgpSession, row: ReceiptRow) {
    const tz = this.opts.tzMinutes;
    const submitAt = new Date(row.submit_at);
    const id = row.part_id ? (parseSmgpMsgId(row.part_id) ?? ZERO_MSG_ID) : smgpMessageId(row.message_id, submitAt, tz);
    const stat = row.stat.slice(0, 7);
    const err = /^\d{1,3}$/.test(row.err) ? row.err.padStart(3, '0') : stat === 'DELIVRD' ? '000' : '999';
    const text = PRINTABLE_ASCII.test(row.text ?? '')
      ? Buffer.from((row.text ?? '').slice(0, 20), 'latin1')
      : Buffer.alloc(0);
    const content = encodeReport({
      msgId: id,
      sub: '001',
      dlvrd: stat === 'DELIVRD' ? '001' : '000',
      submitDate: reportTime(submitAt, tz),
      doneDate: reportTime(new Date(row.done_at), tz),
      stat,
      err,
      text,
    });
    const seq = this.nextSeq(ss);
    const sent = this.write(
      ss,
      encodeDeliver(seq, {
        msgId: id,
        isReport: 1,
        msgFormat: MSG_FORMAT.ASCII,
        recvTime: recvTime(new Date(), tz),
        srcTermId: row.phone.slice(0, 21),
        destTermId: ss.number.slice(0, 21),
        msgContent: content,
        reserve: '',
        tpUdhi: 0,
        linkId: '',
      }),
    );
    if (sent || ss.socket.writable) this.core.sent(ss, seq, { table: 'smpp_receipts', id: row.id });
  }

  /** An uplink: SMGP_DELIVER with IsReport 0 from the mobile to the number it replied to; a text over 140 octets goes as TP_udhi parts, the row taken when the last part is answered. */
  protected deliverMo(ss: SmgpSession, row: MoRow) {
    const single = encodeSmgpText(row.content);
    const parts =
      single.octets.length <= CONTENT_MAX
        ? { msgFormat: single.msgFormat, contents: [single.octets] }
        : splitSmgpText(row.content, row.mo_id & 0xff);
    let last = 0;
    const tz = this.opts.tzMinutes;
    for (const content of parts.contents) {
      const seq = this.nextSeq(ss);
      last = seq;
      this.write(
        ss,
        encodeDeliver(seq, {
          msgId: msgIdOf(BigInt(row.mo_id), new Date(), tz),
          isReport: 0,
          msgFormat: parts.msgFormat,
          recvTime: recvTime(new Date(), tz),
          srcTermId: row.phone.slice(0, 21),
          destTermId: row.dest.slice(0, 21),
          msgContent: content,
          reserve: '',
          tpUdhi: parts.contents.length > 1 ? 1 : 0,
          linkId: '',
        }),
      );
    }
    if (ss.socket.writable) this.core.sent(ss, last, { table: 'smpp_mo', id: row.id });
  }
}

/**
 * The CMPP 2.0 / 3.0 listener for customers (issue 36; docs/api-cmpp.md): a customer's system
 * connects with Source_Addr = the account's interface login (its clientid, or `interface_login`
 * when the clientid is longer than 6) and AuthenticatorSource = MD5(Source_Addr + 9 zero octets +
 * the interface password + Timestamp), and submits messages that go through the same acceptance,
 * charge and dispatch as the SMPP door's and the console's (send/interface.ts).
 *
 * Only the codec (lib/cmpp-pdu.ts) and the session are here: the limits, the login gate, the
 * session rows, the long-message parts and the receipt / uplink queues are the doors' shared core
 * (door-core.ts), in the database, for several processes.
 *
 * Msg_Id: the id answered is makeMsgId(time, gateway + sequence bits = a number of sms_messages'
 * own id sequence): for a whole message its message id with the time of its created_at (so a
 * receipt rebuilds it from message_id and submit_at), for an earlier part of a long message a
 * fresh number of that sequence with the time of the answer (its decimal form is the part id kept
 * in smpp_parts / interface_part_ids, which its receipt names).
 */
import type net from 'node:net';
import { interfaceLoginOf } from '../../lib/interface-password';
import { timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context';
import { ENV_DEFAULTS } from '../../env';
import {
  CMD,
  CmppFrameSplitter,
  CONNECT_STATUS,
  CONTENT_MAX,
  decodeCmppText,
  decodeConnect,
  decodeDeliverResp,
  decodeSubmit,
  encodeActiveTest,
  encodeActiveTestResp,
  encodeCmppText,
  encodeConnectResp,
  encodeDeliver,
  encodeReport,
  encodeSubmitResp,
  encodeTerminateResp,
  ismgAuthenticator,
  isResponse,
  makeMsgId,
  MAX_PACKET,
  MSG_FMT,
  msgIdString,
  parseMsgId,
  readHeader,
  reportTime,
  RESULT,
  sourceAuthenticator,
  splitCmppText,
  splitUdh,
  versionOf,
  type CmppVersion,
} from '../../lib/cmpp-pdu';
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

/** CMPP_SUBMIT_RESP results of this door beyond the protocol's (docs/api-cmpp.md "Results"): vendor codes for the platform's refusals, nothing charged */
export const CMPP_RESULT = {
  ...RESULT,
  /** the account may not send (frozen, uncertified, test account, no domestic sends) */
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

/** the CMPP result of a CMPP_SUBMIT the acceptance refused (docs/api-cmpp.md "Results") */
export const CMPP_REFUSAL_RESULT: Record<InterfaceRefusalReason, number> = {
  account: CMPP_RESULT.X_ACCOUNT,
  domestic: CMPP_RESULT.X_ACCOUNT,
  sign: CMPP_RESULT.X_SIGN,
  credit: CMPP_RESULT.X_CREDIT,
  number: CMPP_RESULT.BAD_DEST_TERMINAL,
  length: CMPP_RESULT.MSG_TOO_LONG,
  /** nothing written: to be sent again */
  busy: CMPP_RESULT.FLOW_CONTROL,
  blacklist: CMPP_RESULT.X_BLACKLIST,
};

export interface CmppServerOptions extends DoorListenerOptions {
  /** the source number prefix of the dispatch (SMS_SOURCE_PREFIX): the account's number is prefix + id */
  sourcePrefix: string;
  /** a connection that has not connected within this long is closed */
  connectTimeoutMs: number;
  /** a connected session silent for this long is sent a CMPP_ACTIVE_TEST (again each period); idleTimeoutMs closes it */
  activeTestMs: number;
  /** submits being accepted at once per session; beyond it result 8 */
  window: number;
  /** UTC offset of Msg_Id times and report times (Asia/Shanghai) */
  tzMinutes: number;
}

export const CMPP_SERVER_DEFAULTS: Omit<CmppServerOptions, 'port'> = {
  host: '0.0.0.0',
  maxConnectionsPerAddress: 50,
  maxConnectAttempts: 200,
  connectWindowMs: 10_000,
  maxConnections: 5000,
  /** SMS_SOURCE_PREFIX's default (the module passes ctx.config.smsSourcePrefix) */
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

interface CmppSession extends FramedSession {
  /** the layout the customer asked for at CONNECT (null before) */
  version: CmppVersion | null;
  /** the account's number (prefix + id): Dest_Id of reports */
  number: string;
}

/** the 38 low bits of a Msg_Id (gateway + sequence) carrying `n` */
function msgIdOf(n: bigint, at: Date, tzMinutes: number): bigint {
  const t = new Date(at.getTime() + tzMinutes * 60_000);
  return makeMsgId({
    month: t.getUTCMonth() + 1,
    day: t.getUTCDate(),
    hour: t.getUTCHours(),
    minute: t.getUTCMinutes(),
    second: t.getUTCSeconds(),
    gateway: Number((n >> 16n) & 0x3fffffn),
    sequence: Number(n & 0xffffn),
  });
}

/** The Msg_Id a whole message was answered with: its id with the time of its created_at (what its receipt row's submit_at holds). */
export function cmppMessageId(messageId: number | string, createdAt: Date, tzMinutes = 480): bigint {
  return msgIdOf(BigInt(messageId), createdAt, tzMinutes);
}

/** CMPP's Source_Addr of an account (lib/interface-password.ts) */
export const cmppLoginOf = interfaceLoginOf;

/** the dummy secret an unknown login's authenticator is computed with (the same work as a known one) */
const DUMMY_SECRET = 'no such login';

export class CmppServer extends FramedDoor<CmppSession, CmppSession, CmppServerOptions> {
  constructor(
    ctx: AppContext,
    platform: DoorPlatform,
    /** the key sealing interface passwords (lib/interface-secret.ts) */
    private readonly secretKey: Buffer,
    opts: CmppServerOptions,
  ) {
    super(ctx, platform, opts, 'cmpp', {});
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

  protected newSession(socket: net.Socket): CmppSession {
    return { ...this.framedSession(socket, new CmppFrameSplitter(MAX_PACKET)), version: null, number: '' };
  }

  /**
   * One packet (docs/api-cmpp.md "Commands"). Before CMPP_CONNECT: anything else closes the
   * connection. After it: CONNECT again → status 5; SUBMIT → its SUBMIT_RESP (result 1 when it
   * cannot be read); ACTIVE_TEST → its response; TERMINATE → its response, then the connection
   * ends; DELIVER_RESP / ACTIVE_TEST_RESP are taken; any other command id gets no answer and the
   * session goes on.
   */
  protected onPacket(cs: CmppSession, b: Buffer) {
    const h = readHeader(b);
    cs.lastPduAt = Date.now();
    if (cs.accountId === null) {
      if (h.commandId === CMD.CONNECT && !cs.loggingIn)
        return this.guardFrame(cs, b, this.connect(cs, b, h.sequenceId));
      // a packet before the connect (or while it is being checked): the connection is closed
      return cs.socket.destroy();
    }
    const v = cs.version!;
    switch (h.commandId) {
      case CMD.CONNECT:
        this.write(
          cs,
          encodeConnectResp(
            h.sequenceId,
            { status: CONNECT_STATUS.OTHER, authenticatorIsmg: Buffer.alloc(16), version: 0x30 },
            v,
          ),
        );
        return;
      case CMD.ACTIVE_TEST:
        this.write(cs, encodeActiveTestResp(h.sequenceId));
        return;
      case CMD.TERMINATE:
        cs.accountId = null;
        cs.receive = false;
        this.write(cs, encodeTerminateResp(h.sequenceId));
        cs.socket.end();
        return;
      case CMD.SUBMIT:
        return this.guardFrame(cs, b, this.onSubmit(cs, b, h.sequenceId));
      case CMD.DELIVER_RESP: {
        let result: number;
        try {
          result = decodeDeliverResp(b).result;
        } catch {
          // unreadable: as an error answer (the row comes back later)
          result = -1;
        }
        this.core.answered(cs, h.sequenceId, result === 0);
        return;
      }
      default:
        // ACTIVE_TEST_RESP (lastPduAt is refreshed), other responses and commands this door does not serve: no answer
        if (isResponse(h.commandId)) return;
        return;
    }
  }

  /**
   * CMPP_CONNECT: the version asked is the session's layout (anything but 0x2X / 0x3X: status 4 in
   * the 3.0 layout); an unknown login and a wrong authenticator answer 3 alike after the same work
   * (an MD5 with a dummy secret), counted by the console's lockout per (login, address); a locked
   * pair and the account's gates (frozen, uncertified, test account, whitelist, nodenum) answer 5;
   * a Source_Addr empty or not printable answers 2. A refused connect is answered, then closed.
   */
  private async connect(cs: CmppSession, b: Buffer, seq: number) {
    const c = decodeConnect(b);
    const version = versionOf(c.version);
    const refuse = (status: number, layout: CmppVersion) => {
      this.write(cs, encodeConnectResp(seq, { status, authenticatorIsmg: Buffer.alloc(16), version: 0x30 }, layout));
      cs.socket.end();
    };
    if (!version) return refuse(CONNECT_STATUS.VERSION_TOO_HIGH, 3);
    const login = c.sourceAddr;
    if (!/^[\x21-\x7e]{1,6}$/.test(login)) return refuse(CONNECT_STATUS.BAD_SOURCE_ADDR, version);
    cs.loggingIn = true;
    try {
      const ts = String(c.timestamp >>> 0).padStart(10, '0');
      const gate = await this.core.authenticate(
        cs,
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
            // the login of its own first (a clientid of 6 is the login of an account without one)
            .orderBy('interface_login')
            .executeTakeFirst(),
        async (a) => {
          const secret = a ? openInterfaceSecret(this.secretKey, a.id, a.interface_secret) : null;
          const expected = sourceAuthenticator(login, secret ?? DUMMY_SECRET, ts);
          return timingSafeEqual(expected, c.authenticatorSource) && secret !== null;
        },
      );
      if (!gate.ok) {
        if (gate.why === 'gone') return;
        return refuse(gate.why === 'auth' ? CONNECT_STATUS.BAD_AUTH : CONNECT_STATUS.OTHER, version);
      }
      const a = gate.account;
      const secret = openInterfaceSecret(this.secretKey, a.id, a.interface_secret) ?? '';
      cs.rowId = gate.rowId;
      cs.version = version;
      cs.accountId = a.id;
      cs.receive = true;
      cs.number = `${this.opts.sourcePrefix}${a.id}`;
      clearTimeout(cs.loginTimer);
      this.write(
        cs,
        encodeConnectResp(
          seq,
          {
            status: 0,
            authenticatorIsmg: ismgAuthenticator(0, c.authenticatorSource, secret, version),
            version: c.version,
          },
          version,
        ),
      );
      this.core.kick();
    } catch (err) {
      this.ctx.log.warn({ err }, 'cmpp connect failed');
      refuse(CONNECT_STATUS.OTHER, version);
    } finally {
      cs.loggingIn = false;
    }
  }

  private refused(result: number, reason: string, detail = '') {
    this.countRefusal(String(result), reason, detail);
  }

  /**
   * CMPP_SUBMIT (docs/api-cmpp.md "Submit"): each Dest_terminal_Id is one message through the
   * acceptance; the answer carries the first number's result (its Msg_Id, or its refusal), the
   * other numbers are accepted or refused on their own, their reports naming the answered Msg_Id.
   * A long message's part (TP_udhi 1 with a 05 00 03 / 06 08 04 header) is stored with the
   * others (door-core `addPart`) and answered at once with its own Msg_Id; the part that completes
   * it is answered with the message's.
   */
  private async onSubmit(cs: CmppSession, b: Buffer, seq: number) {
    const v = cs.version!;
    const accountId = cs.accountId!;
    const answer = (result: number, id = 0n) => this.write(cs, encodeSubmitResp(seq, { msgId: id, result }, v));
    const refuse = (result: number, reason: string, detail = '') => {
      this.refused(result, reason, detail);
      return answer(result);
    };
    let s;
    try {
      s = decodeSubmit(b, v);
    } catch (err) {
      return refuse(CMPP_RESULT.BAD_STRUCTURE, 'structure', messageOf(err));
    }
    if (cs.inflight >= this.opts.window) return refuse(CMPP_RESULT.FLOW_CONTROL, 'window');
    cs.inflight++;
    try {
      const account = await this.core.account(accountId);
      if (!account || interfaceRefusal(account)) return refuse(CMPP_RESULT.X_ACCOUNT, 'account');
      if (s.msgFmt !== MSG_FMT.ASCII && s.msgFmt !== MSG_FMT.UCS2 && s.msgFmt !== MSG_FMT.GB)
        return refuse(CMPP_RESULT.BAD_STRUCTURE, 'msgFmt');
      let body = s.msgContent;
      let part: { ref: number; total: number; seq: number } | null = null;
      if (s.tpUdhi) {
        const u = splitUdh(s.msgContent);
        body = u.body;
        if (u.concat) part = { ref: u.concat.ref, total: u.concat.total, seq: u.concat.number };
      }
      let text = decodeCmppText(body, s.msgFmt);
      const phones = s.destTerminalIds.map((d) => d.trim());
      const long = !!part && part.total > 1;
      if (long && (part!.seq < 1 || part!.seq > part!.total || part!.total > MAX_PARTS || phones.length !== 1))
        return refuse(CMPP_RESULT.BAD_STRUCTURE, 'part');
      if ([...text].length > MAX_MESSAGE_CHARS) return refuse(CMPP_RESULT.MSG_TOO_LONG, 'length');
      const sourceAddr = s.srcId.trim();
      const extension =
        account.needextend === 1 ? extensionOf(sourceAddr, `${this.opts.sourcePrefix}${account.id}`) : '';
      const registeredDelivery = s.registeredDelivery === 0 ? 0 : 1;
      // one accessSpeed token per number (throttled: nothing stored, the customer sends it again)
      for (let i = 0; i < phones.length; i++) {
        if (!(await this.core.buckets.take(account.id, account.access_speed)))
          return refuse(CMPP_RESULT.FLOW_CONTROL, 'accessSpeed');
      }
      const tz = this.opts.tzMinutes;
      let partIds: string[] | undefined;
      let delivery = registeredDelivery;
      if (long) {
        const p = part!;
        const phone = phones[0];
        const key = `cmpp|${sourceAddr}|${phone}|${p.ref}|${p.total}`;
        const added = await this.core.addPart(
          account.id,
          { key, seq: p.seq, total: p.total, text, phone, sourceAddr, extension, registeredDelivery },
          (n) => msgIdString(msgIdOf(n, new Date(), tz)),
        );
        if (added === PARTS_FULL) return refuse(CMPP_RESULT.X_PARTS_FULL, 'parts');
        if ('partId' in added) return answer(0, parseMsgId(added.partId) ?? 0n);
        ({ text, partIds, registeredDelivery: delivery } = added);
        if (!(await this.core.claimParts(account.id, key))) return answer(0, parseMsgId(added.ownPartId) ?? 0n);
      }
      const first = await this.platform.submit(account, {
        phone: phones[0],
        text,
        sourceAddr,
        extension,
        registeredDelivery: delivery,
        partIds,
      });
      if (!first.ok) {
        return refuse(first.status, 'refusal', first.message);
      }
      this.stats.accepted++;
      const id = cmppMessageId(first.msgId, first.createdAt ?? new Date(), tz);
      // the other numbers: each its own message, its reports naming the answered Msg_Id too
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
                partIds: [msgIdString(id)],
              })
              .catch((err: unknown) => ({ ok: false as const, status: CMPP_RESULT.X_SYSTEM, message: String(err) })),
          ),
        );
        for (const r of others) {
          if (r.ok) this.stats.accepted++;
          else this.refused(r.status, 'refusal', r.message);
        }
      }
      return answer(0, id);
    } catch (err) {
      this.ctx.log.warn({ err }, 'cmpp submit failed');
      return refuse(CMPP_RESULT.X_SYSTEM, 'error', `${codeOf(err) ?? ''} ${messageOf(err)}`);
    } finally {
      cs.inflight--;
    }
  }

  /** A status report: CMPP_DELIVER with Registered_Delivery 1, naming the Msg_Id the customer holds. */
  protected deliver(cs: CmppSession, row: ReceiptRow) {
    const v = cs.version!;
    const tz = this.opts.tzMinutes;
    const submitAt = new Date(row.submit_at);
    const id = row.part_id ? (parseMsgId(row.part_id) ?? 0n) : cmppMessageId(row.message_id, submitAt, tz);
    const content = encodeReport(
      {
        msgId: id,
        stat: row.stat.slice(0, 7),
        submitTime: reportTime(submitAt, tz),
        doneTime: reportTime(new Date(row.done_at), tz),
        destTerminalId: row.phone.slice(0, v === 2 ? 21 : 32),
        smscSequence: row.id >>> 0,
      },
      v,
    );
    const seq = this.nextSeq(cs);
    const sent = this.write(
      cs,
      encodeDeliver(
        seq,
        {
          msgId: id,
          destId: cs.number.slice(0, 21),
          serviceId: '',
          tpPid: 0,
          tpUdhi: 0,
          msgFmt: MSG_FMT.ASCII,
          srcTerminalId: row.phone.slice(0, v === 2 ? 21 : 32),
          srcTerminalType: 0,
          registeredDelivery: 1,
          msgContent: content,
          linkId: '',
        },
        v,
      ),
    );
    if (sent || cs.socket.writable) this.core.sent(cs, seq, { table: 'smpp_receipts', id: row.id });
  }

  /**
   * An uplink: CMPP_DELIVER with Registered_Delivery 0 from the mobile to the number it replied to
   * (prefix + account id + extension); a text over 140 octets goes as TP_udhi parts, the row
   * taken when the last part is answered.
   */
  protected deliverMo(cs: CmppSession, row: MoRow) {
    const v = cs.version!;
    const single = encodeCmppText(row.content);
    const parts =
      single.octets.length <= CONTENT_MAX
        ? { msgFmt: single.msgFmt, contents: [single.octets] }
        : splitCmppText(row.content, row.mo_id & 0xff);
    let last = 0;
    for (const content of parts.contents) {
      const seq = this.nextSeq(cs);
      last = seq;
      this.write(
        cs,
        encodeDeliver(
          seq,
          {
            msgId: msgIdOf(BigInt(row.mo_id), new Date(), this.opts.tzMinutes),
            destId: row.dest.slice(0, 21),
            serviceId: '',
            tpPid: 0,
            tpUdhi: parts.contents.length > 1 ? 1 : 0,
            msgFmt: parts.msgFmt,
            srcTerminalId: row.phone.slice(0, v === 2 ? 21 : 32),
            srcTerminalType: 0,
            registeredDelivery: 0,
            msgContent: content,
            linkId: '',
          },
          v,
        ),
      );
    }
    if (cs.socket.writable) this.core.sent(cs, last, { table: 'smpp_mo', id: row.id });
  }
}

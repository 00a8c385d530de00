/**
 * The SGIP 1.2 listener for customers (issue 38; docs/api-sgip.md). SGIP runs over two
 * connections, and this door serves both:
 *
 * - the customer binds to it (SGIP_BIND, Login_Type 1, Login_Name = the account's interface login,
 *   Login_Password = its interface password) and submits; each SGIP_SUBMIT goes through the same
 *   acceptance, charge and dispatch as the other doors' (send/interface.ts) and is answered with
 *   SGIP_SUBMIT_RESP carrying the submit's own 12-octet sequence number. SGIP answers no message
 *   id: the customer knows a message by that sequence number, so the door keeps it as the
 *   message's part id (every submit of a long message, the last one too: `partIdsWhole`,
 *   migration 0045) and the report names it;
 * - the platform binds back (Login_Type 2) to the customer's own SGIP listener set in 接口信息
 *   (accounts.sgip_callback_*), checked like every host the server calls (lib/safe-url.ts), and
 *   hands it SGIP_REPORT (SubmitSequenceNumber = the customer's submit's, ReportType 0, State 0 / 2,
 *   ErrorCode) and uplinks as SGIP_DELIVER, from the shared receipt / uplink queues of the door
 *   core: a bind-back is a receiver session of the core (`BackSession`) whose packets go over an
 *   SgipBindBack (lib/sgip-bindback.ts). One process delivers an account's queue at a time
 *   (sgip_bindback_owners, a lease); a row goes only once its packet was answered 0; while the
 *   listener cannot be reached the rows stay and the bind-back is tried again with back-off.
 *
 * Only the codec (lib/sgip-pdu.ts) and the sessions are here: the limits, the login gate, the
 * session rows, the long-message parts and the queues are door-core.ts.
 */
import type net from 'node:net';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context';
import { ENV_DEFAULTS } from '../../env';
import { openInterfaceSecret } from '../../lib/interface-secret';
import { resolveForPush, UnsafeUrlError } from '../../lib/safe-url';
import { SgipBindBack } from '../../lib/sgip-bindback';
import { cmppTimestamp } from '../../lib/cmpp-pdu';
import {
  CMD,
  decodeBind,
  decodeSgipText,
  decodeSubmit,
  decodeTrace,
  encodeBindResp,
  encodeDeliver,
  encodeReport,
  encodeResp,
  encodeSgipText,
  encodeSubmitResp,
  encodeTraceResp,
  encodeUnbindResp,
  isResponse,
  LOGIN_TYPE,
  MAX_PACKET,
  MESSAGE_CODING,
  parseSeq,
  readHeader,
  REPORT_FLAG,
  REPORT_STATE,
  RESULT,
  SeqSource,
  seqString,
  SgipFrameSplitter,
  splitSgipText,
  splitSgipUdh,
  TRACE_RESULT,
  traceNodeId,
  traceTime,
  withCountryCode,
  withoutCountryCode,
  type SgipSeq,
  type SgipTraceHop,
} from '../../lib/sgip-pdu';
import { SendRecordStatus } from '../../../common/generated/schemas';
import { MAX_MESSAGE_CHARS } from '../../../common/sms/pieces';
import type { InterfaceRefusalReason } from '../send';
import {
  extensionOf,
  interfaceRefusal,
  MAX_PARTS,
  PARTS_FULL,
  type DoorPlatform,
  type DoorSession,
  type MoRow,
  type ReceiptRow,
} from './door-core';
import { FramedDoor, type DoorListenerOptions, type FramedSession } from './door-listener';
import { codeOf, messageOf } from '../../lib/error-code';

/** SGIP_SUBMIT_RESP results of this door beyond the protocol's (docs/api-sgip.md "Results"): vendor codes for the platform's refusals, nothing charged */
export const SGIP_RESULT = {
  ...RESULT,
  X_ACCOUNT: 100,
  X_SIGN: 101,
  X_CREDIT: 102,
  X_BLACKLIST: 104,
  X_PARTS_FULL: 105,
  X_SYSTEM: 199,
} as const;

/** the SGIP result of a submit the acceptance refused */
export const SGIP_REFUSAL_RESULT: Record<InterfaceRefusalReason, number> = {
  account: SGIP_RESULT.X_ACCOUNT,
  domestic: SGIP_RESULT.X_ACCOUNT,
  sign: SGIP_RESULT.X_SIGN,
  credit: SGIP_RESULT.X_CREDIT,
  number: SGIP_RESULT.BAD_USER_NUMBER,
  length: SGIP_RESULT.BAD_MESSAGE_LENGTH,
  /** nothing written: to be sent again */
  busy: SGIP_RESULT.NODE_BUSY,
  blacklist: SGIP_RESULT.X_BLACKLIST,
};

export interface SgipServerOptions extends DoorListenerOptions {
  sourcePrefix: string;
  /** a connection that has not bound within this long is closed */
  bindTimeoutMs: number;
  /** submits being accepted at once per session; beyond it result 11 (node busy) */
  window: number;
  tzMinutes: number;
  /** the platform's node id (SGIP_NODE_ID) */
  nodeId: number;
  /** how often the accounts whose queues wait for a bind-back are looked for */
  bindBackPollMs: number;
  /** an owner's lease of an account's bind-back (renewed every poll) */
  bindBackLeaseMs: number;
  /** back-off after the customer's listener could not be reached: from min, doubled, to max */
  bindBackRetryMinMs: number;
  bindBackRetryMaxMs: number;
  /** a bind-back connection without traffic this long is unbound */
  bindBackIdleMs: number;
  /** tests: where to connect for a checked callback address (the listener runs on loopback) */
  dial?: (address: string, port: number) => { host: string; port: number };
}

export const SGIP_SERVER_DEFAULTS: Omit<SgipServerOptions, 'port'> = {
  host: '0.0.0.0',
  maxConnectionsPerAddress: 50,
  maxConnectAttempts: 200,
  connectWindowMs: 10_000,
  maxConnections: 5000,
  sourcePrefix: ENV_DEFAULTS.SMS_SOURCE_PREFIX,
  heartbeatMs: 10_000,
  bindTimeoutMs: 10_000,
  idleTimeoutMs: 180_000,
  window: 100,
  reassemblyMs: 60_000,
  partsMaxBytes: 1024 * 1024,
  deliverWindow: 100,
  receiptPollMs: 200,
  receiptLeaseMs: 30_000,
  accountCacheMs: 1000,
  tzMinutes: 480,
  nodeId: ENV_DEFAULTS.SGIP_NODE_ID,
  bindBackPollMs: 500,
  bindBackLeaseMs: 15_000,
  bindBackRetryMinMs: 1000,
  bindBackRetryMaxMs: 60_000,
  bindBackIdleMs: 5000,
};

/** a customer's own connection: it binds and submits (never receives: SGIP reports go by bind-back) */
interface CustomerSession extends FramedSession {
  kind: 'customer';
}

/** the door's counters beside the common ones */
interface SgipStats {
  /** reports and uplinks the customers' listeners answered 0 */
  reportsSent: number;
  mosSent: number;
  /** bind-backs that could not be made (connect, bind refused) */
  bindBackFailures: number;
}

/** the platform's bind-back to an account's listener, as a receiver session of the core */
interface BackSession extends DoorSession {
  kind: 'back';
  accountId: number;
  /** host:port:user:password of the listener it was made for (a change in 接口信息 makes a new one) */
  target: string;
  back: SgipBindBack | null;
  /** not before this (back-off after a failure) */
  retryAt: number;
  failures: number;
  /** resolving the callback host now */
  resolving: boolean;
  closed: boolean;
  token: number;
}

type Session = CustomerSession | BackSession;

interface CallbackRow {
  id: number;
  sgip_callback_host: string;
  sgip_callback_port: number;
  sgip_callback_user: string;
  sgip_callback_password: string;
}

const sha = (s: string) => createHash('sha256').update(s, 'latin1').digest();
/** the dummy secret an unknown login's password is compared with (the same work as a known one) */
const DUMMY_SECRET = 'no such login';

export class SgipServer extends FramedDoor<Session, CustomerSession, SgipServerOptions, SgipStats> {
  private readonly seqs: SeqSource;
  private readonly backs = new Map<number, BackSession>();
  private poller?: NodeJS.Timeout;
  private polling: Promise<void> | null = null;

  constructor(
    ctx: AppContext,
    platform: DoorPlatform,
    /** the key sealing interface passwords (lib/interface-secret.ts) */
    private readonly secretKey: Buffer,
    opts: SgipServerOptions,
  ) {
    super(ctx, platform, opts, 'sgip', { reportsSent: 0, mosSent: 0, bindBackFailures: 0 });
    this.seqs = new SeqSource(opts.nodeId, opts.tzMinutes);
  }

  protected get loginTimeoutMs() {
    return this.opts.bindTimeoutMs;
  }

  protected override started() {
    this.poller = setInterval(() => this.poll(), this.opts.bindBackPollMs);
    this.poller.unref();
    this.poll();
  }

  override async close(): Promise<void> {
    clearInterval(this.poller);
    await this.polling;
    await super.close(async () => {
      for (const b of this.backs.values()) await this.dropBack(b);
    });
    await this.ctx.db
      .deleteFrom('sgip_bindback_owners')
      .where('process', '=', this.processId)
      .execute()
      .catch((err) => this.ctx.log.warn({ err }, 'sgip bind-back owners not released'));
  }

  // ------------------------------------------------------------ the customer's connection

  protected newSession(socket: net.Socket): CustomerSession {
    return { ...this.framedSession(socket, new SgipFrameSplitter(MAX_PACKET)), kind: 'customer' };
  }

  /**
   * One packet (docs/api-sgip.md "Commands"). Before SGIP_BIND: anything else closes the
   * connection. After it: SUBMIT → its SUBMIT_RESP; TRACE → its TRACE_RESP; UNBIND → its response,
   * then the connection ends; BIND again → result 2; another request with a Result response → result 30 (not provided);
   * anything else gets no answer and the session goes on.
   */
  protected onPacket(cs: CustomerSession, b: Buffer) {
    const h = readHeader(b);
    cs.lastPduAt = Date.now();
    if (cs.accountId === null) {
      if (h.commandId === CMD.BIND && !cs.loggingIn) return this.guardFrame(cs, b, this.bind(cs, b, h.seq));
      return cs.socket.destroy();
    }
    switch (h.commandId) {
      case CMD.BIND:
        this.write(cs, encodeBindResp(h.seq, RESULT.REPEATED_LOGIN));
        return;
      case CMD.UNBIND:
        cs.accountId = null;
        this.write(cs, encodeUnbindResp(h.seq));
        cs.socket.end();
        return;
      case CMD.SUBMIT:
        return this.guardFrame(cs, b, this.onSubmit(cs, b, h.seq));
      case CMD.TRACE:
        return this.guardFrame(cs, b, this.onTrace(cs, b, h.seq));
      case CMD.DELIVER:
      case CMD.REPORT:
      case CMD.USERRPT:
      case CMD.ADDSP:
      case CMD.MODIFYSP:
      case CMD.DELETESP:
      case CMD.ADDTELESEG:
      case CMD.MODIFYTELESEG:
      case CMD.DELETETELESEG:
      case CMD.ADDSMG:
      case CMD.MODIFYSMG:
      case CMD.DELETESMG:
        this.write(cs, encodeResp((h.commandId | 0x80000000) >>> 0, h.seq, RESULT.NOT_PROVIDED));
        return;
      default:
        if (isResponse(h.commandId)) return;
        return;
    }
  }

  /**
   * SGIP_BIND: Login_Type 1 only (else result 4); an unknown login and a wrong password answer 1
   * alike after the same work, counted by the console's lockout; a locked pair and the account's
   * gates answer 1, nodenum 3. A refused bind is answered, then closed.
   */
  private async bind(cs: CustomerSession, b: Buffer, seq: SgipSeq) {
    const c = decodeBind(b);
    const refuse = (result: number) => {
      this.write(cs, encodeBindResp(seq, result));
      cs.socket.end();
    };
    if (c.loginType !== LOGIN_TYPE.SP_TO_SMG) return refuse(RESULT.BAD_LOGIN_TYPE);
    const login = c.loginName;
    if (!/^[\x21-\x7e]{1,16}$/.test(login)) return refuse(RESULT.BAD_LOGIN);
    cs.loggingIn = true;
    try {
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
            .orderBy('interface_login')
            .executeTakeFirst(),
        async (a) => {
          const secret = a ? openInterfaceSecret(this.secretKey, a.id, a.interface_secret) : null;
          return timingSafeEqual(sha(secret ?? DUMMY_SECRET), sha(c.loginPassword)) && secret !== null;
        },
      );
      if (!gate.ok) {
        if (gate.why === 'gone') return;
        return refuse(gate.why === 'nodenum' ? RESULT.TOO_MANY_CONNECTIONS : RESULT.BAD_LOGIN);
      }
      cs.rowId = gate.rowId;
      cs.accountId = gate.account.id;
      clearTimeout(cs.loginTimer);
      this.write(cs, encodeBindResp(seq, RESULT.OK));
    } catch (err) {
      this.ctx.log.warn({ err }, 'sgip bind failed');
      refuse(RESULT.SYSTEM_FAILURE);
    } finally {
      cs.loggingIn = false;
    }
  }

  private refused(result: number, reason: string, detail = '') {
    this.countRefusal(String(result), reason, detail);
  }

  /**
   * SGIP_SUBMIT (docs/api-sgip.md "Submit"): each UserNumber (with 86) is one message through the
   * acceptance; the answer carries the first number's result, the other numbers are accepted or
   * refused on their own, their reports naming the same submit. A long message's part (TP_udhi 1
   * with a 05 00 03 / 06 08 04 header) is stored with the others (door-core `addPart`, its id the
   * submit's sequence number) and answered at once; the part that completes it submits the
   * message, whose reports name every part's submit.
   */
  private async onSubmit(cs: CustomerSession, b: Buffer, seq: SgipSeq) {
    const accountId = cs.accountId!;
    const answer = (result: number) => this.write(cs, encodeSubmitResp(seq, result));
    const refuse = (result: number, reason: string, detail = '') => {
      this.refused(result, reason, detail);
      return answer(result);
    };
    let s;
    try {
      s = decodeSubmit(b);
    } catch (err) {
      return refuse(SGIP_RESULT.BAD_PARAMETER, 'structure', messageOf(err));
    }
    if (cs.inflight >= this.opts.window) return refuse(SGIP_RESULT.NODE_BUSY, 'window');
    cs.inflight++;
    try {
      const account = await this.core.account(accountId);
      if (!account || interfaceRefusal(account)) return refuse(SGIP_RESULT.X_ACCOUNT, 'account');
      const coding = s.messageCoding;
      if (coding !== MESSAGE_CODING.ASCII && coding !== MESSAGE_CODING.UCS2 && coding !== MESSAGE_CODING.GB)
        return refuse(SGIP_RESULT.BAD_PARAMETER, 'messageCoding');
      let body = s.messageContent;
      let part: { ref: number; total: number; seq: number } | null = null;
      if (s.tpUdhi) {
        let u;
        try {
          u = splitSgipUdh(s.messageContent);
        } catch (err) {
          return refuse(SGIP_RESULT.BAD_PARAMETER, 'udh', messageOf(err));
        }
        body = u.body;
        if (u.concat) part = { ref: u.concat.ref, total: u.concat.total, seq: u.concat.number };
      }
      let text = decodeSgipText(body, coding);
      const phones = s.userNumbers.map((d) => withoutCountryCode(d.trim()));
      const long = !!part && part.total > 1;
      if (long && (part!.seq < 1 || part!.seq > part!.total || part!.total > MAX_PARTS || phones.length !== 1))
        return refuse(SGIP_RESULT.BAD_PARAMETER, 'part');
      if ([...text].length > MAX_MESSAGE_CHARS) return refuse(SGIP_RESULT.BAD_MESSAGE_LENGTH, 'length');
      const sourceAddr = s.spNumber.trim();
      const extension =
        account.needextend === 1 ? extensionOf(sourceAddr, `${this.opts.sourcePrefix}${account.id}`) : '';
      const registeredDelivery =
        s.reportFlag === REPORT_FLAG.ALWAYS ? 1 : s.reportFlag === REPORT_FLAG.FAILURES ? 2 : 0;
      for (let i = 0; i < phones.length; i++) {
        if (!(await this.core.buckets.take(account.id, account.access_speed)))
          return refuse(SGIP_RESULT.NODE_BUSY, 'accessSpeed');
      }
      const own = seqString(seq);
      let partIds = [own];
      let delivery = registeredDelivery;
      if (long) {
        const p = part!;
        const phone = phones[0];
        const key = `sgip|${sourceAddr}|${phone}|${p.ref}|${p.total}`;
        const added = await this.core.addPart(
          account.id,
          { key, seq: p.seq, total: p.total, text, phone, sourceAddr, extension, registeredDelivery, whole: true },
          () => own,
        );
        if (added === PARTS_FULL) return refuse(SGIP_RESULT.X_PARTS_FULL, 'parts');
        if ('partId' in added) return answer(RESULT.OK);
        text = added.text;
        delivery = added.registeredDelivery;
        partIds = [...added.partIds, added.ownPartId];
        if (!(await this.core.claimParts(account.id, key))) return answer(RESULT.OK);
      }
      const first = await this.platform.submit(account, {
        phone: phones[0],
        text,
        sourceAddr,
        extension,
        registeredDelivery: delivery,
        partIds,
        partIdsWhole: true,
      });
      if (!first.ok) return refuse(first.status, 'refusal', first.message);
      this.stats.accepted++;
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
                partIds: [own],
                partIdsWhole: true,
              })
              .catch((err: unknown) => ({ ok: false as const, status: SGIP_RESULT.X_SYSTEM, message: String(err) })),
          ),
        );
        for (const r of others) {
          if (r.ok) this.stats.accepted++;
          else this.refused(r.status, 'refusal', r.message);
        }
      }
      return answer(RESULT.OK);
    } catch (err) {
      this.ctx.log.warn({ err }, 'sgip submit failed');
      return refuse(SGIP_RESULT.X_SYSTEM, 'error', `${codeOf(err) ?? ''} ${messageOf(err)}`);
    } finally {
      cs.inflight--;
    }
  }

  /**
   * SGIP_TRACE (docs/api-sgip.md "Trace"): what the platform knows of the submit it names, found
   * by the submit's sequence number as the door keeps it (the message's part ids; for a message
   * that came by another door, the sequence its reports carry: this node, its submit time, its id)
   * and the UserNumber. The platform is the first node: Result 0, ReceiveTime its acceptance,
   * SendTime its hand-over to a carrier; once handed over, the carrier is the second: Result 0 when
   * it took the message (1 when it refused it), SendTime its delivery. Unknown, another account's,
   * or a TRACE that cannot be read: the platform's node alone with Result 1 (not arrived).
   */
  private async onTrace(cs: CustomerSession, b: Buffer, seq: SgipSeq) {
    const nodeId = traceNodeId(this.opts.nodeId);
    const tz = this.opts.tzMinutes;
    const answer = (hops: SgipTraceHop[]) => this.write(cs, encodeTraceResp(seq, hops));
    const unknown = () => answer([{ result: TRACE_RESULT.NOT_ARRIVED, nodeId, receiveTime: '', sendTime: '' }]);
    let t;
    try {
      t = decodeTrace(b);
    } catch {
      return unknown();
    }
    const own = t.submitSeq.node === this.opts.nodeId ? t.submitSeq.number : null;
    const m = await this.core.findMessage(
      cs.accountId!,
      withoutCountryCode(t.userNumber.trim()),
      seqString(t.submitSeq),
      own,
    );
    // the platform's own sequence names the message only with its submit time
    if (!m || (m.by === 'id' && Number(cmppTimestamp(new Date(m.created_at), tz)) !== t.submitSeq.time))
      return unknown();
    const hops: SgipTraceHop[] = [
      {
        result: TRACE_RESULT.ARRIVED,
        nodeId,
        receiveTime: traceTime(m.created_at, tz),
        sendTime: traceTime(m.submitted_at, tz),
      },
    ];
    if (m.submitted_at) {
      const refused = m.state === SendRecordStatus.SubmitFailed;
      const delivered = m.state === SendRecordStatus.Delivered || m.state === SendRecordStatus.DeliveredAlt;
      hops.push({
        result: refused ? TRACE_RESULT.NOT_ARRIVED : TRACE_RESULT.ARRIVED,
        nodeId: '',
        receiveTime: refused ? '' : traceTime(m.submitted_at, tz),
        sendTime: delivered ? traceTime(m.done_at, tz) : '',
      });
    }
    return answer(hops);
  }

  // ------------------------------------------------------------ bind-back

  /**
   * The accounts whose queues wait for a bind-back: those with a listener set in 接口信息 and
   * receipts or uplinks queued. Each is taken (or kept) with a lease in sgip_bindback_owners, so
   * one process delivers it; its BackSession joins the core's receivers and the core's pump hands
   * it rows. An account whose queue is empty, or whose lease another process holds, is let go.
   */
  private poll() {
    if (this.polling || this.core.closing) return;
    this.polling = this.pollOnce()
      .catch((err) => this.ctx.log.warn({ err }, 'sgip bind-back poll failed'))
      .finally(() => (this.polling = null));
  }

  private async pollOnce() {
    const db = this.ctx.db;
    const now = new Date();
    const rows: CallbackRow[] = await db
      .selectFrom('accounts as a')
      .select([
        'a.id',
        'a.sgip_callback_host',
        'a.sgip_callback_port',
        'a.sgip_callback_user',
        'a.sgip_callback_password',
      ])
      .where('a.sgip_callback_host', '<>', '')
      .where('a.sgip_callback_port', '>', 0)
      .where((eb) =>
        eb.or([
          eb.exists(eb.selectFrom('smpp_receipts as r').select('r.id').whereRef('r.account_id', '=', 'a.id')),
          eb.exists(eb.selectFrom('smpp_mo as m').select('m.id').whereRef('m.account_id', '=', 'a.id')),
        ]),
      )
      .orderBy('a.id')
      .limit(1000)
      .execute();
    const want = new Map(rows.map((r) => [r.id, r]));
    // let go of what has nothing left (or no listener any more), once its packets are answered
    for (const [id, b] of this.backs) {
      if (!want.has(id) && !b.unacked.size) {
        await this.dropBack(b);
        await db
          .deleteFrom('sgip_bindback_owners')
          .where('account_id', '=', id)
          .where('process', '=', this.processId)
          .execute();
      }
    }
    if (!rows.length) return;
    const lease = new Date(now.getTime() + this.opts.bindBackLeaseMs);
    // take or renew: free, run out, or already ours
    const owned = await db
      .insertInto('sgip_bindback_owners')
      .values(rows.map((r) => ({ account_id: r.id, process: this.processId, lease_until: lease })))
      .onConflict((oc) =>
        oc
          .column('account_id')
          .doUpdateSet({ process: this.processId, lease_until: lease })
          .where((eb) =>
            eb.or([
              eb('sgip_bindback_owners.lease_until', '<', now),
              eb('sgip_bindback_owners.process', '=', this.processId),
            ]),
          ),
      )
      .returning('account_id')
      .execute();
    const mine = new Set(owned.map((o) => o.account_id));
    for (const [id, b] of this.backs) if (!mine.has(id) && !b.unacked.size) await this.dropBack(b);
    let kick = false;
    for (const id of mine) {
      const r = want.get(id)!;
      const target = `${r.sgip_callback_host}:${r.sgip_callback_port}:${r.sgip_callback_user}:${r.sgip_callback_password}`;
      let b = this.backs.get(id);
      if (b && b.target !== target && !b.unacked.size) {
        await this.dropBack(b);
        b = undefined;
      }
      if (!b) {
        b = this.newBack(id, target);
        this.backs.set(id, b);
        this.core.sessions.add(b);
      }
      b.lastPduAt = Date.now();
      if (!b.back && !b.resolving && Date.now() >= b.retryAt) void this.open(b, r);
      if (b.back && b.writable()) kick = true;
    }
    if (kick) this.core.kick();
  }

  private newBack(accountId: number, target: string): BackSession {
    const b: BackSession = {
      kind: 'back',
      ip: 'bind-back',
      accountId,
      receive: true,
      unacked: new Map(),
      lastPduAt: Date.now(),
      target,
      back: null,
      retryAt: 0,
      failures: 0,
      resolving: false,
      closed: false,
      token: 0,
      writable: () => !b.closed && !!b.back && Date.now() >= b.retryAt,
      destroy: () => void this.dropBack(b),
    };
    return b;
  }

  /** checks the listener's host like every host the server calls, then makes the bind-back to the address checked */
  private async open(b: BackSession, r: CallbackRow) {
    b.resolving = true;
    try {
      const target = await resolveForPush(
        `http://${r.sgip_callback_host.includes(':') ? `[${r.sgip_callback_host}]` : r.sgip_callback_host}:${r.sgip_callback_port}/`,
        this.ctx.resolveHost,
      );
      if (b.closed) return;
      const to = this.opts.dial
        ? this.opts.dial(target.address, r.sgip_callback_port)
        : { host: target.address, port: r.sgip_callback_port };
      b.back = new SgipBindBack({
        host: to.host,
        port: to.port,
        loginName: r.sgip_callback_user,
        loginPassword: r.sgip_callback_password,
        seqs: this.seqs,
        window: this.opts.deliverWindow,
        idleMs: this.opts.bindBackIdleMs,
        log: this.ctx.log,
      });
      this.core.kick();
    } catch (err) {
      const why = err instanceof UnsafeUrlError ? err.message : String(err);
      this.ctx.log.warn(
        { account: b.accountId, host: r.sgip_callback_host, why },
        'sgip bind-back: the listener host is refused',
      );
      this.failed(b, this.opts.bindBackRetryMaxMs);
    } finally {
      b.resolving = false;
    }
  }

  /** the listener could not be reached (or refused the bind): the rows stay, the next attempt waits */
  private failed(b: BackSession, atLeast = 0) {
    const now = Date.now();
    if (now < b.retryAt) return; // one step per failure burst (a window of packets fails together)
    this.stats.bindBackFailures++;
    const wait = Math.max(
      atLeast,
      Math.min(this.opts.bindBackRetryMaxMs, this.opts.bindBackRetryMinMs * 2 ** Math.min(b.failures, 16)),
    );
    b.failures++;
    b.retryAt = now + wait;
  }

  private async dropBack(b: BackSession) {
    if (b.closed) return;
    b.closed = true;
    if (this.backs.get(b.accountId) === b) this.backs.delete(b.accountId);
    this.core.removed(b);
    await b.back?.close();
  }

  /** a packet (or the parts of one) to the listener: the core's row goes when every one was answered 0 */
  private handOver(
    b: BackSession,
    table: 'smpp_receipts' | 'smpp_mo',
    id: number,
    builds: ((seq: SgipSeq) => Buffer)[],
  ) {
    const back = b.back!;
    const token = (b.token = b.token >= 0x7fffffff ? 1 : b.token + 1);
    this.core.sent(b, token, { table, id });
    Promise.all(builds.map((build) => back.send(build))).then(
      (results) => {
        const ok = results.every((r) => r === RESULT.OK);
        if (ok) {
          b.failures = 0;
          if (table === 'smpp_receipts') this.stats.reportsSent++;
          else this.stats.mosSent++;
        }
        this.core.answered(b, token, ok);
      },
      () => {
        this.failed(b);
        this.core.answered(b, token, false);
      },
    );
  }

  /** SGIP_REPORT naming the customer's submit (its part id), or, for a message that came by another door, the platform's own sequence of it */
  protected deliver(s: Session, row: ReceiptRow) {
    if (s.kind !== 'back' || !s.back) throw new Error('sgip: a report for a session that does not receive');
    const submitSeq = parseSeq(row.part_id) ?? {
      node: this.opts.nodeId,
      time: Number(cmppTimestamp(new Date(row.submit_at), this.opts.tzMinutes)),
      number: row.message_id >>> 0,
    };
    const delivered = row.stat === 'DELIVRD';
    const err = Math.min(255, Number(row.err) || 0);
    this.handOver(s, 'smpp_receipts', row.id, [
      (seq) =>
        encodeReport(seq, {
          submitSeq,
          reportType: 0,
          userNumber: withCountryCode(row.phone).slice(0, 21),
          state: delivered ? REPORT_STATE.DELIVERED : REPORT_STATE.FAILED,
          errorCode: delivered ? 0 : err || 1,
        }),
    ]);
  }

  /** an uplink: SGIP_DELIVER from the mobile (with 86) to the number it replied to; over 140 octets as TP_udhi parts */
  protected deliverMo(s: Session, row: MoRow) {
    if (s.kind !== 'back' || !s.back) throw new Error('sgip: an uplink for a session that does not receive');
    const single = encodeSgipText(row.content);
    const parts =
      single.octets.length <= 140
        ? { msgFmt: single.messageCoding, contents: [single.octets] }
        : splitSgipText(row.content, row.mo_id & 0xff);
    const many = parts.contents.length > 1;
    this.handOver(
      s,
      'smpp_mo',
      row.id,
      parts.contents.map(
        (content) => (seq: SgipSeq) =>
          encodeDeliver(seq, {
            userNumber: withCountryCode(row.phone).slice(0, 21),
            spNumber: row.dest.slice(0, 21),
            tpPid: 0,
            tpUdhi: many ? 1 : 0,
            messageCoding: parts.msgFmt,
            messageContent: content,
          }),
      ),
    );
  }
}

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
import net from 'node:net';
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import smpp, { type PDU, type Session } from 'smpp';
import type { AppContext } from '../../context';
import { sql } from 'kysely';
import type { Account } from '../../db/types';
import { AccountStatus } from '../../../common/generated/schemas';
import { assertInterfaceAllowed } from '../send';
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
import { interfaceNameHash, LoginLockout } from '../../lib/login-lockout';
import { clientAddress, ipAllowed } from '../../lib/ip-allow';
import { MAX_MESSAGE_CHARS } from '../../../common/sms/pieces';

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
const HAS_RESPONSE = new Set(
  Object.keys((smpp as unknown as { commands: Record<string, unknown> }).commands).filter(
    (c) => !c.endsWith('_resp') && (smpp as unknown as { commands: Record<string, unknown> }).commands[`${c}_resp`],
  ),
);

/**
 * Why an account may not use the interfaces at all (null: it may): not active, certification not
 * passed, a test account, no interface password. Checked at the bind and again, on the account row
 * of at most accountCacheMs, before anything of a submit is stored.
 */
function interfaceRefusal(a: Pick<Account, 'status' | 'oauth_status' | 'test_expires_at' | 'interface_password_hash'>): string | null {
  try {
    // the one gate of every door and of the acceptance (send/gate.ts)
    assertInterfaceAllowed(a);
  } catch (err) {
    return (err as Error).message;
  }
  return a.interface_password_hash ? null : 'no interface password';
}

/** the most parts a long message may have (a whole message is at most MAX_MESSAGE_CHARS characters) */
export const MAX_PARTS = 16;
/** addPart's answer when the account's unfinished parts are at their ceiling */
const PARTS_FULL = Symbol('parts full');

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

export interface SmppServerOptions {
  host: string;
  /** -1: any free port (tests); 0 is "off" and never reaches here */
  port: number;
  /** a second listener speaking SMPP over TLS (0: none; -1 any free port) with this PEM certificate and key (file paths) */
  tlsPort: number;
  tlsCert: string;
  tlsKey: string;
  /** connections open at once from one address (beyond it a new one is closed at once) */
  maxConnectionsPerAddress: number;
  /** new connections from one address within connectWindowMs (beyond it closed at once, until the window has passed) */
  maxConnectAttempts: number;
  connectWindowMs: number;
  /** connections open at once in all */
  maxConnections: number;
  /** the source number prefix of the dispatch (SMS_SOURCE_PREFIX): a source_addr starting with prefix + the account's id gives what follows as the extension */
  sourcePrefix: string;
  /** how often this process's bound sessions refresh their smpp_sessions rows; a row not refreshed for 3 times this long no longer counts */
  heartbeatMs: number;
  /** a connection that has not bound within this long is closed */
  bindTimeoutMs: number;
  /** a bound session without any PDU for this long is closed */
  idleTimeoutMs: number;
  /** submit_sm being accepted at once per session; beyond it 0x58 */
  window: number;
  /** the parts of a long message wait this long for the others */
  reassemblyMs: number;
  /** the bytes of an account's unfinished long-message parts (all sessions and processes); beyond them a part is refused 0x14 */
  partsMaxBytes: number;
  /** receipts: deliver_sm unanswered at once per session, how often the queue is looked at, how long one waits for its answer before it is sent again */
  deliverWindow: number;
  receiptPollMs: number;
  receiptLeaseMs: number;
  /** how long the account row read for a submit_sm is used again (a freeze or change is noticed within it) */
  accountCacheMs: number;
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
  /** as the dispatch's DEFAULT_SOURCE_PREFIX */
  sourcePrefix: '106900',
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

interface ReceiptRow {
  id: number;
  account_id: number;
  message_id: number;
  /** the id the receipt names when not the message's own (a part's id; '': none) */
  part_id: string;
  phone: string;
  stat: string;
  err: string;
  text: string;
  submit_at: Date | string;
  done_at: Date | string;
}

interface MoRow {
  id: number;
  account_id: number;
  mo_id: number;
  phone: string;
  dest: string;
  content: string;
}

/** a deliver_sm waiting for its answer: which queue row it carries */
interface Pending {
  table: 'smpp_receipts' | 'smpp_mo';
  id: number;
}

export type SubmitResult = { ok: true; msgId: string } | { ok: false; status: number; message: string };

/** What the listener needs from the platform (index.ts wires the send module). */
export interface SmppPlatform {
  /** accepts one (reassembled) message of the account */
  submit(account: Account, m: { phone: string; text: string; sourceAddr: string; extension: string; registeredDelivery: number; partIds?: string[] }): Promise<SubmitResult>;
}

interface Bound {
  id: number;
  clientid: string;
  transmit: boolean;
  receive: boolean;
}

interface CustomerSession {
  session: Session;
  ip: string;
  bound: Bound | null;
  binding: boolean;
  inflight: number;
  /** deliver_sm sent and not yet answered: sequence → its queue row */
  unacked: Map<number, Pending>;
  /** its smpp_sessions row once bound */
  rowId?: string;
  lastPduAt: number;
  bindTimer?: NodeJS.Timeout;
}

/** The part number of a long message, from its UDH (IE 0x00 / 0x08) or its SAR TLVs. */
export function partOf(pdu: PDU): { ref: number; total: number; seq: number } | null {
  const sm = pdu.short_message as { udh?: Buffer[] } | undefined;
  for (const ie of sm && typeof sm === 'object' && !Buffer.isBuffer(sm) ? (sm.udh ?? []) : []) {
    if (ie[0] === 0x00 && ie[1] === 3 && ie.length >= 5) return { ref: ie[2], total: ie[3], seq: ie[4] };
    if (ie[0] === 0x08 && ie[1] === 4 && ie.length >= 6) return { ref: ie.readUInt16BE(2), total: ie[4], seq: ie[5] };
  }
  if (pdu.sar_msg_ref_num !== undefined && pdu.sar_total_segments !== undefined && pdu.sar_segment_seqnum !== undefined) {
    return { ref: Number(pdu.sar_msg_ref_num), total: Number(pdu.sar_total_segments), seq: Number(pdu.sar_segment_seqnum) };
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

export { ipAllowed };

/**
 * The extension a submit asks for (needextend 1): the customer's source_addr, digits only, without
 * the account's own number (prefix + id) when it starts with it; 1-6 digits, else none. Never a
 * refusal: anything else is sent from the account's own number.
 */
export function extensionOf(sourceAddr: string, ownNumber: string): string {
  let d = sourceAddr.trim();
  if (ownNumber && d.startsWith(ownNumber)) d = d.slice(ownNumber.length);
  return /^[0-9]{1,6}$/.test(d) ? d : '';
}

/** registered_delivery's low two bits: 0 none, 1 every final state, 2 failures only (3, reserved: as 1) */
export function receiptWanted(registeredDelivery: unknown): number {
  const r = Number(registeredDelivery ?? 0) & 0x03;
  return r === 3 ? 1 : r;
}

/**
 * The receipt the parts of a long message ask for, together: a part that asks for one asks for the
 * message (Kannel asks on the first part only): any 1 (every final state) → 1, else any 2
 * (failures only) → 2, else 0.
 */
export function combinedDelivery(parts: readonly number[]): number {
  if (parts.includes(1)) return 1;
  if (parts.includes(2)) return 2;
  return 0;
}

/** `nodenum` read as the most sessions an account may bind (not a positive number: no limit). */
export function sessionLimit(nodenum: string): number {
  const n = Number(String(nodenum ?? '').trim());
  return Number.isInteger(n) && n > 0 ? n : Infinity;
}

/**
 * The account's `accessSpeed` token bucket, shared by every process and the HTTP API: the row of
 * api_throttle (at most one second's worth, refilled continuously on the wall clock). A process
 * takes a small grant (1/20 of the rate, at least 1) under the row's lock and spends it locally
 * within a second, so a busy account costs about 20 bucket transactions a second per process
 * instead of one per message; a grant not spent within the second is dropped.
 */
export class SharedBuckets {
  private readonly local = new Map<number, { tokens: number; until: number; rate: number }>();
  /** the grant being taken per account (resolves to the tokens it got): the submits arriving meanwhile wait for it instead of each taking its own */
  private readonly granting = new Map<number, Promise<number>>();
  constructor(private readonly ctx: AppContext) {}

  private spend(accountId: number, rate: number): boolean {
    const mine = this.local.get(accountId);
    if (mine && mine.until > Date.now() && mine.rate === rate && mine.tokens >= 1) {
      mine.tokens -= 1;
      return true;
    }
    return false;
  }

  /** Takes one token of the account's bucket; `rate` not a positive number (accessSpeed 0): no limit, as the HTTP API (docs/api-smpp.md). */
  async take(accountId: number, rate: number): Promise<boolean> {
    if (!(rate > 0)) return true;
    for (;;) {
      if (this.spend(accountId, rate)) return true;
      const pending = this.granting.get(accountId);
      if (!pending) break;
      // the bucket was empty for that grant: throttled as well (not a grant each in turn)
      if ((await pending.catch(() => 0)) < 1) return this.spend(accountId, rate);
    }
    // one grant at a time per account in this process: without it a window of submits arriving at
    // once each took a grant, emptying the shared bucket and answering the rest 0x58
    const p = this.grant(accountId, rate, Math.max(1, Math.ceil(rate / 20))).then((n) => {
      if (n > 0) this.local.set(accountId, { tokens: n, until: Date.now() + 1000, rate });
      return n;
    });
    this.granting.set(accountId, p);
    try {
      await p;
    } finally {
      this.granting.delete(accountId);
    }
    return this.spend(accountId, rate);
  }

  private grant(accountId: number, rate: number, want: number): Promise<number> {
    return this.ctx.db.transaction().execute(async (trx) => {
      const at = new Date();
      await trx
        .insertInto('api_throttle')
        .values({ account_id: accountId, tokens: rate, updated_at: at })
        .onConflict((oc) => oc.column('account_id').doNothing())
        .execute();
      const row = await trx.selectFrom('api_throttle').select(['tokens', 'updated_at']).where('account_id', '=', accountId).forUpdate().executeTakeFirstOrThrow();
      const elapsed = Math.max(0, (at.getTime() - new Date(row.updated_at).getTime()) / 1000);
      const tokens = Math.min(rate, Number(row.tokens) + elapsed * rate);
      const take = Math.max(0, Math.min(want, Math.floor(tokens)));
      await trx
        .updateTable('api_throttle')
        .set({ tokens: tokens - take, updated_at: at })
        .where('account_id', '=', accountId)
        .execute();
      return take;
    });
  }
}

export class SmppServer {
  private servers: ReturnType<typeof smpp.createServer>[] = [];
  private readonly sessions = new Set<CustomerSession>();
  private readonly buckets: SharedBuckets;
  private readonly lockout: LoginLockout;
  /** open connections and recent attempts per address */
  private readonly perAddress = new Map<string, { open: number; attempts: number; since: number }>();
  private connections = 0;
  private ticker?: NodeJS.Timeout;
  private pumpTimer?: NodeJS.Timeout;
  private heartbeat?: NodeJS.Timeout;
  private partsTimer?: NodeJS.Timeout;
  private pumping: Promise<void> | null = null;
  /** the last look at the queues found rows (more may wait): answers that free room look again at once */
  private pumpMore = false;
  private pumpAgain = false;
  /**
   * per account, the highest receipt / uplink id this process leased: a look started by answers
   * (the busy path) reads only the rows above it, instead of walking again over the rows leased
   * and waiting for their answers and the deleted ones not yet vacuumed from the start of the
   * account's queue (a statement of up to a second at 10,000 receipts). A full look (every row
   * whose lease is free: sent again after an error, a timeout or a dropped session; a row that
   * committed after a higher one was leased) runs at least once per `receiptPollMs` (and ≥ 1 s
   * apart when busy), on a bind and after a session drops its leases.
   */
  private readonly cursor = new Map<string, number>();
  private lastFullPump = 0;
  private fullDue = false;
  /** account rows read for submits: reused for accountCacheMs (one query per account and period, not per submit_sm) */
  private readonly accounts = new Map<number, { at: number; row: Promise<Account | undefined> }>();
  /** queue rows whose deliver_sm the customer answered 0 (deleted together), and those to send again later */
  private answered: Record<Pending['table'], number[]> = { smpp_receipts: [], smpp_mo: [] };
  private retry: Record<Pending['table'], number[]> = { smpp_receipts: [], smpp_mo: [] };
  private flushing: Promise<void> | null = null;
  private flushQueued = false;
  private closing = false;
  /** this process in smpp_sessions */
  readonly processId = `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`.slice(0, 100);
  port = 0;
  /** submits accepted, and refused by status and reason (`0x58 accessSpeed`, `0x58 window`, `0x08 error`, …) with the last message of each: the benchmark prints them */
  readonly stats = { accepted: 0, partsExpired: 0, refused: {} as Record<string, { count: number; last: string }> };
  /** the TLS listener's port (0: none) */
  tlsPort = 0;

  constructor(
    private readonly ctx: AppContext,
    private readonly platform: SmppPlatform,
    /** the settings (tests shorten the timeouts of a running listener) */
    readonly opts: SmppServerOptions,
  ) {
    this.buckets = new SharedBuckets(ctx);
    this.lockout = new LoginLockout(ctx);
  }

  private async start(port: number, tls: { key: Buffer; cert: Buffer } | null): Promise<number> {
    const server = smpp.createServer(tls ?? {}, (s: Session) => this.onSession(s));
    server.maxConnections = this.opts.maxConnections;
    // before the library makes a session (and before a TLS handshake): the per-address limits
    server.prependListener('connection', (socket: net.Socket) => this.admit(socket));
    this.servers.push(server);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port < 0 ? 0 : port, this.opts.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    // a listener's own error after it listens (EMFILE, a TLS handshake gone wrong): logged, the process goes on
    server.on('error', (err: Error) => this.ctx.log.warn({ err }, 'smpp listener error'));
    server.on('tlsClientError', (err: Error, socket: net.Socket) => {
      socket.destroy();
      this.ctx.log.debug({ err }, 'smpp TLS handshake failed');
    });
    return (server.address() as AddressInfo).port;
  }

  async listen(): Promise<number> {
    this.port = await this.start(this.opts.port, null);
    if (this.opts.tlsPort) {
      const tls = { key: fs.readFileSync(this.opts.tlsKey), cert: fs.readFileSync(this.opts.tlsCert) };
      this.tlsPort = await this.start(this.opts.tlsPort, tls);
    }
    this.ticker = setInterval(() => this.closeIdle(), Math.min(1000, this.opts.idleTimeoutMs));
    this.ticker.unref();
    // a full look when due (kick's `again`: otherwise the rows above the cursor)
    this.pumpTimer = setInterval(() => this.kick(true), this.opts.receiptPollMs);
    this.pumpTimer.unref();
    this.heartbeat = setInterval(() => void this.beat(), this.opts.heartbeatMs);
    this.heartbeat.unref();
    this.partsTimer = setInterval(
      () => void this.expireParts().catch((err) => this.ctx.log.warn({ err }, 'smpp long message expiry failed')),
      Math.max(50, Math.min(5000, this.opts.reassemblyMs / 4)),
    );
    this.partsTimer.unref();
    return this.port;
  }

  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.ticker);
    clearInterval(this.pumpTimer);
    clearInterval(this.heartbeat);
    clearInterval(this.partsTimer);
    await this.pumping;
    await this.flushAnswers();
    for (const s of this.sessions) s.session.socket.destroy();
    const servers = this.servers;
    this.servers = [];
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    await this.ctx.db
      .deleteFrom('smpp_sessions')
      .where('process', '=', this.processId)
      .execute()
      .catch((err) => this.ctx.log.warn({ err }, 'smpp sessions not removed'));
  }

  /** Per-address limits: too many open connections or attempts from one address close the new one at once. */
  private admit(socket: net.Socket) {
    const addr = clientAddress(socket.remoteAddress ?? '');
    const now = Date.now();
    let a = this.perAddress.get(addr);
    if (!a) this.perAddress.set(addr, (a = { open: 0, attempts: 0, since: now }));
    if (now - a.since > this.opts.connectWindowMs) {
      a.attempts = 0;
      a.since = now;
    }
    a.attempts++;
    if (a.open >= this.opts.maxConnectionsPerAddress || a.attempts > this.opts.maxConnectAttempts || this.closing) {
      socket.on('error', () => {});
      socket.destroy();
      return;
    }
    a.open++;
    this.connections++;
    const entry = a;
    socket.once('close', () => {
      this.connections--;
      entry.open--;
      if (entry.open <= 0 && Date.now() - entry.since > this.opts.connectWindowMs) this.perAddress.delete(addr);
    });
  }

  /** open connections in this process (tests) */
  connectionCount(): number {
    return this.connections;
  }

  /** Refreshes the smpp_sessions rows of this process's bound sessions. */
  private async beat() {
    const ids = [...this.sessions].map((s) => s.rowId).filter((x): x is string => !!x);
    if (!ids.length || this.closing) return;
    await this.ctx.db
      .updateTable('smpp_sessions')
      .set({ heartbeat_at: new Date() })
      .where('id', 'in', ids)
      .execute()
      .catch((err) => this.ctx.log.warn({ err }, 'smpp session heartbeat failed'));
  }

  /** bound sessions of an account in this process */
  boundCount(accountId: number): number {
    let n = 0;
    for (const s of this.sessions) if (s.bound?.id === accountId) n++;
    return n;
  }

  private closeIdle() {
    const now = Date.now();
    for (const s of this.sessions) if (s.bound && now - s.lastPduAt > this.opts.idleTimeoutMs) s.session.socket.destroy();
    // addresses with nothing open whose window has passed are forgotten (the map stays small under many addresses)
    for (const [addr, a] of this.perAddress) if (a.open <= 0 && now - a.since > this.opts.connectWindowMs) this.perAddress.delete(addr);
  }

  private onSession(session: Session) {
    if (session.socket.destroyed) return;
    const cs: CustomerSession = {
      session,
      ip: clientAddress(session.socket.remoteAddress ?? ''),
      bound: null,
      binding: false,
      inflight: 0,
      unacked: new Map(),
      lastPduAt: Date.now(),
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
      this.sessions.delete(cs);
      if (cs.rowId) {
        void this.ctx.db
          .deleteFrom('smpp_sessions')
          .where('id', '=', cs.rowId)
          .execute()
          .catch((err) => this.ctx.log.warn({ err }, 'smpp session row not removed'));
      }
      // receipts and uplinks sent on it and not answered: sent again (on this or another session) at once
      const pending = [...cs.unacked.values()];
      cs.unacked.clear();
      if (pending.length && !this.closing) {
        for (const table of ['smpp_receipts', 'smpp_mo'] as const) {
          const ids = pending.filter((p) => p.table === table).map((p) => p.id);
          if (!ids.length) continue;
          void this.ctx.db
            .updateTable(table)
            .set({ lease_until: null })
            .where('id', 'in', ids)
            .execute()
            // below the cursor: a full look sends them again
            .then(() => this.kick())
            .catch((err) => this.ctx.log.warn({ err }, 'smpp deliver_sm release failed'));
        }
      }
    });
    session.on('pdu', (pdu: PDU) => {
      // whatever goes wrong in one PDU's handling ends that session, never the process (the
      // library emits 'pdu' from the socket's readable handler: a throw there is uncaught)
      try {
        this.onPdu(cs, pdu);
      } catch (err) {
        this.fault(cs, err, pdu);
      }
    });
  }

  /** A fault in a session's handling: logged, that session closed, nothing else. */
  private fault(cs: CustomerSession, err: unknown, pdu?: PDU) {
    this.ctx.log.warn({ err, peer: cs.ip, command: pdu?.command, commandId: pdu?.command_id }, 'smpp session closed after a fault in its handling');
    cs.session.socket.destroy();
  }

  /** Runs an asynchronous handler of a session: a rejection is that session's fault. */
  private guard(cs: CustomerSession, pdu: PDU, work: Promise<unknown>) {
    work.catch((err) => this.fault(cs, err, pdu));
  }

  /**
   * One PDU of a customer (docs/api-smpp.md "Commands"): every command id SMPP defines gets its
   * answer, and no answer is ever made of a command that has none (outbind, alert_notification,
   * generic_nack and every response: the library cannot build a response of them).
   */
  private onPdu(cs: CustomerSession, pdu: PDU) {
    const session = cs.session;
    cs.lastPduAt = Date.now();
    const nack = (status: number) => session.send(new smpp.PDU('generic_nack', { sequence_number: pdu.sequence_number, command_status: status }));
    // an id SMPP does not define: generic_nack 0x03
    if (pdu.command === 'unknown') return nack(SMPP_STATUS.INVCMDID);
    // responses (deliver_sm_resp …: their callbacks take them; a stray one is ignored) and generic_nack
    if (pdu.isResponse()) return;
    switch (pdu.command) {
      case 'bind_transmitter':
        return this.guard(cs, pdu, this.bind(cs, pdu, true, false));
      case 'bind_receiver':
        return this.guard(cs, pdu, this.bind(cs, pdu, false, true));
      case 'bind_transceiver':
        return this.guard(cs, pdu, this.bind(cs, pdu, true, true));
      case 'enquire_link':
        return session.send(pdu.response());
      case 'unbind':
        cs.bound = null;
        return session.send(pdu.response(), () => session.socket.end());
      case 'submit_sm':
      case 'data_sm':
        if (!cs.bound?.transmit) return session.send(pdu.response({ command_status: SMPP_STATUS.INVBNDSTS }));
        return this.guard(cs, pdu, this.onSubmit(cs, pdu));
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
      const nameHash = interfaceNameHash(systemId);
      if (await this.lockout.lockedUntil(nameHash, cs.ip)) return refuse(SMPP_STATUS.BINDFAIL);
      const a = systemId ? await this.ctx.db.selectFrom('accounts').selectAll().where('clientid', '=', systemId).executeTakeFirst() : undefined;
      const known = !!a && a.status !== AccountStatus.Unactivated && !!a.interface_password_hash;
      // an unknown name costs the same hash check as a known one
      const good = await interfacePasswordMatches(known ? a.interface_password_hash : await dummyInterfaceHash(), password);
      if (!known || !good) {
        if (systemId) await this.lockout.recordFailure(nameHash, cs.ip);
        return refuse(SMPP_STATUS.INVPASWD);
      }
      await this.lockout.clear(nameHash, cs.ip);
      if (interfaceRefusal(a) || !ipAllowed(a.ip, cs.ip)) return refuse(SMPP_STATUS.BINDFAIL);
      if (!cs.session.socket.writable) return;
      const rowId = await this.register(a.id, sessionLimit(a.nodenum), cs.ip);
      if (!rowId) return refuse(SMPP_STATUS.ALYBND);
      if (!cs.session.socket.writable) {
        await this.ctx.db.deleteFrom('smpp_sessions').where('id', '=', rowId).execute();
        return;
      }
      cs.rowId = rowId;
      cs.bound = { id: a.id, clientid: a.clientid, transmit, receive };
      clearTimeout(cs.bindTimer);
      cs.session.send(pdu.response({ system_id: 'SMSP' }));
      if (receive) this.kick();
    } catch (err) {
      this.ctx.log.warn({ err }, 'smpp bind failed');
      refuse(SMPP_STATUS.BINDFAIL);
    } finally {
      cs.binding = false;
    }
  }

  /**
   * Records a bound session in smpp_sessions unless the account already has `limit` live ones (in
   * any process); binds of one account are serialized on its row. Returns the row id, or null.
   */
  private async register(accountId: number, limit: number, peer: string): Promise<string | null> {
    return this.ctx.db.transaction().execute(async (trx) => {
      const now = new Date();
      if (limit !== Infinity) {
        // FOR NO KEY UPDATE: binds of the account wait for each other, not the rows that reference it
        await trx.selectFrom('accounts').select('id').where('id', '=', accountId).forNoKeyUpdate().execute();
        const live = new Date(now.getTime() - 3 * this.opts.heartbeatMs);
        const r = await trx
          .selectFrom('smpp_sessions')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('account_id', '=', accountId)
          .where('heartbeat_at', '>', live)
          .executeTakeFirstOrThrow();
        if (Number(r.n) >= limit) return null;
      }
      const id = `${this.processId}:${randomBytes(6).toString('hex')}`;
      await trx
        .insertInto('smpp_sessions')
        .values({ id, account_id: accountId, process: this.processId, peer: peer.slice(0, 64), bound_at: now, heartbeat_at: now })
        .execute();
      return id;
    });
  }

  /** Counts a refused submit by status and reason (`stats.refused`), the last message of each kept. */
  private refused(status: number, reason: string, detail = '') {
    const key = `0x${status.toString(16).padStart(2, '0')} ${reason}`;
    const r = (this.stats.refused[key] ??= { count: 0, last: '' });
    r.count++;
    if (detail) r.last = detail.slice(0, 300);
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
      const account = await this.account(bound.id);
      if (!account || interfaceRefusal(account)) return refuse(SMPP_STATUS.X_ACCOUNT, 'account');
      const phone = String(pdu.destination_addr ?? '');
      const sourceAddr = String(pdu.source_addr ?? '');
      let text = submitText(pdu);
      const part = partOf(pdu);
      // needextend 1: the source_addr is the extension; otherwise the account's own number is used
      const extension = account.needextend === 1 ? extensionOf(sourceAddr, `${this.opts.sourcePrefix}${account.id}`) : '';
      const registeredDelivery = receiptWanted(pdu.registered_delivery);
      const long = !!part && part.total > 1;
      // a part is refused before anything is stored: out of its message, of a message longer than
      // any the platform sends, or itself longer than a whole message may be
      if (long && (part.seq < 1 || part.seq > part.total || part.total > MAX_PARTS)) return refuse(SMPP_STATUS.INVMSGLEN, 'part');
      if ([...text].length > MAX_MESSAGE_CHARS) return refuse(SMPP_STATUS.INVMSGLEN, 'length');
      // every submit_sm takes a token of the account's accessSpeed, a part like a whole message
      // (throttled: nothing stored, the customer sends it again)
      if (!(await this.buckets.take(account.id, account.access_speed))) return refuse(SMPP_STATUS.THROTTLED, 'accessSpeed');
      let claim: string | null = null;
      let partIds: string[] | undefined;
      let delivery = registeredDelivery;
      if (long) {
        claim = `${sourceAddr}|${phone}|${part.ref}|${part.total}`;
        const added = await this.addPart(account.id, { key: claim, seq: part.seq, total: part.total, text, phone, sourceAddr, extension, registeredDelivery });
        // the account's unfinished parts are at their ceiling (partsMaxBytes): refused, nothing stored
        if (added === PARTS_FULL) return refuse(SMPP_STATUS.MSGQFUL, 'parts');
        // an earlier part: answered at once with its part id (a number from the messages' own
        // sequence; its receipt comes with the message's); the part that completes the message (on
        // any connection or process) is answered with the message's id
        if ('partId' in added) return answer(0, added.partId);
        ({ text, partIds, registeredDelivery: delivery } = added);
        // the parts are taken by one submit only (the same part sent twice at once, on two
        // connections): the other is answered with this part's id
        if (!(await this.claimParts(account.id, claim))) return answer(0, added.ownPartId);
      }
      const r = await this.platform.submit(account, { phone, text, sourceAddr, extension, registeredDelivery: delivery, partIds });
      if (!r.ok) return refuse(r.status, 'refusal', r.message);
      this.stats.accepted++;
      return answer(0, r.msgId);
    } catch (err) {
      this.ctx.log.warn({ err }, 'smpp submit_sm failed');
      const e = err as { code?: unknown; message?: unknown };
      return refuse(SMPP_STATUS.SYSERR, 'error', `${String(e.code ?? '')} ${String(e.message ?? err)}`);
    } finally {
      cs.inflight--;
    }
  }

  /**
   * The account's row for a submit: read once per accountCacheMs and shared by the submits (and
   * sessions) of this process meanwhile, so a freeze or any change is noticed within that time.
   */
  private account(id: number): Promise<Account | undefined> {
    const now = Date.now();
    const hit = this.accounts.get(id);
    if (hit && now - hit.at < this.opts.accountCacheMs) return hit.row;
    const row = this.ctx.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
    this.accounts.set(id, { at: now, row });
    // a failed read is not kept
    row.catch(() => this.accounts.get(id)?.row === row && this.accounts.delete(id));
    if (this.accounts.size > 10_000) for (const [k, v] of this.accounts) if (now - v.at >= this.opts.accountCacheMs) this.accounts.delete(k);
    return row;
  }

  /** Forgets the account rows read (tests that change an account and submit at once). */
  forgetAccounts() {
    this.accounts.clear();
  }

  /** Looks at the receipt queue now (unless a look is running); `again`: answers freed room (rows above the cursor only, unless a full look is due). */
  kick(again = false) {
    if (this.closing) return;
    // a full look asked for (a bind, leases released): done now or right after the running one
    if (!again) this.fullDue = true;
    if (this.pumping) {
      // answers freed room while a look was running: look once more after it
      if (again) this.pumpAgain = true;
      return;
    }
    this.pumpAgain = false;
    const full = this.fullDue || Date.now() - this.lastFullPump >= Math.max(1000, this.opts.receiptPollMs);
    this.fullDue = false;
    this.pumping = this.pump(full)
      .catch((err) => this.ctx.log.warn({ err }, 'smpp receipt delivery failed'))
      .finally(() => {
        this.pumping = null;
        if (this.fullDue || (this.pumpAgain && this.pumpMore)) this.kick(true);
      });
  }

  /** Leases and sends the queued receipts and uplinks of the accounts bound as receivers in this process, oldest first. */
  private async pump(full: boolean) {
    this.pumpMore = false;
    if (full) this.lastFullPump = Date.now();
    const byAccount = new Map<number, CustomerSession[]>();
    for (const s of this.sessions) {
      if (!s.bound?.receive || !s.session.socket.writable) continue;
      const list = byAccount.get(s.bound.id) ?? [];
      list.push(s);
      byAccount.set(s.bound.id, list);
    }
    const pick = (list: CustomerSession[]) => list.reduce((a, b) => (a.unacked.size <= b.unacked.size ? a : b));
    const roomOf = (list: CustomerSession[]) => list.reduce((n, s) => n + Math.max(0, this.opts.deliverWindow - s.unacked.size), 0);
    for (const [accountId, list] of byAccount) {
      let room = roomOf(list);
      if (room <= 0) continue;
      // leases run on the wall clock (not the business clock ctx.now, which tests hold still)
      const now = new Date();
      const lease = new Date(now.getTime() + this.opts.receiptLeaseMs);
      const above = (table: string) => (full ? 0 : (this.cursor.get(`${table}:${accountId}`) ?? 0));
      const advance = (table: string, rows: { id: number }[]) => {
        const k = `${table}:${accountId}`;
        for (const x of rows) if (x.id > (this.cursor.get(k) ?? 0)) this.cursor.set(k, x.id);
      };
      const r = await sql<ReceiptRow>`
        update smpp_receipts set lease_until = ${lease}, attempts = attempts + 1
        where id in (
          select id from smpp_receipts
          where account_id = ${accountId} and id > ${above('r')} and (lease_until is null or lease_until < ${now})
          order by id limit ${room} for update skip locked)
        returning id, account_id, message_id, part_id, phone, stat, err, text, submit_at, done_at`.execute(this.ctx.db);
      advance('r', r.rows);
      // in order, each to the receiver session with the fewest unanswered
      if (r.rows.length) this.pumpMore = true;
      for (const row of r.rows.sort((a, b) => a.id - b.id)) this.deliver(pick(list), row);
      room = roomOf(list);
      if (room <= 0) continue;
      const mo = await sql<MoRow>`
        update smpp_mo set lease_until = ${lease}, attempts = attempts + 1
        where id in (
          select id from smpp_mo
          where account_id = ${accountId} and id > ${above('m')} and (lease_until is null or lease_until < ${now})
          order by id limit ${room} for update skip locked)
        returning id, account_id, mo_id, phone, dest, content`.execute(this.ctx.db);
      advance('m', mo.rows);
      if (mo.rows.length) this.pumpMore = true;
      for (const row of mo.rows.sort((a, b) => a.id - b.id)) this.deliverMo(pick(list), row);
    }
  }

  /** Sends a deliver_sm carrying a queue row; the row goes when the customer answers 0, else it comes back a second later. */
  private send(cs: CustomerSession, pdu: PDU, pending: Pending) {
    const sent = cs.session.send(pdu, (resp: PDU) => {
      cs.unacked.delete(pdu.sequence_number);
      (resp.command_status === SMPP_STATUS.OK ? this.answered : this.retry)[pending.table].push(pending.id);
      this.queueFlush();
    });
    if (sent) cs.unacked.set(pdu.sequence_number, pending);
  }

  /** The answers of this turn of the event loop are recorded together (one statement per table and kind), then the queues are looked at again if rows were waiting. */
  private queueFlush() {
    if (this.flushQueued) return;
    this.flushQueued = true;
    setImmediate(() => {
      this.flushQueued = false;
      void this.flushAnswers().then(() => {
        if (this.pumpMore) this.kick(true);
      });
    });
  }

  private async flushAnswers(): Promise<void> {
    // one flush at a time: the answers arriving meanwhile go in the next
    while (this.flushing) await this.flushing;
    const answered = this.answered;
    const retry = this.retry;
    this.answered = { smpp_receipts: [], smpp_mo: [] };
    this.retry = { smpp_receipts: [], smpp_mo: [] };
    const work = (async () => {
      for (const table of ['smpp_receipts', 'smpp_mo'] as const) {
        // a row goes only after the customer answered its deliver_sm 0; otherwise it comes back a second later
        for (let i = 0; i < answered[table].length; i += 5000) {
          await this.ctx.db
            .deleteFrom(table)
            .where('id', 'in', answered[table].slice(i, i + 5000))
            .execute();
        }
        for (let i = 0; i < retry[table].length; i += 5000) {
          await this.ctx.db
            .updateTable(table)
            .set({ lease_until: new Date(Date.now() + 1000) })
            .where('id', 'in', retry[table].slice(i, i + 5000))
            .execute();
        }
      }
    })().catch((err) => this.ctx.log.warn({ err }, 'smpp deliver_sm answers not recorded'));
    this.flushing = work;
    try {
      await work;
    } finally {
      this.flushing = null;
    }
  }

  private deliver(cs: CustomerSession, row: ReceiptRow) {
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
    const fits = octets.length <= 254 && /^[\x20-\x7e]*$/.test(text) && row.phone.length <= 20 && (cs.bound?.clientid ?? '').length <= 20;
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
  private deliverMo(cs: CustomerSession, row: MoRow) {
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

  /**
   * Adds a part of a long message to smpp_parts (shared by every connection and process of the
   * account), under its head row's lock; returns the part's id while parts are missing, else the
   * whole text, the ids the other parts were answered with and the receipt the parts asked for
   * (the rows stay until `claimParts`); PARTS_FULL when the account's unfinished parts are at their
   * ceiling (nothing stored).
   */
  private addPart(
    accountId: number,
    p: { key: string; seq: number; total: number; text: string; phone: string; sourceAddr: string; extension: string; registeredDelivery: number },
  ): Promise<{ partId: string } | { text: string; partIds: string[]; registeredDelivery: number; ownPartId: string } | typeof PARTS_FULL> {
    return this.ctx.db.transaction().execute(async (trx) => {
      // the bytes of the account's unfinished parts (every door and process) stay under the ceiling;
      // concurrent parts may pass it by what is in flight at once (a window of parts), not more
      const held = await trx
        .selectFrom('smpp_parts')
        .select(sql<string>`coalesce(sum(octet_length(text)), 0)::text`.as('n'))
        .where('account_id', '=', accountId)
        .where('seq', '>', 0)
        .executeTakeFirstOrThrow();
      if (Number(held.n) + Buffer.byteLength(p.text) > this.opts.partsMaxBytes) return PARTS_FULL;
      const row = {
        account_id: accountId,
        msg_key: p.key,
        total: p.total,
        phone: p.phone,
        source_addr: p.sourceAddr,
        extension: p.extension,
        registered_delivery: p.registeredDelivery,
        created_at: new Date(),
      };
      // the head row, locked: the parts of one message are added one at a time (a head taken meanwhile
      // by claimParts or expireParts is gone once its lock is free: this part starts a new one)
      for (let i = 0; ; i++) {
        await trx
          .insertInto('smpp_parts')
          .values({ ...row, seq: 0 })
          .onConflict((oc) => oc.columns(['account_id', 'msg_key', 'seq']).doNothing())
          .execute();
        const head = await trx
          .selectFrom('smpp_parts')
          .select('seq')
          .where('account_id', '=', accountId)
          .where('msg_key', '=', p.key)
          .where('seq', '=', 0)
          .forUpdate()
          .executeTakeFirst();
        if (head) break;
        if (i >= 3) throw new Error('smpp part: head row not kept');
      }
      // the part's id: a number of the messages' own sequence (never another message's id); a part sent again keeps its first id
      const mine = await trx
        .insertInto('smpp_parts')
        .values({ ...row, seq: p.seq, text: p.text, part_id: sql<string>`nextval(pg_get_serial_sequence('sms_messages', 'id'))::text` })
        .onConflict((oc) => oc.columns(['account_id', 'msg_key', 'seq']).doUpdateSet({ text: p.text, registered_delivery: p.registeredDelivery }))
        .returning('part_id')
        .executeTakeFirstOrThrow();
      const parts = await trx
        .selectFrom('smpp_parts')
        .select(['seq', 'text', 'part_id', 'registered_delivery'])
        .where('account_id', '=', accountId)
        .where('msg_key', '=', p.key)
        .where('seq', '>', 0)
        .orderBy('seq')
        .execute();
      const ownPartId = String(mine.part_id);
      if (parts.length < p.total) return { partId: ownPartId };
      return {
        text: parts.map((x) => x.text).join(''),
        // the ids the other parts were answered with: their receipts are queued with the message's
        partIds: parts.filter((x) => x.seq !== p.seq && x.part_id !== null).map((x) => String(x.part_id)),
        registeredDelivery: combinedDelivery(parts.map((x) => x.registered_delivery)),
        ownPartId,
      };
    });
  }

  /** Takes the complete parts of a message (deletes its rows); false when another submit took them first. */
  private async claimParts(accountId: number, key: string): Promise<boolean> {
    const rows = await this.ctx.db.deleteFrom('smpp_parts').where('account_id', '=', accountId).where('msg_key', '=', key).returning('seq').execute();
    return rows.some((r) => r.seq === 0);
  }

  /**
   * Long messages whose first part came more than reassemblyMs ago and are still incomplete: one
   * listener takes each (skip locked) and accepts its parts as they are (joined in order, the
   * missing ones left out), from the head's destination, extension and registered_delivery. The
   * earlier parts' answers were part ids: the message's own id is only in its receipt and the
   * task's records.
   */
  async expireParts(): Promise<number> {
    if (this.closing) return 0;
    const cut = new Date(Date.now() - this.opts.reassemblyMs);
    const rows = await sql<{
      account_id: number;
      msg_key: string;
      seq: number;
      text: string;
      phone: string;
      source_addr: string;
      extension: string;
      registered_delivery: number;
      part_id: string | null;
    }>`
      delete from smpp_parts p
      using (select account_id, msg_key from smpp_parts where seq = 0 and created_at < ${cut} order by created_at limit 200 for update skip locked) h
      where p.account_id = h.account_id and p.msg_key = h.msg_key
      returning p.account_id, p.msg_key, p.seq, p.text, p.phone, p.source_addr, p.extension, p.registered_delivery, p.part_id`.execute(this.ctx.db);
    const messages = new Map<string, typeof rows.rows>();
    for (const r of rows.rows) {
      const k = `${r.account_id}|${r.msg_key}`;
      const list = messages.get(k) ?? [];
      list.push(r);
      messages.set(k, list);
    }
    let n = 0;
    for (const list of messages.values()) {
      const head = list.find((r) => r.seq === 0);
      const parts = list.filter((r) => r.seq > 0).sort((a, b) => a.seq - b.seq);
      if (!head || !parts.length) continue;
      const account = await this.account(head.account_id);
      if (!account || interfaceRefusal(account)) continue;
      const r = await this.platform
        .submit(account, {
          phone: head.phone,
          text: parts.map((x) => x.text).join(''),
          sourceAddr: head.source_addr,
          extension: head.extension,
          // every part was answered with its own id: each gets the message's receipt
          registeredDelivery: combinedDelivery(parts.map((x) => x.registered_delivery)),
          partIds: parts.filter((x) => x.part_id !== null).map((x) => String(x.part_id)),
        })
        .catch((err: unknown) => ({ ok: false as const, status: SMPP_STATUS.SYSERR, message: String(err) }));
      if (r.ok) n++;
      else this.ctx.log.warn({ status: r.status, message: r.message }, 'smpp long message accepted as it is: refused');
    }
    this.stats.partsExpired += n;
    return n;
  }
}

/**
 * The protocol-neutral core of every customer door (issue 36 "One core for every protocol";
 * docs/api-smpp.md "Several processes", docs/api-cmpp.md): what the SMPP door (server.ts) and the
 * CMPP door (cmpp-server.ts) share, so that a door is a codec and a session and nothing else.
 *
 * - limits: the per-address connection limits (per process), the account's `accessSpeed` token
 *   bucket (`SharedBuckets`, api_throttle, every process and the HTTP API), the `nodenum` session
 *   count (smpp_sessions rows with a heartbeat, every process and door);
 * - the login gate (`authenticate`): the console's lockout per (interface name, address), the same
 *   answer and the same work for an unknown name as for a wrong password, then the account's gates
 *   (`interfaceRefusal`, the whitelist, nodenum);
 * - the parts of long messages (smpp_parts: `addPart` / `claimParts` / `expireParts`), each part's id
 *   made from a number of sms_messages' own sequence, in the door's form;
 * - the receipt and uplink queues (smpp_receipts / smpp_mo): leased per account for the receiver
 *   sessions of this process, handed to the door (`DoorDelivery`) which writes its packet and
 *   calls `sent` / `answered`; a row answered OK is deleted, an error or a dropped session sends it
 *   again.
 *
 * The door gives its sessions (`DoorSession`: the socket's state and the bound account) and how a
 * queue row becomes a packet; everything else is here, in the database, for several processes.
 */
import os from 'node:os';
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import type { Account } from '../../db/types';
import { AccountStatus } from '../../../common/generated/schemas';
import { assertInterfaceAllowed } from '../send';
import { interfaceNameHash, LoginLockout } from '../../lib/login-lockout';
import { clientAddress, ipAllowed } from '../../lib/ip-allow';
import { messageOf } from '../../lib/error-code';

/**
 * Why an account may not use the interfaces at all (null: it may): not active, certification not
 * passed, a test account, no interface password. Checked at the bind and again, on the account row
 * of at most accountCacheMs, before anything of a submit is stored.
 */
export function interfaceRefusal(
  a: Pick<Account, 'status' | 'oauth_status' | 'test_expires_at' | 'interface_password_hash'>,
): string | null {
  try {
    // the one gate of every door and of the acceptance (send/gate.ts)
    assertInterfaceAllowed(a);
  } catch (err) {
    return messageOf(err);
  }
  return a.interface_password_hash ? null : 'no interface password';
}

/** the most parts a long message may have (a whole message is at most MAX_MESSAGE_CHARS characters) */
export const MAX_PARTS = 16;
/** addPart's answer when the account's unfinished parts are at their ceiling */
export const PARTS_FULL = Symbol('parts full');

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
 * The extension a submit asks for (needextend 1): the customer's source address, digits only,
 * without the account's own number (prefix + id) when it starts with it; 1-6 digits, else none.
 * Never a refusal: anything else is sent from the account's own number.
 */
export function extensionOf(sourceAddr: string, ownNumber: string): string {
  let d = sourceAddr.trim();
  if (ownNumber && d.startsWith(ownNumber)) d = d.slice(ownNumber.length);
  return /^[0-9]{1,6}$/.test(d) ? d : '';
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
    // once each took a grant, emptying the shared bucket and answering the rest "throttled"
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
      const row = await trx
        .selectFrom('api_throttle')
        .select(['tokens', 'updated_at'])
        .where('account_id', '=', accountId)
        .forUpdate()
        .executeTakeFirstOrThrow();
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

/** the settings of the core (a door's options object carries them; read live: tests shorten them on a running door) */
export interface DoorCoreOptions {
  /** connections open at once from one address (beyond it a new one is closed at once) */
  maxConnectionsPerAddress: number;
  /** new connections from one address within connectWindowMs (beyond it closed at once, until the window has passed) */
  maxConnectAttempts: number;
  connectWindowMs: number;
  /** how often this process's bound sessions refresh their smpp_sessions rows; a row not refreshed for 3 times this long no longer counts */
  heartbeatMs: number;
  /** a bound session without any packet for this long is closed */
  idleTimeoutMs: number;
  /** the parts of a long message wait this long for the others */
  reassemblyMs: number;
  /** the bytes of an account's unfinished long-message parts (all sessions, doors and processes) */
  partsMaxBytes: number;
  /** receipts / uplinks unanswered at once per session, how often the queue is looked at, how long one waits for its answer before it is sent again */
  deliverWindow: number;
  receiptPollMs: number;
  receiptLeaseMs: number;
  /** how long the account row read for a submit is used again (a freeze or change is noticed within it) */
  accountCacheMs: number;
}

export interface ReceiptRow {
  id: number;
  account_id: number;
  message_id: number;
  /** the id the receipt names when not the message's own (a part's id, in the form its door answered it; '': none) */
  part_id: string;
  phone: string;
  stat: string;
  err: string;
  text: string;
  submit_at: Date | string;
  done_at: Date | string;
}

export interface MoRow {
  id: number;
  account_id: number;
  mo_id: number;
  phone: string;
  dest: string;
  content: string;
}

/** a report / uplink packet waiting for its answer: which queue row it carries */
export interface Pending {
  table: 'smpp_receipts' | 'smpp_mo';
  id: number;
}

/** A session of a door as the core sees it. */
export interface DoorSession {
  ip: string;
  /** the bound account's id (null before the bind / connect) */
  accountId: number | null;
  /** takes receipts and uplinks */
  receive: boolean;
  /** report / uplink packets sent and not yet answered: sequence → its queue row */
  unacked: Map<number, Pending>;
  /** its smpp_sessions row once bound */
  rowId?: string;
  lastPduAt: number;
  writable(): boolean;
  destroy(): void;
}

/** How a door writes a queue row as its packet (then calls core.sent; on the answer core.answered). */
export interface DoorDelivery<S extends DoorSession> {
  receipt(s: S, row: ReceiptRow): void;
  mo(s: S, row: MoRow): void;
}

export type DoorSubmitResult =
  { ok: true; msgId: string; createdAt?: Date } | { ok: false; status: number; message: string };

/** What a door needs from the platform (index.ts wires the send module's acceptance). */
export interface DoorPlatform {
  /** accepts one (reassembled) message of the account */
  submit(
    account: Account,
    m: {
      phone: string;
      text: string;
      sourceAddr: string;
      extension: string;
      registeredDelivery: number;
      partIds?: string[];
      partIdsWhole?: boolean;
    },
  ): Promise<DoorSubmitResult>;
}

/** what `authenticate` found: the bound account and its session row, or why not */
export type GateResult =
  | { ok: true; account: Account; rowId: string }
  | { ok: false; why: 'locked' | 'auth' | 'refused' | 'nodenum' | 'gone' };

export class DoorCore<S extends DoorSession> {
  readonly sessions = new Set<S>();
  readonly buckets: SharedBuckets;
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
  /** account rows read for submits: reused for accountCacheMs (one query per account and period, not per submit) */
  private readonly accounts = new Map<number, { at: number; row: Promise<Account | undefined> }>();
  /** queue rows whose packet the customer answered OK (deleted together), and those to send again later */
  private answeredRows: Record<Pending['table'], number[]> = { smpp_receipts: [], smpp_mo: [] };
  private retryRows: Record<Pending['table'], number[]> = { smpp_receipts: [], smpp_mo: [] };
  private flushing: Promise<void> | null = null;
  private flushQueued = false;
  closing = false;
  /** this process in smpp_sessions */
  readonly processId = `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`.slice(0, 100);
  /** long messages accepted as they were after reassemblyMs */
  partsExpired = 0;

  constructor(
    private readonly ctx: AppContext,
    private readonly platform: DoorPlatform,
    /** the door's options object (read live) */
    private readonly opts: DoorCoreOptions,
    private readonly delivery: DoorDelivery<S>,
    /** the door's name in log lines */
    private readonly name: string,
  ) {
    this.buckets = new SharedBuckets(ctx);
    this.lockout = new LoginLockout(ctx);
  }

  /** Starts the timers: idle sessions, the queue pump, the heartbeat, the expiry of unfinished long messages. */
  start() {
    this.ticker = setInterval(() => this.closeIdle(), Math.min(1000, this.opts.idleTimeoutMs));
    this.ticker.unref();
    // a full look when due (kick's `again`: otherwise the rows above the cursor)
    this.pumpTimer = setInterval(() => this.kick(true), this.opts.receiptPollMs);
    this.pumpTimer.unref();
    this.heartbeat = setInterval(() => void this.beat(), this.opts.heartbeatMs);
    this.heartbeat.unref();
    this.partsTimer = setInterval(
      () =>
        void this.expireParts().catch((err) => this.ctx.log.warn({ err }, `${this.name} long message expiry failed`)),
      Math.max(50, Math.min(5000, this.opts.reassemblyMs / 4)),
    );
    this.partsTimer.unref();
  }

  /** Stops the timers, records the answers received, closes every session and removes this process's session rows. */
  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.ticker);
    clearInterval(this.pumpTimer);
    clearInterval(this.heartbeat);
    clearInterval(this.partsTimer);
    await this.pumping;
    await this.flushAnswers();
    for (const s of this.sessions) s.destroy();
  }

  /** after the listeners closed: this process's session rows go */
  async removeRows(): Promise<void> {
    await this.ctx.db
      .deleteFrom('smpp_sessions')
      .where('process', '=', this.processId)
      .execute()
      .catch((err) => this.ctx.log.warn({ err }, `${this.name} sessions not removed`));
  }

  // ------------------------------------------------------------ connections

  /** Per-address limits: too many open connections or attempts from one address close the new one at once (false). */
  admit(socket: net.Socket): boolean {
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
      return false;
    }
    a.open++;
    this.connections++;
    const entry = a;
    socket.once('close', () => {
      this.connections--;
      entry.open--;
      if (entry.open <= 0 && Date.now() - entry.since > this.opts.connectWindowMs) this.perAddress.delete(addr);
    });
    return true;
  }

  /** open connections in this process (tests) */
  connectionCount(): number {
    return this.connections;
  }

  /** bound sessions of an account in this process */
  boundCount(accountId: number): number {
    let n = 0;
    for (const s of this.sessions) if (s.accountId === accountId) n++;
    return n;
  }

  private closeIdle() {
    const now = Date.now();
    for (const s of this.sessions) if (s.accountId !== null && now - s.lastPduAt > this.opts.idleTimeoutMs) s.destroy();
    // addresses with nothing open whose window has passed are forgotten (the map stays small under many addresses)
    for (const [addr, a] of this.perAddress)
      if (a.open <= 0 && now - a.since > this.opts.connectWindowMs) this.perAddress.delete(addr);
  }

  /** A session's connection closed: its row goes, its unanswered receipts and uplinks are sent again (on this or another session) at once. */
  removed(s: S) {
    this.sessions.delete(s);
    if (s.rowId) {
      void this.ctx.db
        .deleteFrom('smpp_sessions')
        .where('id', '=', s.rowId)
        .execute()
        .catch((err) => this.ctx.log.warn({ err }, `${this.name} session row not removed`));
    }
    const pending = [...s.unacked.values()];
    s.unacked.clear();
    if (!pending.length || this.closing) return;
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
        .catch((err) => this.ctx.log.warn({ err }, `${this.name} report release failed`));
    }
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
      .catch((err) => this.ctx.log.warn({ err }, `${this.name} session heartbeat failed`));
  }

  // ------------------------------------------------------------ the login gate

  /**
   * A bind / connect: a locked (name, address) is refused before any secret is looked at; the
   * account is found by `find` and its secret checked by `check` (called with undefined for an
   * unknown name: it must do the same work); failures are counted per (name, address) with the
   * console's lockout; after the right secret the account's gates (active, certified, not a test
   * account, an interface password, the whitelist, then nodenum). On success the session's
   * smpp_sessions row is written (the session must still be open).
   */
  async authenticate(
    s: S,
    name: string,
    find: () => Promise<Account | undefined>,
    check: (a: Account | undefined) => Promise<boolean>,
  ): Promise<GateResult> {
    const nameHash = interfaceNameHash(name);
    if (await this.lockout.lockedUntil(nameHash, s.ip)) return { ok: false, why: 'locked' };
    const a = name ? await find() : undefined;
    const known = !!a && a.status !== AccountStatus.Unactivated && !!a.interface_password_hash;
    const good = await check(known ? a : undefined);
    if (!known || !good) {
      if (name) await this.lockout.recordFailure(nameHash, s.ip);
      return { ok: false, why: 'auth' };
    }
    await this.lockout.clear(nameHash, s.ip);
    if (interfaceRefusal(a) || !ipAllowed(a.ip, s.ip)) return { ok: false, why: 'refused' };
    if (!s.writable()) return { ok: false, why: 'gone' };
    const rowId = await this.register(a.id, sessionLimit(a.nodenum), s.ip);
    if (!rowId) return { ok: false, why: 'nodenum' };
    if (!s.writable()) {
      await this.ctx.db.deleteFrom('smpp_sessions').where('id', '=', rowId).execute();
      return { ok: false, why: 'gone' };
    }
    return { ok: true, account: a, rowId };
  }

  /**
   * Records a bound session in smpp_sessions unless the account already has `limit` live ones (in
   * any process or door); binds of one account are serialized on its row. Returns the row id, or null.
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
        .values({
          id,
          account_id: accountId,
          process: this.processId,
          peer: peer.slice(0, 64),
          bound_at: now,
          heartbeat_at: now,
        })
        .execute();
      return id;
    });
  }

  /**
   * The account's row for a submit: read once per accountCacheMs and shared by the submits (and
   * sessions) of this process meanwhile, so a freeze or any change is noticed within that time.
   */
  account(id: number): Promise<Account | undefined> {
    const now = Date.now();
    const hit = this.accounts.get(id);
    if (hit && now - hit.at < this.opts.accountCacheMs) return hit.row;
    const row = this.ctx.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
    this.accounts.set(id, { at: now, row });
    // a failed read is not kept
    row.catch(() => this.accounts.get(id)?.row === row && this.accounts.delete(id));
    if (this.accounts.size > 10_000)
      for (const [k, v] of this.accounts) if (now - v.at >= this.opts.accountCacheMs) this.accounts.delete(k);
    return row;
  }

  /** Forgets the account rows read (tests that change an account and submit at once). */
  forgetAccounts() {
    this.accounts.clear();
  }

  // ------------------------------------------------------------ receipts and uplinks

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
      .catch((err) => this.ctx.log.warn({ err }, `${this.name} receipt delivery failed`))
      .finally(() => {
        this.pumping = null;
        if (this.fullDue || (this.pumpAgain && this.pumpMore)) this.kick(true);
      });
  }

  /** Leases and hands to the door the queued receipts and uplinks of the accounts bound as receivers in this process, oldest first. */
  private async pump(full: boolean) {
    this.pumpMore = false;
    if (full) this.lastFullPump = Date.now();
    const byAccount = new Map<number, S[]>();
    for (const s of this.sessions) {
      if (s.accountId === null || !s.receive || !s.writable()) continue;
      const list = byAccount.get(s.accountId) ?? [];
      list.push(s);
      byAccount.set(s.accountId, list);
    }
    const pick = (list: S[]) => list.reduce((a, b) => (a.unacked.size <= b.unacked.size ? a : b));
    const roomOf = (list: S[]) => list.reduce((n, s) => n + Math.max(0, this.opts.deliverWindow - s.unacked.size), 0);
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
      // the rows to lease are picked once, as an array (an InitPlan). Written `id in (subquery)`, a
      // plan made while the queue was nearly empty (a prepared statement's generic plan, statistics
      // not caught up with a burst) could run the locking subquery again for each row: one pump turn
      // ran for minutes with 60,363 receipts queued (bench/smpp-customer-e2e.ts, 100,000 messages)
      const r = await sql<ReceiptRow>`
        update smpp_receipts set lease_until = ${lease}, attempts = attempts + 1
        where id = any(array(
          select id from smpp_receipts
          where account_id = ${accountId} and id > ${above('r')} and (lease_until is null or lease_until < ${now})
          order by id limit ${room} for update skip locked))
        returning id, account_id, message_id, part_id, phone, stat, err, text, submit_at, done_at`.execute(this.ctx.db);
      advance('r', r.rows);
      // in order, each to the receiver session with the fewest unanswered
      if (r.rows.length) this.pumpMore = true;
      for (const row of r.rows.sort((a, b) => a.id - b.id)) {
        const s = pick(list);
        this.deliverSafely('smpp_receipts', row.id, () => this.delivery.receipt(s, row));
      }
      room = roomOf(list);
      if (room <= 0) continue;
      const mo = await sql<MoRow>`
        update smpp_mo set lease_until = ${lease}, attempts = attempts + 1
        where id = any(array(
          select id from smpp_mo
          where account_id = ${accountId} and id > ${above('m')} and (lease_until is null or lease_until < ${now})
          order by id limit ${room} for update skip locked))
        returning id, account_id, mo_id, phone, dest, content`.execute(this.ctx.db);
      advance('m', mo.rows);
      if (mo.rows.length) this.pumpMore = true;
      for (const row of mo.rows.sort((a, b) => a.id - b.id)) {
        const s = pick(list);
        this.deliverSafely('smpp_mo', row.id, () => this.delivery.mo(s, row));
      }
    }
  }

  /** a row the door cannot write (a fault in its encoding) is sent again later, the session kept */
  private deliverSafely(table: Pending['table'], id: number, write: () => void) {
    try {
      write();
    } catch (err) {
      this.ctx.log.warn({ err, table, id }, `${this.name} report not written`);
      this.retryRows[table].push(id);
      this.queueFlush();
    }
  }

  /** The door wrote a queue row's packet with this sequence number. */
  sent(s: S, sequence: number, pending: Pending) {
    s.unacked.set(sequence, pending);
  }

  /** The customer answered the packet of this sequence (ok: the row goes; else it comes back a second later); false when nothing was waiting for it. */
  answered(s: S, sequence: number, ok: boolean): boolean {
    const pending = s.unacked.get(sequence);
    if (!pending) return false;
    s.unacked.delete(sequence);
    (ok ? this.answeredRows : this.retryRows)[pending.table].push(pending.id);
    this.queueFlush();
    return true;
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
    const answered = this.answeredRows;
    const retry = this.retryRows;
    this.answeredRows = { smpp_receipts: [], smpp_mo: [] };
    this.retryRows = { smpp_receipts: [], smpp_mo: [] };
    const work = (async () => {
      for (const table of ['smpp_receipts', 'smpp_mo'] as const) {
        // a row goes only after the customer answered its packet OK; otherwise it comes back a second later
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
    })().catch((err) => this.ctx.log.warn({ err }, `${this.name} report answers not recorded`));
    this.flushing = work;
    try {
      await work;
    } finally {
      this.flushing = null;
    }
  }

  // ------------------------------------------------------------ what a customer asks of a submit

  /**
   * The account's message to `phone` that a door's id names: one of the ids the door answered its
   * submits with (interface_part_ids, kept 7 days), else, when `messageId` is given, the message
   * whose id's low 32 bits it is (`by` says which); undefined when there is none (another account's, too old, never accepted). By the
   * phone's hash index, then the message's id: a lookup of a few rows.
   */
  async findMessage(
    accountId: number,
    phone: string,
    partId: string,
    messageId: number | null = null,
  ): Promise<
    | {
        id: number;
        state: number;
        created_at: Date;
        submitted_at: Date | null;
        done_at: Date | null;
        by: 'part' | 'id';
      }
    | undefined
  > {
    if (!phone) return undefined;
    const base = () =>
      this.ctx.db
        .selectFrom('sms_messages as m')
        .select(['m.id', 'm.state', 'm.created_at', 'm.submitted_at', 'm.done_at'])
        .where('m.phone', '=', phone)
        .where('m.account_id', '=', accountId);
    const byPart = await base()
      .innerJoin('interface_part_ids as ip', 'ip.message_id', 'm.id')
      .where(sql<boolean>`${partId} = any(ip.part_ids)`)
      .orderBy('m.id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (byPart) return { ...byPart, by: 'part' };
    if (messageId === null || !Number.isSafeInteger(messageId) || messageId <= 0 || messageId > 0xffffffff)
      return undefined;
    // a 32-bit field (SGIP's sequence number) carries the id's low 32 bits: among the few rows of the phone
    const byId = await base()
      .where(sql<boolean>`m.id & 4294967295 = ${messageId}::bigint`)
      .orderBy('m.id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return byId && { ...byId, by: 'id' };
  }

  // ------------------------------------------------------------ long messages

  /**
   * Adds a part of a long message to smpp_parts (shared by every connection, door and process of
   * the account), under its head row's lock; returns the part's id while parts are missing, else
   * the whole text, the ids the other parts were answered with and the receipt the parts asked for
   * (the rows stay until `claimParts`); PARTS_FULL when the account's unfinished parts are at their
   * ceiling (nothing stored). A part's id is a number of sms_messages' own id sequence (never
   * another message's id), written as `idOf` makes it (the door's id form; default: the number);
   * a part sent again keeps its first id.
   */
  addPart(
    accountId: number,
    p: {
      key: string;
      seq: number;
      total: number;
      text: string;
      phone: string;
      sourceAddr: string;
      extension: string;
      registeredDelivery: number;
      /** the part ids name every submit of the message (SGIP): it is accepted with partIdsWhole, by the part that completes it or by expireParts */
      whole?: boolean;
    },
    idOf?: (n: bigint) => string,
  ): Promise<
    | { partId: string }
    | { text: string; partIds: string[]; registeredDelivery: number; ownPartId: string }
    | typeof PARTS_FULL
  > {
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
        whole: !!p.whole,
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
        if (i >= 3) throw new Error('door part: head row not kept');
      }
      let partId;
      if (idOf) {
        const n = await sql<{
          n: string;
        }>`select nextval(pg_get_serial_sequence('sms_messages', 'id'))::text as n`.execute(trx);
        partId = idOf(BigInt(n.rows[0].n));
      } else partId = sql<string>`nextval(pg_get_serial_sequence('sms_messages', 'id'))::text`;
      const mine = await trx
        .insertInto('smpp_parts')
        .values({ ...row, seq: p.seq, text: p.text, part_id: partId })
        .onConflict((oc) =>
          oc
            .columns(['account_id', 'msg_key', 'seq'])
            .doUpdateSet({ text: p.text, registered_delivery: p.registeredDelivery }),
        )
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
  async claimParts(accountId: number, key: string): Promise<boolean> {
    const rows = await this.ctx.db
      .deleteFrom('smpp_parts')
      .where('account_id', '=', accountId)
      .where('msg_key', '=', key)
      .returning('seq')
      .execute();
    return rows.some((r) => r.seq === 0);
  }

  /**
   * Long messages whose first part came more than reassemblyMs ago and are still incomplete: one
   * listener takes each (skip locked) and accepts its parts as they are (joined in order, the
   * missing ones left out), from the head's destination, extension and registered_delivery. The
   * earlier parts' answers were part ids: the message's own id is only in its receipt and the
   * task's records; where the part ids name every submit (`whole`: SGIP) not even there.
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
      whole: boolean;
    }>`
      delete from smpp_parts p
      using (select account_id, msg_key from smpp_parts where seq = 0 and created_at < ${cut} order by created_at limit 200 for update skip locked) h
      where p.account_id = h.account_id and p.msg_key = h.msg_key
      returning p.account_id, p.msg_key, p.seq, p.text, p.phone, p.source_addr, p.extension, p.registered_delivery, p.part_id, p.whole`.execute(
      this.ctx.db,
    );
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
          // ids that name every submit (SGIP): those alone, as the part that completes a message
          // submits it; never one for the message's own id, which the customer never held
          partIdsWhole: head.whole,
        })
        .catch((err: unknown) => ({ ok: false as const, status: -1, message: String(err) }));
      if (r.ok) n++;
      else
        this.ctx.log.warn(
          { status: r.status, message: r.message },
          `${this.name} long message accepted as it is: refused`,
        );
    }
    this.partsExpired += n;
    return n;
  }
}

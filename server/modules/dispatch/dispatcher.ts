/**
 * The dispatch pipeline of one process (docs/api-dispatch.md):
 * - `lanes` loops claim due messages in batches (a lease row), submit them through the SMSC link
 *   and record the outcomes; several lanes overlap (one claims / records while another's batch is
 *   on the wire), several processes share the queue (row locks on the tasks' queue rows, SKIP
 *   LOCKED on requeued messages, leases);
 * - the link's receipts are applied to the messages in flight (or stored in sms_receipts when their
 *   message is not in flight yet) before the SMSC is acknowledged; an applier loop settles the
 *   receipts that raced with their submit's record;
 * - uplinks are stored (sms_mo) before they are acknowledged;
 * - an expander loop writes large tasks' chunks as message rows (send/messages.ts
 *   `expandNextChunk`), one chunk per transaction, ahead of the claims;
 * - every second: due timed tasks are released (send/timer.ts), expired leases are recovered
 *   (unconfirmed), submitted messages whose receipt is late get 1 提交成功 in their record,
 *   finished tasks are completed, stale receipts and in-flight rows purged.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../context';
import { ENV_DEFAULTS } from '../../env';
import type { Database } from '../../db/types';
import type { MoMessage, Receipt, SmscLink, SubmitRequest, SubmitResult } from '../smsc';
import { expandNextChunk, fireDueTimedTasks } from '../send';
import { storeMo, type StoredMo } from './mo';
import { SendRecordStatus, type Carrier, type SmsType } from '../../../common/generated/schemas';
import { channelServes } from '../smsc';
import {
  applyOrStoreReceipts,
  applyReceipts,
  applyUnconfirmedReceipts,
  claimBatch,
  completeTasks,
  markSubmitted,
  markWritten,
  purgeStale,
  recordOutcomes,
  recoverLeases,
  UNCONFIRMED,
  type AppliedReport,
  type ClaimedMessage,
  type Outcome,
} from './sql';
import { sql } from 'kysely';

type Tx = Transaction<Database>;

export interface DispatchHooks {
  /** messages that reached a final state (receipts applied, submits refused): delivery-report pushes, in the same transaction */
  reports?: (trx: Tx, rows: AppliedReport[]) => Promise<void>;
  /** uplinks stored (uplink pushes), in the storing transaction */
  mo?: (trx: Tx, rows: StoredMo[]) => Promise<void>;
}

export interface DispatcherOptions {
  /** unique per process (default host:pid:random) */
  workerId?: string;
  /** messages claimed per batch (default 1000) */
  batchSize?: number;
  /** concurrent claim → submit → record loops (default 3) */
  lanes?: number;
  /** how long a claim holds its messages (default 120 s); must exceed a batch's submit time */
  leaseMs?: number;
  /** sleep of an idle loop (default 200 ms) */
  idleMs?: number;
  /** receipts applied per transaction (default 5000) */
  receiptBatch?: number;
  /** source address = prefix + the account's id (+ the task's extension when the account has needextend 1): what uplinks are routed by */
  sourcePrefix?: string;
  /** housekeeping period: timed tasks, lease recovery, completion sweep (default 1000 ms; 0: none) */
  maintenanceMs?: number;
  /** unapplicable receipts, and messages still waiting for their receipt, are let go after this long (default 3 days) */
  orphanReceiptMs?: number;
  /**
   * a submitted message's record says 1 提交成功 only once its receipt has not come within this
   * long (default 10000 ms; housekeeping writes it): a receipt within that time writes the final
   * state straight away, one write instead of two. 0: 1 提交成功 is written with the submit's record
   */
  markSubmittedMs?: number;
  /** run the submit lanes (false: receipts / uplinks / housekeeping only) */
  submit?: boolean;
  /** run the expander loop: large tasks' chunks → message rows (default true) */
  expand?: boolean;
  /** several channels: one unbound for longer than this hands its traffic to the next (default 30 s) */
  failoverMs?: number;
  /**
   * several channels: one whose answers have been throttling (0x58 / 0x14) with nothing accepted
   * for this long hands its traffic to the next, and gets one message a second to see whether it
   * takes traffic again (default 10 s)
   */
  throttleFailoverMs?: number;
  /** per-channel counters to the log and dispatch_channel_stats this often (default 10 s; 0: never) */
  channelStatsMs?: number;
  /**
   * a stored receipt no message in flight took for this long (default 60 s: longer than a submit's
   * wait for its answer) is matched to an unconfirmed message by number + channel (sql.ts
   * applyUnconfirmedReceipts); 0: never
   */
  matchUnconfirmedMs?: number;
  /**
   * count the final outcomes this dispatcher records by carrier and channel (`finals`: the
   * metrics and the operators' per-minute series read them); default: the app's METRICS
   */
  countFinals?: boolean;
  hooks?: DispatchHooks;
}

/**
 * An upstream channel as the dispatcher routes to it (docs/api-dispatch.md "Channels"). The one
 * default link (SMPP_URL) is the channel '' serving everything.
 */
export interface ChannelRoute {
  /** recorded on the messages submitted on it; '' = the default link */
  name: string;
  link: SmscLink;
  /** enums/carrier 1-3 served ([] = every domestic carrier, none when `international`) */
  carriers?: Carrier[];
  international?: boolean;
  /** enums/sms-type served ([] = every type) */
  smsTypes?: SmsType[];
  /** lower first */
  priority?: number;
  weight?: number;
  /** messages/s this process submits on it at most (0 = no limit) */
  maxPerSecond?: number;
}

/** One channel's counters in this process (since it started). */
export interface ChannelCounters {
  /** written to the SMSC (answered or not) */
  submitted: number;
  accepted: number;
  refused: number;
  retried: number;
  unconfirmed: number;
  receipts: number;
  /** time from handing a slice to the link to its last answer: sum (ms) and number of slices */
  latencyMsSum: number;
  latencyCount: number;
}

/** Final outcomes of the messages one dispatcher recorded, for one carrier and channel (`Dispatcher.finals`). */
export interface FinalCounts {
  /** enums/carrier */
  carrier: number;
  /** '' = the default link */
  channel: string;
  /** 3 明确成功 (and 16) */
  delivered: number;
  /** 4 提交失败 and 6 明确失败 */
  failed: number;
}

/** submit_sm_resp statuses that say the carrier is throttling (ESME_RTHROTTLED, ESME_RMSGQFUL) or broken (ESME_RSYSERR) */
const THROTTLE_CODES = new Set(['0x00000058', '0x00000014']);
export const SYSERR_CODE = '0x00000008';
/** a message answered ESME_RSYSERR after this many tries is refused with it (a carrier that says so for that one message forever) */
export const SYSERR_MAX_ATTEMPTS = 5;
/** a channel out of routing (system error, lasting throttling) gets one message this often */
const PROBE_MS = 1000;

class Channel {
  readonly budget: WriteBudget;
  /** the link's window × connections: what the budget grows back to after throttling */
  readonly full: number;
  readonly counters: ChannelCounters = {
    submitted: 0,
    accepted: 0,
    refused: 0,
    retried: 0,
    unconfirmed: 0,
    receipts: 0,
    latencyMsSum: 0,
    latencyCount: 0,
  };
  /** since when the link has been seen unbound (null: bound) */
  unboundSince: number | null = null;
  /** smooth weighted round robin among one priority's healthy channels */
  credit = 0;
  /** a throttling answer came: until then the other channels of its priority are preferred (the link's pause) */
  pausedUntil = 0;
  /** its answers have been throttling since then with nothing accepted (null: it accepts) */
  throttledSince: number | null = null;
  /** answered ESME_RSYSERR with nothing accepted since: out of routing but for probes */
  faulted = false;
  /** when an out-of-routing channel gets its next message */
  probeAt = 0;
  /** routing scratch: usable for the message being routed */
  ok = false;
  /** slices routed to it and not recorded yet (a replaced channel's link is closed when none is left) */
  private active = 0;
  private idleWaiters: (() => void)[] = [];
  /** messages routed to it per 100 ms over the last second (its throughput limit) */
  private readonly buckets = new Int32Array(10);
  private bucketIdx = 0;
  private inWindow = 0;
  constructor(
    public route: ChannelRoute,
    /** serves every message (the default link) */
    readonly all: boolean,
  ) {
    const cap = route.link.capacity;
    this.full = cap && cap > 0 ? cap : Number.POSITIVE_INFINITY;
    this.budget = new WriteBudget(this.full);
  }
  get name() {
    return this.route.name;
  }
  serves(m: ClaimedMessage): boolean {
    return (
      this.all ||
      channelServes(
        {
          carriers: this.route.carriers ?? [],
          international: this.route.international ?? false,
          smsTypes: this.route.smsTypes ?? [],
        },
        m.carrier,
        m.smstype,
      )
    );
  }
  /**
   * 'yes': bound, or unbound for less than failoverMs; 'no': unbound for longer, or out of routing
   * (a system error, or throttling with nothing accepted for throttleFailoverMs); 'probe': out of
   * routing, but its one message a second is due
   */
  health(now: number, failoverMs: number, throttleFailoverMs: number): 'yes' | 'no' | 'probe' {
    if (this.route.link.ready) this.unboundSince = null;
    else {
      this.unboundSince ??= now;
      if (now - this.unboundSince >= failoverMs) return 'no';
    }
    const out = this.faulted || (this.throttledSince !== null && now - this.throttledSince >= throttleFailoverMs);
    if (!out) return 'yes';
    return now >= this.probeAt ? 'probe' : 'no';
  }
  /**
   * Below its throughput limit: fewer than maxPerSecond messages routed to it in the last second,
   * counted in ten 100 ms buckets (so also in every calendar second, as carriers count).
   */
  hasToken(now: number): boolean {
    const max = this.route.maxPerSecond ?? 0;
    if (!max) return true;
    const idx = Math.floor(now / 100);
    if (idx - this.bucketIdx >= 10) {
      this.buckets.fill(0);
      this.inWindow = 0;
    } else {
      for (let i = this.bucketIdx + 1; i <= idx; i++) {
        this.inWindow -= this.buckets[i % 10];
        this.buckets[i % 10] = 0;
      }
    }
    if (idx > this.bucketIdx) this.bucketIdx = idx;
    return this.inWindow < max;
  }
  take() {
    if (!this.route.maxPerSecond) return;
    this.buckets[this.bucketIdx % 10]++;
    this.inWindow++;
  }
  /** the same limit at the moment of writing (a routed slice may wait for the budget): waits until n more fit in the last second */
  private readonly written = new Int32Array(10);
  private writtenIdx = 0;
  private writtenInWindow = 0;
  async paceWrite(n: number): Promise<void> {
    const max = this.route.maxPerSecond ?? 0;
    if (!max) return;
    for (;;) {
      const now = Date.now();
      const idx = Math.floor(now / 100);
      if (idx - this.writtenIdx >= 10) {
        this.written.fill(0);
        this.writtenInWindow = 0;
      } else
        for (let i = this.writtenIdx + 1; i <= idx; i++) {
          this.writtenInWindow -= this.written[i % 10];
          this.written[i % 10] = 0;
        }
      if (idx > this.writtenIdx) this.writtenIdx = idx;
      if (this.writtenInWindow + n <= max || (this.writtenInWindow === 0 && n > max)) {
        this.written[idx % 10] += n;
        this.writtenInWindow += n;
        return;
      }
      await new Promise((r) => setTimeout(r, 100 - (now % 100) + 1));
    }
  }
  /**
   * A slice's answers as the channel's state (docs/api-dispatch.md "Carrier back-off"): throttling
   * halves its write budget (once per pause) and pauses it; accepted slices grow the budget back
   * and end throttling / a fault; ESME_RSYSERR with nothing accepted takes it out of routing.
   * Returns what changed, for the log.
   */
  feedback(
    now: number,
    accepted: number,
    throttled: number,
    syserr: number,
    pauseMs: number,
  ): 'fault' | 'throttled' | 'recovered' | null {
    let change: 'fault' | 'throttled' | 'recovered' | null = null;
    if (throttled) {
      if (now >= this.pausedUntil) {
        if (Number.isFinite(this.full)) this.budget.resize(Math.max(1, Math.floor(this.budget.size / 2)));
        this.pausedUntil = now + Math.max(50, pauseMs);
      }
      if (!accepted && this.throttledSince === null) {
        this.throttledSince = now;
        change = 'throttled';
      }
    }
    if (syserr && !accepted) {
      if (!this.faulted) change = 'fault';
      this.faulted = true;
      this.probeAt = Math.max(this.probeAt, now + PROBE_MS);
    }
    if (accepted) {
      if (this.faulted || this.throttledSince !== null) change = 'recovered';
      this.faulted = false;
      this.throttledSince = null;
      if (!throttled && this.budget.size < this.full)
        this.budget.resize(Math.min(this.full, this.budget.size + Math.max(1, Math.ceil(this.full / 16))));
    }
    return change;
  }
  enter() {
    this.active++;
  }
  leave() {
    if (--this.active === 0) for (const w of this.idleWaiters.splice(0)) w();
  }
  /** resolves when no slice routed to it is left unrecorded */
  idle(): Promise<void> {
    return this.active === 0 ? Promise.resolve() : new Promise((r) => this.idleWaiters.push(r));
  }
}

export interface DispatcherStats {
  claimed: number;
  accepted: number;
  rejected: number;
  retried: number;
  unconfirmed: number;
  receiptsStored: number;
  receiptsApplied: number;
  /** message rows written from large tasks' chunks */
  expanded: number;
  mo: number;
  recovered: number;
  /** records set to 1 提交成功 by housekeeping (their receipt was late) */
  marked: number;
  /** receipts applied to unconfirmed messages by number + channel */
  matchedUnconfirmed: number;
  errors: number;
}

/** A sleep another loop can cut short. */
class Waker {
  private waiters = new Set<() => void>();
  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }
  wake() {
    for (const w of [...this.waiters]) w();
  }
}

/**
 * How many messages may be handed to the link (marked written, not answered yet) at once: the
 * link's window × connections. What a crash can leave unconfirmed is bounded by it.
 */
export class WriteBudget {
  private used = 0;
  private waiters: (() => void)[] = [];
  constructor(public size: number) {}
  /** waits until at least min(want, floor, size) is free, then takes up to `want` */
  async take(want: number, floor: number): Promise<number> {
    for (;;) {
      const free = this.size - this.used;
      if (free > 0 && free >= Math.min(want, floor, this.size)) {
        const n = Math.min(want, free);
        this.used += n;
        return n;
      }
      await new Promise<void>((r) => this.waiters.push(r));
    }
  }
  release(n: number) {
    this.used -= n;
    for (const w of this.waiters.splice(0)) w();
  }
  /** a smaller size holds what is above it until it is released; a larger one frees room now */
  resize(size: number) {
    this.size = size;
    for (const w of this.waiters.splice(0)) w();
  }
}

/** SMS_SOURCE_PREFIX's default (schemas/config/env.json) */
export const DEFAULT_SOURCE_PREFIX = ENV_DEFAULTS.SMS_SOURCE_PREFIX;

/** Maps the link's answers to the outcomes recorded; a request without an answer is unconfirmed. */
export function toOutcomes(batch: readonly ClaimedMessage[], results: readonly SubmitResult[]): Outcome[] {
  const byRef = new Map<number, SubmitResult>();
  for (const r of results) byRef.set(r.ref, r);
  return batch.map((m): Outcome => ({ ...outcomeOf(m, byRef.get(m.id)), taskId: m.task_id, lease: m.lease }));
}

function outcomeOf(m: ClaimedMessage, r: SubmitResult | undefined): Outcome {
  if (!r)
    return {
      id: m.id,
      state: SendRecordStatus.Submitted,
      msgId: null,
      code: UNCONFIRMED,
      report: 'no answer',
      delayMs: 0,
    };
  switch (r.status) {
    case 'accepted':
      return {
        id: m.id,
        state: SendRecordStatus.Submitted,
        msgId: String(r.msgId).slice(0, 64),
        code: '',
        report: '',
        delayMs: 0,
        ...(r.parts && r.parts.length > 1 ? { parts: r.parts.map((x) => String(x).slice(0, 64)) } : {}),
      };
    case 'rejected':
      return {
        id: m.id,
        state: SendRecordStatus.SubmitFailed,
        msgId: null,
        code: String(r.code).slice(0, 32),
        report: '',
        delayMs: 0,
      };
    case 'retry':
      // a carrier's system error is the channel's (it is routed again), unless it keeps saying so for this message
      if (r.code === SYSERR_CODE && (m.attempts ?? 0) >= SYSERR_MAX_ATTEMPTS - 1)
        return { id: m.id, state: SendRecordStatus.SubmitFailed, msgId: null, code: r.code, report: '', delayMs: 0 };
      return {
        id: m.id,
        state: SendRecordStatus.NotSent,
        msgId: null,
        code: String(r.code).slice(0, 32),
        report: '',
        delayMs: Math.min(60_000, Math.max(50, Math.round(r.afterMs) || 0)),
      };
    default:
      return {
        id: m.id,
        state: SendRecordStatus.Submitted,
        msgId: null,
        code: UNCONFIRMED,
        report: String(r.code).slice(0, 64),
        delayMs: 0,
      };
  }
}

/** Receipt → the values stored: delivered → 3, else 6 with the SMSC's error (err, else stat). */
export function receiptRow(r: Receipt) {
  const err = (r.err ?? '').trim();
  const stat = (r.stat ?? '').trim().slice(0, 16);
  return {
    msgId: String(r.msgId).slice(0, 64),
    ...(r.readings?.length ? { readings: r.readings.slice(0, 4).map((x) => String(x).slice(0, 64)) } : {}),
    state: r.delivered ? SendRecordStatus.Delivered : SendRecordStatus.DeliveryFailed,
    errorCode: r.delivered ? '' : (err && !/^0+$/.test(err) ? err : stat || 'UNDELIV').slice(0, 32),
    report: stat,
    doneAt: r.doneAt instanceof Date && !Number.isNaN(r.doneAt.getTime()) ? r.doneAt : new Date(),
    ...(r.phone
      ? {
          phone: String(r.phone)
            .replace(/^\+?86(?=1\d{10}$)/, '')
            .slice(0, 32),
        }
      : {}),
  };
}

export class Dispatcher {
  readonly workerId: string;
  readonly stats: DispatcherStats = {
    claimed: 0,
    accepted: 0,
    rejected: 0,
    retried: 0,
    unconfirmed: 0,
    receiptsStored: 0,
    receiptsApplied: 0,
    expanded: 0,
    mo: 0,
    recovered: 0,
    marked: 0,
    matchedUnconfirmed: 0,
    errors: 0,
  };
  /**
   * the final outcomes this dispatcher recorded since it started, by carrier and channel (key
   * `${carrier} ${channel}`), counted once their transaction committed (options.countFinals)
   */
  readonly finals = new Map<string, FinalCounts>();
  private readonly o: Required<Omit<DispatcherOptions, 'hooks' | 'workerId'>>;
  private readonly hooks: DispatchHooks;
  private running = false;
  private loops: Promise<void>[] = [];
  private readonly idle = new Waker();
  private readonly laneWake = new Waker();
  private readonly expandWake = new Waker();
  private readonly applierWake = new Waker();
  private lastSweep = 0;
  private lastPurge = 0;
  private channels: Channel[];
  /** the channels by priority (lower first), grouped */
  private tiers: Channel[][];
  private lastChannelStats = 0;
  private lastMatch = 0;

  constructor(
    private readonly ctx: AppContext,
    /** one link (the default channel '', serving everything) or the channel table */
    link: SmscLink | ChannelRoute[],
    opts: DispatcherOptions = {},
  ) {
    this.workerId = (opts.workerId ?? `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`).slice(
      0,
      100,
    );
    this.o = {
      batchSize: opts.batchSize ?? ENV_DEFAULTS.DISPATCH_BATCH,
      lanes: opts.lanes ?? ENV_DEFAULTS.DISPATCH_LANES,
      leaseMs: opts.leaseMs ?? ENV_DEFAULTS.DISPATCH_LEASE_MS,
      idleMs: opts.idleMs ?? 200,
      receiptBatch: opts.receiptBatch ?? 5000,
      sourcePrefix: opts.sourcePrefix ?? DEFAULT_SOURCE_PREFIX,
      maintenanceMs: opts.maintenanceMs ?? 1000,
      orphanReceiptMs: opts.orphanReceiptMs ?? 3 * 86_400_000,
      submit: opts.submit ?? true,
      expand: opts.expand ?? true,
      markSubmittedMs: opts.markSubmittedMs ?? ENV_DEFAULTS.DISPATCH_MARK_MS,
      failoverMs: opts.failoverMs ?? 30_000,
      throttleFailoverMs: opts.throttleFailoverMs ?? ENV_DEFAULTS.DISPATCH_THROTTLE_FAILOVER_MS,
      channelStatsMs: opts.channelStatsMs ?? 10_000,
      matchUnconfirmedMs: opts.matchUnconfirmedMs ?? ENV_DEFAULTS.DISPATCH_MATCH_UNCONFIRMED_MS,
      countFinals: opts.countFinals ?? ctx.config.metrics !== false,
    };
    this.hooks = opts.hooks ?? {};
    this.channels = [];
    this.tiers = [];
    this.install(this.build(link));
  }

  /** Channel objects for a table: one of the same name on the same link is kept (its counters, health, budget), with the new attributes. */
  private build(link: SmscLink | ChannelRoute[]): Channel[] {
    const routes = Array.isArray(link) ? link : [{ name: '', link }];
    if (!routes.length) throw new Error('dispatch: no channel');
    if (new Set(routes.map((r) => r.name)).size !== routes.length)
      throw new Error('dispatch: two channels of one name');
    return routes.map((r) => {
      const all = !Array.isArray(link);
      const old = this.channels.find((c) => c.name === r.name && c.route.link === r.link && c.all === all);
      if (old) {
        old.route = r;
        return old;
      }
      const c = new Channel(r, all);
      // a named channel's message ids are recorded as "name:id": two SMSCs may hand out the same ids
      const prefix = c.name ? `${c.name}:` : '';
      c.route.link.onReceipts(async (rs) => {
        await this.handleReceipts(
          prefix
            ? rs.map((x) => ({
                ...x,
                msgId: prefix + x.msgId,
                ...(x.readings ? { readings: x.readings.map((y) => prefix + y) } : {}),
              }))
            : rs,
          c.name,
        );
        c.counters.receipts += rs.length;
      });
      c.route.link.onMo((ms) => this.handleMo(ms));
      return c;
    });
  }

  private install(channels: Channel[]) {
    const priorities = [...new Set(channels.map((c) => c.route.priority ?? 0))].sort((a, b) => a - b);
    this.tiers = priorities.map((p) => channels.filter((c) => (c.route.priority ?? 0) === p));
    this.channels = channels;
  }

  /**
   * Replaces the channel table while running (docs/api-dispatch.md "Channels": the CLI's rows are
   * picked up without a restart). The next claim routes by the new table; a channel no longer in
   * it (or on another link) gets nothing more. Resolves with the links no longer used once the
   * slices routed to them are recorded (their owner closes them).
   */
  async setChannels(link: SmscLink | ChannelRoute[]): Promise<SmscLink[]> {
    const next = this.build(link);
    const gone = this.channels.filter((c) => !next.includes(c));
    this.install(next);
    await Promise.all(gone.map((c) => c.idle()));
    const kept = new Set(next.map((c) => c.route.link));
    return [...new Set(gone.map((c) => c.route.link))].filter((l) => !kept.has(l));
  }

  /** the channels' names as routed now */
  channelNames(): string[] {
    return this.channels.map((c) => c.name);
  }

  /** the channels' names and counters in this process */
  channelCounters(): { name: string; bound: boolean; counters: ChannelCounters }[] {
    return this.channels.map((c) => ({ name: c.name, bound: c.route.link.ready, counters: { ...c.counters } }));
  }

  get db() {
    return this.ctx.db;
  }

  /**
   * Runs one recording call (outcomes, receipts) with the reports hook it hands to its transaction:
   * the push hooks as before, and with countFinals the final rows noted, to be counted in `finals`
   * once the call has returned (committed). A transaction retried after a deadlock calls the hook
   * again with a new transaction: only the last one's rows count.
   */
  private async recording<T>(run: (hook: DispatchHooks['reports']) => Promise<T>): Promise<T> {
    const inner = this.hooks.reports;
    if (!this.o.countFinals) return run(inner);
    let seen: Tx | null = null;
    let rows: AppliedReport[][] = [];
    const result = await run(async (trx, r) => {
      if (trx !== seen) {
        seen = trx;
        rows = [];
      }
      rows.push(r);
      if (inner) await inner(trx, r);
    });
    for (const batch of rows) this.countFinals(batch);
    return result;
  }

  private countFinals(rows: readonly AppliedReport[]) {
    for (const r of rows) {
      const delivered = r.state === SendRecordStatus.Delivered || r.state === SendRecordStatus.DeliveredAlt;
      if (!delivered && r.state !== SendRecordStatus.SubmitFailed && r.state !== SendRecordStatus.DeliveryFailed)
        continue;
      const key = `${r.carrier} ${r.channel}`;
      let f = this.finals.get(key);
      if (!f) this.finals.set(key, (f = { carrier: r.carrier, channel: r.channel, delivered: 0, failed: 0 }));
      if (delivered) f.delivered++;
      else f.failed++;
    }
  }

  private logError(what: string, err: unknown) {
    this.stats.errors++;
    this.ctx.log.error({ err }, `dispatch ${this.workerId}: ${what} failed`);
  }

  // ---------------------------------------------------------------- steps (tests drive these)

  /** Receipts from the link: applied, or stored to wait (the SMSC is acknowledged once this resolves). */
  async handleReceipts(rs: Receipt[], channel = ''): Promise<void> {
    const { applied, stored } = await this.recording((hook) =>
      applyOrStoreReceipts(
        this.db,
        this.ctx,
        rs.map((r) => ({ ...receiptRow(r), channel })),
        hook,
      ),
    );
    this.stats.receiptsApplied += applied;
    this.stats.receiptsStored += stored;
    if (stored) this.applierWake.wake();
  }

  /** Uplinks from the link: routed and stored (then acknowledged). */
  async handleMo(ms: MoMessage[]): Promise<void> {
    const stored = await storeMo(this.db, this.o.sourcePrefix, ms, this.hooks.mo, (m) => this.ctx.log.warn(m));
    this.stats.mo += stored.length;
  }

  /** One claim → submit → record round; returns how many messages it claimed. */
  async dispatchOnce(limit = this.o.batchSize): Promise<number> {
    const now = this.ctx.now();
    const T0 = performance.now();
    const batch = await claimBatch(this.db, this.workerId, now, new Date(now.getTime() + this.o.leaseMs), limit);
    if (!batch.length) return 0;
    this.stats.claimed += batch.length;
    const TC = performance.now();
    // routing: each message to one channel (never two: the lease holds it until its outcome is recorded)
    // the links' time (health, pauses, throughput), not the business clock
    const nowMs = Date.now();
    const groups = new Map<Channel, ClaimedMessage[]>();
    const unrouted: SubmitResult[] = [];
    const waiting: ClaimedMessage[] = [];
    for (const m of batch) {
      const c = this.route(m, nowMs);
      if (c === 'none') unrouted.push({ ref: m.id, status: 'rejected', code: 'NO_CHANNEL' });
      else if (c === 'wait') {
        unrouted.push({ ref: m.id, status: 'retry', code: 'NO_CHANNEL_READY', afterMs: 1000 });
        waiting.push(m);
      } else {
        const g = groups.get(c);
        if (g) g.push(m);
        else groups.set(c, [m]);
      }
    }
    // counted before the first wait: a table replaced meanwhile closes their links only after they are recorded
    for (const c of groups.keys()) c.enter();
    if (unrouted.length) {
      if (waiting.length)
        this.ctx.log.warn(`dispatch ${this.workerId}: ${waiting.length} messages wait: no healthy channel for them`);
      const byId = new Map(batch.map((m) => [m.id, m]));
      await this.record(
        toOutcomes(
          unrouted.map((r) => byId.get(r.ref)!),
          unrouted,
        ),
      );
    }
    await Promise.all([...groups].map(([c, ms]) => this.sendOn(c, ms).finally(() => c.leave())));
    this.ctx.log.debug(
      `dispatch ${batch.length}: claim ${(TC - T0).toFixed(0)} ms, submit and record ${(performance.now() - TC).toFixed(0)} ms`,
    );
    this.applierWake.wake();
    return batch.length;
  }

  /**
   * The channel for a message: of the channels serving it, the first priority with a healthy one
   * (bound, or unbound for less than failoverMs; not out of routing by a system error or lasting
   * throttling) that has throughput left, spread by weight (smooth weighted round robin); a channel
   * paused by a throttling answer only when its priority has no other. A channel out of routing
   * gets one message a second (a probe: the first answer it accepts brings it back).
   * 'wait': none now (sent later); 'none': no channel serves it.
   */
  private route(m: ClaimedMessage, now: number): Channel | 'wait' | 'none' {
    if (this.channels.length === 1 && this.channels[0].all) return this.channels[0];
    let served = false;
    for (const tier of this.tiers) {
      let unpaused = false;
      for (const c of tier) {
        c.ok = false;
        if (!c.serves(m)) continue;
        served = true;
        const h = c.health(now, this.o.failoverMs, this.o.throttleFailoverMs);
        if (h === 'no' || !c.hasToken(now)) continue;
        if (h === 'probe') {
          c.probeAt = now + PROBE_MS;
          c.take();
          return c;
        }
        c.ok = true;
        if (now >= c.pausedUntil) unpaused = true;
      }
      let total = 0;
      let best: Channel | null = null;
      for (const c of tier) {
        if (!c.ok || (unpaused && now < c.pausedUntil)) continue;
        const w = c.route.weight ?? 1;
        c.credit += w;
        total += w;
        if (!best || c.credit > best.credit) best = c;
      }
      if (best) {
        best.credit -= total;
        best.take();
        return best;
      }
    }
    return served ? 'wait' : 'none';
  }

  /** the outcomes must reach the database: retried while it is unreachable (the lease keeps the rows) */
  private async record(outcomes: Outcome[]): Promise<void> {
    for (const o of outcomes) {
      if (o.state === SendRecordStatus.NotSent) this.stats.retried++;
      else if (o.state === SendRecordStatus.SubmitFailed) this.stats.rejected++;
      else if (o.msgId) this.stats.accepted++;
      else this.stats.unconfirmed++;
    }
    for (let attempt = 0; ; attempt++) {
      try {
        await this.recording((hook) =>
          recordOutcomes(this.db, this.ctx, this.workerId, outcomes, hook, this.o.markSubmittedMs > 0),
        );
        return;
      } catch (err) {
        this.logError('record', err);
        if (!this.running || attempt >= 20) throw err;
        await new Promise((r) => setTimeout(r, Math.min(5000, 100 * 2 ** attempt)));
      }
    }
  }

  /**
   * Hands messages to a channel's link in slices, each marked written in its lease (the lease
   * extended, the channel recorded on the messages) before it goes, then records their outcomes.
   * The channel's WriteBudget (window × connections) counts a slice from its mark to its last
   * answer: what is marked is on the wire at once (never-written messages are never marked: they are
   * sent after a restart). A slice whose mark fails (lease lost, database unreachable) and the rest
   * are not written: 'retry' (recorded only while the lease is still ours).
   */
  private async sendOn(c: Channel, batch: ClaimedMessage[]): Promise<void> {
    const budget = c.budget;
    const slices: Promise<SubmitResult[]>[] = [];
    // slices of an eighth to a quarter of the budget: the next slices are written while one is
    // answered; what a crash between a mark and its write loses is one slice
    const finite = Number.isFinite(budget.size);
    // a throughput limit: slices of at most a tenth of it, each written when it fits in the last second
    const pace = c.route.maxPerSecond ? Math.max(1, Math.floor(c.route.maxPerSecond / 10)) : Number.POSITIVE_INFINITY;
    const floor = Math.min(pace, finite ? Math.max(1, Math.floor(budget.size / 8)) : batch.length);
    const most = Math.min(pace, finite ? Math.max(1, Math.floor(budget.size / 4)) : batch.length);
    const prefix = c.name ? `${c.name}:` : '';
    let i = 0;
    let handBack = false;
    while (i < batch.length) {
      const n = await budget.take(Math.min(most, batch.length - i), floor);
      // after the first slice: a channel gone out of routing (system error, lasting throttling, unbound
      // for failoverMs) or out of the table hands the rest back, to be routed again at once
      if (
        i > 0 &&
        (!this.channels.includes(c) || c.health(Date.now(), this.o.failoverMs, this.o.throttleFailoverMs) !== 'yes')
      ) {
        budget.release(n);
        handBack = true;
        break;
      }
      const slice = batch.slice(i, i + n);
      let ok = false;
      try {
        const now = this.ctx.now();
        ok = await markWritten(
          this.db,
          this.workerId,
          slice[0].lease,
          slice.map((m) => m.id),
          now,
          new Date(now.getTime() + this.o.leaseMs),
          c.name,
        );
        if (!ok)
          this.ctx.log.warn(
            `dispatch ${this.workerId}: lease lost, ${batch.length - i} claimed messages not submitted`,
          );
      } catch (err) {
        this.logError('mark written', err);
      }
      if (!ok) {
        budget.release(n);
        break;
      }
      i += n;
      // paced here, after the mark and just before the write: the mark's latency (a loaded
      // database) must not bunch the slices up on the wire, where the carrier counts them
      await c.paceWrite(n);
      const T = performance.now();
      const requests = slice.map((m): SubmitRequest => ({
        ref: m.id,
        to: m.phone,
        from: `${this.o.sourcePrefix}${m.account_id}${m.extension ?? ''}`,
        text: m.content,
      }));
      slices.push(
        c.route.link
          .submit(requests)
          .catch((err: unknown) => {
            // whatever was written may have reached the SMSC: never resubmitted (no result: unconfirmed)
            this.logError('submit', err);
            return [] as SubmitResult[];
          })
          .then((results) => {
            this.count(c, slice.length, results, performance.now() - T);
            // a named channel's ids are stored as name:id, the ids of a long message's parts too (its receipts are matched by them)
            return prefix
              ? results.map((r) =>
                  r.status === 'accepted'
                    ? { ...r, msgId: prefix + r.msgId, ...(r.parts ? { parts: r.parts.map((x) => prefix + x) } : {}) }
                    : r,
                )
              : results;
          })
          .finally(() => budget.release(n)),
      );
    }
    const results = (await Promise.all(slices)).flat();
    for (const m of batch.slice(i))
      results.push(
        handBack
          ? { ref: m.id, status: 'retry', code: 'CHANNEL_OUT', afterMs: 50 }
          : { ref: m.id, status: 'retry', code: 'NOT_WRITTEN', afterMs: 1000 },
      );
    if (handBack)
      this.ctx.log.warn(
        `dispatch ${this.workerId}: channel ${c.name || '(SMPP_URL)'} out of routing: ${batch.length - i} messages routed again`,
      );
    await this.record(toOutcomes(batch, results));
  }

  private count(c: Channel, n: number, results: SubmitResult[], ms: number) {
    const k = c.counters;
    let retried = 0;
    let accepted = 0;
    let throttled = 0;
    let syserr = 0;
    let pauseMs = 0;
    for (const r of results) {
      if (r.status === 'accepted') accepted++;
      else if (r.status === 'rejected') k.refused++;
      else if (r.status === 'retry') {
        retried++;
        if (THROTTLE_CODES.has(r.code)) {
          throttled++;
          pauseMs = Math.max(pauseMs, r.afterMs);
        } else if (r.code === SYSERR_CODE) syserr++;
      } else k.unconfirmed++;
    }
    k.accepted += accepted;
    const change = c.feedback(Date.now(), accepted, throttled, syserr, pauseMs);
    if (change === 'fault')
      this.ctx.log.warn(
        `dispatch ${this.workerId}: channel ${c.name || '(SMPP_URL)'} answers ESME_RSYSERR: out of routing, one message a second until it accepts again`,
      );
    else if (change === 'throttled')
      this.ctx.log.warn(
        `dispatch ${this.workerId}: channel ${c.name || '(SMPP_URL)'} throttles (write budget ${c.budget.size})`,
      );
    else if (change === 'recovered')
      this.ctx.log.info(`dispatch ${this.workerId}: channel ${c.name || '(SMPP_URL)'} accepts again`);
    // requests without an answer (the link failed) are unconfirmed
    k.unconfirmed += n - results.length;
    k.retried += retried;
    k.submitted += n - retried;
    k.latencyMsSum += ms;
    k.latencyCount++;
  }

  /** Writes this process's channel counters to dispatch_channel_stats and the log. */
  async flushChannelStats(): Promise<void> {
    const rows = this.channelCounters();
    await sql`
      insert into dispatch_channel_stats (channel, worker, submitted, accepted, refused, retried, unconfirmed, receipts, latency_ms_sum, latency_count, bound, updated_at)
      select u.channel, ${this.workerId}, u.submitted, u.accepted, u.refused, u.retried, u.unconfirmed, u.receipts, u.latency_ms_sum, u.latency_count, u.bound,
        ${this.ctx.now().toISOString()}::timestamptz
      from unnest(${rows.map((r) => r.name)}::text[], ${rows.map((r) => r.counters.submitted)}::bigint[], ${rows.map((r) => r.counters.accepted)}::bigint[],
        ${rows.map((r) => r.counters.refused)}::bigint[], ${rows.map((r) => r.counters.retried)}::bigint[], ${rows.map((r) => r.counters.unconfirmed)}::bigint[],
        ${rows.map((r) => r.counters.receipts)}::bigint[], ${rows.map((r) => r.counters.latencyMsSum)}::float8[], ${rows.map((r) => r.counters.latencyCount)}::bigint[],
        ${rows.map((r) => r.bound)}::boolean[])
        as u(channel, submitted, accepted, refused, retried, unconfirmed, receipts, latency_ms_sum, latency_count, bound)
      on conflict (channel, worker) do update set submitted = excluded.submitted, accepted = excluded.accepted, refused = excluded.refused,
        retried = excluded.retried, unconfirmed = excluded.unconfirmed, receipts = excluded.receipts, latency_ms_sum = excluded.latency_ms_sum,
        latency_count = excluded.latency_count, bound = excluded.bound, updated_at = excluded.updated_at`.execute(
      this.db,
    );
    for (const r of rows) {
      const k = r.counters;
      this.ctx.log.info(
        `channel ${r.name || '(SMPP_URL)'}: ${r.bound ? 'bound' : 'unbound'}, submitted ${k.submitted}, accepted ${k.accepted}, refused ${k.refused}, retried ${k.retried}, ` +
          `unconfirmed ${k.unconfirmed}, receipts ${k.receipts}, latency ${k.latencyCount ? (k.latencyMsSum / k.latencyCount).toFixed(0) : '-'} ms`,
      );
    }
  }

  /** Applies stored receipts until fewer than a batch remain; returns how many were applied. */
  async applyOnce(): Promise<number> {
    let total = 0;
    for (;;) {
      const T = performance.now();
      const n = await this.recording((hook) => applyReceipts(this.db, this.ctx, this.o.receiptBatch, hook));
      total += n;
      if (n) this.ctx.log.debug(`receipts applied: ${n} in ${(performance.now() - T).toFixed(0)} ms`);
      this.stats.receiptsApplied += n;
      if (n < this.o.receiptBatch) return total;
    }
  }

  /** Writes the next free chunk of a large task as message rows; returns how many (0: none free). */
  async expandOnce(): Promise<number> {
    const T = performance.now();
    const n = await expandNextChunk(this.db, undefined, this.ctx.now());
    if (n) {
      this.stats.expanded += n;
      this.ctx.log.debug(`expanded ${n} messages in ${(performance.now() - T).toFixed(0)} ms`);
    }
    return n;
  }

  /** Housekeeping: timed tasks, lease recovery, completion sweep, orphan receipts. */
  async maintain(): Promise<void> {
    const now = this.ctx.now();
    try {
      await fireDueTimedTasks(this.ctx, 100);
    } catch (err) {
      this.logError('timed tasks', err);
    }
    for (;;) {
      const n = await recoverLeases(this.db, this.ctx);
      this.stats.recovered += n;
      if (n > 0)
        this.ctx.log.warn(
          `dispatch ${this.workerId}: ${n} messages with an expired lease recovered (written ones unconfirmed, the others queued again)`,
        );
      if (n === 0) break;
    }
    if (this.o.markSubmittedMs > 0) {
      for (;;) {
        const n = await markSubmitted(this.db, this.ctx, new Date(now.getTime() - this.o.markSubmittedMs));
        this.stats.marked += n;
        if (n < 5000) break;
      }
    }
    if (now.getTime() - this.lastSweep >= 10_000 || now.getTime() < this.lastSweep) {
      this.lastSweep = now.getTime();
      await completeTasks(this.db, null, now);
    }
    if (this.o.matchUnconfirmedMs > 0 && (now.getTime() - this.lastMatch >= 5000 || now.getTime() < this.lastMatch)) {
      this.lastMatch = now.getTime();
      for (;;) {
        const n = await this.recording((hook) =>
          applyUnconfirmedReceipts(this.db, this.ctx, this.o.matchUnconfirmedMs, this.o.leaseMs + 600_000, 1000, hook),
        );
        this.stats.receiptsApplied += n;
        this.stats.matchedUnconfirmed += n;
        if (n < 1000) break;
      }
    }
    if (
      this.o.channelStatsMs > 0 &&
      (now.getTime() - this.lastChannelStats >= this.o.channelStatsMs || now.getTime() < this.lastChannelStats)
    ) {
      this.lastChannelStats = now.getTime();
      await this.flushChannelStats();
    }
    if (now.getTime() - this.lastPurge >= 600_000 || now.getTime() < this.lastPurge) {
      this.lastPurge = now.getTime();
      await purgeStale(this.db, new Date(now.getTime() - this.o.orphanReceiptMs));
      // counters of worker processes gone for as long (channel-stats adds up the live and recent ones)
      await sql`delete from dispatch_channel_stats where updated_at < ${new Date(now.getTime() - this.o.orphanReceiptMs).toISOString()}::timestamptz`.execute(
        this.db,
      );
    }
  }

  // ---------------------------------------------------------------- loops

  start(): this {
    if (this.running) return this;
    this.running = true;
    if (this.o.submit) for (let i = 0; i < this.o.lanes; i++) this.loops.push(this.laneLoop());
    this.loops.push(this.applierLoop());
    if (this.o.expand) this.loops.push(this.expanderLoop());
    if (this.o.maintenanceMs > 0) this.loops.push(this.maintenanceLoop());
    return this;
  }

  /** Stops claiming, lets the batches on the wire finish and be recorded, then returns. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.idle.wake();
    this.laneWake.wake();
    this.expandWake.wake();
    this.applierWake.wake();
    await Promise.allSettled(this.loops);
    this.loops = [];
  }

  get isRunning() {
    return this.running;
  }

  private async laneLoop() {
    while (this.running) {
      try {
        if (!this.channels.some((c) => c.route.link.ready)) {
          await this.idle.wait(this.o.idleMs * 2);
          continue;
        }
        const n = await this.dispatchOnce();
        if (n === 0) await this.laneWake.wait(this.o.idleMs);
      } catch (err) {
        this.logError('dispatch', err);
        await this.idle.wait(1000);
      }
    }
  }

  private async applierLoop() {
    for (;;) {
      try {
        await this.applyOnce();
      } catch (err) {
        this.logError('receipt apply', err);
        await this.applierWake.wait(1000);
      }
      if (!this.running) return;
      // at most one round per idleMs / 2 unless woken after that: rounds stay big under load
      const since = performance.now();
      await this.applierWake.wait(this.o.idleMs);
      const rest = this.o.idleMs / 2 - (performance.now() - since);
      if (rest > 0 && this.running) await new Promise((r) => setTimeout(r, rest));
    }
  }

  private async expanderLoop() {
    while (this.running) {
      try {
        if ((await this.expandOnce()) === 0) await this.expandWake.wait(this.o.idleMs);
        // lanes that found the task's rows exhausted take the new ones now
        else this.laneWake.wake();
      } catch (err) {
        this.logError('expand', err);
        await this.expandWake.wait(1000);
      }
    }
  }

  private async maintenanceLoop() {
    while (this.running) {
      try {
        await this.maintain();
      } catch (err) {
        this.logError('maintenance', err);
      }
      await this.idle.wait(this.o.maintenanceMs);
    }
  }
}

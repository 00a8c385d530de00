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
import type { Database } from '../../db/types';
import type { MoMessage, Receipt, SmscLink, SubmitRequest, SubmitResult } from '../smsc/types';
import { expandNextChunk, fireDueTimedTasks } from '../send';
import { storeMo, type StoredMo } from './mo';
import { SendRecordStatus } from '../../../common/generated/schemas';
import {
  applyOrStoreReceipts,
  applyReceipts,
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
  /** source address = prefix + the account's id (the extension uplinks are routed by) */
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
  hooks?: DispatchHooks;
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
  constructor(readonly size: number) {}
  /** waits until at least min(want, floor) is free, then takes up to `want` */
  async take(want: number, floor: number): Promise<number> {
    for (;;) {
      const free = this.size - this.used;
      if (free > 0 && free >= Math.min(want, floor)) {
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
}

export const DEFAULT_SOURCE_PREFIX = '106900';

/** Maps the link's answers to the outcomes recorded; a request without an answer is unconfirmed. */
export function toOutcomes(batch: readonly ClaimedMessage[], results: readonly SubmitResult[]): Outcome[] {
  const byRef = new Map<number, SubmitResult>();
  for (const r of results) byRef.set(r.ref, r);
  return batch.map((m): Outcome => ({ ...outcomeOf(m, byRef.get(m.id)), taskId: m.task_id }));
}

function outcomeOf(m: ClaimedMessage, r: SubmitResult | undefined): Outcome {
  if (!r) return { id: m.id, state: SendRecordStatus.Submitted, msgId: null, code: UNCONFIRMED, report: 'no answer', delayMs: 0 };
  switch (r.status) {
    case 'accepted':
      return { id: m.id, state: SendRecordStatus.Submitted, msgId: String(r.msgId).slice(0, 64), code: '', report: '', delayMs: 0 };
    case 'rejected':
      return { id: m.id, state: SendRecordStatus.SubmitFailed, msgId: null, code: String(r.code).slice(0, 32), report: '', delayMs: 0 };
    case 'retry':
      return { id: m.id, state: SendRecordStatus.NotSent, msgId: null, code: String(r.code).slice(0, 32), report: '', delayMs: Math.min(60_000, Math.max(50, Math.round(r.afterMs) || 0)) };
    default:
      return { id: m.id, state: SendRecordStatus.Submitted, msgId: null, code: UNCONFIRMED, report: String(r.code).slice(0, 64), delayMs: 0 };
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
  };
}

export class Dispatcher {
  readonly workerId: string;
  readonly stats: DispatcherStats = { claimed: 0, accepted: 0, rejected: 0, retried: 0, unconfirmed: 0, receiptsStored: 0, receiptsApplied: 0, expanded: 0, mo: 0, recovered: 0, marked: 0, errors: 0 };
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
  private readonly budget: WriteBudget;

  constructor(
    private readonly ctx: AppContext,
    private readonly link: SmscLink,
    opts: DispatcherOptions = {},
  ) {
    this.workerId = (opts.workerId ?? `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`).slice(0, 100);
    this.o = {
      batchSize: opts.batchSize ?? 1000,
      lanes: opts.lanes ?? 3,
      leaseMs: opts.leaseMs ?? 120_000,
      idleMs: opts.idleMs ?? 200,
      receiptBatch: opts.receiptBatch ?? 5000,
      sourcePrefix: opts.sourcePrefix ?? DEFAULT_SOURCE_PREFIX,
      maintenanceMs: opts.maintenanceMs ?? 1000,
      orphanReceiptMs: opts.orphanReceiptMs ?? 3 * 86_400_000,
      submit: opts.submit ?? true,
      expand: opts.expand ?? true,
      markSubmittedMs: opts.markSubmittedMs ?? 10_000,
    };
    this.hooks = opts.hooks ?? {};
    this.budget = new WriteBudget(link.capacity && link.capacity > 0 ? link.capacity : Number.POSITIVE_INFINITY);
    link.onReceipts((rs) => this.handleReceipts(rs));
    link.onMo((ms) => this.handleMo(ms));
  }

  get db() {
    return this.ctx.db;
  }

  private logError(what: string, err: unknown) {
    this.stats.errors++;
    this.ctx.log.error({ err }, `dispatch ${this.workerId}: ${what} failed`);
  }

  // ---------------------------------------------------------------- steps (tests drive these)

  /** Receipts from the link: applied, or stored to wait (the SMSC is acknowledged once this resolves). */
  async handleReceipts(rs: Receipt[]): Promise<void> {
    const { applied, stored } = await applyOrStoreReceipts(this.db, this.ctx, rs.map(receiptRow), this.hooks.reports);
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
    const requests: SubmitRequest[] = batch.map((m) => ({ ref: m.id, to: m.phone, from: `${this.o.sourcePrefix}${m.account_id}`, text: m.content }));
    const results = (await this.submitMarked(requests)).flat();
    const T1 = performance.now();
    const outcomes = toOutcomes(batch, results);
    for (const o of outcomes) {
      if (o.state === SendRecordStatus.NotSent) this.stats.retried++;
      else if (o.state === SendRecordStatus.SubmitFailed) this.stats.rejected++;
      else if (o.msgId) this.stats.accepted++;
      else this.stats.unconfirmed++;
    }
    // the outcomes must reach the database: retry while it is unreachable (the lease keeps the rows)
    for (let attempt = 0; ; attempt++) {
      try {
        await recordOutcomes(this.db, this.ctx, this.workerId, outcomes, this.hooks.reports, this.o.markSubmittedMs > 0);
        break;
      } catch (err) {
        this.logError('record', err);
        if (!this.running || attempt >= 20) throw err;
        await new Promise((r) => setTimeout(r, Math.min(5000, 100 * 2 ** attempt)));
      }
    }
    this.ctx.log.debug(`dispatch ${batch.length}: claim ${(TC - T0).toFixed(0)} ms, submit ${(T1 - TC).toFixed(0)} ms, record ${(performance.now() - T1).toFixed(0)} ms`);
    this.applierWake.wake();
    return batch.length;
  }

  /**
   * Hands the batch to the link in slices, each marked written in its lease (and the lease
   * extended) before it goes: a crash leaves unconfirmed only what was marked and not answered,
   * at most the link's window × connections (WriteBudget); the rest is sent after the restart. A
   * slice whose mark fails (lease lost, database unreachable) and the rest of the batch are not
   * written: 'retry' (recorded only while the lease is still ours).
   */
  private async submitMarked(requests: SubmitRequest[]): Promise<SubmitResult[][]> {
    const slices: Promise<SubmitResult[]>[] = [];
    const floor = Number.isFinite(this.budget.size) ? Math.max(1, Math.floor(this.budget.size / 4)) : requests.length;
    let i = 0;
    while (i < requests.length) {
      const n = await this.budget.take(requests.length - i, floor);
      const slice = requests.slice(i, i + n);
      let ok = false;
      try {
        const now = this.ctx.now();
        ok = await markWritten(this.db, this.workerId, slice.map((r) => r.ref), now, new Date(now.getTime() + this.o.leaseMs));
        if (!ok) this.ctx.log.warn(`dispatch ${this.workerId}: lease lost, ${requests.length - i} claimed messages not submitted`);
      } catch (err) {
        this.logError('mark written', err);
      }
      if (!ok) {
        this.budget.release(n);
        break;
      }
      i += n;
      slices.push(
        this.link
          .submit(slice)
          .catch((err: unknown) => {
            // whatever was written may have reached the SMSC: never resubmitted (no result: unconfirmed)
            this.logError('submit', err);
            return [] as SubmitResult[];
          })
          .finally(() => this.budget.release(n)),
      );
    }
    const out = await Promise.all(slices);
    if (i < requests.length) out.push(requests.slice(i).map((r): SubmitResult => ({ ref: r.ref, status: 'retry', code: 'NOT_WRITTEN', afterMs: 1000 })));
    return out;
  }

  /** Applies stored receipts until fewer than a batch remain; returns how many were applied. */
  async applyOnce(): Promise<number> {
    let total = 0;
    for (;;) {
      const T = performance.now();
      const n = await applyReceipts(this.db, this.ctx, this.o.receiptBatch, this.hooks.reports);
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
      if (n > 0) this.ctx.log.warn(`dispatch ${this.workerId}: ${n} messages with an expired lease recovered (written ones unconfirmed, the others queued again)`);
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
    if (now.getTime() - this.lastPurge >= 600_000 || now.getTime() < this.lastPurge) {
      this.lastPurge = now.getTime();
      await purgeStale(this.db, new Date(now.getTime() - this.o.orphanReceiptMs));
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
        if (!this.link.ready) {
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

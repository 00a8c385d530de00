/**
 * The Pusher: sends push_outbox rows (outbox.ts) to the customers' URLs.
 * Rules (docs/api-dispatch.md "Push"):
 * - Claims due rows (done_at is null, next_at <= now) with FOR UPDATE SKIP LOCKED, so several
 *   pushers (processes) share the outbox; a claim moves next_at forward by a lease and counts
 *   the attempt, so a row is never posted by two pushers at the same time, and a pusher that dies
 *   mid-POST leaves the row to be tried again after the lease (at-least-once to the customer).
 * - POST, body = the row's JSON array, Content-Type application/json, timeout `timeoutMs`, no
 *   redirects followed. 2xx = done (done_at set, once: the update checks the claimed attempt).
 * - URL rules of server/lib/safe-url.ts at every attempt: resolve, refuse any non-public address,
 *   connect to the checked address only. A refused URL (scheme, credentials, private / loopback
 *   address, syntax) is given up at once; a name that does not resolve is retried.
 * - Failures retry after backoffMs × 2^(attempt-1) (up to backoffMaxMs), `maxAttempts` in all;
 *   then the row is given up: done_at set, last_error kept ('' only for delivered rows).
 * - Its own loop and at most `concurrency` POSTs at a time: a slow customer never slows dispatch.
 */
import http from 'node:http';
import https from 'node:https';
import { sql, type Kysely, type Updateable } from 'kysely';
import type { Database, PushOutboxTable } from '../../db/types';
import {
  pinnedLookup,
  resolveForPush,
  systemResolver,
  UnsafeUrlError,
  type CheckedTarget,
  type HostResolver,
} from '../../lib/safe-url';
import { messageOf } from '../../lib/error-code';

export interface PusherLog {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

export interface PusherOptions {
  db: Kysely<Database>;
  log?: PusherLog;
  now?: () => Date;
  resolveHost?: HostResolver;
  /** POSTs at a time */
  concurrency?: number;
  /** rows claimed per query */
  batch?: number;
  /** idle poll */
  pollMs?: number;
  timeoutMs?: number;
  maxAttempts?: number;
  backoffMs?: number;
  backoffMaxMs?: number;
  /** a claimed row is not claimed again before this (longer than timeoutMs) */
  leaseMs?: number;
  /**
   * Tests only: where to connect for a checked target (e.g. the public test address → a local
   * receiver). The URL check itself is unchanged.
   */
  dial?: (target: CheckedTarget) => CheckedTarget;
}

export interface PusherStats {
  claimed: number;
  delivered: number;
  failed: number;
  gaveUp: number;
}

interface Claimed {
  id: number;
  url: string;
  payload: unknown;
  attempts: number;
}

const MAX_ERROR_LENGTH = 500;
const MAX_RESPONSE_BYTES = 64 * 1024;

class PushFailure extends Error {
  constructor(
    message: string,
    readonly permanent = false,
  ) {
    super(message);
  }
}

export class Pusher {
  private readonly db: Kysely<Database>;
  private readonly log: PusherLog;
  private readonly now: () => Date;
  private readonly resolveHost: HostResolver;
  private readonly o: Required<Omit<PusherOptions, 'db' | 'log' | 'now' | 'resolveHost' | 'dial'>>;
  private readonly dial?: (target: CheckedTarget) => CheckedTarget;
  private running = false;
  private loop: Promise<void> | null = null;
  private active = new Set<Promise<void>>();
  private wakeUp: (() => void) | null = null;
  readonly stats: PusherStats = { claimed: 0, delivered: 0, failed: 0, gaveUp: 0 };

  constructor(opts: PusherOptions) {
    this.db = opts.db;
    this.log = opts.log ?? { info() {}, warn() {}, error() {} };
    this.now = opts.now ?? (() => new Date());
    this.resolveHost = opts.resolveHost ?? systemResolver;
    this.dial = opts.dial;
    const timeoutMs = opts.timeoutMs ?? 10_000;
    this.o = {
      concurrency: opts.concurrency ?? 8,
      batch: opts.batch ?? 16,
      pollMs: opts.pollMs ?? 1000,
      timeoutMs,
      maxAttempts: opts.maxAttempts ?? 10,
      backoffMs: opts.backoffMs ?? 10_000,
      backoffMaxMs: opts.backoffMaxMs ?? 3_600_000,
      leaseMs: opts.leaseMs ?? timeoutMs * 3 + 10_000,
    };
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run().catch((e) => this.log.error({ err: messageOf(e) }, 'pusher stopped on an error'));
  }

  /** pushes due rows now instead of at the next poll (e.g. after enqueueing) */
  wake(): void {
    this.wakeUp?.();
  }

  /** stops claiming; waits for the POSTs under way */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    await Promise.allSettled([...this.active]);
  }

  /** one pass (tests): claims and pushes what is due, waits for it; returns the rows handled */
  async runOnce(): Promise<number> {
    const rows = await this.claim(this.o.batch);
    await Promise.all(rows.map((r) => this.process(r)));
    return rows.length;
  }

  private async run() {
    while (this.running) {
      const room = this.o.concurrency - this.active.size;
      let claimed: Claimed[] = [];
      if (room > 0) {
        try {
          claimed = await this.claim(Math.min(room, this.o.batch));
        } catch (e) {
          this.log.warn({ err: messageOf(e) }, 'pusher cannot claim rows');
        }
      }
      for (const row of claimed) {
        const p: Promise<void> = this.process(row).finally(() => {
          this.active.delete(p);
          this.wake();
        });
        this.active.add(p);
      }
      if (!this.running) break;
      if (claimed.length && this.active.size < this.o.concurrency) continue;
      // full, or nothing due: wait for a POST to end, a wake() or the poll interval
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, this.o.pollMs);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.wakeUp = done;
      });
      this.wakeUp = null;
    }
  }

  private async claim(limit: number): Promise<Claimed[]> {
    const now = this.now();
    const leaseUntil = new Date(now.getTime() + this.o.leaseMs);
    return this.db.transaction().execute(async (trx) => {
      const due = await trx
        .selectFrom('push_outbox')
        .select(['id'])
        .where('done_at', 'is', null)
        .where('next_at', '<=', now)
        .orderBy('next_at')
        .limit(limit)
        .forUpdate()
        .skipLocked()
        .execute();
      if (!due.length) return [];
      const rows = await trx
        .updateTable('push_outbox')
        .set({ next_at: leaseUntil, attempts: sql<number>`attempts + 1` })
        .where(
          'id',
          'in',
          due.map((r) => r.id),
        )
        .returning(['id', 'url', 'payload', 'attempts'])
        .execute();
      this.stats.claimed += rows.length;
      return rows;
    });
  }

  private async process(row: Claimed) {
    let error: PushFailure | null = null;
    try {
      await this.post(row);
    } catch (e) {
      error = e instanceof PushFailure ? e : new PushFailure(messageOf(e));
    }
    const now = this.now();
    // the outcome is recorded only while the row is still this claim's
    const mine = (set: Updateable<PushOutboxTable>) =>
      this.db
        .updateTable('push_outbox')
        .set(set)
        .where('id', '=', row.id)
        .where('attempts', '=', row.attempts)
        .where('done_at', 'is', null)
        .execute();
    try {
      if (!error) {
        this.stats.delivered++;
        await mine({ done_at: now, last_error: '' });
        return;
      }
      this.stats.failed++;
      const message = error.message.slice(0, MAX_ERROR_LENGTH);
      if (error.permanent || row.attempts >= this.o.maxAttempts) {
        this.stats.gaveUp++;
        const why = error.permanent ? `refused: ${message}` : `gave up after ${row.attempts} attempts: ${message}`;
        this.log.warn({ push: row.id, url: row.url, err: message }, 'push given up');
        await mine({ done_at: now, last_error: why.slice(0, MAX_ERROR_LENGTH) });
      } else {
        const delay = Math.min(this.o.backoffMaxMs, this.o.backoffMs * 2 ** (row.attempts - 1));
        await mine({ next_at: new Date(now.getTime() + delay), last_error: message });
      }
    } catch (e) {
      // the lease runs out and the row is tried again
      this.log.warn({ push: row.id, err: messageOf(e) }, 'pusher cannot record an outcome');
    }
  }

  private async post(row: Claimed) {
    let target: CheckedTarget;
    try {
      target = await resolveForPush(row.url, this.resolveHost);
    } catch (e) {
      if (e instanceof UnsafeUrlError) throw new PushFailure(e.message, e.problem !== 'unresolved');
      throw e;
    }
    const connectTo = this.dial ? this.dial(target) : target;
    const body = Buffer.from(typeof row.payload === 'string' ? row.payload : JSON.stringify(row.payload));
    const mod = target.url.protocol === 'https:' ? https : http;
    await new Promise<void>((resolve, reject) => {
      const req = mod.request(
        target.url,
        {
          method: 'POST',
          lookup: pinnedLookup(connectTo),
          timeout: this.o.timeoutMs,
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'content-length': body.length,
            'user-agent': 'smsp-push/1',
          },
          agent: false,
        },
        (res) => {
          let seen = 0;
          res.on('data', (chunk: Buffer) => {
            seen += chunk.length;
            if (seen > MAX_RESPONSE_BYTES) res.destroy();
          });
          const status = res.statusCode ?? 0;
          const finish = () => (status >= 200 && status < 300 ? resolve() : reject(new PushFailure(`HTTP ${status}`)));
          res.on('end', finish);
          res.on('close', finish);
          res.on('error', () => finish());
        },
      );
      const deadline = setTimeout(
        () => req.destroy(new PushFailure(`timed out after ${this.o.timeoutMs} ms`)),
        this.o.timeoutMs,
      );
      req.on('timeout', () => req.destroy(new PushFailure(`timed out after ${this.o.timeoutMs} ms`)));
      req.on('error', (e) => reject(e instanceof PushFailure ? e : new PushFailure(e.message)));
      req.on('close', () => clearTimeout(deadline));
      req.end(body);
    });
  }
}

/**
 * Liveness and readiness (docs/api-metrics.md "Health"): GET /healthz answers while the process
 * answers at all (no database); GET /readyz says whether this process can do its work now:
 *
 * - database: `select 1` answers within READY_DB_TIMEOUT_MS;
 * - migrations: every migration this code knows is applied (looked at until it holds, then kept);
 * - dispatcher: where this process runs one (DISPATCH, npm run worker), it has started and runs;
 * - doors: every door configured in this process (its port setting not 0) listens.
 *
 * A check that fails makes the answer 503 with its reason; the carriers' links being down does not
 * (the process can still accept, and a balancer taking it out would not bring them back).
 * Concurrent readiness calls share one look.
 */
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import { migrations } from '../../db/migrations';
import type { DoorEntry, Running } from './running';
import { codeOf } from '../../lib/error-code';

/** how long the database may take to answer `select 1` */
export const READY_DB_TIMEOUT_MS = 1000;

export interface Readiness {
  ready: boolean;
  /** the first failing check, in words */
  reason?: string;
  /** every check's state in words ('ok', 'running', 'listening on 2775', or why not) */
  checks: Record<string, string>;
}

export class HealthService {
  private migrated = false;
  private looking: Promise<Readiness> | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly src: { doors: () => DoorEntry[]; running: Running },
    private readonly dbTimeoutMs = READY_DB_TIMEOUT_MS,
  ) {}

  /** The readiness now (one look shared by the calls that arrive while it runs). */
  readiness(): Promise<Readiness> {
    this.looking ??= this.look().finally(() => (this.looking = null));
    return this.looking;
  }

  private async look(): Promise<Readiness> {
    const checks: Record<string, string> = {};
    const failed: string[] = [];
    const fail = (name: string, why: string) => {
      checks[name] = why;
      failed.push(`${name}: ${why}`);
    };

    const db = await this.database();
    if (db === 'ok') {
      checks.database = 'ok';
      const pending = await this.pendingMigrations().catch((e: unknown) => `not readable (${errorCode(e)})`);
      if (typeof pending === 'string') fail('migrations', pending);
      else if (pending.length)
        fail(
          'migrations',
          `${pending.length} pending (${pending.slice(0, 3).join(', ')}${pending.length > 3 ? ', …' : ''})`,
        );
      else checks.migrations = 'ok';
    } else fail('database', db);

    const { dispatcher, dispatcherExpected } = this.src.running;
    if (dispatcherExpected) {
      if (dispatcher?.isRunning) checks.dispatcher = 'running';
      else fail('dispatcher', dispatcher ? 'stopped' : 'not started');
    }
    for (const d of this.src.doors()) {
      if (!d.configured) continue;
      const port = d.door?.port ?? 0;
      if (port > 0) checks[d.protocol] = `listening on ${port}`;
      else fail(d.protocol, 'not listening');
    }
    return failed.length ? { ready: false, reason: failed[0], checks } : { ready: true, checks };
  }

  /** 'ok', or why the database does not answer */
  private async database(): Promise<string> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(`no answer within ${this.dbTimeoutMs} ms`), this.dbTimeoutMs);
    });
    const probe = sql`select 1`.execute(this.ctx.db).then(
      () => 'ok',
      (e: unknown) => `unreachable (${errorCode(e)})`,
    );
    try {
      return await Promise.race([probe, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** the migrations of this code not applied to the database (none, once seen so) */
  private async pendingMigrations(): Promise<string[]> {
    if (this.migrated) return [];
    const r = await sql<{ name: string }>`select name from kysely_migration`.execute(this.ctx.db);
    const applied = new Set(r.rows.map((x) => x.name));
    const pending = Object.keys(migrations).filter((n) => !applied.has(n));
    if (!pending.length) this.migrated = true;
    return pending;
  }
}

/** an error's code (SQLSTATE, ECONNREFUSED, …), never its message: the answer is public */
function errorCode(e: unknown): string {
  const code = codeOf(e);
  return typeof code === 'string' && code ? code : 'error';
}

/**
 * The lockout of a login name per client address (server/modules/auth/service.ts describes the
 * policy): failures are counted per (name, address) in `login_failures`, shared by every process;
 * the `maxFailedLogins`-th failure in a row locks that name for that address for `lockMs`, every
 * further failure after a lock doubles it (at most `lockMaxMs`); a success, or `failureResetMs`
 * without failures, starts the count again. The account itself is never locked.
 *
 * The console's login counts under the hash of the name typed (`loginNameHash`); the customer
 * doors (SMPP bind, CMPP connect, the signed HTTP API) count under `interfaceNameHash(clientid)`,
 * a key of their own, so that guessing an interface password locks the doors for that address
 * and never the owner's console login (nor the reverse).
 */
import type { AppContext } from '../context';
import { sha256hex } from './crypto';
import { addMs } from './time';

/** The key a console login name's failures are counted under (trimmed, lower case, hashed). */
export const loginNameHash = (name: string) => sha256hex(name.trim().toLowerCase());

/** The key an interface login's failures are counted under (every door alike). */
export const interfaceNameHash = (login: string) => sha256hex(`interface\u0000${login.trim().toLowerCase()}`);

type Ctx = Pick<AppContext, 'db' | 'config' | 'now' | 'log'>;

export class LoginLockout {
  constructor(private readonly ctx: Ctx) {}

  /** How long the (name, address) pair stays locked after its n-th failure (0: not locked). */
  lockFor(failures: number): number {
    const { maxFailedLogins, lockMs, lockMaxMs } = this.ctx.config;
    if (failures < maxFailedLogins) return 0;
    return Math.min(lockMaxMs, lockMs * 2 ** Math.min(30, failures - maxFailedLogins));
  }

  /** The end of the pair's lock, or null when it is not locked now. */
  async lockedUntil(nameHash: string, ip: string, now = this.ctx.now()): Promise<Date | null> {
    const lock = await this.ctx.db
      .selectFrom('login_failures')
      .select('locked_until')
      .where('name_hash', '=', nameHash)
      .where('ip', '=', ip)
      .executeTakeFirst();
    return lock?.locked_until && new Date(lock.locked_until) > now ? new Date(lock.locked_until) : null;
  }

  /**
   * The pair as it stands in one read: whether it has failures counted (a success then has a count
   * to clear) and the end of its lock (null: not locked now); null when nothing is counted.
   */
  async state(nameHash: string, ip: string, now = this.ctx.now()): Promise<{ lockedUntil: Date | null } | null> {
    const row = await this.ctx.db
      .selectFrom('login_failures')
      .select('locked_until')
      .where('name_hash', '=', nameHash)
      .where('ip', '=', ip)
      .executeTakeFirst();
    if (!row) return null;
    return { lockedUntil: row.locked_until && new Date(row.locked_until) > now ? new Date(row.locked_until) : null };
  }

  /** Counts a failure of (name, ip); returns the end of the lock this failure starts, else null. */
  async recordFailure(nameHash: string, ip: string, now = this.ctx.now()): Promise<Date | null> {
    const { db, config } = this.ctx;
    const staleBefore = new Date(now.getTime() - config.failureResetMs);
    const row = await db
      .insertInto('login_failures')
      .values({ name_hash: nameHash, ip, failures: 1, last_failed_at: now })
      .onConflict((oc) =>
        oc.columns(['name_hash', 'ip']).doUpdateSet((eb) => ({
          failures: eb
            .case()
            .when('login_failures.last_failed_at', '<', staleBefore)
            .then(1)
            .else(eb('login_failures.failures', '+', 1))
            .end(),
          last_failed_at: now,
        })),
      )
      .returning('failures')
      .executeTakeFirstOrThrow();
    const ms = this.lockFor(row.failures);
    if (ms <= 0) return null;
    const until = addMs(now, ms);
    await db
      .updateTable('login_failures')
      .set({ locked_until: until })
      .where('name_hash', '=', nameHash)
      .where('ip', '=', ip)
      .execute();
    this.ctx.log.warn(
      { ip, failures: row.failures, minutes: ms / 60_000 },
      'login name locked for this address after repeated failures',
    );
    return until;
  }

  /** A success: the pair's count starts again. */
  async clear(nameHash: string, ip: string): Promise<void> {
    await this.ctx.db.deleteFrom('login_failures').where('name_hash', '=', nameHash).where('ip', '=', ip).execute();
  }
}

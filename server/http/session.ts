/**
 * Server-side sessions and remember-me tokens.
 *
 * - `sid` cookie: random token, httpOnly, SameSite=Lax; the database keeps only its SHA-256.
 *   Sliding idle expiry (config.sessionIdleMs).
 * - `remember` cookie: random 7-day token, httpOnly; stored hashed, revoked on logout, password
 *   change and freeze. When the session is missing or expired, a valid remember token opens a new
 *   session and is ROTATED: it is marked used and a new token of the same family (the login it
 *   comes from, same fixed expiry) replaces it in the cookie. A used token presented again after
 *   a short grace window (parallel requests of one page) is a replay — someone holds a copy —
 *   so the whole family is revoked and the request refused. No password (plain or hashed) ever
 *   goes into a cookie.
 * - Every change of the session cookie re-binds the CSRF token (http/csrf.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import type { AppContext } from '../context';
import type { Account, Database } from '../db/types';
import { rebindCsrf } from './csrf';
import { errors } from './errors';
import { randomToken, sha256hex } from '../lib/crypto';
import { addMs } from '../lib/time';
import { AccountStatus } from '../../common/generated/schemas';

export const SESSION_COOKIE = 'sid';
export const REMEMBER_COOKIE = 'remember';
/** account statuses that may hold a session (7 = locked by failed logins elsewhere: sessions stay) */
export const SESSION_STATUSES: AccountStatus[] = [AccountStatus.Active, AccountStatus.Locked];
/** refresh the sliding expiry at most this often (keeps GET /login/timeout to one read) */
const TOUCH_EVERY_MS = 60_000;

export interface CurrentSession {
  sessionId: string;
  account: Account;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** undefined: not resolved yet; null: no valid session */
    currentSession?: CurrentSession | null;
    /** the session's account id when only that was checked (routes with `accountIdOnly`: resolveAccountId) */
    sessionAccountId?: number;
  }
}

export class SessionService {
  /**
   * GET /login/timeout asks "is this session valid?" before every route change, from every open
   * console: answered from memory for `sessionCheckCacheMs` after a database check. Logout and
   * revocations in this process drop the entries at once; a session ended by another process may
   * be reported valid for at most that long (every other call still checks the database).
   */
  private readonly validCache = new Map<string, { accountId: number; until: number }>();
  /**
   * The sessions of the routes declared `cachedSession` (route.ts): the session and its account
   * row as checked in the database at most `cachedSessionMs` ago (the row is frozen: shared by
   * the requests of that period). Dropped with validCache's entries (logout, revocations).
   */
  private readonly sessionCache = new Map<string, { session: CurrentSession; until: number }>();
  /**
   * The database checks of `cachedSession` routes under way, by session: the requests that miss the
   * cache while one runs wait for it instead of each checking (200 connections of one console user
   * at a cache expiry: one statement, not 200, and one touch of the session row).
   */
  private readonly checking = new Map<string, Promise<CurrentSession | null>>();

  constructor(private readonly ctx: AppContext) {}

  /** Is the request's session valid? (GET /login/timeout) Answers from the short cache when it can. */
  async isValid(req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const ttl = this.ctx.config.sessionCheckCacheMs;
    const token = req.cookies[SESSION_COOKIE];
    const key = token ? sha256hex(token) : undefined;
    const now = Date.now();
    if (ttl > 0 && key) {
      const hit = this.validCache.get(key);
      if (hit && hit.until > now) return true;
      if (hit) this.validCache.delete(key);
    }
    const s = await this.resolve(req, reply);
    if (s && ttl > 0 && key === s.sessionId) {
      if (this.validCache.size > 100_000) this.validCache.clear();
      this.validCache.set(s.sessionId, { accountId: s.account.id, until: now + ttl });
    }
    return s !== null;
  }

  private forget(match: (id: string, accountId: number) => boolean) {
    for (const [id, v] of this.validCache) if (match(id, v.accountId)) this.validCache.delete(id);
    for (const [id, v] of this.sessionCache) if (match(id, v.session.account.id)) this.sessionCache.delete(id);
  }

  /**
   * resolve() for the routes declared `cachedSession`: a session found valid in the database
   * within `cachedSessionMs` is taken from memory (no statement); otherwise as resolve().
   */
  async resolveCached(req: FastifyRequest, reply: FastifyReply): Promise<CurrentSession | null> {
    const ttl = this.ctx.config.cachedSessionMs;
    const token = req.cookies[SESSION_COOKIE];
    if (ttl <= 0 || !token || req.currentSession !== undefined) return this.resolve(req, reply);
    const key = sha256hex(token);
    const now = Date.now();
    const hit = this.sessionCache.get(key);
    if (hit && hit.until > now) return (req.currentSession = hit.session);
    if (hit) this.sessionCache.delete(key);
    const running = this.checking.get(key);
    if (running) {
      const shared = await running.catch(() => null);
      if (shared && shared.sessionId === key) return (req.currentSession = shared);
      // that check found no valid session for the token: this request checks for itself (remember-me renewal sets its own cookie)
      return this.resolve(req, reply);
    }
    const check = this.resolve(req, reply);
    this.checking.set(key, check);
    let s: CurrentSession | null;
    try {
      s = await check;
    } finally {
      this.checking.delete(key);
    }
    if (s && s.sessionId === key) {
      if (this.sessionCache.size > 100_000) this.sessionCache.clear();
      Object.freeze(s.account);
      this.sessionCache.set(key, { session: s, until: now + ttl });
    }
    return s;
  }

  /** Drops the cached session checks of an account (its sessions were ended), but `keep`. */
  forgetAccount(accountId: number, keep?: string): void {
    this.forget((id, a) => a === accountId && id !== keep);
  }

  private cookieOpts(maxAgeMs?: number) {
    return {
      path: '/',
      httpOnly: true,
      sameSite: 'lax' as const,
      secure: this.ctx.config.secureCookies,
      ...(maxAgeMs ? { maxAge: Math.floor(maxAgeMs / 1000) } : {}),
    };
  }

  /** The session of this request (or one renewed from the remember token), else null. Cached per request. */
  async resolve(req: FastifyRequest, reply: FastifyReply): Promise<CurrentSession | null> {
    if (req.currentSession !== undefined) return req.currentSession;
    const now = this.ctx.now();
    let found: CurrentSession | null = null;
    const token = req.cookies[SESSION_COOKIE];
    if (token) {
      const row = await this.ctx.db
        .selectFrom('sessions')
        .innerJoin('accounts', 'accounts.id', 'sessions.account_id')
        .selectAll('accounts')
        .select(['sessions.id as session_id', 'sessions.last_seen_at as session_last_seen'])
        .where('sessions.id', '=', sha256hex(token))
        .where('sessions.expires_at', '>', now)
        .executeTakeFirst();
      if (row && SESSION_STATUSES.includes(row.status)) {
        const { session_id, session_last_seen, ...account } = row;
        found = { sessionId: session_id, account };
        await this.touch(session_id, session_last_seen, now);
      }
    }
    if (!found) found = await this.renewFromRememberToken(req, reply);
    req.currentSession = found;
    return found;
  }

  /** Slides the session's expiry (at most once a minute: most requests write nothing). */
  private async touch(sessionId: string, lastSeen: Date | string, now: Date) {
    if (now.getTime() - new Date(lastSeen).getTime() <= TOUCH_EVERY_MS) return;
    await this.ctx.db
      .updateTable('sessions')
      .set({ last_seen_at: now, expires_at: addMs(now, this.ctx.config.sessionIdleMs) })
      .where('id', '=', sessionId)
      .execute();
  }

  /**
   * The account id of the request's session, for the hot routes that need nothing more (route
   * option `accountIdOnly`: a file chunk). Checked in the database at every call exactly as
   * resolve() checks (the session exists and has not expired, its account is in a session
   * status; the expiry slides) — one statement that reads no account row. A request without a
   * valid session cookie goes through resolve() (remember-me renewal). null: no valid session.
   */
  async resolveAccountId(req: FastifyRequest, reply: FastifyReply): Promise<number | null> {
    if (req.currentSession !== undefined) return req.currentSession?.account.id ?? null;
    if (req.sessionAccountId !== undefined) return req.sessionAccountId;
    const token = req.cookies[SESSION_COOKIE];
    if (token) {
      const now = this.ctx.now();
      const row = await this.ctx.db
        .selectFrom('sessions')
        .innerJoin('accounts', 'accounts.id', 'sessions.account_id')
        .select(['sessions.id', 'sessions.account_id', 'sessions.last_seen_at'])
        .where('sessions.id', '=', sha256hex(token))
        .where('sessions.expires_at', '>', now)
        .where('accounts.status', 'in', SESSION_STATUSES)
        .executeTakeFirst();
      if (row) {
        await this.touch(row.id, row.last_seen_at, now);
        req.sessionAccountId = row.account_id;
        return row.account_id;
      }
    }
    return (await this.resolve(req, reply))?.account.id ?? null;
  }

  private async renewFromRememberToken(req: FastifyRequest, reply: FastifyReply): Promise<CurrentSession | null> {
    const token = req.cookies[REMEMBER_COOKIE];
    if (!token) return null;
    const now = this.ctx.now();
    const db = this.ctx.db;
    const refuse = () => {
      reply.clearCookie(REMEMBER_COOKIE, { path: '/' });
      return null;
    };
    const row = await db
      .selectFrom('remember_tokens')
      .innerJoin('accounts', 'accounts.id', 'remember_tokens.account_id')
      .selectAll('accounts')
      .select([
        'remember_tokens.id as token_id',
        'remember_tokens.family as token_family',
        'remember_tokens.used_at as token_used_at',
        'remember_tokens.revoked_at as token_revoked_at',
        'remember_tokens.expires_at as token_expires_at',
      ])
      .where('remember_tokens.id', '=', sha256hex(token))
      .executeTakeFirst();
    if (!row || row.token_revoked_at || new Date(row.token_expires_at) <= now) return refuse();
    const { token_id, token_family, token_used_at, token_revoked_at: _r, token_expires_at, ...account } = row;
    const family = token_family || token_id;
    if (!SESSION_STATUSES.includes(account.status)) {
      // frozen, cancelled or inactive: nothing of this login may come back after an unfreeze
      await this.revokeFamily(family);
      return refuse();
    }
    let rotated = false;
    if (!token_used_at) {
      const used = await db
        .updateTable('remember_tokens')
        .set({ used_at: now })
        .where('id', '=', token_id)
        .where('used_at', 'is', null)
        .returning('id')
        .executeTakeFirst();
      rotated = used !== undefined;
    }
    if (!rotated) {
      const usedAt = token_used_at ? new Date(token_used_at) : now;
      if (now.getTime() - usedAt.getTime() > this.ctx.config.rememberReuseGraceMs) {
        this.ctx.log.warn({ clientid: account.clientid }, 'replayed remember-me token: its whole family is revoked');
        await this.revokeFamily(family);
        return refuse();
      }
      // a parallel request of the same page that came with the old cookie: its sibling got the new one
    } else {
      const next = randomToken();
      await db
        .insertInto('remember_tokens')
        .values({ id: sha256hex(next), account_id: account.id, family, created_at: now, expires_at: token_expires_at })
        .execute();
      reply.setCookie(REMEMBER_COOKIE, next, this.cookieOpts(new Date(token_expires_at).getTime() - now.getTime()));
    }
    const sessionId = await this.createSession(req, reply, account.id);
    return { sessionId, account };
  }

  private async revokeFamily(family: string): Promise<void> {
    await this.ctx.db
      .updateTable('remember_tokens')
      .set({ revoked_at: this.ctx.now() })
      .where((eb) => eb.or([eb('family', '=', family), eb('id', '=', family)]))
      .where('revoked_at', 'is', null)
      .execute();
  }

  private async createSession(req: FastifyRequest, reply: FastifyReply, accountId: number): Promise<string> {
    const now = this.ctx.now();
    const token = randomToken();
    const id = sha256hex(token);
    await this.ctx.db
      .insertInto('sessions')
      .values({
        id,
        account_id: accountId,
        created_at: now,
        last_seen_at: now,
        expires_at: addMs(now, this.ctx.config.sessionIdleMs),
        ip: req.ip ?? '',
        user_agent: String(req.headers['user-agent'] ?? '').slice(0, 300),
      })
      .execute();
    reply.setCookie(SESSION_COOKIE, token, this.cookieOpts());
    rebindCsrf(req, token);
    return id;
  }

  /** Opens a session after a login or registration (replacing this browser's previous one). */
  async open(req: FastifyRequest, reply: FastifyReply, account: Account, remember: boolean): Promise<void> {
    await this.revokeCurrent(req, reply);
    const sessionId = await this.createSession(req, reply, account.id);
    if (remember) {
      const now = this.ctx.now();
      const token = randomToken();
      const id = sha256hex(token);
      await this.ctx.db
        .insertInto('remember_tokens')
        .values({
          id,
          account_id: account.id,
          family: id,
          created_at: now,
          expires_at: addMs(now, this.ctx.config.rememberMs),
        })
        .execute();
      reply.setCookie(REMEMBER_COOKIE, token, this.cookieOpts(this.ctx.config.rememberMs));
    }
    req.currentSession = { sessionId, account };
  }

  /** Ends this browser's session and revokes its remember token (its whole family); clears both cookies. */
  async revokeCurrent(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const sid = req.cookies[SESSION_COOKIE];
    const remember = req.cookies[REMEMBER_COOKIE];
    if (sid) {
      this.validCache.delete(sha256hex(sid));
      this.sessionCache.delete(sha256hex(sid));
      await this.ctx.db.deleteFrom('sessions').where('id', '=', sha256hex(sid)).execute();
    }
    if (remember) {
      // the presented token and every rotation of the same login
      const row = await this.ctx.db
        .selectFrom('remember_tokens')
        .select(['id', 'family'])
        .where('id', '=', sha256hex(remember))
        .executeTakeFirst();
      if (row) await this.revokeFamily(row.family || row.id);
    }
    if (sid) {
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      rebindCsrf(req, null);
    }
    if (remember) reply.clearCookie(REMEMBER_COOKIE, { path: '/' });
    req.currentSession = null;
  }

  /** Ends every session and remember token of an account (password change, freeze, lock). */
  async revokeAll(db: Transaction<Database> | AppContext['db'], accountId: number): Promise<void> {
    this.forget((_, a) => a === accountId);
    await endLogins(db, accountId, this.ctx.now());
  }
}

/** Ends every session and remember-me token of an account (in the caller's transaction). */
export async function endLogins(
  db: Transaction<Database> | AppContext['db'],
  accountId: number,
  now: Date,
): Promise<void> {
  await db.deleteFrom('sessions').where('account_id', '=', accountId).execute();
  await db
    .updateTable('remember_tokens')
    .set({ revoked_at: now })
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** The account id of the session of a route declared `accountIdOnly` (or of any guarded route). */
export function accountIdOf(req: FastifyRequest): number {
  const id = req.currentSession?.account.id ?? req.sessionAccountId;
  if (id === undefined) throw errors.timeout();
  return id;
}

/** The session a route of access session / agent / subAccount runs with (server/http/route.ts). */
export function sessionOf(req: FastifyRequest): CurrentSession {
  if (!req.currentSession) throw errors.timeout();
  return req.currentSession;
}

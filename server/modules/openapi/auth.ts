/**
 * Who calls the customers' HTTP API (docs/api-openapi.md "Signing"): every request carries the
 * account's clientid, a timestamp, a nonce and the hex HMAC-SHA256 of its canonical form keyed by
 * the account's API secret (signing.ts). Checked in two steps:
 *
 * - `admit`, on the headers alone, before a byte of the body is read (routes.ts): the headers
 *   present and well formed, the timestamp within ±5 min, the (clientid, address) pair not locked
 *   (server/lib/login-lockout.ts, under `interfaceNameHash`: every door counts together), then the
 *   account looked up. An unknown account, or one without an API secret, goes on as a known one
 *   whose secret nobody has: the same work and the same answer (SIGNATURE_INVALID) as a wrong
 *   signature, so that guessing tells nobody which accounts exist.
 * - `verify`, once the body has arrived (hashed as it streamed): the signature (a failure counted
 *   by the lockout: the failure that locks answers AUTH_LOCKED), then the nonce taken (atomic; from
 *   here on the request can never be replayed, whatever else refuses it), the account active, not
 *   a test account, the address inside its whitelist `ip`.
 *
 * `throttle` then applies the account's `accessSpeed` (a token bucket in api_throttle shared by every
 * process and the SMPP door).
 */
import { ipAllowed } from '../../lib/ip-allow';
import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import type { Account } from '../../db/types';
import { AccountStatus } from '../../../common/generated/schemas';
import { interfaceNameHash, LoginLockout } from '../../lib/login-lockout';
import { apiError } from './errors';
import { TEST_MSG } from '../clients';
import { canonicalString, HEADERS, sameSignature, signCanonical } from './signing';

/** the replay window: a timestamp may differ from the server's clock by this much */
export const WINDOW_MS = 5 * 60_000;

/** A request whose headers passed `admit`: what `verify` needs once its body has arrived. */
export interface AdmittedRequest {
  clientid: string;
  timestamp: string;
  nonce: string;
  signature: string;
  /** the timestamp in ms */
  ms: number;
  /** the client address (server/lib/ip-allow.ts clientAddress) */
  ip: string;
  /** the account named, or null: unknown or without an API secret (verified against nobody's secret) */
  account: Account | null;
  /** the pair has failures counted (a success clears them) */
  failures: boolean;
}

export interface SignedBody {
  method: string;
  /** the URL as received (path + query) */
  url: string;
  /** hex SHA-256 of the body as received */
  bodySha256: string;
}

const header = (h: Record<string, string | string[] | undefined>, name: string) => {
  const v = h[name];
  return typeof v === 'string' ? v.trim() : undefined;
};

const lockedError = (until: Date, now: Date) =>
  apiError('AUTH_LOCKED', undefined, {
    'retry-after': String(Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000))),
  });

export { ipAllowed };

export class ApiAuth {
  private readonly lockout: LoginLockout;
  /** the secret an unknown account is checked against: nobody knows it (a fresh one per process) */
  private readonly nobodys = randomBytes(32).toString('hex');

  constructor(private readonly ctx: AppContext) {
    this.lockout = new LoginLockout(ctx);
  }

  /**
   * The headers' checks (before the body is read): refused with AUTH_MISSING, TIMESTAMP_EXPIRED or
   * AUTH_LOCKED (the same whether the account exists or not), else what `verify` needs.
   */
  async admit(headers: Record<string, string | string[] | undefined>, ip: string): Promise<AdmittedRequest> {
    const clientid = header(headers, HEADERS.clientid);
    const timestamp = header(headers, HEADERS.timestamp);
    const nonce = header(headers, HEADERS.nonce);
    const signature = header(headers, HEADERS.signature);
    if (!clientid || !timestamp || !nonce || !signature) throw apiError('AUTH_MISSING');
    if (
      clientid.length > 40 ||
      nonce.length > 64 ||
      !/^[A-Za-z0-9_.:-]{8,64}$/.test(nonce) ||
      !/^[0-9a-fA-F]{64}$/.test(signature)
    )
      throw apiError('AUTH_MISSING');
    // unix seconds or milliseconds
    if (!/^\d{10}(\d{3})?$/.test(timestamp)) throw apiError('TIMESTAMP_EXPIRED');
    const ms = timestamp.length === 10 ? Number(timestamp) * 1000 : Number(timestamp);
    const now = this.ctx.now();
    if (Math.abs(now.getTime() - ms) > WINDOW_MS) throw apiError('TIMESTAMP_EXPIRED');
    const pair = await this.lockout.state(interfaceNameHash(clientid), ip, now);
    if (pair?.lockedUntil) throw lockedError(pair.lockedUntil, now);
    const account = await this.ctx.db
      .selectFrom('accounts')
      .selectAll()
      .where('clientid', '=', clientid)
      .executeTakeFirst();
    return {
      clientid,
      timestamp,
      nonce,
      signature,
      ms,
      ip,
      account: account?.api_secret ? account : null,
      failures: pair !== null,
    };
  }

  /** The account of an admitted request once its body has arrived, or the refusal (thrown). Takes the nonce. */
  async verify(a: AdmittedRequest, r: SignedBody): Promise<Account> {
    const q = r.url.indexOf('?');
    const canonical = canonicalString({
      method: r.method,
      path: q < 0 ? r.url : r.url.slice(0, q),
      query: q < 0 ? '' : r.url.slice(q + 1),
      timestamp: a.timestamp,
      nonce: a.nonce,
      body: { sha256: r.bodySha256 },
    });
    const expected = signCanonical(a.account?.api_secret ?? this.nobodys, canonical);
    const nameHash = interfaceNameHash(a.clientid);
    const account = a.account;
    if (!sameSignature(expected, a.signature) || !account) {
      const now = this.ctx.now();
      const until = await this.lockout.recordFailure(nameHash, a.ip, now);
      if (until) throw lockedError(until, now);
      // the string the server signed (all of it from the request itself: never the secret nor the
      // expected signature), so the caller can find the line where its own differs (issue 41 item 10);
      // an unknown account gets it the same way
      throw apiError('SIGNATURE_INVALID', undefined, undefined, { canonical });
    }
    if (a.failures) await this.lockout.clear(nameHash, a.ip);
    // the nonce first: a signed request refused below (frozen, whitelist) cannot be replayed later
    await this.takeNonce(account.id, a.nonce, new Date(Math.max(this.ctx.now().getTime(), a.ms) + WINDOW_MS));
    if (account.status !== AccountStatus.Active) throw apiError('ACCOUNT_DISABLED');
    // a test account has no interface (the acceptance's assertInterfaceAllowed refuses its sends too)
    if (account.test_expires_at) throw apiError('ACCOUNT_DISABLED', TEST_MSG.noInterface);
    if (!ipAllowed(account.ip, a.ip)) throw apiError('IP_FORBIDDEN');
    return account;
  }

  /** A nonce is taken once per account while its window lasts (a row past its expiry is taken again). */
  private async takeNonce(accountId: number, nonce: string, expiresAt: Date) {
    const now = this.ctx.now();
    const r = await this.ctx.db
      .insertInto('api_nonces')
      .values({ account_id: accountId, nonce, expires_at: expiresAt })
      .onConflict((oc) =>
        oc
          .columns(['account_id', 'nonce'])
          .doUpdateSet({ expires_at: expiresAt })
          .where('api_nonces.expires_at', '<', now),
      )
      .returning('nonce')
      .executeTakeFirst();
    if (!r) throw apiError('NONCE_REUSED');
  }

  /**
   * The account's accessSpeed (messages per second) as a token bucket in the database: it holds at
   * most one second's worth and refills continuously; a call is admitted while the bucket is not in
   * debt and takes `cost` (1); a send then takes one per number it accepted (`debit`), which may put
   * the bucket in debt: the following requests wait until it is paid back. Refused: 429 with
   * Retry-After (whole seconds).
   */
  async throttle(account: Pick<Account, 'id' | 'access_speed'>, cost: number): Promise<void> {
    const rate = account.access_speed;
    if (!(rate > 0)) return;
    const now = this.ctx.now();
    const refill = this.refill(rate, now);
    const r = await this.ctx.db
      .insertInto('api_throttle')
      .values({ account_id: account.id, tokens: rate - cost, updated_at: now })
      .onConflict((oc) =>
        oc
          .column('account_id')
          .doUpdateSet({ tokens: sql`${refill} - ${cost}::float8`, updated_at: now })
          .where(sql<boolean>`${refill} >= 1`),
      )
      .returning('tokens')
      .executeTakeFirst();
    if (r) return;
    const cur = await this.ctx.db
      .selectFrom('api_throttle')
      .select('tokens')
      .select(sql<string>`extract(epoch from (${now.toISOString()}::timestamptz - updated_at))::text`.as('elapsed'))
      .where('account_id', '=', account.id)
      .executeTakeFirst();
    const tokens = cur ? Math.min(rate, Number(cur.tokens) + Math.max(0, Number(cur.elapsed)) * rate) : 0;
    const wait = Math.max(1, Math.ceil((1 - tokens) / rate));
    throw apiError('THROTTLED', undefined, { 'retry-after': String(wait) });
  }

  /**
   * Takes `n` more tokens without a check, after the fact: the numbers a send accepted beyond the
   * token its call took (`throttle` admitted it while the bucket was not in debt). A refused send
   * takes nothing more (issue 35 item 8: a refused send of 60,000 numbers left the account
   * throttled for minutes).
   */
  async debit(account: Pick<Account, 'id' | 'access_speed'>, n: number): Promise<void> {
    const rate = account.access_speed;
    if (!(rate > 0) || !(n > 0)) return;
    const now = this.ctx.now();
    await this.ctx.db
      .insertInto('api_throttle')
      .values({ account_id: account.id, tokens: rate - n, updated_at: now })
      .onConflict((oc) =>
        oc.column('account_id').doUpdateSet({ tokens: sql`${this.refill(rate, now)} - ${n}::float8`, updated_at: now }),
      )
      .execute();
  }

  /** the bucket's tokens at `now`: min(rate, tokens + elapsed * rate) */
  private refill(rate: number, now: Date) {
    return sql<number>`least(${rate}::float8, api_throttle.tokens + greatest(0, extract(epoch from (${now.toISOString()}::timestamptz - api_throttle.updated_at))) * ${rate}::float8)`;
  }
}

/** A fresh nonce (the tests' and the docs' client). */
export const newNonce = () => randomUUID();

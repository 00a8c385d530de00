/**
 * Who calls the customers' HTTP API (docs/api-openapi.md "Signing"): every request carries the
 * account's clientid, a timestamp, a nonce and the hex HMAC-SHA256 of its canonical form keyed by
 * the account's API secret (signing.ts). Refused in this order, each with its stable error:
 * missing headers, unknown account (or no API secret), timestamp outside ±5 min, bad signature,
 * frozen / cancelled account, address outside the whitelist `ip`, nonce seen before (stored per
 * account in api_nonces until the window has passed: every process sees it), then the account's
 * `accessSpeed` (throttle, a token bucket in api_throttle shared by every process).
 */
import { ipAllowed } from '../../lib/ip-allow';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import type { Account } from '../../db/types';
import { AccountStatus } from '../../../common/generated/schemas';
import { apiError } from './errors';
import { HEADERS, sameSignature, signRequest } from './signing';

/** the replay window: a timestamp may differ from the server's clock by this much */
export const WINDOW_MS = 5 * 60_000;

export interface SignedRequest {
  method: string;
  /** the URL as received (path + query) */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  rawBody: Buffer | string;
  ip: string;
}

const header = (h: SignedRequest['headers'], name: string) => {
  const v = h[name];
  return typeof v === 'string' ? v.trim() : undefined;
};

export { ipAllowed };

export class ApiAuth {
  constructor(private readonly ctx: AppContext) {}

  /** The account of a signed request, or the refusal (thrown). Records the nonce. */
  async verify(r: SignedRequest): Promise<Account> {
    const clientid = header(r.headers, HEADERS.clientid);
    const timestamp = header(r.headers, HEADERS.timestamp);
    const nonce = header(r.headers, HEADERS.nonce);
    const signature = header(r.headers, HEADERS.signature);
    if (!clientid || !timestamp || !nonce || !signature) throw apiError('AUTH_MISSING');
    if (clientid.length > 40 || nonce.length > 64 || !/^[A-Za-z0-9_.:-]{8,64}$/.test(nonce) || !/^[0-9a-fA-F]{64}$/.test(signature)) throw apiError('AUTH_MISSING');
    const account = await this.ctx.db.selectFrom('accounts').selectAll().where('clientid', '=', clientid).executeTakeFirst();
    if (!account || !account.api_secret) throw apiError('ACCOUNT_UNKNOWN');
    // unix seconds or milliseconds
    if (!/^\d{10}(\d{3})?$/.test(timestamp)) throw apiError('TIMESTAMP_EXPIRED');
    const ms = timestamp.length === 10 ? Number(timestamp) * 1000 : Number(timestamp);
    const now = this.ctx.now().getTime();
    if (Math.abs(now - ms) > WINDOW_MS) throw apiError('TIMESTAMP_EXPIRED');
    const q = r.url.indexOf('?');
    const expected = signRequest(account.api_secret, {
      method: r.method,
      path: q < 0 ? r.url : r.url.slice(0, q),
      query: q < 0 ? '' : r.url.slice(q + 1),
      timestamp,
      nonce,
      body: r.rawBody,
    });
    if (!sameSignature(expected, signature)) throw apiError('SIGNATURE_INVALID');
    if (account.status !== AccountStatus.Active) throw apiError('ACCOUNT_DISABLED');
    if (!ipAllowed(account.ip, r.ip)) throw apiError('IP_FORBIDDEN');
    await this.takeNonce(account.id, nonce, new Date(Math.max(now, ms) + WINDOW_MS));
    return account;
  }

  /** A nonce is taken once per account while its window lasts (a row past its expiry is taken again). */
  private async takeNonce(accountId: number, nonce: string, expiresAt: Date) {
    const now = this.ctx.now();
    const r = await this.ctx.db
      .insertInto('api_nonces')
      .values({ account_id: accountId, nonce, expires_at: expiresAt })
      .onConflict((oc) => oc.columns(['account_id', 'nonce']).doUpdateSet({ expires_at: expiresAt }).where('api_nonces.expires_at', '<', now))
      .returning('nonce')
      .executeTakeFirst();
    if (!r) throw apiError('NONCE_REUSED');
  }

  /**
   * The account's accessSpeed (messages per second) as a token bucket in the database: it holds at
   * most one second's worth and refills continuously; a request may take more than there is (a
   * send of many numbers) as long as the bucket is not in debt: the following requests wait until
   * it is paid back. Refused: 429 with Retry-After (whole seconds).
   */
  async throttle(account: Pick<Account, 'id' | 'access_speed'>, cost: number): Promise<void> {
    const rate = account.access_speed;
    if (!(rate > 0)) return;
    const now = this.ctx.now();
    const nowIso = now.toISOString();
    // tokens now = min(rate, tokens + elapsed * rate); taken when >= 1 (not in debt)
    const refill = sql<number>`least(${rate}::float8, api_throttle.tokens + greatest(0, extract(epoch from (${nowIso}::timestamptz - api_throttle.updated_at))) * ${rate}::float8)`;
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
      .select(sql<string>`extract(epoch from (${nowIso}::timestamptz - updated_at))::text`.as('elapsed'))
      .where('account_id', '=', account.id)
      .executeTakeFirst();
    const tokens = cur ? Math.min(rate, Number(cur.tokens) + Math.max(0, Number(cur.elapsed)) * rate) : 0;
    const wait = Math.max(1, Math.ceil((1 - tokens) / rate));
    throw apiError('THROTTLED', undefined, { 'retry-after': String(wait) });
  }
}

/** A fresh nonce (the tests' and the docs' client). */
export const newNonce = () => randomUUID();

/**
 * Which accounts a session reaches, and the sub-account picker (POST /send/getclients).
 * An agent reaches its sub-accounts (and, for its own data, itself); a sub-account only itself.
 */
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import type { Account } from '../../db/types';
import { AccountStatus, PhoneInoutType, UserType } from '../../../common/generated/schemas';
import { PHONE_INOUT_BITS } from '../../../common/send';

export interface ClientOption {
  clientid: string;
  name: string;
}

export interface ScopedAccount {
  id: number;
  clientid: string;
  name: string;
}

/**
 * accounts.phone_inout_type as its 0 / 1 / 2 in SQL: `phoneInoutTypeOf` of common/send/scope.ts (0, 1
 * and 2 as they are, another value a raw bit mask: 8 international, 1 | 2 | 4 domestic, both groups both)
 */
const intl = sql.lit(PHONE_INOUT_BITS.international);
const domestic = sql.lit(PHONE_INOUT_BITS.domestic);
export const phoneInoutTypeSql = sql<number>`(case when phone_inout_type between 0 and 2 then phone_inout_type
  when (phone_inout_type & ${intl}) <> 0 and (phone_inout_type & ${domestic}) <> 0 then ${sql.lit(PhoneInoutType.Both)}
  when (phone_inout_type & ${intl}) <> 0 then ${sql.lit(PhoneInoutType.International)}
  else ${sql.lit(PhoneInoutType.Domestic)} end)`;

/** accounts that no longer count as usable (cancelled) */
const HIDDEN_STATUSES: AccountStatus[] = [AccountStatus.Closed];

export class ClientsService {
  constructor(private readonly ctx: AppContext) {}

  /** The sub-accounts of an agent (a sub-account: itself), oldest first. */
  async subAccounts(me: Account, opts: { phoneInoutType?: number } = {}): Promise<ScopedAccount[]> {
    if (me.user_type !== UserType.Agent) return [{ id: me.id, clientid: me.clientid, name: me.name }];
    let q = this.ctx.db
      .selectFrom('accounts')
      .select(['id', 'clientid', 'name'])
      .where('agent_id', '=', me.id)
      .where('user_type', '=', UserType.SubAccount)
      .where('status', 'not in', HIDDEN_STATUSES)
      .orderBy('id');
    // 0 domestic, 1 international: accounts allowed that range (2 = both; a raw mask read as its value)
    if (opts.phoneInoutType === PhoneInoutType.Domestic || opts.phoneInoutType === PhoneInoutType.International)
      q = q.where(phoneInoutTypeSql, 'in', [opts.phoneInoutType, PhoneInoutType.Both]);
    return q.execute();
  }

  /** Every account whose data the session may read: an agent and its sub-accounts, or the sub-account itself. */
  async scope(me: Account): Promise<ScopedAccount[]> {
    if (me.user_type !== UserType.Agent) return [{ id: me.id, clientid: me.clientid, name: me.name }];
    const rows = await this.ctx.db
      .selectFrom('accounts')
      .select(['id', 'clientid', 'name'])
      .where((eb) => eb.or([eb('id', '=', me.id), eb('agent_id', '=', me.id)]))
      .orderBy('id')
      .execute();
    return rows;
  }

  /** A sub-account of this agent by clientid (undefined when it is not one of its own). */
  async ownSubAccount(me: Account, clientid: string): Promise<ScopedAccount | undefined> {
    if (me.user_type !== UserType.Agent) return undefined;
    return this.ctx.db
      .selectFrom('accounts')
      .select(['id', 'clientid', 'name'])
      .where('clientid', '=', clientid)
      .where('agent_id', '=', me.id)
      .where('user_type', '=', UserType.SubAccount)
      .where('status', 'not in', HIDDEN_STATUSES)
      .executeTakeFirst();
  }
}

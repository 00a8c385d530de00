/**
 * Which accounts a session reaches, and the sub-account picker (POST /send/getclients).
 * An agent reaches its sub-accounts (and, for its own data, itself); a sub-account only itself.
 */
import type { AppContext } from '../../context';
import type { Account } from '../../db/types';
import { AccountStatus, PhoneInoutType, UserType } from '../../../common/generated/schemas';

export interface ClientOption {
  clientid: string;
  name: string;
}

export interface ScopedAccount {
  id: number;
  clientid: string;
  name: string;
}

/** accounts that no longer count as usable (cancelled) */
const HIDDEN_STATUSES: number[] = [AccountStatus.Closed];

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
    // 0 domestic, 1 international: accounts allowed that range (2 = both)
    if (opts.phoneInoutType === PhoneInoutType.Domestic || opts.phoneInoutType === PhoneInoutType.International)
      q = q.where('phone_inout_type', 'in', [opts.phoneInoutType, PhoneInoutType.Both]);
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

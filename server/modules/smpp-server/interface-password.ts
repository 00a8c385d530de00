/**
 * Resetting the interface password of an account (the password's rules: server/lib/interface-password.ts;
 * docs/api-smpp.md "Interface password").
 */
import { randomInt } from 'node:crypto';
import { deriveApiSecret, DEMO_INTERFACE_PASSWORD } from '../openapi';
import type { AppContext } from '../../context';
import type { Account } from '../../db/types';
import { errors } from '../../http/errors';
import { hashInterfacePassword, interfacePasswordMatches, newInterfacePassword } from '../../lib/interface-password';
import { sealInterfaceSecret } from '../../lib/interface-secret';
import { TEST_MSG, type ClientsService } from '../clients';
import { UserType } from '../../../common/generated/schemas';

export class InterfacePasswordService {
  constructor(
    private readonly ctx: AppContext,
    private readonly clients: ClientsService,
    /** the key sealing the password for CMPP (lib/interface-secret.ts) */
    private readonly secretKey: Buffer,
  ) {}

  /**
   * A new interface password for the caller's own account or (an agent) one of its sub-accounts;
   * the answer carries it once. Sessions bound with the old one keep running until they unbind.
   */
  async reset(
    me: Account,
    clientId: string | undefined,
  ): Promise<{ clientid: string; password: string; login: string }> {
    let target: { id: number; clientid: string } = me;
    // a test account has no interface access until converted (docs/api-subaccounts.md "Test accounts"): neither its own reset nor its agent's
    if (me.test_expires_at) throw errors.refused(TEST_MSG.noInterface);
    if (clientId && clientId !== me.clientid) {
      if (me.user_type !== UserType.Agent) throw errors.forbidden();
      const sub = await this.clients.ownSubAccount(me, clientId);
      if (!sub) throw errors.forbidden();
      const t = await this.ctx.db
        .selectFrom('accounts')
        .select('test_expires_at')
        .where('id', '=', sub.id)
        .executeTakeFirst();
      if (t?.test_expires_at) throw errors.refused(TEST_MSG.noInterface);
      target = sub;
    }
    const password = newInterfacePassword();
    const hash = await hashInterfacePassword(password);
    // the HTTP API's secret is derived from the same password (docs/api-openapi.md), and CMPP's
    // shared secret is the password itself, sealed (docs/api-cmpp.md "Connect"): all change together
    await this.ctx.db
      .updateTable('accounts')
      .set({
        interface_password_hash: hash,
        api_secret: deriveApiSecret(target.clientid, password),
        interface_secret: sealInterfaceSecret(this.secretKey, target.id, password),
        update_time: this.ctx.now(),
      })
      .where('id', '=', target.id)
      .execute();
    return { clientid: target.clientid, password, login: await this.loginOf(target.id, target.clientid) };
  }

  /**
   * The account's CMPP login (Source_Addr, 6 octets at most): its clientid when it fits, else its
   * interface_login, given here when it has none: `c` + 5 random lower-case letters and digits,
   * unique and no account's clientid.
   */
  private async loginOf(accountId: number, clientid: string): Promise<string> {
    const row = await this.ctx.db
      .selectFrom('accounts')
      .select('interface_login')
      .where('id', '=', accountId)
      .executeTakeFirstOrThrow();
    if (row.interface_login) return row.interface_login;
    if (Buffer.byteLength(clientid) <= 6) return clientid;
    const abc = 'abcdefghijklmnopqrstuvwxyz0123456789';
    for (let i = 0; i < 20; i++) {
      const login = `c${Array.from({ length: 5 }, () => abc[randomInt(abc.length)]).join('')}`;
      const taken = await this.ctx.db
        .selectFrom('accounts')
        .select('id')
        .where('clientid', '=', login)
        .executeTakeFirst();
      if (taken) continue;
      const r = await this.ctx.db
        .updateTable('accounts')
        .set({ interface_login: login })
        .where('id', '=', accountId)
        .where('interface_login', 'is', null)
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('accounts as o').select('o.id').where('o.interface_login', '=', login))),
        )
        .executeTakeFirst()
        .catch(() => null);
      if (r && Number(r.numUpdatedRows) === 1) return login;
      const again = await this.ctx.db
        .selectFrom('accounts')
        .select('interface_login')
        .where('id', '=', accountId)
        .executeTakeFirstOrThrow();
      if (again.interface_login) return again.interface_login;
    }
    throw new Error('no free interface login');
  }
}

/**
 * The demo account's CMPP secret (client1, interface password Demo2468: README's demo accounts): the
 * seed cannot seal it (the key is the server's), so a server with the CMPP door on seals it at
 * start while it has none and its password is still the demo one (one hash check, then never).
 */
export async function sealDemoSecret(ctx: AppContext, key: Buffer): Promise<void> {
  const a = await ctx.db
    .selectFrom('accounts')
    .select(['id', 'interface_password_hash'])
    .where('clientid', '=', 'client1')
    .where('interface_secret', '=', '')
    .where('interface_password_hash', '<>', '')
    .executeTakeFirst();
  if (!a || !(await interfacePasswordMatches(a.interface_password_hash, DEMO_INTERFACE_PASSWORD))) return;
  await ctx.db
    .updateTable('accounts')
    .set({ interface_secret: sealInterfaceSecret(key, a.id, DEMO_INTERFACE_PASSWORD) })
    .where('id', '=', a.id)
    .where('interface_secret', '=', '')
    .execute();
}

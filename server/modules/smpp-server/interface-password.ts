/**
 * Resetting the interface password of an account (the password's rules: server/lib/interface-password.ts;
 * docs/api-smpp.md "Interface password").
 */
import { deriveApiSecret } from '../openapi';
import type { AppContext } from '../../context';
import type { Account } from '../../db/types';
import { errors } from '../../http/errors';
import { hashInterfacePassword, newInterfacePassword } from '../../lib/interface-password';
import { TEST_MSG, type ClientsService } from '../clients';
import { UserType } from '../../../common/generated/schemas';

export class InterfacePasswordService {
  constructor(
    private readonly ctx: AppContext,
    private readonly clients: ClientsService,
  ) {}

  /**
   * A new interface password for the caller's own account or (an agent) one of its sub-accounts;
   * the answer carries it once. Sessions bound with the old one keep running until they unbind.
   */
  async reset(me: Account, clientId: string | undefined): Promise<{ clientid: string; password: string }> {
    let target: { id: number; clientid: string } = me;
    // a test account has no interface access until converted (docs/api-subaccounts.md "Test accounts"): neither its own reset nor its agent's
    if (me.test_expires_at) throw errors.refused(TEST_MSG.noInterface);
    if (clientId && clientId !== me.clientid) {
      if (me.user_type !== UserType.Agent) throw errors.forbidden();
      const sub = await this.clients.ownSubAccount(me, clientId);
      if (!sub) throw errors.forbidden();
      const t = await this.ctx.db.selectFrom('accounts').select('test_expires_at').where('id', '=', sub.id).executeTakeFirst();
      if (t?.test_expires_at) throw errors.refused(TEST_MSG.noInterface);
      target = sub;
    }
    const password = newInterfacePassword();
    const hash = await hashInterfacePassword(password);
    // the HTTP API's secret is derived from the same password (docs/api-openapi.md): both change together
    await this.ctx.db
      .updateTable('accounts')
      .set({ interface_password_hash: hash, api_secret: deriveApiSecret(target.clientid, password), update_time: this.ctx.now() })
      .where('id', '=', target.id)
      .execute();
    return { clientid: target.clientid, password };
  }
}

/**
 * 客户 (issue 39, docs/api-operator.md "Customers"): the agents and accounts as the platform's staff
 * see them (search, state, balance, certification, a login lock), and what they do to them:
 * freeze / unfreeze (a freeze ends every login), unlock a login lockout (the CLI's `unlock`),
 * reset a password (a new one mailed to the account's e-mail, every login ended: the CLI's
 * `reset-password`), an agent's credit adjustment through the ledger with a mandatory remark (the
 * CLI's `agent-credit`), and a log-in-as token of any active account (the accounts' own
 * log-in-as: POST /client/loginAs/enter redeems it) with the operator's reason. Each writes its
 * audit row in its own transaction.
 */
import { pageOf } from '../../db/page';
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import { ApiError, errors } from '../../http/errors';
import { listPage, pagingOf } from '../../http/paging';
import type { CurrentPaging } from '../../http/contract';
import { whereFrom } from '../../db/filters';
import { formatDateTime } from '../../lib/time';
import { hashPassword } from '../../lib/crypto';
import { endLogins, type SessionService } from '../../http/session';
import {
  AccountStatus,
  BillPaymentType,
  UserType,
  type OperatorCustomer,
  type OperatorCustomerFilter,
} from '../../../common/generated/schemas';
import { liftLoginLocks } from '../auth';
import { effectiveStatus } from '../profile';
import { LedgerService } from '../ledger';
import { storePassword } from '../password';
import { issueLoginAs, refuseLoginAs, strongPassword } from '../subaccount';
import { Money } from '../../lib/money';
import { MESSAGES } from '../../../common/schema/messages';
import { audit, type Actor } from './audit';

export const CUSTOMER_MESSAGES = {
  frozen: MESSAGES.frozen,
  unfrozen: MESSAGES.unfrozen,
  unlocked: '已解除登录锁定',
  passwordMailed: (email: string) => `新密码已发送至 ${email}`,
  noEmail: '该账户没有邮箱，无法发送新密码',
  notAgent: '只能为代理商调整额度',
  credited: (balance: string) => `已记账，当前余额 ${balance} 元`,
  notFreezable: '只有正常状态的账户可以冻结',
  notFrozen: '只有冻结状态的账户可以解冻',
} as const;

/** the SQL of a login name's lockout key (auth's loginNameHash: sha256 of the trimmed, lower-case name) */
const nameKey = (col: string) => sql`encode(sha256(convert_to(lower(trim(${sql.ref(col)})), 'UTF8')), 'hex')`;

export class CustomerService {
  constructor(
    private readonly ctx: AppContext,
    /** the accounts' sessions: a freeze or a new password drops what this process cached of them */
    private readonly sessions: Pick<SessionService, 'forgetAccount'>,
  ) {}

  async list(f: OperatorCustomerFilter & CurrentPaging) {
    const paging = pagingOf(f);
    const now = this.ctx.now();
    const base = whereFrom(
      this.ctx.db.selectFrom('accounts as a').leftJoin('accounts as p', 'p.id', 'a.agent_id'),
      this.ctx,
      'filters/operator-customer',
      f,
    );
    const { rows, total } = await pageOf(
      base,
      (q) =>
        q
          .select([
            'a.id',
            'a.clientid',
            'a.user_type',
            'p.clientid as agent',
            'a.name',
            'a.mobile',
            'a.email',
            'a.operation_mode',
            'a.balance',
            'a.status',
            'a.locked_until',
            'a.oauth_status',
            'a.create_time',
          ])
          .select(
            sql<boolean>`exists (select 1 from login_failures f where f.locked_until > ${now}
              and f.name_hash in (${nameKey('a.clientid')}, ${nameKey('a.mobile')}, ${nameKey('a.email')}))`.as(
              'locked',
            ),
          )
          .orderBy('a.id', 'desc'),
      paging,
    );
    const list: OperatorCustomer[] = rows.map((r) => ({
      clientid: r.clientid,
      userType: r.user_type,
      agent: r.agent ?? '',
      name: r.name,
      mobile: r.mobile,
      email: r.email,
      operationMode: r.operation_mode,
      balance: new Money(r.balance).toFixed(2),
      status: effectiveStatus(r, now),
      oauthStatus: r.oauth_status,
      locked: !!r.locked || r.status === AccountStatus.Locked,
      createTime: formatDateTime(r.create_time),
    }));
    return listPage(list, total, paging);
  }

  private async account(clientid: string) {
    const a = await this.ctx.db.selectFrom('accounts').selectAll().where('clientid', '=', clientid).executeTakeFirst();
    if (!a) throw errors.notFound('账户');
    return a;
  }

  /** Freezes (every login of the account ends) or unfreezes an account. */
  async setFrozen(who: Actor, clientid: string, freeze: boolean, remark = ''): Promise<string> {
    const a = await this.account(clientid);
    const from = freeze ? AccountStatus.Active : AccountStatus.Frozen;
    const to = freeze ? AccountStatus.Frozen : AccountStatus.Active;
    const now = this.ctx.now();
    await this.ctx.db.transaction().execute(async (trx) => {
      const r = await trx
        .updateTable('accounts')
        .set({ status: to, update_time: now })
        .where('id', '=', a.id)
        .where('status', '=', from)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0)
        throw errors.refused(freeze ? CUSTOMER_MESSAGES.notFreezable : CUSTOMER_MESSAGES.notFrozen);
      if (freeze) await endLogins(trx, a.id, now);
      await audit(trx, who, {
        action: freeze ? 'account.freeze' : 'account.unfreeze',
        target: 'accounts',
        targetId: a.id,
        accountId: a.id,
        before: { status: a.status },
        after: { status: to },
        remark,
        at: now,
      });
    });
    if (freeze) this.sessions.forgetAccount(a.id);
    return freeze ? CUSTOMER_MESSAGES.frozen : CUSTOMER_MESSAGES.unfrozen;
  }

  /** Lifts the login locks of every login name of the account, on every address (the CLI's `unlock`). */
  async unlock(who: Actor, clientid: string, remark = ''): Promise<string> {
    const a = await this.account(clientid);
    const now = this.ctx.now();
    await this.ctx.db.transaction().execute(async (trx) => {
      const r = await liftLoginLocks(trx, a);
      await audit(trx, who, {
        action: 'account.unlock',
        target: 'accounts',
        targetId: a.id,
        accountId: a.id,
        before: { status: a.status, lockedNames: r.lockedNames },
        after: { status: r.status },
        remark,
        at: now,
      });
    });
    return CUSTOMER_MESSAGES.unlocked;
  }

  /** A new password (the spec's rule), mailed to the account's e-mail; every login of the account ends. */
  async resetPassword(who: Actor, clientid: string, remark = ''): Promise<string> {
    const a = await this.account(clientid);
    if (!a.email) throw new ApiError(400, CUSTOMER_MESSAGES.noEmail);
    const password = strongPassword();
    const hash = await hashPassword(password);
    const now = this.ctx.now();
    await this.ctx.db.transaction().execute(async (trx) => {
      await storePassword(trx, { id: a.id }, hash, now);
      await endLogins(trx, a.id, now);
      // the password itself is never written to the log
      await audit(trx, who, {
        action: 'account.reset-password',
        target: 'accounts',
        targetId: a.id,
        accountId: a.id,
        after: { mailedTo: a.email },
        remark,
        at: now,
      });
    });
    this.sessions.forgetAccount(a.id);
    await this.ctx.mailer.send({
      to: a.email,
      subject: '密码已重置',
      text: `您的账户 ${a.clientid} 的登录密码已由平台重置为：${password}\n请登录后立即修改密码。`,
    });
    return CUSTOMER_MESSAGES.passwordMailed(a.email);
  }

  /**
   * A one-time token (60 s) opening a session of the account (an agent or a sub-account, active:
   * 账户已冻结，请先解冻 for a frozen one) in the operator's browser, through the accounts' own
   * log-in-as (POST /client/loginAs/enter). The token is written with its audit row
   * (`account.login-as`, the reason as its remark; never the token) in one transaction.
   */
  async loginAs(who: Actor, clientid: string, remark: string): Promise<{ token: string; clientid: string }> {
    const a = await this.account(clientid);
    refuseLoginAs(a);
    const now = this.ctx.now();
    const token = await this.ctx.db.transaction().execute(async (trx) => {
      const t = await issueLoginAs(trx, a.id, { operatorId: who.id }, now);
      await audit(trx, who, {
        action: 'account.login-as',
        target: 'accounts',
        targetId: a.id,
        accountId: a.id,
        remark,
        at: now,
      });
      return t;
    });
    return { token, clientid: a.clientid };
  }

  /** An agent's credit raised or cut through the ledger (提升额度 / 降低额度), with the operator's remark. */
  async credit(who: Actor, f: { clientid: string; amount: string; remark: string }): Promise<string> {
    const a = await this.account(f.clientid);
    if (a.user_type !== UserType.Agent) throw new ApiError(400, CUSTOMER_MESSAGES.notAgent);
    const amount = new Money(f.amount);
    if (amount.isZero()) throw new ApiError(400, '金额不能为0');
    const now = this.ctx.now();
    const ledger = new LedgerService(this.ctx);
    const balance = await this.ctx.db.transaction().execute(async (trx) => {
      const kind = amount.lt(0) ? BillPaymentType.CreditDecrease : BillPaymentType.CreditIncrease;
      const r = await ledger.applyIn(trx, [{ accountId: a.id, amount: f.amount, kind, remark: f.remark }]);
      if (!r.ok) throw errors.refused(`余额不足，当前余额 ${r.balance} 元`);
      const after = r.balances.get(a.id)!;
      await audit(trx, who, {
        action: 'account.credit',
        target: 'ledger',
        targetId: r.ledgerIds[0],
        accountId: a.id,
        before: { balance: new Money(after).minus(amount).toFixed(2) },
        after: { balance: after, amount: f.amount },
        remark: f.remark,
        at: now,
      });
      return after;
    });
    return CUSTOMER_MESSAGES.credited(balance);
  }
}

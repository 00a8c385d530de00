/**
 * Test accounts (issue 26 item 3; docs/api-subaccounts.md "Test accounts"). An agent that may
 * (`canCreateTestAccount`: product-package mode, certified, active) creates a sub-account to try
 * the platform:
 *
 * - a gift pool of TEST_ACCOUNT_GIFT pieces (行业, every carrier, price 0) from the platform: a pool
 *   row with `gift` 1 and its movement (赠送), within the platform's daily budget TEST_GIFT_DAILY,
 *   counted in `test_accounts` (the operator reads it: `npm run cli -- test-accounts`);
 * - it sends only to its agent's own registered mobile (verified by code at registration), on the
 *   ordinary send page and the interfaces; the variable and international pages refuse it;
 * - it expires after TEST_ACCOUNT_DAYS: it then sends nothing and is frozen (a timer of every
 *   process), its gift pool has the same end;
 * - it cannot be recharged or buy until its agent converts it (the gift's remaining pieces are
 *   taken back then);
 * - one agent creates at most TEST_ACCOUNTS_PER_AGENT in 30 days, counted under a lock of the
 *   agent's row so concurrent requests cannot pass the bound.
 */
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import type { Account } from '../../db/types';
import { errors } from '../../http/errors';
import { addMs, formatDateTime, startOfBusinessDay } from '../../lib/time';
import {
  AccountStatus,
  AgentOwned,
  BillPaymentType,
  Carrier,
  NeedMo,
  NeedReport,
  ProductType,
} from '../../../common/generated/schemas';
import type { SubAccountService } from './service';
import { mayCreateTestAccount, TEST_MSG, TEST_WINDOW_DAYS } from '../clients';

const DAY_MS = 24 * 3600_000;

export class TestAccountService {
  constructor(
    private readonly ctx: AppContext,
    private readonly subaccounts: SubAccountService,
  ) {}

  private async recentCount(db: AppContext['db'], agentId: number): Promise<number> {
    const since = addMs(this.ctx.now(), -TEST_WINDOW_DAYS * DAY_MS);
    const r = await db
      .selectFrom('test_accounts')
      .select(sql<string>`count(*)::text`.as('n'))
      .where('agent_id', '=', agentId)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** gift pieces granted this business day, all agents together */
  async giftedToday(db: AppContext['db'] = this.ctx.db): Promise<number> {
    const r = await db
      .selectFrom('test_accounts')
      .select(sql<string>`coalesce(sum(gift_pieces), 0)::text`.as('n'))
      .where('created_at', '>=', startOfBusinessDay(this.ctx.now()))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** POST /client/account/test/add */
  async create(agent: Account, f: { name: string; remarks?: string }) {
    const cfg = this.ctx.config;
    if (!mayCreateTestAccount(agent)) throw errors.refused(TEST_MSG.notAllowed);
    if (!agent.mobile) throw errors.refused(TEST_MSG.noMobile);
    if ((await this.recentCount(this.ctx.db, agent.id)) >= cfg.testAccountsPerAgent)
      throw errors.refused(TEST_MSG.tooMany(cfg.testAccountsPerAgent));
    if ((await this.giftedToday()) + cfg.testAccountGift > cfg.testGiftDaily) throw errors.refused(TEST_MSG.budget);
    const opened = await this.subaccounts.open(agent, {
      name: f.name,
      remarks: f.remarks ?? '',
      agentOwned: AgentOwned.AgentOwned,
      needreport: NeedReport.None,
      needmo: NeedMo.None,
    });
    const now = this.ctx.now();
    const expires = addMs(now, cfg.testAccountDays * DAY_MS);
    try {
      await this.ctx.db.transaction().execute(async (trx) => {
        // the bound and the budget again, under the agent's row lock: concurrent creations queue here
        await trx.selectFrom('accounts').select('id').where('id', '=', agent.id).forUpdate().execute();
        if ((await this.recentCount(trx, agent.id)) >= cfg.testAccountsPerAgent)
          throw errors.refused(TEST_MSG.tooMany(cfg.testAccountsPerAgent));
        if ((await this.giftedToday(trx)) + cfg.testAccountGift > cfg.testGiftDaily)
          throw errors.refused(TEST_MSG.budget);
        const acc = await trx
          .updateTable('accounts')
          // no interface access until converted: the interface password and API secret are empty
          .set({
            test_expires_at: expires,
            interface_password_hash: '',
            api_secret: '',
            remarks: f.remarks || '测试账户',
          })
          .where('clientid', '=', opened.clientid)
          .returning('id')
          .executeTakeFirstOrThrow();
        let poolId: number | null = null;
        if (cfg.testAccountGift > 0) {
          const pool = await trx
            .insertInto('product_pools')
            .values({
              account_id: acc.id,
              product_type: ProductType.Industry,
              operator_code: Carrier.All,
              area_name: '全国',
              product_name: '测试账户赠送',
              unit_price: '0',
              total: cfg.testAccountGift,
              remaining: cfg.testAccountGift,
              due_time: expires,
              gift: 1,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          poolId = pool.id;
          await trx
            .insertInto('pool_movements')
            .values({
              pool_id: pool.id,
              pieces: cfg.testAccountGift,
              remaining_after: cfg.testAccountGift,
              kind: BillPaymentType.Gift,
              remark: '测试账户赠送（平台）',
            })
            .execute();
        }
        await trx
          .insertInto('test_accounts')
          .values({
            account_id: acc.id,
            agent_id: agent.id,
            gift_pool_id: poolId,
            gift_pieces: cfg.testAccountGift,
            created_at: now,
            expires_at: expires,
          })
          .execute();
      });
    } catch (err) {
      // refused after the account was opened (a concurrent creation took the last place): it goes again
      await this.ctx.db.deleteFrom('accounts').where('clientid', '=', opened.clientid).execute();
      throw err;
    }
    return { ...opened, expireTime: formatDateTime(expires), giftPieces: cfg.testAccountGift };
  }

  /** POST /client/account/test/convert: an ordinary account from now on; the gift's remaining pieces go back to the platform. */
  async convert(agent: Account, clientId: string | undefined) {
    const a = await this.subaccounts.owned(agent, clientId);
    if (!a.test_expires_at) throw errors.refused(TEST_MSG.notTest);
    await this.ctx.db.transaction().execute(async (trx) => {
      const t = await trx
        .selectFrom('test_accounts')
        .selectAll()
        .where('account_id', '=', a.id)
        .forUpdate()
        .executeTakeFirst();
      if (t?.gift_pool_id) {
        const pool = await trx
          .selectFrom('product_pools')
          .select(['id', 'remaining'])
          .where('id', '=', t.gift_pool_id)
          .forUpdate()
          .executeTakeFirst();
        if (pool && pool.remaining > 0) {
          await trx.updateTable('product_pools').set({ remaining: 0 }).where('id', '=', pool.id).execute();
          await trx
            .insertInto('pool_movements')
            .values({
              pool_id: pool.id,
              pieces: -pool.remaining,
              remaining_after: 0,
              kind: BillPaymentType.Gift,
              remark: '测试赠送收回（转为正式账户）',
            })
            .execute();
        }
      }
      await trx
        .updateTable('test_accounts')
        .set({ converted_at: this.ctx.now() })
        .where('account_id', '=', a.id)
        .execute();
      await trx
        .updateTable('accounts')
        .set({ test_expires_at: null, update_time: this.ctx.now() })
        .where('id', '=', a.id)
        .execute();
    });
    return { clientid: a.clientid };
  }

  /** Freezes the test accounts past their end (every process, repeatable); their sessions end. */
  async freezeExpired(): Promise<number> {
    const now = this.ctx.now();
    return this.ctx.db.transaction().execute(async (trx) => {
      const rows = await trx
        .updateTable('accounts')
        .set({ status: AccountStatus.Frozen, update_time: now })
        .where('test_expires_at', 'is not', null)
        .where('test_expires_at', '<=', now)
        .where('status', '=', AccountStatus.Active)
        .returning('id')
        .execute();
      const ids = rows.map((r) => r.id);
      if (ids.length) await trx.deleteFrom('sessions').where('account_id', 'in', ids).execute();
      return ids.length;
    });
  }

  /** The operator's view (CLI test-accounts). */
  stats() {
    return testAccountStatsOf(this.ctx.db, this.ctx.now(), this.ctx.config.testGiftDaily);
  }
}

/** The operator's view (`npm run cli -- test-accounts`): today's gift pieces against the budget, and the latest test accounts. */
export async function testAccountStatsOf(db: AppContext['db'], now: Date, dailyBudget: number) {
  const today = await db
    .selectFrom('test_accounts')
    .select(sql<string>`coalesce(sum(gift_pieces), 0)::text`.as('n'))
    .where('created_at', '>=', startOfBusinessDay(now))
    .executeTakeFirstOrThrow();
  const accounts = await db
    .selectFrom('test_accounts as t')
    .innerJoin('accounts as a', 'a.id', 't.account_id')
    .innerJoin('accounts as g', 'g.id', 't.agent_id')
    .select([
      'a.clientid',
      'g.clientid as agent',
      't.gift_pieces',
      't.created_at',
      't.expires_at',
      't.converted_at',
      'a.status',
    ])
    .orderBy('t.created_at', 'desc')
    .limit(100)
    .execute();
  return { giftedToday: Number(today.n), dailyBudget, accounts };
}

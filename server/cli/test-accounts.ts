/** Test accounts for the operator: the day's gift pieces against the platform's budget (TEST_GIFT_DAILY), and the latest test accounts. */
import { testAccountStatsOf } from '../modules/subaccount/test-accounts';
import { formatDateTime } from '../lib/time';
import { defineCommands, table } from './registry';

export const testAccountCommands = defineCommands({
  name: 'test-accounts',
  usage: 'test-accounts',
  description: '测试账户：今日平台赠送条数 / 系统预算（TEST_GIFT_DAILY），最近的测试账户',
  async run({ db, out, now, config }) {
    const budget = config.testGiftDaily;
    const s = await testAccountStatsOf(db, now(), budget);
    out(
      [
        `今日赠送 ${s.giftedToday} 条 / 预算 ${s.dailyBudget} 条`,
        ...table([
          ['账户', '代理商', '赠送条数', '创建', '到期', '转正', '状态'],
          ...s.accounts.map((a) => [
            a.clientid,
            a.agent,
            String(a.gift_pieces),
            formatDateTime(a.created_at),
            formatDateTime(a.expires_at),
            a.converted_at ? formatDateTime(a.converted_at) : '-',
            String(a.status),
          ]),
        ]),
      ].join('\n'),
    );
  },
});

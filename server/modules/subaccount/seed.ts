/**
 * Demo money and sub-accounts: agent credit lines and sub-accounts with balances, every balance
 * written through the ledger (sum(ledger) == balance from the first start). Idempotent: runs its
 * money part only when the agents have no ledger rows yet.
 */
import type { Db } from '../../db';
import { hashPassword } from '../../lib/crypto';
import { LedgerService } from '../ledger';
import { BillPaymentType } from '../../../common/generated/schemas';

const DEMO_PASSWORD = 'Demo1234';

const SUB_ACCOUNTS = [
  {
    clientid: 'client2',
    agent: 'agent1',
    name: '南京甜心烘焙坊',
    realname: '周丽',
    email: 'client2@demo.smsp.local',
    mobile: '13900139002',
    status: 5,
    oauth_status: 3,
    remarks: '欠费冻结',
    paytype: 0,
    smstype: 0,
    agent_owned: 1,
  },
  {
    clientid: 'client3',
    agent: 'agent1',
    name: '宁波港航物流有限公司',
    realname: '吴强',
    email: 'client3@demo.smsp.local',
    mobile: '13900139003',
    status: 1,
    oauth_status: 2,
    remarks: '月结客户',
    paytype: 1,
    smstype: 4,
    agent_owned: 0,
    id_type: 5,
    id_nbr: '91330206MA2C8QWER3',
  },
  {
    clientid: 'client0',
    agent: 'agent0',
    name: '温州瓯越鞋业有限公司',
    realname: '郑敏',
    email: 'client0@demo.smsp.local',
    mobile: '13900139000',
    status: 1,
    oauth_status: 3,
    remarks: '',
    paytype: 3,
    smstype: 5,
    agent_owned: 1,
  },
];

export async function seedSubaccounts(db: Db): Promise<void> {
  const ids = new Map(
    (await db.selectFrom('accounts').select(['id', 'clientid']).execute()).map((r) => [r.clientid, r.id]),
  );
  const missing = SUB_ACCOUNTS.filter((a) => !ids.has(a.clientid) && ids.has(a.agent));
  if (missing.length) {
    const hash = await hashPassword(DEMO_PASSWORD);
    for (const { agent, ...a } of missing) {
      const r = await db
        .insertInto('accounts')
        .values({
          ...a,
          user_type: '2',
          agent_id: ids.get(agent)!,
          operation_mode: agent === 'agent0' ? '0' : '1',
          password_hash: hash,
          client_type: 2,
          province: '浙江省',
        })
        .onConflict((oc) => oc.doNothing())
        .returning(['id', 'clientid'])
        .executeTakeFirst();
      if (r) ids.set(r.clientid, r.id);
    }
  }
  const agent1 = ids.get('agent1');
  const agent0 = ids.get('agent0');
  if (!agent1 || !agent0) return;
  const any = await db
    .selectFrom('ledger')
    .select('id')
    .where('account_id', 'in', [agent1, agent0])
    .limit(1)
    .executeTakeFirst();
  if (any) return;
  const ledger = new LedgerService({ db, now: () => new Date() });
  await ledger.credit(agent1, '50000.00', { kind: BillPaymentType.Recharge, remark: '对公转账充值' });
  await ledger.credit(agent0, '20000.00', { kind: BillPaymentType.Recharge, remark: '对公转账充值' });
  const agents = await db.selectFrom('accounts').selectAll().where('id', 'in', [agent1, agent0]).execute();
  const a1 = agents.find((a) => a.id === agent1)!;
  const a0 = agents.find((a) => a.id === agent0)!;
  if (ids.has('client1'))
    await ledger.transfer('recharge', a1, { clientId: 'client1', amount: '1200.00', remark: '首次充值' });
  if (ids.has('client2'))
    await ledger.transfer('recharge', a1, { clientId: 'client2', amount: '300.50', remark: '首次充值' });
  if (ids.has('client0'))
    await ledger.transfer('recharge', a0, { clientId: 'client0', amount: '800.00', remark: '首次充值' });
  await db
    .updateTable('accounts')
    .set({ price_type: 1, mobile_price: '0.0400', unicom_price: '0.0420', telecom_price: '0.0450' })
    .where('clientid', '=', 'client1')
    .execute();
}

/** Ledger commands: show an account's ledger with the invariant check; operator top-up of an agent. */
import { formatDateTime } from '../lib/time';
import { LedgerService } from '../modules/ledger';
import { CommandError, defineCommands, enumLabel, table, UsageError } from './registry';
import type { ServerSchemas } from '../schemas';
import { BillPaymentType, UserType } from '../../common/generated/schemas';

/** a ledger kind is a bill payment type, or a server-only kind (enums/ledger-kind.json) */
const kindLabel = (schemas: ServerSchemas, kind: number) =>
  schemas.registry.enumLabel('bill-payment-type', kind) ?? enumLabel(schemas, 'ledger-kind', kind);

export const ledgerCommands = defineCommands(
  {
    name: 'ledger',
    usage: 'ledger <clientid> [limit]',
    description: '账户流水、余额及校验（流水合计 = 余额）',
    async run({ db, out, now, schemas }, [clientid, limit]) {
      if (!clientid) throw new UsageError('缺少账户');
      const acc = await db
        .selectFrom('accounts')
        .select(['id', 'clientid', 'name'])
        .where('clientid', '=', clientid)
        .executeTakeFirst();
      if (!acc) throw new CommandError(`账户 ${clientid} 不存在`);
      const ledger = new LedgerService({ db, now });
      const rows = await ledger.entries(acc.id, Math.max(1, Math.min(Number(limit) || 50, 10_000)));
      out(
        table([
          ['编号', '时间', '类型', '金额', '余额', '对方账户', '操作人', '请求编号', '备注'],
          ...rows.map((r) => [
            String(r.id),
            formatDateTime(r.created_at),
            kindLabel(schemas, r.kind),
            r.amount,
            r.balance_after,
            r.counterpart ?? '-',
            r.operator ?? '-',
            r.request_id ?? '-',
            r.remark,
          ]),
        ]).join('\n'),
      );
      const c = await ledger.check(acc.id);
      out(
        `${acc.clientid} ${acc.name}  余额 ${c.balance} 元  流水合计 ${c.ledgerSum} 元  校验：${c.ok ? '一致' : '不一致！'}`,
      );
      if (!c.ok) throw new CommandError('余额与流水合计不一致');
    },
  },
  {
    name: 'agent-credit',
    usage: 'agent-credit <clientid> <amount> [remark]',
    description: '为代理商充值（金额可为负数表示扣减，最多两位小数），记入流水',
    async run({ db, out, now }, [clientid, amount, ...remark]) {
      if (!clientid || !amount) throw new UsageError('缺少账户或金额');
      const acc = await db
        .selectFrom('accounts')
        .select(['id', 'user_type'])
        .where('clientid', '=', clientid)
        .executeTakeFirst();
      if (!acc) throw new CommandError(`账户 ${clientid} 不存在`);
      if (acc.user_type !== UserType.Agent) throw new CommandError(`${clientid} 不是代理商`);
      try {
        // a credit raise (提升额度, kind 9) or cut (降低额度, kind 10): the credit history lists these
        const kind = amount.trim().startsWith('-') ? BillPaymentType.CreditDecrease : BillPaymentType.CreditIncrease;
        const r = await new LedgerService({ db, now }).credit(acc.id, amount.trim(), {
          kind,
          remark: remark.join(' ') || '运营充值',
        });
        out(`已为 ${clientid} 记账 ${amount} 元，当前余额 ${r.balance} 元（流水 #${r.ledgerId}）`);
      } catch (e) {
        throw new CommandError((e as Error).message);
      }
    },
  },
);
